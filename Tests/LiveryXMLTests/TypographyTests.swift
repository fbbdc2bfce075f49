import LiveryModel
import Testing

@testable import LiveryXML

/// Format 1.2, section 8 in the front end: the attributes reach the resolved font, by reference
/// and inline, and a child theme's redefinition replaces them like any constant.
@Suite struct TypographyResolutionTests {
    let workspace = ThemeWorkspace()

    func font(_ theme: ResolvedTheme, _ id: String, _ operation: String = "font") -> Font? {
        guard
            case .font(let font)? = theme.instance(id)?.operations.first(where: { $0.name == operation })?.params.first?
                .value
        else {
            return nil
        }
        return font
    }

    @Test func referencesCarryBothAttributesAndInlineFontsTheirOwn() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Text.xml": """
            <theme>
              <constants><font name="title" family="Inter" size="20" letter-spacing="-0.5" line-height="1.2"/></constants>
              <instances>
                <uilabel id="a"><operation name="font"><param name="font"><font ref="title"/></param></operation></uilabel>
                <uibutton id="b"><operation name="titleFont"><param name="font"><font ref="title"/></param></operation></uibutton>
                <uilabel id="c"><operation name="font"><param name="font"><font family="Inter" size="12" letter-spacing="0"/></param></operation></uilabel>
              </instances>
            </theme>
            """,
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/Text.xml":
                #"<theme><constants><font name="title" family="Inter" size="22"/></constants></theme>"#,
        ])
        let base = try workspace.resolve(themeAt: themes.theme("Base.theme"), traits: .none).unwrap()
        let title = Font(family: "Inter", size: 20, letterSpacing: -0.5, lineHeight: 1.2)
        #expect(font(base, "a") == title)
        #expect(font(base, "b", "titleFont") == title)
        #expect(
            font(base, "c") == Font(family: "Inter", size: 12, letterSpacing: 0),
            "0 is kept, the line height stays absent")
        // The child's redefinition is a whole new font: without the attributes it has none.
        let child = try workspace.resolve(themeAt: themes.theme("Child.theme"), traits: .none).unwrap()
        #expect(font(child, "a") == Font(family: "Inter", size: 22))
        #expect(workspace.validate(paths: [themes.path]).filter { $0.severity == .error }.isEmpty)
    }

    @Test func anAttributeOnAReferenceIsRefused() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/Text.xml": """
            <theme>
              <constants><font name="title" family="Inter" size="20"/></constants>
              <instances>
                <uilabel id="a"><operation name="font"><param name="font"><font ref="title" line-height="1.2"/></param></operation></uilabel>
              </instances>
            </theme>
            """,
        ])
        let findings = workspace.validate(paths: [themes.path]).filter { $0.severity == .error }
        #expect(findings.map(\.code) == [.referenceContent])
    }
}
