import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// Everyday mistakes, each made once on a copy of the sample themes: each gives the one
/// finding it should, with no follow-on noise.
@Suite struct MistakeTests {
    @Test func theSamplesAreCleanBeforeAnyEdit() throws {
        let copy = try SampleThemeCopy()
        #expect(copy.validate().isEmpty)
    }

    @Test func aMissingImageIsOneFindingWithTheThemesAndTraitSetsInNotes() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<image>nav_background</image>", with: "<image>header_art</image>")
        // (nav_background, no longer referenced, is rightly unused: a warning of its own)
        let findings = copy.validate().filter { $0.severity == .error }
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let finding = try #require(findings.first)
        #expect(
            finding.description
                == "Base.theme/Chat.xml:33:29: error: no asset 'header_art': add assets/header_art.png to Base.theme [asset-missing]"
        )
        #expect(
            finding.notes.map(\.message) == [
                "applies to themes Base.theme, Dark.theme, HighContrast.theme, Light.theme, Tokens.theme"
            ])
    }

    @Test func anAssetPresentForSomeTraitsOnlyNamesThemInANote() throws {
        let copy = try SampleThemeCopy()
        // the only variant of nav_background becomes an iPad one: missing without ipad
        try FileManager.default.moveItem(
            atPath: copy.path + "/Base.theme/assets/nav_background.png",
            toPath: copy.path + "/Base.theme/assets/nav_background~ipad.png")
        let findings = copy.validate().filter { $0.code == .assetMissing }
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let notes = findings.first?.notes.map(\.message) ?? []
        #expect(notes.contains { $0.hasPrefix("only with each of no traits;") && !$0.contains("ipad") }, "\(notes)")
    }

    @Test func aCloseAssetNameIsSuggestedWithAFix() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<image>nav_background</image>", with: "<image>nav_backgrund</image>")
        let findings = copy.validate()
        #expect(
            findings.map(\.description) == [
                "Base.theme/Chat.xml:33:29: error: no asset 'nav_backgrund'; did you mean 'nav_background'? [asset-missing]"
            ])
        #expect(findings.first?.fix == Diagnostic.Fix(replacing: "nav_backgrund", with: "nav_background"))
    }

    @Test func aDeletedEndTagIsOneErrorWithoutUnusedWarnings() throws {
        let copy = try SampleThemeCopy()
        try copy.edit("Base.theme/Chat.xml", replacing: "</operation>", with: "")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let finding = try #require(findings.first)
        #expect(finding.code == .xmlSyntax)
        #expect(
            finding.message
                == "</uiview> does not close the open <operation>; add </operation> before it, or correct the end tag")
        // where the open tag is, in a note: the first <operation> of Chat.xml
        #expect(
            finding.notes == [
                Diagnostic.Note(
                    "<operation> is opened here",
                    at: LiveryModel.SourceLocation(file: "Base.theme/Chat.xml", line: 8, column: 7))
            ])
    }

    @Test func anUnescapedAmpersandSaysToWriteAmp() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Settings.xml", replacing: "Notifications &amp; Sounds", with: "Notifications & Sounds")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        #expect(findings.first?.message == "'&' starts an entity reference here; to write an ampersand, write &amp;")
        #expect(findings.first?.location?.file == "Base.theme/Settings.xml")
    }

    @Test func aConstantWithABadValueIsReportedOnceWhereItIsBroken() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Constants.xml", replacing: "size=\"20\" weight=\"semibold\"", with: "size=\"20\" weight=\"600\""
        )
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        #expect(findings.first?.code == .valueInvalid)
        #expect(findings.first?.location?.file == "Base.theme/Constants.xml")
    }

    @Test func aBrokenParentIsReportedOnlyWhereItIsBroken() throws {
        let copy = try SampleThemeCopy()
        try copy.edit("Base.theme/Info.xml", replacing: "version=\"1.0.0\"", with: "version=\"1.0\"")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        #expect(findings.first?.location?.file == "Base.theme/Info.xml")
        #expect(findings.first?.code == .attributeInvalid)
    }

    @Test func aMalformedParentInfoIsReportedOnlyWhereItIsBroken() throws {
        let copy = try SampleThemeCopy()
        try copy.edit("Base.theme/Info.xml", replacing: "</theme-info>", with: "</theme-inf>")
        let findings = copy.validate()
        #expect(findings.map(\.code) == [.xmlSyntax], "\(findings.map(\.description))")
        #expect(findings.first?.location?.file == "Base.theme/Info.xml")
    }

    @Test func aMisspeltParentIDGetsADidYouMean() throws {
        let copy = try SampleThemeCopy()
        try copy.edit("Dark.theme/Info.xml", replacing: "parent=\"com.livery.base\"", with: "parent=\"com.livery.bse\"")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        #expect(findings.first?.code == .parentMissing)
        #expect(
            findings.first?.message.hasSuffix("; did you mean 'com.livery.base'?") == true,
            "\(findings.map(\.description))")
        #expect(findings.first?.fix == Diagnostic.Fix(replacing: "com.livery.bse", with: "com.livery.base"))
    }

    @Test func aQualifierFarFromEveryTagGetsTheListNotAGuess() throws {
        let copy = try SampleThemeCopy()
        try copy.write("Light.theme/Chat~nite.xml", "<theme/>\n")
        let findings = copy.validate()
        #expect(
            findings.map(\.description) == [
                "Light.theme/Chat~nite.xml: error: unknown qualifier '~nite' in 'Chat~nite.xml'; use one of iphone, ipad, tv, mac, watch, car, vision, light, dark, highcontrast, largetext, ltr, rtl, compact, comfortable [qualifier-unknown]"
            ])
    }

    @Test func anotherToolsWordForAQualifierGetsTheListAndTheOneMeant() throws {
        let copy = try SampleThemeCopy()
        try copy.write("Light.theme/Chat~night.xml", "<theme/>\n")
        let findings = copy.validate()
        #expect(
            findings.map(\.description) == [
                "Light.theme/Chat~night.xml: error: unknown qualifier '~night' in 'Chat~night.xml'; use one of iphone, ipad, tv, mac, watch, car, vision, light, dark, highcontrast, largetext, ltr, rtl, compact, comfortable; most likely 'dark' ('night' is another tool's word for it) [qualifier-unknown]"
            ])
    }

    @Test func aTransposedQualifierStillGetsADidYouMean() throws {
        let copy = try SampleThemeCopy()
        try copy.write("Light.theme/Chat~dakr.xml", "<theme/>\n")
        #expect(copy.validate().first?.message.hasSuffix("did you mean 'dark'?") == true)
    }

    @Test func typeNamesTakeTheRightArticle() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<param name=\"count\"><integer>1</integer></param>",
            with: "<param name=\"count\"><float>1</float></param>")
        let messages = copy.validate().map(\.message)
        #expect(messages == ["param 'count' of 'numberOfLines' takes an integer, not a float"], "\(messages)")
    }

    @Test func aMisspeltClassAttributeIsOneErrorWithAFixAndIsReadAsMeant() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<uilabel id=\"label_timestamp\" class=",
            with: "<uilabel id=\"label_timestamp\" clas=")
        let findings = copy.validate()
        // read as class: the class it names is not reported unused
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let typo = try #require(findings.first { $0.code == .attributeUnknown })
        #expect(typo.severity == .error)
        #expect(typo.fix == Diagnostic.Fix(replacing: "clas", with: "class"))
    }

    @Test func anAttributeNearNoAllowedNameIsAWarningAndIgnored() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<uilabel id=\"label_timestamp\" class=",
            with: "<uilabel id=\"label_timestamp\" note=\"draft\" class=")
        let findings = copy.validate()
        #expect(
            findings.map(\.description) == [
                "Base.theme/Chat.xml:79:35: warning: <uilabel> has no attribute 'note'; it is ignored [attribute-unknown]"
            ])
    }

    @Test func anOperationOfAnotherComponentNamesWhereItBelongsAndThisOnesOfTheSameRole() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<operation name=\"textColor\">", with: "<operation name=\"titleColor\">")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        #expect(
            findings.first?.message
                == "unknown operation 'titleColor' for uilabel: it belongs to uibutton and uinavigationbar; a uilabel's text colour is 'textColor'"
        )
        #expect(findings.first?.fix == Diagnostic.Fix(replacing: "titleColor", with: "textColor"))
    }

    @Test func anImageNamedByItsFileSuggestsTheAssetName() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<image>nav_background</image>", with: "<image>nav_background.png</image>"
        )
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        #expect(
            findings.first?.message
                == "'nav_background.png' is a file name; an <image> names the asset, without extension, scale or qualifiers: write 'nav_background'"
        )
        #expect(findings.first?.fix == Diagnostic.Fix(replacing: "nav_background.png", with: "nav_background"))
    }

    @Test func aComponentTypeInTheWrongCaseIsOneFindingWithAFixForBothTags() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<uilabel id=\"label_title\">", with: "<UILabel id=\"label_title\">")
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "    </uilabel>\n\n    <uilabel id=\"label_message\">",
            with: "    </UILabel>\n\n    <uilabel id=\"label_message\">")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let fix = try #require(findings.first?.fix)
        #expect(fix.replaced == "UILabel" && fix.replacement == "uilabel" && fix.edits.count == 2)
    }

    @Test func aThemeThatIsItsOwnParentIsOneFinding() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Info.xml", replacing: "<theme-info id=\"com.livery.base\"",
            with: "<theme-info parent=\"com.livery.base\" id=\"com.livery.base\"")
        let findings = copy.validate()
        #expect(findings.map(\.code) == [.parentCycle], "\(findings.map(\.description))")
    }

    @Test func aThemeIsNeverSuggestedAsItsOwnParent() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Dark.theme/Info.xml", replacing: "parent=\"com.livery.base\"", with: "parent=\"com.livery.drak\"")
        let findings = copy.validate()
        #expect(findings.map(\.code) == [.parentMissing])
        #expect(
            findings.first?.message.hasSuffix("; add its folder with --themes DIR") == true,
            "\(findings.map(\.description))")
    }

    // MARK: Hints that lead to a valid theme

    @Test func commentingOutABlockThatHoldsACommentSaysCommentsDoNotNest() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml",
            replacing:
                "<operation name=\"numberOfLines\">\n        <param name=\"count\"><integer>0</integer></param>  <!-- 0: as many lines as needed -->\n      </operation>",
            with:
                "<!-- <operation name=\"numberOfLines\">\n        <param name=\"count\"><integer>0</integer></param>  <!-- 0: as many lines as needed -->\n      </operation> -->"
        )
        let findings = copy.validate()
        #expect(
            findings.map(\.description) == [
                "Base.theme/Chat.xml:74:7: error: comments do not nest: this comment holds another <!-- (line 75), and ends at that comment's -->; remove the inner comment's <!-- and -->, or end this comment before it [xml-syntax]"
            ])
        #expect(
            findings.first?.notes.map(\.description) == [
                "Base.theme/Chat.xml:75:59: note: the inner comment opens here"
            ])
        // following the advice gives a valid file (the operation is then commented out)
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<!-- 0: as many lines as needed -->", with: "0: as many lines as needed")
        #expect(copy.validate().allSatisfy { $0.code != .xmlSyntax })
    }

    @Test func anUnclosedCommentIsReportedWhereItOpens() throws {
        let copy = try SampleThemeCopy()
        try copy.edit("Base.theme/Settings.xml", replacing: "</theme>", with: "<!-- unfinished\n</theme>")
        let findings = copy.validate()
        let lines = try String(contentsOfFile: copy.path + "/Base.theme/Settings.xml", encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.hasPrefix("<!-- unfinished") }) + 1
        #expect(
            findings.map(\.description) == [
                "Base.theme/Settings.xml:\(line):1: error: this comment is never closed; end it with --> where the commented-out part ends [xml-syntax]"
            ])
        #expect(findings.first?.notes.first?.message == "the file ends here, still inside the comment")
        #expect((findings.first?.notes.first?.location?.line ?? 0) > line)
    }

    @Test func aCSSLineHeightSuggestsTheMultipleMeant() throws {
        for (written, meant) in [("120%", "1.2"), ("1.2em", "1.2"), ("24px", "1.2")] {
            let copy = try SampleThemeCopy()
            try copy.edit(
                "Base.theme/Constants.xml", replacing: "line-height=\"1.2\"", with: "line-height=\"\(written)\"")
            let findings = copy.validate()
            #expect(findings.count == 1, "\(findings.map(\.description))")
            #expect(
                findings.first?.message.hasPrefix("line-height is a multiple of the font's size, not a CSS length")
                    == true)
            #expect(findings.first?.fix == Diagnostic.Fix(replacing: written, with: meant))
            #expect(findings.first?.location?.line == 32)
        }
    }

    @Test func aConstantAmongTheInstancesIsOneFindingAndItsUsesResolve() throws {
        let copy = try SampleThemeCopy()
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "  <instances>\n",
            with: "  <instances>\n    <color name=\"notice\">#FFAA00</color>\n")
        try copy.edit(
            "Base.theme/Chat.xml", replacing: "<param name=\"color\"><color>#FFFFFFF2</color></param>",
            with: "<param name=\"color\"><color ref=\"notice\"/></param>")
        let findings = copy.validate()
        #expect(
            findings.map(\.description) == [
                "Base.theme/Chat.xml:6:5: error: <color name=\"notice\"> defines a constant, and constants belong in <constants>, not <instances>; move it into <constants> [element-unknown]"
            ])
    }

    @Test func aParentNamedByItsFolderSuggestsItsID() throws {
        let copy = try SampleThemeCopy()
        try copy.edit("Dark.theme/Info.xml", replacing: "parent=\"com.livery.base\"", with: "parent=\"Base.theme\"")
        let findings = copy.validate()
        #expect(findings.count == 1, "\(findings.map(\.description))")
        #expect(
            findings.first?.message.hasSuffix(
                "'Base.theme' names the folder Base.theme, and a parent is named by the id in its Info.xml: write 'com.livery.base'"
            ) == true, "\(findings.map(\.description))")
        #expect(findings.first?.fix == Diagnostic.Fix(replacing: "Base.theme", with: "com.livery.base"))
    }
}
