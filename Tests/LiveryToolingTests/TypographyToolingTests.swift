import Foundation
import LiveryModel
import LiveryXML
import Testing

@testable import LiveryTooling

/// Format 1.2, section 8 in the tools: `diff` and `explain` print letter spacing and line height
/// (one `ValueText`), the preview draws them as CSS, `generate-swift` shows them.
@Suite struct TypographyToolingTests {
    static func themes(_ old: String, _ new: String) throws -> Scratch {
        try Scratch([
            "Old.theme/Info.xml": Scratch.info("app", parent: nil),
            "Old.theme/A.xml":
                "<theme><instances><uilabel id=\"title\"><operation name=\"font\"><param name=\"font\">\(old)</param></operation></uilabel></instances></theme>",
            "New.theme/Info.xml": Scratch.info("app", parent: nil),
            "New.theme/A.xml":
                "<theme><instances><uilabel id=\"title\"><operation name=\"font\"><param name=\"font\">\(new)</param></operation></uilabel></instances></theme>",
        ])
    }

    @Test func diffShowsAChangedLineHeightOrSpacing() throws {
        let scratch = try Self.themes(
            #"<font family="Inter" size="20" line-height="1.2"/>"#,
            #"<font family="Inter" size="20" letter-spacing="0" line-height="1.25"/>"#)
        let workspace = ThemeWorkspace()
        let old = try ThemeSource.variants(at: scratch("Old.theme"), workspace: workspace).unwrap()
        let new = try ThemeSource.variants(at: scratch("New.theme"), workspace: workspace).unwrap()
        let lines = ThemeDiff.compare(old, new).text(oldLabel: "Old.theme", newLabel: "New.theme").split(
            separator: "\n")
        #expect(
            lines.contains(
                "~ title.font: font Inter 20 regular line-height 1.2 -> font Inter 20 regular spacing 0 line-height 1.25  [(no traits)]"
            ))
        // Only the 0 written differs: still a change (given and absent differ).
        let zero = try Self.themes(
            #"<font family="Inter" size="20"/>"#, #"<font family="Inter" size="20" letter-spacing="0"/>"#)
        let before = try ThemeSource.variants(at: zero("Old.theme"), workspace: workspace).unwrap()
        let after = try ThemeSource.variants(at: zero("New.theme"), workspace: workspace).unwrap()
        #expect(ThemeDiff.compare(before, after).changes.count == 1)
        #expect(ThemeDiff.compare(before, after).json().rendered(pretty: false).contains(#""letterSpacing":0"#))
    }

    @Test func previewDrawsLetterSpacingAndLineHeight() {
        let font = Font(family: "Inter", size: 10, letterSpacing: 0.5, lineHeight: 1.5)
        #expect(
            PreviewPage.fontCSS(font)
                == "font-family:'Inter',system-ui,sans-serif;font-weight:400;font-size:10px;letter-spacing:0.5px;line-height:1.5"
        )
        #expect(
            PreviewPage.fontCSS(Font(family: "Inter", size: 10))
                == "font-family:'Inter',system-ui,sans-serif;font-weight:400;font-size:10px")
        // The text-scale screen: spacing in em, so it grows with the scaled size as in the app.
        #expect(
            PreviewScreen.fontStyle(font)
                == "font-family:'Inter',system-ui,sans-serif;font-weight:400;line-height:1.5;letter-spacing:0.05em;font-size:calc(10px * var(--text-scale))"
        )
        let fixed = Font(family: "Inter", size: 12, scaling: .fixed, letterSpacing: 0.3)
        #expect(PreviewScreen.fontStyle(fixed).contains("letter-spacing:0.025em;font-size:12px"))
        let unsized = Font(family: "Inter", size: nil, letterSpacing: 1)
        #expect(PreviewScreen.fontStyle(unsized).hasSuffix("letter-spacing:1px"))
    }

    @Test func thePreviewOfTheSampleThemesHasThem() throws {
        let side = try PreviewSide.load(
            themeAt: Samples.theme("Base"), traits: .none, scale: 1, workspace: ThemeWorkspace()
        ).unwrap()
        let html = PreviewPage.render([side])
        #expect(html.contains("line-height:1.2"), "the title font")
        #expect(html.contains("line-height:1.35"), "the message font")
        #expect(html.contains("letter-spacing:0.3px"), "the timestamp caption")
    }

    @Test func generateSwiftShowsAFontConstantsValue() throws {
        let result = SwiftIdentifiers().generate(themesAt: [Samples.theme("Base")], workspace: ThemeWorkspace())
        let source = try #require(result.value?.source)
        #expect(
            source.contains(
                "    /// a font: `Helvetica Neue 12 light max 20 spacing 0.3`\n    static let fontCaption = \"fontCaption\""
            ))
        #expect(source.contains("    /// a font: `Helvetica Neue 20 semibold max 28 line-height 1.2`\n"))
    }
}
