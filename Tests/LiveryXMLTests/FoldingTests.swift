import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// A mistake whose consequences are findings of their own is one finding, at the cause, saying
/// what was probably meant; where the meaning is certain, its fix, applied, validates clean.
@Suite struct FoldingTests {
    /// The one finding of the copy, and the copy validated again after its fix.
    func oneFindingFixedClean(_ copy: SampleThemeCopy, fix expected: Diagnostic.Fix?) throws -> Diagnostic {
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let finding = try #require(findings.first)
        #expect(finding.fix == expected, "\(finding.description)")
        if finding.fix != nil {
            try FixWriter.apply(finding) { copy.path + "/" + $0 }
            #expect(copy.validate().isEmpty, "\(copy.validate().map(\.description))")
        }
        return finding
    }

    @Test func aBareValueInAParamIsOneFindingToWrapIt() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<param name=\"color\"><color>#FFFFFFF2</color></param>",
            with: "<param name=\"color\">#FFFFFFF2</param>")
        let finding = try oneFindingFixedClean(
            copy, fix: Diagnostic.Fix(replacing: "#FFFFFFF2", with: "<color>#FFFFFFF2</color>"))
        #expect(finding.message.contains("wrap '#FFFFFFF2' in <color>"), "\(finding.message)")
    }

    @Test func anInstanceNamedWithNameIsOneFindingToRenameTheAttribute() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<uilabel id=\"label_title\">", with: "<uilabel name=\"label_title\">")
        let finding = try oneFindingFixedClean(copy, fix: Diagnostic.Fix(replacing: "name", with: "id"))
        #expect(finding.message.contains("an instance is named by 'id'"), "\(finding.message)")
        #expect(finding.severity == .error)
    }

    @Test func aParentElementInInfoIsOneFindingWhoseFixWritesTheAttribute() throws {
        let copy = try SampleThemeCopy()
        // over several lines, as an editor's formatter leaves it
        try copy.write(
            "Dark.theme/Info.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <theme-info id="com.livery.dark" name="Dark" version="1.0.0">
              <parent>
                com.livery.base
              </parent>
              <description>Dark</description>
            </theme-info>
            """)
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let finding = try #require(findings.first)
        #expect(finding.location?.file == "Dark.theme/Info.xml")
        #expect(finding.location?.line == 3)
        #expect(finding.message.contains("parent=\"com.livery.base\""), "\(finding.message)")
        // two edits of one file: the attribute added, the element's lines removed
        let fix = try #require(finding.fix)
        #expect(fix.edits.count == 2 && fix.edits.allSatisfy { $0.location?.file == "Dark.theme/Info.xml" })
        try FixWriter.apply(finding) { copy.path + "/" + $0 }
        #expect(
            try String(contentsOfFile: copy.path + "/Dark.theme/Info.xml", encoding: .utf8) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <theme-info id="com.livery.dark" name="Dark" version="1.0.0" parent="com.livery.base">
                  <description>Dark</description>
                </theme-info>
                """)
        #expect(copy.validate().isEmpty, "\(copy.validate().map(\.description))")
    }

    @Test func aParentUsingAChildsConstantIsToldWhereItIsDefinedAndTheFixMovesItUp() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Dark.theme/Palette.xml", replacing: "<color name=\"brandPressed\">#0066CC</color>",
            with: "<color name=\"brandPressed\">#0066CC</color>\n    <color name=\"darkOnly\">#0A84FF</color>")
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<param name=\"color\"><color ref=\"accent\"/></param>",
            with: "<param name=\"color\"><color ref=\"darkOnly\"/></param>")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let finding = try #require(findings.first)
        #expect(finding.code == .referenceUnknown)
        #expect(finding.message.contains("a parent cannot see its children's definitions"), "\(finding.message)")
        #expect(finding.message.contains("Dark.theme"), "\(finding.message)")
        #expect(finding.notes.contains { $0.location?.file == "Dark.theme/Palette.xml" && $0.location?.line == 8 })
        // one fix, two files: into Base's palette (its file of constants), out of Dark's
        let fix = try #require(finding.fix)
        #expect(fix.edits.map { $0.location?.file } == ["Base.theme/Constants.xml", "Dark.theme/Palette.xml"])
        #expect(fix.title == "Move 'darkOnly' up from Dark.theme/Palette.xml into Base.theme/Constants.xml")
        try FixWriter.apply(finding) { copy.path + "/" + $0 }
        let palette = try String(contentsOfFile: copy.path + "/Dark.theme/Palette.xml", encoding: .utf8)
        let original = try String(
            contentsOfFile: SampleThemeCopy.repositoryThemes + "/Dark.theme/Palette.xml", encoding: .utf8)
        #expect(palette == original, "the child's file is as it was before the definition was added")
        let constants = try String(contentsOfFile: copy.path + "/Base.theme/Constants.xml", encoding: .utf8)
        #expect(constants.contains("\n    <color name=\"darkOnly\">#0A84FF</color>\n  </constants>"), "\(constants)")
        #expect(copy.validate().isEmpty, "\(copy.validate().map(\.description))")
    }

    @Test func aParentWithoutConstantsGetsASectionForTheConstantMovedUp() throws {
        let copy = try SampleThemeCopy()
        for folder in ["Mini.theme", "MiniChild.theme"] {
            try FileManager.default.createDirectory(atPath: copy.path + "/" + folder, withIntermediateDirectories: true)
        }
        try copy.write(
            "Mini.theme/Info.xml", "<theme-info id=\"com.example.mini\" name=\"Mini\" version=\"1.0.0\"/>\n")
        let screen = """
            <theme>
              <instances>
                <uiview id="panel">
                  <operation name="backgroundColor">
                    <param name="color"><color ref="wash"/></param>
                  </operation>
                </uiview>
              </instances>
            </theme>

            """
        try copy.write("Mini.theme/Screen.xml", screen)
        try copy.write(
            "MiniChild.theme/Info.xml",
            "<theme-info id=\"com.example.mini.child\" name=\"Child\" version=\"1.0.0\" parent=\"com.example.mini\"/>\n"
        )
        try copy.write(
            "MiniChild.theme/Palette.xml",
            "<theme>\n  <constants>\n    <color name=\"wash\">#F2F2F7</color>\n  </constants>\n</theme>\n")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let finding = try #require(findings.first)
        #expect(finding.location?.file == "Mini.theme/Screen.xml" && finding.location?.line == 5)
        try FixWriter.apply(try #require(findings.first)) { copy.path + "/" + $0 }
        #expect(
            try String(contentsOfFile: copy.path + "/Mini.theme/Screen.xml", encoding: .utf8)
                == screen.replacingOccurrences(
                    of: "<theme>\n",
                    with: "<theme>\n  <constants>\n    <color name=\"wash\">#F2F2F7</color>\n  </constants>\n"))
        #expect(
            try String(contentsOfFile: copy.path + "/MiniChild.theme/Palette.xml", encoding: .utf8)
                == "<theme>\n  <constants>\n  </constants>\n</theme>\n")
        #expect(copy.validate().isEmpty, "\(copy.validate().map(\.description))")
    }

    @Test func wordsOfOtherToolsAreReadAsTheirLiveryWords() throws {
        // CSS's font-weight attribute: read as weight, one finding with the rename
        var copy = try SampleThemeCopy()
        try copy.edit("Base.theme/Chat~ipad.xml", replacing: "weight=\"semibold\"", with: "font-weight=\"semibold\"")
        _ = try oneFindingFixedClean(copy, fix: Diagnostic.Fix(replacing: "font-weight", with: "weight"))
        // a foundry's weight name: the list, and the one meant
        copy = try SampleThemeCopy()
        try copy.edit("Base.theme/Chat~ipad.xml", replacing: "weight=\"semibold\"", with: "weight=\"demibold\"")
        let weight = try oneFindingFixedClean(copy, fix: Diagnostic.Fix(replacing: "demibold", with: "semibold"))
        #expect(weight.message.contains("most likely 'semibold'"), "\(weight.message)")
    }
}
