// Checks of a file's raw bytes, made before libxml2 reads them: encoding, DOCTYPE, crowded start tags.
extension XMLDocumentParser {
    /// Theme files must be UTF-8: a UTF-16 byte order mark, UTF-16 text without one, or an XML
    /// declaration naming another encoding is refused before libxml2 would convert anything.
    static func encodingProblem(in bytes: [UInt8]) -> String? {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return "the file is UTF-16; theme files must be UTF-8"
        }
        if bytes.count >= 2, bytes[0] == 0 || bytes[1] == 0 {
            return "the file looks like UTF-16 or UTF-32 (it has NUL bytes); theme files must be UTF-8"
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard body.starts(with: Array("<?xml".utf8)) else { return nil }
        // Bytes, not a String search: every file read starts here (bench-brands.py, a build with
        // nothing to do).
        let declaration = Array(body.prefix { $0 != UInt8(ascii: ">") })
        let keyword = Array("encoding".utf8)
        guard
            let start = declaration.indices.first(where: {
                declaration[$0...].starts(with: keyword)
            })
        else { return nil }
        let rest = declaration[(start + keyword.count)...].drop {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: "\t")
        }
        guard let quote = rest.first, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return nil }
        let name = String(decoding: rest.dropFirst().prefix { $0 != quote }, as: UTF8.self)
        let normalized = name.lowercased()
        guard normalized == "utf-8" || normalized == "utf8" else {
            return "the XML declaration says encoding=\"\(name)\"; theme files must be UTF-8"
        }
        return nil
    }

    /// The offset of the first `<!DOCTYPE` anywhere in the file (in a comment or CDATA section
    /// too: a theme file has no reason to contain one), or nil.
    static func firstDoctype(in bytes: [UInt8]) -> Int? {
        let marker: [UInt8] = Array("<!DOCTYPE".utf8)
        return bytes.withUnsafeBufferPointer { bytes -> Int? in
            guard bytes.count >= marker.count else { return nil }
            var index = 0
            while index <= bytes.count - marker.count {
                if bytes[index] == marker[0], bytes[index + 1] == marker[1] {
                    var matches = true
                    for offset in 2..<marker.count where bytes[index + offset] != marker[offset] {
                        matches = false
                        break
                    }
                    if matches { return index }
                }
                index += 1
            }
            return nil
        }
    }

    /// The offset of the first start tag with more than `limit` attributes, and how many it has
    /// (counting stops at `limit + 1`), found in one pass: a tag is `<` then a name, attributes are
    /// the `=` outside quotes before its `>`. Comments, CDATA and processing instructions are
    /// skipped; anything else odd is left for libxml2 to report.
    static func crowdedStartTag(in bytes: [UInt8], limit: Int) -> (Int, Int)? {
        let lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">"), equals = UInt8(ascii: "=")
        let doubleQuote = UInt8(ascii: "\""), singleQuote = UInt8(ascii: "'")
        return bytes.withUnsafeBufferPointer { bytes -> (Int, Int)? in
            var index = 0
            let count = bytes.count
            while index < count {
                guard bytes[index] == lessThan else {
                    index += 1
                    continue
                }
                let start = index
                index += 1
                guard index < count,
                    ASCII.isLetter(bytes[index]) || bytes[index] == UInt8(ascii: "_") || bytes[index] >= 0x80
                else {
                    continue
                }
                var attributes = 0
                var quote: UInt8 = 0
                while index < count {
                    let byte = bytes[index]
                    index += 1
                    if quote != 0 {
                        if byte == quote { quote = 0 }
                    } else if byte == doubleQuote || byte == singleQuote {
                        quote = byte
                    } else if byte == equals {
                        attributes += 1
                        if attributes > limit { return (start, attributes) }
                    } else if byte == greaterThan || byte == lessThan {
                        if byte == lessThan { index -= 1 }
                        break
                    }
                }
            }
            return nil
        }
    }
}
