import Foundation
import LiveryModel

/// One JSON-RPC message cut out of LSP's base protocol: `Content-Length: N\r\n\r\n` then N bytes.
/// Reads from a file descriptor (stdin) on the caller's thread; header fields other than
/// `Content-Length` (`Content-Type`) are accepted and ignored.
final class MessageReader: @unchecked Sendable {  // used by the reading thread only
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var start = 0
    /// The largest message body accepted; a larger announced length ends the stream.
    let maxBodyBytes: Int

    init(handle: FileHandle, maxBodyBytes: Int = 256 << 20) {
        self.handle = handle
        self.maxBodyBytes = maxBodyBytes
    }

    enum Failure: Error { case endOfStream, badHeader(String) }

    /// The next message body; `endOfStream` when the client closed its end.
    func next() throws(Failure) -> [UInt8] {
        var length: Int?
        while true {
            let line = try readHeaderLine()
            if line.isEmpty { break }
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { throw .badHeader(line) }
            if parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "content-length" {
                guard let value = Int(parts[1].trimmingCharacters(in: .whitespaces)), value >= 0,
                    value <= maxBodyBytes
                else { throw .badHeader(line) }
                length = value
            }
        }
        guard let length else { throw .badHeader("no Content-Length") }
        while buffer.count - start < length { try fill() }
        let body = Array(buffer[start..<(start + length)])
        start += length
        compact()
        return body
    }

    private func readHeaderLine() throws(Failure) -> String {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                var end = newline
                if end > start, buffer[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                return line
            }
            guard buffer.count - start < 8192 else { throw .badHeader("header line too long") }
            try fill()
        }
    }

    private func fill() throws(Failure) {
        let data = handle.availableData
        guard !data.isEmpty else { throw .endOfStream }
        buffer.append(contentsOf: data)
    }

    private func compact() {
        if start > 1 << 20 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

/// Writes framed messages to a file descriptor (stdout); safe to call from any thread.
final class MessageWriter: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()

    init(handle: FileHandle) { self.handle = handle }

    func send(_ message: JSONValue) {
        let body = Array(message.rendered(pretty: false).utf8)
        let header = Array("Content-Length: \(body.count)\r\n\r\n".utf8)
        lock.withLock {
            // A client gone away is not our crash: the read side sees the end and stops.
            try? handle.write(contentsOf: Data(header + body))
        }
    }
}
