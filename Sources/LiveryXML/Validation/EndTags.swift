import LiveryModel

/// Where an element's end tag is, for a fix that renames the element: the start tag alone
/// renamed would leave the file malformed. The parser keeps start positions only, so the end tag
/// is found in the text: the `</name>` that balances the start tag, skipping comments, quoted
/// attribute values and nested elements of the same name.
enum EndTags {
    static func location(ofEndTagOf element: XMLElement, in source: SourceText) -> SourceLocation? {
        location(ofEndTagAt: element.offset, named: element.name, in: source)
    }

    static func location(ofEndTagAt offset: Int, named elementName: String, in source: SourceText) -> SourceLocation? {
        self.offset(ofEndTagAt: offset, named: elementName, in: source.bytes).map { source.location(at: $0 + 2) }
    }

    /// The bytes of the whole element starting at `offset`: its start tag through its end tag,
    /// or its empty tag (`<x/>`).
    static func extent(ofElementAt offset: Int, named name: String, in bytes: [UInt8]) -> Range<Int>? {
        guard let (afterStart, empty) = endOfStartTag(at: offset, in: bytes) else { return nil }
        if empty { return offset..<afterStart }
        guard let end = self.offset(ofEndTagAt: offset, named: name, in: bytes),
            let close = bytes[end...].firstIndex(of: UInt8(ascii: ">"))
        else { return nil }
        return offset..<(close + 1)
    }

    /// The offset just past the tag starting at `start` (at its '<'), and whether it is empty (`/>`).
    static func endOfStartTag(at start: Int, in bytes: [UInt8]) -> (Int, Bool)? {
        var index = start + 1
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return (index + 1, bytes[index - 1] == UInt8(ascii: "/"))
            }
            index += 1
        }
        return nil
    }

    /// The offset of the `</` of the end tag balancing the start tag at `offset`.
    static func offset(ofEndTagAt offset: Int, named elementName: String, in bytes: [UInt8]) -> Int? {
        let name = Array(elementName.utf8)
        let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), slash = UInt8(ascii: "/")
        func endOfTag(_ start: Int) -> (Int, Bool)? { endOfStartTag(at: start, in: bytes) }
        func hasName(at index: Int) -> Bool {
            guard index + name.count < bytes.count, Array(bytes[index..<(index + name.count)]) == name else {
                return false
            }
            let after = bytes[index + name.count]
            return after == gt || after == slash || after == UInt8(ascii: " ") || after == UInt8(ascii: "\n")
                || after == UInt8(ascii: "\t") || after == UInt8(ascii: "\r")
        }
        guard offset < bytes.count, bytes[offset] == lt, let (afterStart, empty) = endOfTag(offset), !empty else {
            return nil
        }
        var depth = 1
        var index = afterStart
        while index < bytes.count {
            guard bytes[index] == lt else {
                index += 1
                continue
            }
            if bytes[index...].starts(with: Array("<!--".utf8)) {
                var end = index + 4
                while end + 2 < bytes.count,
                    !(bytes[end] == UInt8(ascii: "-") && bytes[end + 1] == UInt8(ascii: "-") && bytes[end + 2] == gt)
                {
                    end += 1
                }
                index = end + 3
                continue
            }
            if index + 1 < bytes.count, bytes[index + 1] == slash {
                if hasName(at: index + 2) {
                    depth -= 1
                    if depth == 0 { return index }
                }
                index += 2
                continue
            }
            guard let (after, isEmpty) = endOfTag(index) else { return nil }
            if hasName(at: index + 1), !isEmpty { depth += 1 }
            index = after
        }
        return nil
    }
}
