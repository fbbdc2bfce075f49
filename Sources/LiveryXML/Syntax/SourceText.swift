import LiveryModel

/// The bytes of one source file and its display path. Nodes keep byte offsets only; lines and
/// columns are computed here when a diagnostic needs them, so parsing stays cheap.
final class SourceText {
    let path: String
    let bytes: [UInt8]
    private lazy var lineStarts: [Int] = {
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(index + 1)
        }
        return starts
    }()

    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// The whole file, no position.
    var fileLocation: SourceLocation { SourceLocation(file: path) }

    /// Line and column (1-based; the column counts characters, not bytes) of a byte offset.
    func location(at offset: Int) -> SourceLocation {
        let offset = min(max(offset, 0), bytes.count)
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        let start = lineStarts[low]
        // count UTF-8 lead bytes so a multi-byte character is one column
        let column = bytes[start..<offset].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
        return SourceLocation(file: path, line: low + 1, column: column)
    }

    func location(of element: XMLElement) -> SourceLocation {
        location(at: element.offset)
    }

    /// Where the attribute's name stands in the element's start tag (the tag itself if not found).
    func location(ofAttribute name: String, in element: XMLElement) -> SourceLocation {
        let utf8 = Array(name.utf8)
        var index = element.offset + 1
        let end = bytes.count - utf8.count
        while index < end, bytes[index] != UInt8(ascii: ">") {
            let precededBySpace = [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index - 1])
            if precededBySpace, bytes[index..<(index + utf8.count)].elementsEqual(utf8) {
                let after = bytes[index + utf8.count]
                if after == UInt8(ascii: "=") || after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D {
                    return location(at: index)
                }
            }
            index += 1
        }
        return location(of: element)
    }

    /// Where the element's value starts: its first non-blank character after the start tag.
    func location(ofTextIn element: XMLElement) -> SourceLocation {
        var offset = endOfStartTag(at: element.offset)
        while offset < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[offset]) { offset += 1 }
        return location(at: offset)
    }

    /// The offset just past the `>` closing the start tag that begins at `offset`. Attribute
    /// values may hold a literal `>`, so quoted runs are skipped.
    func endOfStartTag(at offset: Int) -> Int {
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
