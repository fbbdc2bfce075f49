import LiveryModel
import Testing

@testable import LiveryXML

/// The byte spans the studio's write-back works from: an element's extent must end at its own end
/// tag whatever its descendants look like.
@Suite struct SourceOutlineTests {
    static let file = """
        <theme>
          <instances>
            <uibutton id="send">
              <!-- a comment with <tags/> and a quoted "> -->
              <operation name="backgroundColor"><param name="color"><color ref="brand"/></param></operation>
              <operation name="alpha"><param name="value"><float>0.5</float></param></operation>
            </uibutton>
            <uilabel id="title"/>
          </instances>
        </theme>

        """

    func text(_ outline: SourceOutline, _ span: SourceSpan?) -> String? {
        span.map { String(decoding: outline.bytes[$0.range], as: UTF8.self) }
    }

    /// A self-closing descendant (`<color ref="brand"/>`) opens nothing: counted as open, it would
    /// carry the instance's extent on to the end of `</instances>`.
    @Test func anElementEndsAtItsOwnEndTagPastSelfClosingDescendants() throws {
        let outline = try #require(SourceOutline.make(path: "t.xml", bytes: Array(Self.file.utf8)).value)
        let send = try #require(outline.instances.first { $0.id == "send" })
        let element = try #require(text(outline, send.spans.element))
        #expect(element.hasPrefix("<uibutton id=\"send\">"))
        #expect(element.hasSuffix("</operation>\n    </uibutton>"))
        #expect(text(outline, send.spans.content)?.hasSuffix("</operation>\n    ") == true)
        #expect(send.spans.indentation == "    ")
    }

    @Test func aSelfClosingElementHasNoContent() throws {
        let outline = try #require(SourceOutline.make(path: "t.xml", bytes: Array(Self.file.utf8)).value)
        let title = try #require(outline.instances.first { $0.id == "title" })
        #expect(text(outline, title.spans.element) == "<uilabel id=\"title\"/>")
        #expect(title.spans.content == nil)
        let reference = try #require(outline.values.first { $0.type == .color })
        #expect(reference.isReference)
        #expect(reference.spans.content == nil)
        #expect(text(outline, reference.spans.attribute("ref")) == "brand")
        let number = try #require(outline.values.first { $0.type == .float })
        #expect(text(outline, number.spans.content) == "0.5")
    }
}
