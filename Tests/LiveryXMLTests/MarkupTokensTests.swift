import Testing

@testable import LiveryXML

/// The one forgiving tokenizer of markup: what each token is, and that half-typed buffers (a tag,
/// a quote, a comment, a CDATA section not closed yet) never swallow what follows.
@Suite struct MarkupTokensTests {
    enum Shape: Equatable {
        case text(String)
        case comment(closed: Bool)
        case cdata(closed: Bool)
        case instruction(closed: Bool)
        case declaration
        case start(String, empty: Bool, closed: Bool)
        case end(String, closed: Bool)
    }

    func shapes(_ text: String) -> [Shape] {
        let bytes = Array(text.utf8)
        let tokens = MarkupTokens(bytes)
        return tokens.map { token in
            switch token.kind {
            case .text: .text(String(decoding: bytes[token.range], as: UTF8.self))
            case .comment: .comment(closed: token.closed)
            case .cdata: .cdata(closed: token.closed)
            case .processingInstruction: .instruction(closed: token.closed)
            case .declaration: .declaration
            case .startTag(_, let empty): .start(tokens.name(of: token)!, empty: empty, closed: token.closed)
            case .endTag: .end(tokens.name(of: token)!, closed: token.closed)
            }
        }
    }

    @Test func aWholeFileIsEveryKindOfToken() {
        let text = """
            <?xml version="1.0"?><!DOCTYPE x><!-- a <b> --><theme a="1>2"><![CDATA[</theme>]]><x/></theme>
            """
        #expect(
            shapes(text) == [
                .instruction(closed: true), .declaration, .comment(closed: true),
                .start("theme", empty: false, closed: true), .cdata(closed: true),
                .start("x", empty: true, closed: true), .end("theme", closed: true),
            ])
        // the tokens cover the text, in order, without gaps
        let ranges = MarkupTokens(Array(text.utf8)).map(\.range)
        #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == text.utf8.count)
        #expect(zip(ranges, ranges.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
    }

    @Test func aTagBeingTypedEndsAtTheNextTag() {
        // a start tag with an open quote, then an end tag without its `>`
        #expect(
            shapes("<a>\n  <uilabel id=\"half\n  <b/>\n</a\n<c></c>") == [
                .start("a", empty: false, closed: true), .text("\n  "),
                .start("uilabel", empty: false, closed: false), .start("b", empty: true, closed: true), .text("\n"),
                .end("a", closed: false), .start("c", empty: false, closed: true), .end("c", closed: true),
            ])
        // the bare `<` just typed
        #expect(shapes("<a><") == [.start("a", empty: false, closed: true), .start("", empty: false, closed: false)])
    }

    @Test func constructsNotClosedRunToTheEnd() {
        #expect(shapes("<a><!-- <b></b>") == [.start("a", empty: false, closed: true), .comment(closed: false)])
        #expect(shapes("<a><![CDATA[ <b>") == [.start("a", empty: false, closed: true), .cdata(closed: false)])
        #expect(shapes("<?xml version") == [.instruction(closed: false)])
    }

    @Test func theEndTagSkipsCommentsCDATAAndInstructionsThatHoldOne() throws {
        // EndTags once took the `</color>` inside the CDATA section and the instruction for the end
        let text = "<color a=\"x>y\"><?pi </color>?><![CDATA[</color>]]><!-- </color> --><color>x</color></color>"
        let bytes = Array(text.utf8)
        let extent = try #require(EndTags.extent(ofElementAt: 0, in: bytes))
        #expect(extent == 0..<bytes.count)
        #expect(EndTags.extent(ofElementAt: 0, in: Array("<color/>".utf8)) == 0..<8)
        // not closed yet: no end tag to find
        #expect(EndTags.extent(ofElementAt: 0, in: Array("<color>x</colo".utf8)) == nil)
        #expect(EndTags.extent(ofElementAt: 0, in: Array("<color a=\"x".utf8)) == nil)
    }

    @Test func aCommentHoldingACommentIsFoundPastCDATA() {
        let text = "<a><![CDATA[<!-- not a comment ]]><!-- outer <!-- inner --> --></a>"
        #expect(
            CommentCheck.firstProblem(in: Array(text.utf8))
                == .nested(outer: 34, inner: 45))
        #expect(CommentCheck.firstProblem(in: Array("<a><!-- never closed".utf8)) == .unclosed(open: 3))
        #expect(CommentCheck.firstProblem(in: Array("<a><!----></a>".utf8)) == nil)
    }
}
