import Testing

@testable import LiveryModel

/// A fix's edits: located by the text they replace, across lines and files, applied together
/// or not at all.
@Suite struct FixTests {
    typealias Edit = Diagnostic.Fix.Edit

    static let info = """
        <theme-info id="a" name="A">
          <parent>
            b
          </parent>
        </theme-info>
        """
    static let palette = "<theme>\n  <constants>\n    <color name=\"x\">#FFF</color>\n  </constants>\n</theme>\n"

    func at(_ file: String, _ line: Int, _ column: Int) -> LiveryModel.SourceLocation {
        LiveryModel.SourceLocation(file: file, line: line, column: column)
    }

    func apply(_ fix: Diagnostic.Fix, at finding: LiveryModel.SourceLocation?, _ files: [String: String])
        throws(Diagnostic.FixError)
        -> [String: String]
    {
        Dictionary(uniqueKeysWithValues: try fix.applied(at: finding) { files[$0] }.map { ($0.file, $0.text) })
    }

    @Test func aDidYouMeanReplacesTheWordAtOrAfterTheColumnAndItsOtherPlaces() throws {
        let fix = Diagnostic.Fix(replacing: "colr", with: "color", alsoAt: [at("A.xml", 2, 1)])
        #expect(fix.edits.count == 2 && fix.title == "Replace 'colr' with 'color'")
        let text = "<colr name=\"colrs\"><colr/>\n</colr>"
        let fixed = try apply(fix, at: at("A.xml", 1, 2), ["A.xml": text])
        #expect(fixed == ["A.xml": "<color name=\"colrs\"><colr/>\n</color>"])
        // not inside a longer word: `colrs` is skipped for the second `colr`
        let second = try apply(
            Diagnostic.Fix(replacing: "colr", with: "color"), at: at("A.xml", 1, 3), ["A.xml": text])
        #expect(second == ["A.xml": "<colr name=\"colrs\"><color/>\n</colr>"])
    }

    @Test func editsSpanLinesAndFilesAndApplyFromTheirOwnPlaces() throws {
        let fix = Diagnostic.Fix(
            "Write parent, move x",
            edits: [
                Edit(at: at("Info.xml", 1, 28), replacing: ">", with: " parent=\"b\">"),
                Edit(at: at("Info.xml", 2, 1), replacing: "  <parent>\n    b\n  </parent>\n", with: ""),
                Edit(at: at("Palette.xml", 3, 1), replacing: "    <color name=\"x\">#FFF</color>\n", with: ""),
            ])
        let span = try #require(fix.edits[1].span(from: at("Info.xml", 2, 1), lines: TextLines(Self.info).line))
        #expect(span == TextSpan(start: .init(line: 2, column: 1), end: .init(line: 5, column: 1)))
        let fixed = try apply(fix, at: nil, ["Info.xml": Self.info, "Palette.xml": Self.palette])
        #expect(fixed["Info.xml"] == "<theme-info id=\"a\" name=\"A\" parent=\"b\">\n</theme-info>")
        #expect(fixed["Palette.xml"] == "<theme>\n  <constants>\n  </constants>\n</theme>\n")
        // in the order the edits name the files
        #expect(
            try fix.applied(at: nil) { ["Info.xml": Self.info, "Palette.xml": Self.palette][$0] }.map(\.file) == [
                "Info.xml", "Palette.xml",
            ])
    }

    @Test func anInsertionGoesAtItsColumnAndCRLFLinesAreLines() throws {
        let fix = Diagnostic.Fix(
            "Insert", edits: [Edit(at: at("P.xml", 4, 1), replacing: "", with: "    <float name=\"y\">1</float>\n")])
        #expect(
            try apply(fix, at: nil, ["P.xml": Self.palette])["P.xml"]
                == "<theme>\n  <constants>\n    <color name=\"x\">#FFF</color>\n    <float name=\"y\">1</float>\n  </constants>\n</theme>\n"
        )
        let crlf = Self.palette.replacingOccurrences(of: "\n", with: "\r\n")
        let removal = Diagnostic.Fix(
            "Remove",
            edits: [Edit(at: at("P.xml", 3, 1), replacing: "    <color name=\"x\">#FFF</color>\r\n", with: "")])
        #expect(
            try apply(removal, at: nil, ["P.xml": crlf])["P.xml"]
                == "<theme>\r\n  <constants>\r\n  </constants>\r\n</theme>\r\n")
    }

    @Test func overlappingEditsAndMovedTextAreRefusedWhole() throws {
        let overlapping = Diagnostic.Fix(
            "Overlap",
            edits: [
                Edit(at: at("Info.xml", 2, 1), replacing: "  <parent>\n    b", with: ""),
                Edit(at: at("Info.xml", 3, 5), replacing: "b\n  </parent>", with: "c"),
            ])
        #expect(throws: Diagnostic.FixError.overlapping(at("Info.xml", 2, 1), at("Info.xml", 3, 5))) {
            try apply(overlapping, at: nil, ["Info.xml": Self.info])
        }
        // two insertions at one place: which goes first is not defined
        let twice = Diagnostic.Fix(
            "Twice",
            edits: [
                Edit(at: at("A", 1, 1), replacing: "", with: "x"), Edit(at: at("A", 1, 1), replacing: "", with: "y"),
            ])
        #expect(throws: Diagnostic.FixError.self) { try apply(twice, at: nil, ["A": "text"]) }
        // touching is not overlapping
        let touching = Diagnostic.Fix(
            "Touch",
            edits: [
                Edit(at: at("A", 1, 1), replacing: "<a>", with: "x"),
                Edit(at: at("A", 1, 4), replacing: "<b>", with: "y"),
            ])
        #expect(try apply(touching, at: nil, ["A": "<a><b>"]) == ["A": "xy"])
        // the second file changed since: nothing is applied, the error names the place
        let moved = Diagnostic.Fix(
            "Move",
            edits: [
                Edit(at: at("Info.xml", 1, 28), replacing: ">", with: " parent=\"b\">"),
                Edit(at: at("Palette.xml", 2, 1), replacing: "    <color name=\"x\">#FFF</color>\n", with: ""),
            ])
        #expect(
            throws: Diagnostic.FixError.notFound("    <color name=\"x\">#FFF</color>\n", at: at("Palette.xml", 2, 1))
        ) {
            try apply(moved, at: nil, ["Info.xml": Self.info, "Palette.xml": Self.palette])
        }
        #expect(throws: Diagnostic.FixError.unplaced) {
            try apply(Diagnostic.Fix(replacing: "a", with: "b"), at: nil, [:])
        }
    }
}
