/// An element of a parsed XML file, with the byte offsets that locate it in its source.
/// Built by `XMLDocumentParser`; everything above the LibXML folder works on these.
struct XMLElement {
    var name: String
    var attributes: [XMLAttribute]
    var children: [XMLElement]
    /// The character data directly inside the element, entities decoded, whitespace kept.
    var text: String
    /// Byte offset of the `<` that opens the element.
    var offset: Int

    func attribute(_ name: String) -> String? {
        attributes.first { $0.name == name }?.value
    }
}

struct XMLAttribute {
    var name: String
    var value: String
}

/// A parsed file: its root element and the source that locates every node.
struct XMLDocument {
    var root: XMLElement
    var source: SourceText
}
