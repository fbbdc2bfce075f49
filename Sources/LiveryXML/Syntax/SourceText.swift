import Foundation
import LiveryModel

/// The bytes of one source file and its display path. Nodes keep byte offsets only; lines and
/// columns are computed here when a diagnostic needs them, so parsing stays cheap.
///
/// A parent's files are shared by the children validated on several threads: the line table and
/// the column cache, built when first asked, are behind a lock.
final class SourceText: @unchecked Sendable {
    let path: String
    let bytes: [UInt8]
    private let lock = NSLock()
    private lazy var lines = LineTable(bytes)
    private var lineStarts: [Int] { lines.starts }

    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// The whole file, no position.
    var fileLocation: SourceLocation { SourceLocation(file: path) }

    /// Line and column (1-based; the column counts characters, not bytes) of a byte offset.
    func location(at offset: Int) -> SourceLocation {
        lock.lock()
        defer { lock.unlock() }
        let offset = min(max(offset, 0), bytes.count)
        let low = lines.line(containing: offset)
        let start = lineStarts[low]
        // Count UTF-8 lead bytes so a multi-byte character is one column. Continue from the last
        // place asked for when it is earlier on the same line: a hostile file can put everything on
        // one line and have thousands of diagnostics on it, which counted from the line start each
        // time was quadratic (docs/Security.md).
        var from = start
        var column = 1
        if let last = lastColumn, last.lineStart == start, last.offset <= offset {
            from = last.offset
            column = last.column
        }
        bytes.withUnsafeBufferPointer { bytes in
            for index in from..<offset where bytes[index] & 0xC0 != 0x80 { column += 1 }
        }
        lastColumn = (start, offset, column)
        return SourceLocation(file: path, line: low + 1, column: column)
    }

    /// The text of a 1-based line, without its end; nil past the file.
    func text(ofLine line: Int) -> String? {
        guard line >= 1, line <= lineStarts.count else { return nil }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] : bytes.count
        while end > start, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Where the start tag `<name` is on a 1-based line (the last one on it), or the line alone:
    /// libxml2 gives only the line of an element it reports as still open.
    func location(ofStartTag name: String, onLine line: Int) -> SourceLocation {
        lock.lock()
        let lineStarts = self.lineStarts
        lock.unlock()
        guard line >= 1, line <= lineStarts.count else { return fileLocation }
        let start = lineStarts[line - 1]
        let end = line < lineStarts.count ? lineStarts[line] : bytes.count
        let tag = Array(("<" + name).utf8)
        var found: Int?
        if end - start >= tag.count {
            for index in start...(end - tag.count) where bytes[index..<(index + tag.count)].elementsEqual(tag) {
                let next = index + tag.count
                if next == end
                    || !(ASCII.isLetter(bytes[next]) || ASCII.isDigit(bytes[next]) || bytes[next] == UInt8(ascii: "-"))
                {
                    found = index
                }
            }
        }
        return found.map { location(at: $0) } ?? SourceLocation(file: path, line: line)
    }

    /// The last column computed, to continue from (see `location(at:)`).
    private var lastColumn: (lineStart: Int, offset: Int, column: Int)?

    func location(of element: XMLElement) -> SourceLocation {
        location(at: element.offset)
    }

    func location(ofAttribute name: String, in element: XMLElement) -> SourceLocation {
        location(at: offset(ofAttribute: name, in: element))
    }

    func location(ofTextIn element: XMLElement) -> SourceLocation {
        location(at: offset(ofTextIn: element))
    }

    /// Where the attribute's name stands in the element's start tag (the tag itself if not found).
    func offset(ofAttribute name: String, in element: XMLElement) -> Int {
        offset(ofAttribute: name, inElementAt: element.offset)
    }

    /// The same for the element whose start tag begins at `elementOffset`: syntax nodes keep only
    /// that offset and find their attributes' places when a diagnostic needs one.
    func offset(ofAttribute name: String, inElementAt elementOffset: Int) -> Int {
        let utf8 = Array(name.utf8)
        var index = elementOffset + 1
        let end = bytes.count - utf8.count
        while index < end, bytes[index] != UInt8(ascii: ">") {
            let precededBySpace = ASCII.isBlank(bytes[index - 1])
            if precededBySpace, bytes[index..<(index + utf8.count)].elementsEqual(utf8) {
                let after = bytes[index + utf8.count]
                if after == UInt8(ascii: "=") || ASCII.isBlank(after) {
                    return index
                }
            }
            index += 1
        }
        return elementOffset
    }

    /// Where the element's value starts: its first non-blank character after the start tag.
    func offset(ofTextIn element: XMLElement) -> Int {
        offset(ofTextInElementAt: element.offset)
    }

    func offset(ofTextInElementAt elementOffset: Int) -> Int {
        var offset = endOfStartTag(at: elementOffset)
        while offset < bytes.count, ASCII.isBlank(bytes[offset]) { offset += 1 }
        return offset
    }

    /// The offset just past the `>` closing the start tag that begins at `offset`. Attribute
    /// values may hold a literal `>`, so quoted runs are skipped.
    func endOfStartTag(at offset: Int) -> Int {
        Self.endOfStartTag(in: bytes, at: offset)
    }

    /// The same over any bytes (the studio's outline scans files it did not parse through here);
    /// `bytes.count` when the tag never closes.
    static func endOfStartTag(in bytes: [UInt8], at offset: Int) -> Int {
        var index = offset
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                break
            }
        }
        return index
    }
}

/// A place in a source file, kept as a byte offset: 16 bytes where a `SourceLocation` is 48.
/// Syntax nodes hold marks by the hundred thousand; line and column are worked out only for the
/// few that end up in a diagnostic.
struct SourceMark {
    let source: SourceText
    let offset: Int32

    init(_ source: SourceText, _ offset: Int) {
        self.source = source
        self.offset = Int32(clamping: offset)
    }

    var location: SourceLocation { source.location(at: Int(offset)) }

    /// Where the attribute `name` of the element at this mark stands (worked out on demand).
    func attributeLocation(_ name: String) -> SourceLocation {
        source.location(at: source.offset(ofAttribute: name, inElementAt: Int(offset)))
    }

    /// Where the text of the element at this mark starts (worked out on demand).
    var textLocation: SourceLocation {
        source.location(at: source.offset(ofTextInElementAt: Int(offset)))
    }
}
