import LiveryModel

/// Where an element's end tag is, for a fix that renames, moves or removes the element: the start
/// tag alone changed would leave the file malformed. The parser keeps start positions only, so the
/// end tag is found in the text by `MarkupTokens`: the `</name>` that balances the start tag, with
/// comments, CDATA sections, processing instructions and quoted values skipped.
enum EndTags {
    static func location(ofEndTagOf element: XMLElement, in source: SourceText) -> SourceLocation? {
        location(ofEndTagAt: element.offset, named: element.name, in: source)
    }

    /// The place of the end tag's name (just past its `</`).
    static func location(ofEndTagAt offset: Int, named elementName: String, in source: SourceText) -> SourceLocation? {
        MarkupTokens.endTag(ofElementAt: offset, in: source.bytes).map { source.location(at: $0.start + 2) }
    }

    /// The bytes of the whole element starting at `offset`: its start tag through its end tag,
    /// or its empty tag (`<x/>`).
    static func extent(ofElementAt offset: Int, in bytes: [UInt8]) -> Range<Int>? {
        guard let (afterStart, empty) = endOfStartTag(at: offset, in: bytes) else { return nil }
        if empty { return offset..<afterStart }
        return MarkupTokens.endTag(ofElementAt: offset, in: bytes).map { offset..<$0.end }
    }

    /// The offset just past the start tag at `start` (at its '<'), and whether it is empty (`/>`);
    /// nil when it is not a closed start tag.
    static func endOfStartTag(at start: Int, in bytes: [UInt8]) -> (Int, Bool)? {
        var tokens = MarkupTokens(bytes, from: start)
        guard let token = tokens.next(), token.closed, case .startTag(_, let empty) = token.kind else { return nil }
        return (token.range.upperBound, empty)
    }
}
