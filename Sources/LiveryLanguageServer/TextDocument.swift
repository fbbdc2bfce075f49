import Foundation
import LiveryXML

/// A position as LSP counts it: 0-based line, 0-based offset in UTF-16 code units.
struct Position: Hashable, Comparable {
    var line: Int
    var character: Int

    static func < (lhs: Position, rhs: Position) -> Bool {
        (lhs.line, lhs.character) < (rhs.line, rhs.character)
    }
}

struct TextRange: Hashable {
    var start: Position
    var end: Position
}

/// The text of one file as an editor holds it, in UTF-8 bytes, with its line starts. Owns the
/// conversion between LSP positions (UTF-16) and the front end's (1-based line, column in
/// Unicode scalars) and byte offsets.
struct TextDocument {
    private(set) var bytes: [UInt8]
    private(set) var lines: LineTable
    /// Byte offset of each line's start.
    var lineStarts: [Int] { lines.starts }
    var version: Int

    init(text: String, version: Int) {
        self.bytes = Array(text.utf8)
        self.version = version
        self.lines = LineTable(bytes)
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.version = 0
        self.lines = LineTable(bytes)
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    var lineCount: Int { lineStarts.count }

    /// Bytes of a 0-based line without its line break.
    func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 0, line < lineStarts.count else { return [] }
        let start = lineStarts[line]
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : bytes.count
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return bytes[start..<end]
    }

    func lineText(_ line: Int) -> String { String(decoding: lineBytes(line), as: UTF8.self) }

    /// The byte offset of an LSP position, clamped into the document (past a line's end is its end).
    func offset(of position: Position) -> Int {
        guard position.line >= 0 else { return 0 }
        guard position.line < lineStarts.count else { return bytes.count }
        let line = lineBytes(position.line)
        var units = 0
        var index = line.startIndex
        while index < line.endIndex, units < position.character {
            let (length, utf16) = Self.scalar(at: index, in: line)
            units += utf16
            index += length
        }
        return index
    }

    /// The LSP position of a byte offset.
    func position(ofOffset offset: Int) -> Position {
        let offset = min(max(offset, 0), bytes.count)
        let low = lines.line(containing: offset)
        var units = 0
        var index = lineStarts[low]
        while index < offset {
            let (length, utf16) = Self.scalar(at: index, in: bytes[...])
            units += utf16
            index += length
        }
        return Position(line: low, character: units)
    }

    /// The LSP position of the front end's 1-based line and column (the column counts scalars).
    func position(line: Int, column: Int?) -> Position {
        let line0 = max(line - 1, 0)
        guard line0 < lineStarts.count else { return Position(line: line0, character: 0) }
        let text = lineBytes(line0)
        var index = text.startIndex
        var units = 0
        var scalars = 1
        while index < text.endIndex, scalars < (column ?? 1) {
            let (length, utf16) = Self.scalar(at: index, in: text)
            units += utf16
            index += length
            scalars += 1
        }
        return Position(line: line0, character: units)
    }

    /// The byte offset of a front-end location.
    func offset(line: Int, column: Int?) -> Int { offset(of: position(line: line, column: column)) }

    /// The length in bytes and in UTF-16 units of the UTF-8 sequence at `index` (a stray byte is one unit).
    private static func scalar(at index: Int, in bytes: ArraySlice<UInt8>) -> (Int, Int) {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0..<0x80: length = 1
        case 0xC0..<0xE0: length = 2
        case 0xE0..<0xF0: length = 3
        case 0xF0..<0xF8: length = 4
        default: length = 1
        }
        guard index + length <= bytes.endIndex else { return (1, 1) }
        return (length, length == 4 ? 2 : 1)
    }

    /// Applies an LSP content change: the whole text when `range` is nil, else the range replaced.
    mutating func apply(_ text: String, in range: TextRange?) {
        guard let range else {
            bytes = Array(text.utf8)
            lines = LineTable(bytes)
            return
        }
        let start = offset(of: range.start)
        let end = max(offset(of: range.end), start)
        bytes.replaceSubrange(start..<end, with: Array(text.utf8))
        lines = LineTable(bytes)
    }
}
