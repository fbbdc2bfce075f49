/// The markup of a file cut into tokens, forgivingly: the one place that knows how XML is skipped
/// through (comments, CDATA sections, processing instructions, declarations, end tags, quoted
/// attribute values), for the tools that read files by their bytes rather than through libxml2
/// (finding an end tag for a fix, locating a broken comment, outlining elements for edits).
///
/// It never gives up. A construct not closed before the end of the file runs to the end and is
/// marked not closed; a start or end tag not closed before the next `<` ends there, so a
/// half-typed tag never swallows the elements after it; a quoted value not closed before a `<`
/// ends there too (`<` cannot stand in an attribute value). Text between markup is a token.
///
/// (The runtime's `PlainXML` reads its configuration file on its own: the runtime library does
/// not link the front end.)
package struct MarkupTokens: Sequence, IteratorProtocol {
    package enum Kind: Equatable {
        case text
        /// `<!-- ... -->`
        case comment
        /// `<![CDATA[ ... ]]>`
        case cdata
        /// `<? ... ?>`, the XML declaration included.
        case processingInstruction
        /// `<!DOCTYPE ...>` and other `<!` markup.
        case declaration
        /// `<name ...>` or `<name .../>`.
        case startTag(name: Range<Int>, selfClosing: Bool)
        /// `</name>`.
        case endTag(name: Range<Int>)
    }

    package struct Token: Equatable {
        package var kind: Kind
        /// From its first byte (`<` for markup) to just past its last.
        package var range: Range<Int>
        /// Whether its closing delimiter is there (`-->`, `]]>`, `?>`, `>`); text is always closed.
        package var closed: Bool
    }

    package let bytes: [UInt8]
    package private(set) var offset: Int

    /// The tokens from `offset` (at a `<` or in text) to the end of `bytes`.
    package init(_ bytes: [UInt8], from offset: Int = 0) {
        self.bytes = bytes
        self.offset = Swift.max(0, Swift.min(offset, bytes.count))
    }

    package mutating func next() -> Token? {
        guard offset < bytes.count else { return nil }
        let start = offset
        let token: Token
        if bytes[start] != UInt8(ascii: "<") {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "<") { end += 1 }
            token = Token(kind: .text, range: start..<end, closed: true)
        } else if starts("<!--", at: start) {
            token = delimited(.comment, from: start, opening: 4, closing: "-->")
        } else if starts("<![CDATA[", at: start) {
            token = delimited(.cdata, from: start, opening: 9, closing: "]]>")
        } else if starts("<?", at: start) {
            token = delimited(.processingInstruction, from: start, opening: 2, closing: "?>")
        } else if starts("<!", at: start) {
            token = tag(from: start, nameStart: nil) { _, _ in .declaration }
        } else if starts("</", at: start) {
            token = tag(from: start, nameStart: start + 2) { name, _ in .endTag(name: name) }
        } else {
            token = tag(from: start, nameStart: start + 1) { name, selfClosing in
                .startTag(name: name, selfClosing: selfClosing)
            }
        }
        offset = Swift.max(token.range.upperBound, start + 1)
        return token
    }

    /// The name a start or end tag token holds.
    package func name(of token: Token) -> String? {
        switch token.kind {
        case .startTag(let name, _), .endTag(let name): String(decoding: bytes[name], as: UTF8.self)
        default: nil
        }
    }

    private func starts(_ marker: StaticString, at index: Int) -> Bool {
        let count = marker.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return marker.withUTF8Buffer { bytes[index..<(index + count)].elementsEqual($0) }
    }

    private func delimited(_ kind: Kind, from start: Int, opening: Int, closing: StaticString) -> Token {
        var index = start + opening
        while index < bytes.count {
            if starts(closing, at: index) {
                return Token(kind: kind, range: start..<(index + closing.utf8CodeUnitCount), closed: true)
            }
            index += 1
        }
        return Token(kind: kind, range: start..<bytes.count, closed: false)
    }

    /// A tag: its name from `nameStart`, then up to `>` outside quotes, or to the next `<`.
    private func tag(from start: Int, nameStart: Int?, kind: (Range<Int>, Bool) -> Kind) -> Token {
        var index = nameStart ?? start + 2
        let nameBegin = index
        if nameStart != nil { while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 } }
        let name = nameBegin..<index
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") { break }
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                let selfClosing = bytes[index - 1] == UInt8(ascii: "/")
                return Token(kind: kind(name, selfClosing), range: start..<(index + 1), closed: true)
            }
            index += 1
        }
        return Token(kind: kind(name, false), range: start..<index, closed: false)
    }

    /// Letters, digits and `_ - . :`, and any byte of a multi-byte character.
    package static func isNameByte(_ byte: UInt8) -> Bool {
        ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    /// The offset of the `<` of the end tag that balances the start tag at `offset` (elements of
    /// the same name nested in it are skipped); nil when the start tag is empty, not closed, or
    /// not balanced before the end of the file.
    package static func endTag(ofElementAt offset: Int, in bytes: [UInt8]) -> (start: Int, end: Int)? {
        var tokens = MarkupTokens(bytes, from: offset)
        guard let first = tokens.next(), case .startTag(let nameRange, false) = first.kind, first.closed else {
            return nil
        }
        let name = bytes[nameRange]
        var depth = 1
        while let token = tokens.next() {
            switch token.kind {
            case .startTag(let other, let selfClosing) where !selfClosing && token.closed:
                if bytes[other].elementsEqual(name) { depth += 1 }
            case .endTag(let other):
                if bytes[other].elementsEqual(name) {
                    depth -= 1
                    if depth == 0 { return (token.range.lowerBound, token.range.upperBound) }
                }
            default: break
            }
        }
        return nil
    }
}
