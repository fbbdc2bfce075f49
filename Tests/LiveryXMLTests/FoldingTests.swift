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
        if let fix = finding.fix, let location = finding.location {
            let text = try String(contentsOfFile: copy.path + "/" + location.file, encoding: .utf8)
            let fixed = try #require(fix.applied(to: text, at: location))
            try copy.write(location.file, fixed)
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

    @Test func aParentElementInInfoIsOneFindingReadAsTheParentAttribute() throws {
        let copy = try SampleThemeCopy()
        try copy.write(
            "Dark.theme/Info.xml",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <theme-info id="com.livery.dark" name="Dark" version="1.0.0">
              <parent>com.livery.base</parent>
            </theme-info>
            """)
        let finding = try oneFindingFixedClean(copy, fix: nil)
        #expect(finding.location?.file == "Dark.theme/Info.xml")
        #expect(finding.location?.line == 3)
        #expect(finding.message.contains("parent=\"com.livery.base\""), "\(finding.message)")
    }

    @Test func aParentUsingAChildsConstantIsToldWhereItIsDefined() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Dark.theme/Palette.xml", replacing: "<color name=\"brand\">#0A84FF</color>",
            with: "<color name=\"brand\">#0A84FF</color>\n    <color name=\"darkOnly\">#0A84FF</color>")
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<param name=\"color\"><color ref=\"accent\"/></param>",
            with: "<param name=\"color\"><color ref=\"darkOnly\"/></param>")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let finding = try #require(findings.first)
        #expect(finding.code == .referenceUnknown)
        #expect(finding.message.contains("a parent cannot see its children's definitions"), "\(finding.message)")
        #expect(finding.message.contains("Dark.theme"), "\(finding.message)")
        #expect(finding.notes.contains { $0.location?.file == "Dark.theme/Palette.xml" && $0.location?.line == 7 })
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
