import LiveryModel
import Testing

@testable import LiveryXML

@Suite struct ParserTests {
    func parse(_ text: String) -> (XMLDocument?, [Diagnostic]) {
        XMLDocumentParser.parse(SourceText(path: "t.xml", bytes: Array(text.utf8)))
    }

    @Test func locatesElementsTextAndAttributes() throws {
        let text = "<theme>\n  <constants>\n    <float name=\"r\">  8</float>\n  </constants>\n</theme>\n"
        let (parsed, diagnostics) = parse(text)
        #expect(diagnostics.isEmpty)
        let document = try #require(parsed)
        let float = document.root.children[0].children[0]
        #expect(float.name == "float" && float.text == "  8")
        #expect(document.source.location(of: float).description == "t.xml:3:5")
        #expect(document.source.location(ofTextIn: float).description == "t.xml:3:23")
        #expect(document.source.location(ofAttribute: "name", in: float).description == "t.xml:3:12")
    }

    @Test func columnsCountCharactersNotBytes() throws {
        let (quoted, _) = parse("<a><f name=\"a>b\">  7</f></a>")
        let tricky = try #require(quoted)
        #expect(tricky.source.location(ofTextIn: tricky.root.children[0]).column == 20)
        let (withAccent, _) = parse("<a>éé<c/></a>")
        let accented = try #require(withAccent)
        #expect(accented.source.location(of: accented.root.children[0]).column == 6)
    }

    @Test func decodesPredefinedEntitiesAndCharacterReferences() throws {
        let (document, diagnostics) = parse("<s>a &amp; b &lt;&#x41;&#66;</s>")
        #expect(diagnostics.isEmpty)
        #expect(try #require(document).root.text == "a & b <AB")
    }

    /// libxml2 hands an attribute's `&` over as `&#38;`: the value must read back as written.
    @Test func decodesEntitiesInAttributeValues() throws {
        let (document, diagnostics) = parse(
            #"<s a="Tom &amp; Jerry" b="&#38;&#x26;" c="&amp;#38;" d="&lt;&gt;&quot;&apos;"/>"#)
        #expect(diagnostics.isEmpty)
        let root = try #require(document).root
        #expect(root.attribute("a") == "Tom & Jerry")
        #expect(root.attribute("b") == "&&")
        #expect(root.attribute("c") == "&#38;")
        #expect(root.attribute("d") == "<>\"'")
    }

    @Test func keepsCDATAAsText() throws {
        let (document, _) = parse("<s><![CDATA[<not markup>]]></s>")
        #expect(try #require(document).root.text == "<not markup>")
    }

    @Test func refusesAnyDoctype() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
            <theme>&lol2;</theme>
            """
        let (document, diagnostics) = parse(laughs)
        #expect(document == nil)
        #expect(diagnostics.first?.code == .xmlDoctype)
        #expect(diagnostics.first?.location?.line == 2)
        let (external, externalDiagnostics) = parse("<!DOCTYPE theme SYSTEM \"file:///etc/passwd\"><theme/>")
        #expect(external == nil && externalDiagnostics.contains { $0.code == .xmlDoctype })
    }

    @Test func refusesUndefinedEntities() {
        let (document, diagnostics) = parse("<theme>&secret;</theme>")
        #expect(document == nil)
        #expect(diagnostics.contains { $0.code == .xmlSyntax && $0.location?.line == 1 })
    }

    @Test func refusesOtherEncodings() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("<a/>".utf8).flatMap { [$0, 0] }
        let (document, diagnostics) = XMLDocumentParser.parse(SourceText(path: "t.xml", bytes: utf16))
        #expect(document == nil && diagnostics.first?.code == .xmlEncoding)
        let (noBOM, noBOMDiagnostics) = XMLDocumentParser.parse(
            SourceText(path: "t.xml", bytes: Array("<a/>".utf8).flatMap { [0, $0] }))
        #expect(noBOM == nil && noBOMDiagnostics.first?.code == .xmlEncoding)
        let (lying, lyingDiagnostics) = parse("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a/>")
        #expect(lying == nil && lyingDiagnostics.first?.code == .xmlEncoding)
        let (bom, bomDiagnostics) = XMLDocumentParser.parse(
            SourceText(path: "t.xml", bytes: [0xEF, 0xBB, 0xBF] + Array("<a/>".utf8)))
        #expect(bom != nil && bomDiagnostics.isEmpty)
    }

    @Test func reportsMalformedXMLWithPosition() {
        let (document, diagnostics) = parse("<theme>\n  <constants>\n</theme>")
        #expect(document == nil)
        let error = diagnostics.first { $0.severity == .error }
        #expect(error?.code == .xmlSyntax)
        #expect(error?.location?.line == 3)
        #expect(error?.location?.column != nil)
    }

    @Test func rejectsInvalidUTF8AndEmptyFiles() {
        let (bad, badDiagnostics) = XMLDocumentParser.parse(
            SourceText(path: "t.xml", bytes: Array("<a>".utf8) + [0xC0, 0xAF] + Array("</a>".utf8)))
        #expect(bad == nil && badDiagnostics.hasErrors)
        let (empty, emptyDiagnostics) = parse("")
        #expect(empty == nil && emptyDiagnostics.hasErrors)
    }

    @Test func standardSchemaDecodesCompletely() {
        let schema = StandardSchema.schema
        #expect(schema.components.count == 10)
        #expect(schema.operation("cornerRadius", of: "uibutton")?.params.first?.name == "radius")
        #expect(schema.operation("titleColor", of: "uibutton")?.allowsStates == true)
        #expect(schema.operation("backgroundColor", of: "uiview")?.allowsStates == false)
        #expect(schema.operation("textAlignment", of: "uitextfield")?.params.first?.allowedValues?.count == 5)
        #expect(schema.operation("titleColor", of: "uilabel") == nil)
    }
}
