import LiveryModel
import Testing

@testable import LiveryXML

/// Every libxml2 error a designer can meet while editing a theme file by hand, in plain words
/// with its fix: none passes libxml2's own text through.
@Suite struct LibXMLMessageTests {
    static let cases: [(snippet: String, says: String)] = [
        ("<theme><s>a < b</s></theme>", "write &lt;"),
        ("<theme><s>a <3</s></theme>", "write &lt;"),
        ("<theme><s a=\"x<y\"/></theme>", "write it as &lt;"),
        ("<theme><s a=\"x/></theme>", "closing quote is missing"),
        ("<theme><s>a & b</s></theme>", "write &amp;"),
        ("<theme><s a=\"&\"/></theme>", "write &amp;"),
        ("<theme><s>a &amp b</s></theme>", "write &amp;"),
        (
            "<theme><s>a &nbsp; b</s></theme>",
            "&nbsp; is an HTML entity, which XML does not know; write the character, or &#160;"
        ),
        ("<theme><s>a &zwsp; b</s></theme>", "&zwsp; is not an entity XML knows"),
        ("<theme><s a=\"x\"b=\"y\"/></theme>", "separated by a space"),
        ("<theme><s a=x/></theme>", "an attribute value needs quotes: write a=\"x\""),
        ("<theme><s a=\u{201C}x\u{201D}/></theme>", "typographic quotes"),
        ("<theme><s a/></theme>", "needs a quoted value"),
        ("<theme><s a=\"1\" a=\"2\"/></theme>", "given twice"),
        ("<theme><!-- a -- b --></theme>", "cannot hold '--'"),
        ("<theme><!-- a </theme>", "end it with -->"),
        ("<theme><!-- a <!-- b --> --></theme>", "comments do not nest"),
        ("<theme><s>x</s></s></theme>", "a second </s> closes nothing"),
        ("<theme><s></t></theme>", "</t> does not close the open <s>"),
        ("<theme><s>", "the file ends while <s> is still open"),
        ("<theme></theme><x/>", "one root element"),
        ("", "the file is empty"),
        ("<theme>a</theme><?XML x?>", "cannot be named 'xml'"),
        ("   <?xml version=\"1.0\"?><theme/>", "must be the very first thing"),
        ("<theme><s>\u{1}</s></theme>", "a control character"),
        ("<theme><s>&#1;</s></theme>", "control character"),
        ("<theme><s>&#xZZ;</s></theme>", "hexadecimal digits"),
        ("<theme><s>&#1a;</s></theme>", "decimal digits"),
        ("<theme><x:s/></theme>", "prefix 'x' is not declared"),
        ("<theme><s</theme>", "close the tag"),
        ("<theme><1s/></theme>", "no element name follows"),
        ("<theme></ theme>", "end it with '>'"),
        ("<theme><s>text</s</theme>", "end it with '>'"),
        ("<theme><s>]]></s></theme>", "write ]]&gt;"),
        ("<theme><![CDATA[ x </theme>", "end it with ]]>"),
        ("<theme><?pi x</theme>", "end it with ?>"),
        ("<?xml version=\"1.0\" encoding=\"UTF-8\"><theme/>", "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"),
        ("<?xml version=\"2.0\"?><theme/>", "write version=\"1.0\""),
    ]

    @Test(arguments: cases.indices)
    func saysWhatIsWrongAndTheFix(_ index: Int) {
        let (snippet, says) = Self.cases[index]
        let result = XMLDocumentParser.parse(SourceText(path: "t.xml", bytes: Array(snippet.utf8)))
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(snippet): \(result.diagnostics.map(\.description))")
        let message = errors.first?.message ?? ""
        #expect(message.contains(says), "\(snippet): \(message)")
        // libxml2's own phrasing never reaches a designer
        for phrase in [
            "StartTag", "xmlParse", "EntityRef:", "AttValue", "PCDATA", "Specification mandates", "construct error",
            "CharRef", "Premature end", "not terminated", "Couldn't find end",
        ] {
            #expect(!message.contains(phrase), "\(snippet): \(message)")
        }
    }
}
