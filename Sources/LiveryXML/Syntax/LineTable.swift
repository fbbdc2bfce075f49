/// Where each line of a text starts, in bytes, and which line holds a byte offset: what turns the
/// front end's byte offsets into lines for diagnostics and for an editor's positions. Lines end
/// at `\n` (a `\r` before it belongs to the line).
///
/// A class, immutable once built: a lookup (one per located value while a theme resolves) then
/// costs one reference count, not one per table it holds.
public final class LineTable: Sendable {
    /// The byte offset of each line's start; the first is 0.
    public let starts: [Int]
    /// The line holding the first byte of each block of 4 KiB (`blockShift`): a lookup searches the
    /// few lines of one block, not all of them (every finding and every resolved value of a
    /// theme of thousands of instances is located through here).
    private let blocks: [Int]
    private static let blockShift = 12

    /// The lines of `bytes`.
    public init(_ bytes: [UInt8]) {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<buffer.count where buffer[index] == UInt8(ascii: "\n") { starts.append(index + 1) }
        }
        self.starts = starts
        var blocks: [Int] = []
        blocks.reserveCapacity(bytes.count >> Self.blockShift + 1)
        var line = 0
        for block in 0...(bytes.count >> Self.blockShift) {
            let offset = block << Self.blockShift
            while line + 1 < starts.count, starts[line + 1] <= offset { line += 1 }
            blocks.append(line)
        }
        self.blocks = blocks
    }

    /// The 0-based line holding byte `offset` (an offset past the text is on the last line).
    public func line(containing offset: Int) -> Int {
        // the line is between those holding the first bytes of this block and of the next
        let block = max(offset, 0) >> Self.blockShift
        var low = block < blocks.count ? blocks[block] : blocks[blocks.count - 1]
        var high = block + 1 < blocks.count ? blocks[block + 1] : starts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
