/// Where each line of a text starts, in bytes, and which line holds a byte offset: what turns the
/// front end's byte offsets into lines for diagnostics and for an editor's positions. Lines end
/// at `\n` (a `\r` before it belongs to the line).
public struct LineTable: Sendable {
    /// The byte offset of each line's start; the first is 0.
    public let starts: [Int]

    /// The lines of `bytes`.
    public init(_ bytes: [UInt8]) {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count where buffer[index] == UInt8(ascii: "\n") { starts.append(index + 1) }
        }
        self.starts = starts
    }

    /// The 0-based line holding byte `offset` (an offset past the text is on the last line).
    public func line(containing offset: Int) -> Int {
        var low = 0
        var high = starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
