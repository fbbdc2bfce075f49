import Foundation
import Testing

@testable import LiveryLanguageServer

@Suite struct MarkupScanUpdateTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Symbols brought up to date after an edit are those of reading the new text afresh,
    /// whether the edit stayed in an attribute value (updated in place) or not (read again).
    @Test func anUpdateIsTheScanOfTheNewText() throws {
        let path = Self.repository.appendingPathComponent("Themes/Base.theme/Chat.xml").path
        var text = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var symbols = FileSymbols(path: path, document: TextDocument(bytes: text))
        var generator = SeededGenerator(seed: 7)
        var updated = 0
        for step in 0..<400 {
            // an edit near an attribute value's quote, or anywhere
            let quotes = text.indices.filter { text[$0] == UInt8(ascii: "\"") }
            let at =
                step % 4 == 3
                ? Int.random(in: 0...text.count, using: &generator)
                : quotes.randomElement(using: &generator)! + Int.random(in: -2...2, using: &generator)
            let start = min(max(at, 0), text.count)
            let end = min(start + Int.random(in: 0...2, using: &generator), text.count)
            let typed: [[UInt8]] = [
                [], Array("o".utf8), Array("ab".utf8), Array("\"".utf8), Array("<".utf8), Array("é".utf8),
            ]
            text.replaceSubrange(start..<end, with: typed.randomElement(using: &generator)!)
            let document = TextDocument(bytes: text)
            if symbols.update(to: document) {
                updated += 1
            } else {
                symbols = FileSymbols(path: path, document: document)
            }
            let fresh = FileSymbols(path: path, document: document)
            #expect(symbols.scan.elements == fresh.scan.elements, "step \(step)")
            #expect(symbols.definitions == fresh.definitions && symbols.uses == fresh.uses, "step \(step)")
            #expect(symbols.document.bytes == text)
            for offset in stride(from: 0, through: text.count, by: 97) {
                #expect(symbols.scan.tag(at: offset) == fresh.scan.tag(at: offset))
                #expect(symbols.scan.container(of: offset) == fresh.scan.container(of: offset))
            }
            if symbols.scan.elements != fresh.scan.elements { return }
        }
        // most edits near a quote stay inside a value: the update is what is tested
        #expect(updated > 50)
    }

    @Test func typingAQuoteOrATagIsReadAgain() {
        let text = Array(#"<theme><instances><uiview id="a"/><uiview id="b"/></instances></theme>"#.utf8)
        var symbols = FileSymbols(path: "t.xml", document: TextDocument(bytes: text))
        // the start of the value "a"
        let at = Array(#"<theme><instances><uiview id=""#.utf8).count
        for typed in ["\"", "<"] {
            var edited = text
            edited.insert(contentsOf: Array(typed.utf8), at: at)
            var copy = symbols
            let updated = copy.update(to: TextDocument(bytes: edited))
            #expect(!updated, "\(typed)")
        }
        var edited = text
        edited.insert(contentsOf: Array("x".utf8), at: at)
        let updated = symbols.update(to: TextDocument(bytes: edited))
        #expect(updated)
        #expect(symbols.definitions.map(\.name) == ["xa", "b"])
        #expect(
            symbols.definitions[1].start
                == FileSymbols(path: "t.xml", document: TextDocument(bytes: edited)).definitions[1].start)
    }
}

/// A generator that repeats: a failing sequence of edits can be run again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state
    }
}
