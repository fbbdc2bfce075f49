import LiveryTokens
import Testing

/// The positioned reader: positions are right, and hostile input gives one located error, never a crash.
struct JSONReaderTests {
    func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode { try JSONReader.parse(Array(text.utf8)) }

    func failure(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) -> JSONSyntaxError? {
        do {
            _ = try JSONReader.parse(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func valuesKnowTheirLineAndColumn() throws {
        let root = try parse("{\n  \"a\": {\n    \"b\": [1, \"é\", true]\n  },\n  \"c\": null\n}")
        let b = try #require(root["a"]?["b"])
        #expect((b.line, b.column) == (3, 10))
        let items = try #require(b.array)
        #expect((items[1].line, items[1].column) == (3, 14))
        #expect((items[2].line, items[2].column) == (3, 19))  // after the two-byte é, counted once
        let c = try #require(root.member("c"))
        #expect((c.line, c.column) == (5, 3))
    }

    @Test func stringsDecodeEscapesAndSurrogatePairs() throws {
        let root = try parse(#"{"k": "a\"b\\c\/d\n\u00e9\ud83d\ude00"}"#)
        #expect(root["k"]?.string == "a\"b\\c/d\né😀")
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 9, "expected a key"),
        ("[1, 2", 1, 6, "ends inside an array"),
        ("{\"a\": 1, \"a\": 2}", 1, 10, "appears twice"),
        ("{\"a\": 07}", 1, 7, "do not start with 0"),
        ("{\"a\": NaN}", 1, 7, "unexpected 'N'"),
        ("{\"a\": 1e400}", 1, 7, "out of range"),
        ("{\"a\": \"\\ud800\"}", 1, 8, "surrogate"),
        ("{\"a\": \"x\ny\"}", 1, 9, "control character"),
        ("\n\n  [1] 2", 3, 7, "after the JSON value"),
    ])
    func malformedInputIsLocated(_ text: String, _ line: Int, _ column: Int, _ words: String) {
        let error = failure(Array(text.utf8))
        #expect(error?.line == line && error?.column == column, "\(String(describing: error))")
        #expect(error?.message.contains(words) == true, "\(String(describing: error))")
    }

    @Test func deepNestingStopsAtTheLimitWithoutOverflowingTheStack() {
        let bytes = Array(repeating: UInt8(ascii: "["), count: 200_000)
        let error = failure(bytes)
        #expect(error?.message.contains("nest more than 64") == true)
        #expect(error?.column == 65)
    }

    @Test func hugeNumbersAndFilesAreRefused() {
        let long = "{\"n\": " + String(repeating: "9", count: 1_000_000) + "}"
        #expect(failure(Array(long.utf8))?.message.contains("at most 64") == true)
        #expect(
            failure(Array("[1,2,3]".utf8), limits: JSONLimits(maxBytes: 4))?.message.contains("larger than 4 bytes")
                == true)
    }

    @Test func invalidUTF8IsLocatedAtItsString() {
        let bytes: [UInt8] = Array("{\n \"k\": \"ab".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        let error = failure(bytes)
        #expect(error?.message.contains("not valid UTF-8") == true)
        #expect(error?.line == 2 && error?.column == 7)
        // A stray byte outside strings is a syntax error, not a crash.
        #expect(failure([0xFF])?.message.contains("byte 0xFF") == true)
    }
}
