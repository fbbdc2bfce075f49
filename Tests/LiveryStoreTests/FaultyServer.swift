import Foundation

@testable import LiveryStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A deliberately misbehaving HTTP/1.1 server on loopback, on raw sockets, for the network fault
/// tests: `/drop/NAME` sends half the file and closes the connection, `/stall/NAME` sends half then
/// nothing for 10 s, `/trickle/NAME` sends 64 bytes every 50 ms, `/drip/NAME` one byte every
/// 100 ms, `/huge/NAME` announces 10 GB and sends zeros until the client leaves, `/endless/NAME`
/// sends zeros with no length until the client leaves, `/gzip/NAME` sends the file gzipped with
/// `Content-Encoding: gzip` and the compressed length (as object stores and `gzip_static` do),
/// `/brotli/NAME` sends the file as it is but labelled `Content-Encoding: br`, `/bomb/NAME` sends
/// 64 MiB of zeros gzipped (about 64 KB), `/nolength/NAME` sends the file with no Content-Length,
/// and any other `/WORD/NAME` sends the file as a good server does.
/// Faults that heal, for the retry tests (each counted per request target, see `requests(to:)`):
/// `/once-CODE/NAME` answers CODE (with `Retry-After: 7` for 429 and 503) to the first request and
/// serves the file after; `/busy/NAME` answers 503 with `Retry-After: 7` twice, then serves;
/// `/busydate/NAME` answers 503 with a `Retry-After` date 4 s ahead once; `/always-CODE/NAME`
/// always answers CODE; `/resetfirst/NAME` closes the first connection without an answer;
/// `/dropfirst/NAME` sends half the file on the first request and closes; `/stallfirst/NAME`
/// sends half then stalls for 10 s on the first request.
/// `bytesSent` counts body bytes the kernel accepted, to prove a client stopped reading;
/// `connectionsEnded` counts the connections served to their end (for an endless body: until the
/// client closed it), after which `bytesSent` no longer grows.
///
/// Why not Hummingbird: a response body abandoned half-way (which is the whole point here) leaves
/// NIO's async writer unfinished, and debug builds of NIO trap on that. Here the faults are
/// exactly what the tests ask for and nothing else.
final class FaultyServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let folder: String
    private let lock = NSLock()
    private var stopped = false
    private var sent = 0
    private var ended = 0
    private var requestCounts: [String: Int] = [:]
    private var rangeCounts: [String: Int] = [:]
    private var notModifiedCount = 0

    /// How many `304`s the conditional routes answered.
    var notModified: Int { lock.withLock { notModifiedCount } }

    /// How many requests for `target` asked for a range.
    func rangeRequests(to target: String) -> Int { lock.withLock { rangeCounts[target] ?? 0 } }

    /// How many requests arrived for `target` (a path such as `/busy/NAME`).
    func requests(to target: String) -> Int { lock.withLock { requestCounts[target] ?? 0 } }

    var bytesSent: Int { lock.withLock { sent } }
    var connectionsEnded: Int { lock.withLock { ended } }

    /// Waits until `count` connections have ended (the client closed an endless one), at most `limit`.
    func waitForConnectionsEnded(_ count: Int = 1, within limit: Duration = .seconds(20)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while connectionsEnded < count {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    init(folder: String) throws {
        self.folder = folder
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 16) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        self.listener = listener
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    var isStopped: Bool { lock.withLock { stopped } }

    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while !isStopped {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            Thread.detachNewThread { [self] in
                serve(connection)
                close(connection)
                lock.withLock { ended += 1 }
            }
        }
    }

    private func serve(_ connection: Int32) {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.contains(0x0A) || !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
            let count = read(connection, &buffer, buffer.count)
            guard count > 0, request.count < 65_536 else { return }
            request += buffer[0..<count]
        }
        let requestLine = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self)
        let target = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let parts = target.split(separator: "/").map(String.init)
        let seen = lock.withLock { () -> Int in
            requestCounts[target, default: 0] += 1
            return requestCounts[target]! - 1
        }
        if let fault = parts.first, answerHealing(fault, seen: seen, connection: connection) {
            return
        }
        if let fault = parts.first, fault == "cond" || fault == "cond-fresh", !parts.contains("..") {
            serveConditional(
                connection, fresh: fault == "cond-fresh", path: parts.dropFirst().joined(separator: "/"),
                request: String(decoding: request, as: UTF8.self))
            return
        }
        guard parts.count == 2, !parts[1].contains(".."),
            let data = FileManager.default.contents(atPath: folder + "/" + parts[1])
        else {
            _ = send(connection, Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        let bytes = [UInt8](data)
        let half = bytes.count / 2
        let zeros = [UInt8](repeating: 0, count: 65_536)
        // A small send buffer (the kernel's autotuning grows it to 4 MiB on loopback), so that
        // `bytesSent` is close to what reached the client: what it read, plus its receive buffer.
        var sendBuffer: Int32 = 64 << 10
        setsockopt(connection, SOL_SOCKET, SO_SNDBUF, &sendBuffer, socklen_t(MemoryLayout<Int32>.size))
        switch parts[0] {
        case "huge":
            guard
                send(
                    connection,
                    Array("HTTP/1.1 200 OK\r\nContent-Length: 10737418240\r\nConnection: close\r\n\r\n".utf8))
            else { return }
            while !isStopped, send(connection, zeros, counted: true) {}
            return
        case "endless":
            guard send(connection, Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8)) else { return }
            while !isStopped, send(connection, zeros, counted: true) {}
            return
        case "gzip":
            guard let compressed = try? Self.gzip(data) else { return }
            guard
                send(
                    connection,
                    Array(
                        "HTTP/1.1 200 OK\r\nContent-Length: \(compressed.count)\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n"
                            .utf8))
            else { return }
            _ = send(connection, [UInt8](compressed), counted: true)
            return
        case "bomb":
            // 64 MiB of zeros, gzipped to about 64 KB.
            guard let compressed = try? Self.gzip(Data(count: 64 << 20)) else { return }
            guard
                send(
                    connection,
                    Array(
                        "HTTP/1.1 200 OK\r\nContent-Length: \(compressed.count)\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n"
                            .utf8))
            else { return }
            _ = send(connection, [UInt8](compressed), counted: true)
            return
        case "brotli":
            guard
                send(
                    connection,
                    Array(
                        "HTTP/1.1 200 OK\r\nContent-Length: \(bytes.count)\r\nContent-Encoding: br\r\nConnection: close\r\n\r\n"
                            .utf8))
            else { return }
            _ = send(connection, bytes, counted: true)
            return
        case "dropfirst" where seen == 0:
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
            guard send(connection, Array(head.utf8)) else { return }
            _ = send(connection, Array(bytes[..<half]))
            return
        case let fault where fault.hasPrefix("r-"):
            serveRanged(
                connection, fault: String(fault.dropFirst(2)), seen: seen, bytes: bytes,
                request: String(decoding: request, as: UTF8.self), target: target)
            return
        case "nolength":
            // The whole file with no Content-Length: its end is the connection's.
            guard send(connection, Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8)) else { return }
            _ = send(connection, bytes, counted: true)
            return
        case "stallfirst" where seen == 0:
            let head = "HTTP/1.1 200 OK\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
            guard send(connection, Array(head.utf8)), send(connection, Array(bytes[..<half])) else { return }
            for _ in 0..<100 where !isStopped { usleep(100_000) }
            return
        default:
            break
        }
        guard
            send(
                connection, Array("HTTP/1.1 200 OK\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n".utf8)
            )
        else { return }
        switch parts[0] {
        case "drip":
            for byte in bytes where !isStopped {
                guard send(connection, [byte], counted: true) else { return }
                usleep(100_000)
            }
        case "drop":
            _ = send(connection, Array(bytes[..<half]))
        case "stall":
            guard send(connection, Array(bytes[..<half])) else { return }
            for _ in 0..<100 where !isStopped { usleep(100_000) }
            _ = send(connection, Array(bytes[half...]))
        case "trickle":
            var offset = 0
            while offset < bytes.count, !isStopped {
                let end = min(offset + 64, bytes.count)
                guard send(connection, Array(bytes[offset..<end])) else { return }
                offset = end
                usleep(50_000)
            }
        default:
            _ = send(connection, bytes, counted: true)
        }
    }

    /// `/r-FAULT/NAME`: a server with ranges (`Range: bytes=N-`, honoured when `If-Range` matches its
    /// ETag `"v1"`; `416` past the end). FAULT: `dropfirst` sends half the body on the first
    /// request and closes; `cut` sends at most a third of the file per response and closes;
    /// `stallfirst` sends half on the first request and stalls; `changing` is `dropfirst` with an
    /// ETag that changes on every request (the file changed); `lying` is `dropfirst`, then answers
    /// a range with a `Content-Range` that starts at 0 and the bytes from N; `plain` has no fault.
    private func serveRanged(
        _ connection: Int32, fault: String, seen: Int, bytes: [UInt8], request: String, target: String
    ) {
        let lines = request.split(separator: "\r\n").map { $0.lowercased() }
        func header(_ name: String) -> String? {
            lines.first { $0.hasPrefix(name + ":") }.map {
                String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces)
            }
        }
        let etag = fault == "changing" ? "\"v\(seen)\"" : "\"v1\""
        var start = 0
        if let range = header("range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
            let from = Int(range.dropFirst(6).dropLast())
        {
            lock.withLock { rangeCounts[target, default: 0] += 1 }
            if header("if-range") == etag {
                guard from < bytes.count else {
                    _ = send(
                        connection,
                        Array(
                            "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(bytes.count)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                                .utf8))
                    return
                }
                start = from
            }
        }
        let body = Array(bytes[start...])
        var head = "HTTP/1.1 200 OK\r\n"
        if start > 0 {
            let claimed = fault == "lying" ? 0 : start
            head =
                "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(claimed)-\(claimed + body.count - 1)/\(bytes.count)\r\n"
        }
        head += "ETag: \(etag)\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        guard send(connection, Array(head.utf8)) else { return }
        switch fault {
        case "dropfirst" where seen == 0, "changing" where seen == 0, "lying" where seen == 0:
            _ = send(connection, Array(body[..<(body.count / 2)]), counted: true)
        case "stallfirst" where seen == 0:
            guard send(connection, Array(body[..<(body.count / 2)]), counted: true) else { return }
            for _ in 0..<100 where !isStopped { usleep(100_000) }
        case "cut":
            _ = send(connection, Array(body.prefix((bytes.count + 2) / 3)), counted: true)
        default:
            _ = send(connection, body, counted: true)
        }
    }

    /// `/cond/PATH` and `/cond-fresh/PATH` (any depth): the file with a strong ETag (its SHA-256)
    /// and a fixed Last-Modified, `304` when `If-None-Match` names it; `cond-fresh` adds
    /// `Cache-Control: max-age=60`, `cond` sends `no-cache`.
    private func serveConditional(_ connection: Int32, fresh: Bool, path: String, request: String) {
        guard let data = FileManager.default.contents(atPath: folder + "/" + path) else {
            _ = send(connection, Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        let etag = "\"\(Hashing.sha256(data).prefix(16))\""
        let ifNoneMatch = request.split(separator: "\r\n").first { $0.lowercased().hasPrefix("if-none-match:") }.map {
            $0.dropFirst("if-none-match:".count).trimmingCharacters(in: .whitespaces)
        }
        let headers =
            "ETag: \(etag)\r\nLast-Modified: Sun, 09 Sep 2001 01:46:40 GMT\r\nCache-Control: \(fresh ? "max-age=60" : "no-cache")\r\n"
        if ifNoneMatch == etag {
            lock.withLock { notModifiedCount += 1 }
            _ = send(connection, Array("HTTP/1.1 304 Not Modified\r\n\(headers)Connection: close\r\n\r\n".utf8))
            return
        }
        guard
            send(
                connection,
                Array("HTTP/1.1 200 OK\r\n\(headers)Content-Length: \(data.count)\r\nConnection: close\r\n\r\n".utf8))
        else { return }
        _ = send(connection, [UInt8](data), counted: true)
    }

    /// The faults that heal, answered before the file is looked at; true when answered.
    private func answerHealing(_ fault: String, seen: Int, connection: Int32) -> Bool {
        func status(_ code: Int, _ extra: String = "") -> Bool {
            let retryAfter = code == 429 || code == 503 ? "Retry-After: 7\r\n" : ""
            _ = send(
                connection,
                Array(
                    "HTTP/1.1 \(code) Fault\r\n\(retryAfter)\(extra)Content-Length: 0\r\nConnection: close\r\n\r\n".utf8
                ),
                counted: false)
            return true
        }
        if fault.hasPrefix("once-"), seen == 0, let code = Int(fault.dropFirst(5)) { return status(code) }
        if fault.hasPrefix("always-"), let code = Int(fault.dropFirst(7)) { return status(code) }
        switch fault {
        case "busy" where seen < 2:
            return status(503)
        case "busydate" where seen == 0:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = formatter.string(from: Date().addingTimeInterval(4))
            _ = send(
                connection,
                Array(
                    "HTTP/1.1 503 Busy\r\nRetry-After: \(date)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8),
                counted: false)
            return true
        case "resetfirst" where seen == 0:
            // Closed with unread data pending: the kernel resets the connection.
            var option = linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
            return true
        default:
            return false
        }
    }

    /// Writes everything, without SIGPIPE when the client has gone (it usually has, on purpose).
    private func send(_ connection: Int32, _ bytes: [UInt8], counted: Bool = false) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
            if counted { lock.withLock { self.sent += count } }
        }
        return true
    }

    /// The file as `gzip -n` compresses it.
    static func gzip(_ data: Data) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-n", "-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return compressed
    }
}
