/// The XML of small files made of elements, attributes and text, such as the runtime's
/// configuration file: a strict, non-validating reader of well-formed documents without a
/// document type declaration.
///
/// The runtime reads its configuration with this rather than Foundation's `XMLParser`: on Linux
/// that is `FoundationXML`, which loads libxml2 into the app, and its first use is a large cost
/// of a launch (`livery-bench launch`). What it accepts is XML 1.0: an optional declaration, comments, processing
/// instructions, CDATA sections, the five predefined entities and character references. A
/// DOCTYPE is refused: a configuration has no use for entities, and refusing them rules out
/// entity expansion attacks.
///
/// It stays apart from the front end's forgiving tokenizer (`MarkupTokens` in LiveryXML): the
/// runtime does not link the front end, and a configuration read must refuse what is not well
/// formed, where the tools' tokenizer reads through damage by design.
struct PlainXML {
    struct Element {
        var name: String
        var attributes: [(name: String, value: String)] = []
        var children: [Element] = []
        /// The element's own text, its children's left out.
        var text = ""
        var line: Int
        var column: Int

        func attribute(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }
    }

    struct SyntaxError: Error {
        var message: String
        var line: Int
        var column: Int
    }

    /// `text` without XML's white space (space, tab, line feed, carriage return) at either
    /// end. (Foundation's `trimmingCharacters(in:)` builds a `CharacterSet` on first use, a
    /// measurable part of a launch on Linux.)
    static func trimmingSpace(_ text: String) -> String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(scalars[first...last])
    }

    /// Deeper documents are refused rather than read (a configuration is two levels deep).
    static let maximumDepth = 64

    /// The root element of `bytes`, or where and why it is not well-formed.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Element {
        var reader = Reader(bytes: bytes)
        return try reader.document()
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        var line = 1
        /// Where the current line starts, for columns counted in characters.
        var lineStart = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
            // A UTF-8 byte order mark is not part of the document.
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
                index = 3
                lineStart = 3
            }
        }

        var column: Int {
            // Characters, not bytes: continuation bytes of UTF-8 do not count.
            bytes[lineStart..<index].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        }

        func error(_ message: String) -> SyntaxError {
            SyntaxError(message: message, line: line, column: column)
        }

        var atEnd: Bool { index >= bytes.count }
        var current: UInt8 { bytes[index] }

        func looking(at text: String) -> Bool {
            bytes[index...].starts(with: text.utf8)
        }

        mutating func advance(_ count: Int = 1) {
            for _ in 0..<count where index < bytes.count {
                if bytes[index] == UInt8(ascii: "\n") {
                    line += 1
                    lineStart = index + 1
                }
                index += 1
            }
        }

        mutating func skipSpace() {
            while !atEnd, [0x20, 0x09, 0x0A, 0x0D].contains(current) { advance() }
        }

        /// Skips to just after `terminator`, or fails with `message`.
        mutating func skip(past terminator: String, _ message: String) throws(SyntaxError) {
            while !atEnd, !looking(at: terminator) { advance() }
            guard !atEnd else { throw error(message) }
            advance(terminator.utf8.count)
        }

        /// Comments and processing instructions (the XML declaration among them), and space.
        mutating func skipMisc() throws(SyntaxError) {
            while true {
                skipSpace()
                if looking(at: "<!--") {
                    try skip(past: "-->", "a comment is not closed with '-->'")
                } else if looking(at: "<?") {
                    try skip(past: "?>", "a processing instruction is not closed with '?>'")
                } else {
                    return
                }
            }
        }

        mutating func document() throws(SyntaxError) -> Element {
            try skipMisc()
            if looking(at: "<!DOCTYPE") {
                throw error("a document type declaration (<!DOCTYPE>) is not allowed here")
            }
            guard !atEnd, current == UInt8(ascii: "<") else { throw error("the document has no root element") }
            let root = try element()
            try skipMisc()
            guard atEnd else { throw error("only comments may follow the root element") }
            return root
        }

        static func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "_"), UInt8(ascii: ":"), 0x80...:
                true
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): !first
            default: false
            }
        }

        mutating func name() throws(SyntaxError) -> String {
            let start = index
            while !atEnd, Self.isNameByte(current, first: index == start) { advance() }
            guard index > start else { throw error("a name is expected here") }
            return try string(bytes[start..<index])
        }

        func string(_ slice: ArraySlice<UInt8>) throws(SyntaxError) -> String {
            guard let text = String(validating: slice, as: UTF8.self) else {
                throw error("the document is not valid UTF-8")
            }
            return text
        }

        /// An element and everything in it, read without recursion.
        mutating func element() throws(SyntaxError) -> Element {
            var open: [Element] = []
            while true {
                // At '<' of a start tag.
                let line = self.line, column = self.column
                advance()
                var element = Element(name: try name(), line: line, column: column)
                let empty = try attributes(into: &element)
                if empty {
                    if open.isEmpty { return element }
                    open[open.count - 1].children.append(element)
                } else {
                    guard open.count < PlainXML.maximumDepth else {
                        throw error("elements are nested more than \(PlainXML.maximumDepth) deep")
                    }
                    open.append(element)
                }
                // Content until the next start tag, or until the root closes.
                while true {
                    guard !open.isEmpty else { break }
                    guard !atEnd else { throw error("the document ends before <\(open.last!.name)> is closed") }
                    if looking(at: "</") {
                        let tag = error("")
                        advance(2)
                        let closing = try name()
                        skipSpace()
                        guard !atEnd, current == UInt8(ascii: ">") else {
                            throw error("'>' is expected after </\(closing)")
                        }
                        let opened = open.removeLast()
                        guard closing == opened.name else {
                            throw SyntaxError(
                                message:
                                    "</\(closing)> closes <\(opened.name)>, opened at line \(opened.line), column \(opened.column)",
                                line: tag.line, column: tag.column)
                        }
                        advance()
                        if open.isEmpty { return opened }
                        open[open.count - 1].children.append(opened)
                    } else if looking(at: "<!--") {
                        try skip(past: "-->", "a comment is not closed with '-->'")
                    } else if looking(at: "<![CDATA[") {
                        advance(9)
                        let start = index
                        try skip(past: "]]>", "a CDATA section is not closed with ']]>'")
                        open[open.count - 1].text += try string(bytes[start..<index - 3])
                    } else if looking(at: "<?") {
                        try skip(past: "?>", "a processing instruction is not closed with '?>'")
                    } else if looking(at: "<!") {
                        throw error("a declaration is not allowed inside an element")
                    } else if current == UInt8(ascii: "<") {
                        break
                    } else {
                        open[open.count - 1].text += try text(until: UInt8(ascii: "<"))
                    }
                }
            }
        }

        /// Reads attributes up to the end of the start tag; true when the tag was `/>`.
        mutating func attributes(into element: inout Element) throws(SyntaxError) -> Bool {
            while true {
                let hadSpace = !atEnd && [0x20, 0x09, 0x0A, 0x0D].contains(current)
                skipSpace()
                guard !atEnd else { throw error("the document ends inside the start tag of <\(element.name)>") }
                if current == UInt8(ascii: ">") {
                    advance()
                    return false
                }
                if looking(at: "/>") {
                    advance(2)
                    return true
                }
                guard hadSpace else { throw error("a space is expected before an attribute of <\(element.name)>") }
                let attribute = try name()
                skipSpace()
                guard !atEnd, current == UInt8(ascii: "=") else {
                    throw error("'=' is expected after attribute '\(attribute)'")
                }
                advance()
                skipSpace()
                guard !atEnd, current == UInt8(ascii: "\"") || current == UInt8(ascii: "'") else {
                    throw error("the value of attribute '\(attribute)' must be quoted")
                }
                let quote = current
                advance()
                let value = try text(until: quote)
                guard !atEnd else { throw error("the value of attribute '\(attribute)' is not closed") }
                advance()
                guard element.attribute(attribute) == nil else {
                    throw error("attribute '\(attribute)' appears twice on <\(element.name)>")
                }
                element.attributes.append((attribute, value))
            }
        }

        /// Text up to `terminator` (not consumed), with references replaced. In attribute
        /// values `<` is an error, as in XML.
        mutating func text(until terminator: UInt8) throws(SyntaxError) -> String {
            var result = ""
            var start = index
            while !atEnd, current != terminator {
                if current == UInt8(ascii: "<") { throw error("'<' is not allowed in an attribute value") }
                guard current == UInt8(ascii: "&") else {
                    advance()
                    continue
                }
                result += try string(bytes[start..<index])
                result.unicodeScalars.append(try reference())
                start = index
            }
            result += try string(bytes[start..<index])
            return result
        }

        /// At '&': a predefined entity or a character reference.
        mutating func reference() throws(SyntaxError) -> Unicode.Scalar {
            let location = error("")
            advance()
            let start = index
            while !atEnd, current != UInt8(ascii: ";"), index - start < 12 { advance() }
            guard !atEnd, current == UInt8(ascii: ";") else {
                throw SyntaxError(
                    message: "'&' starts no reference; write '&amp;' for an ampersand",
                    line: location.line, column: location.column)
            }
            let body = String(decoding: bytes[start..<index], as: UTF8.self)
            advance()
            let scalar: Unicode.Scalar? =
                switch body {
                case "lt": "<"
                case "gt": ">"
                case "amp": "&"
                case "quot": "\""
                case "apos": "'"
                default:
                    if body.hasPrefix("#x") {
                        UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                    } else if body.hasPrefix("#") {
                        UInt32(body.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
                    } else {
                        nil
                    }
                }
            guard let scalar, scalar.value != 0 else {
                throw SyntaxError(
                    message: "'&\(body);' is not a predefined entity or a character reference",
                    line: location.line, column: location.column)
            }
            return scalar
        }
    }
}
