import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// Format 1.1, 7.3 on Tests/Fixtures/Warnings/contrast-low: exactly the pairs that fall short are
/// reported, once each, and the exempt ones (disabled state, translucent or missing background,
/// large text at 3:1, 4.54:1 at 4.5) are not. The fixture's expected.txt checks the wording.
@Suite struct ContrastCheckTests {
    static let folder = Fixture.root + "/Warnings/contrast-low"

    func findings() -> [Diagnostic] {
        ThemeWorkspace().validate(paths: [Self.folder]).filter { $0.code == .contrastLow }
    }

    @Test func exactlyTheShortPairsAreReportedOnce() {
        let reported = findings().map { finding -> String in
            let instance = finding.message.split(separator: "'")[1]
            let state = finding.message.components(separatedBy: "(state ")[1].prefix { $0 != ")" }
            return "\(instance) \(state)"
        }
        #expect(
            reported.sorted() == [
                "bubble_custom normal", "button_states highlighted", "label_large normal", "label_normal normal",
                "label_normal_short normal", "label_small_short normal", "label_translucent_text normal",
            ])
    }

    @Test func highContrastFindingsNameOnlyTheHighContrastTraitSets() throws {
        let normal = try #require(findings().first { $0.message.contains("'label_normal'") })
        #expect(normal.message.hasSuffix("short with traits: highcontrast"))
        #expect(normal.message.contains("below the 7:1 WCAG 2.2 asks of normal text under highcontrast"))
        let large = try #require(findings().first { $0.message.contains("'label_large'") })
        #expect(large.message.contains("below the 4.5:1 WCAG 2.2 asks of large text under highcontrast"))
    }

    /// Two background colours in one state: the first one stands (the text is judged against it).
    @Test func theFirstBackgroundOfAStateStands() throws {
        let themes = try TemporaryThemes([
            "Two.theme/Info.xml": TemporaryThemes.info("two"),
            "Two.theme/Components.xml": """
            <components><component name="pill" extends="uilabel">
            <operation name="fillColor"><param name="color" type="color" role="background-color"/></operation>
            </component></components>
            """,
            "Two.theme/Chat.xml": """
            <theme><instances><pill id="p">
            <operation name="backgroundColor"><param name="color"><color>#000000</color></param></operation>
            <operation name="fillColor"><param name="color"><color>#FFFFFF</color></param></operation>
            <operation name="textColor"><param name="color"><color>#FFFFFF</color></param></operation>
            </pill></instances></theme>
            """,
        ])
        let found = ThemeWorkspace().validate(paths: [themes.theme("Two.theme")])
        #expect(found.isEmpty, "\(found)")
    }

    @Test func aCheckedThemeWithoutProblemsHasNoFindings() throws {
        let themes = try TemporaryThemes([
            "Ok.theme/Info.xml": TemporaryThemes.info("ok"),
            "Ok.theme/Chat.xml": """
            <theme><instances><uilabel id="l">
            <operation name="backgroundColor"><param name="color"><color>#FFFFFF</color></param></operation>
            <operation name="textColor"><param name="color"><color>#767676</color></param></operation>
            </uilabel></instances></theme>
            """,
        ])
        #expect(ThemeWorkspace().validate(paths: [themes.theme("Ok.theme")]).isEmpty)
        let unchecked = ThemeWorkspace()
        unchecked.checksContrast = false
        #expect(unchecked.validate(paths: [Self.folder]).filter { $0.code == .contrastLow }.isEmpty)
    }
}
