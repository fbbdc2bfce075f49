import LiveryModel
import Testing

@testable import LiveryXML

/// Format 1.3, sections 9.1 and 9.2 in the front end: colour modifiers on any `color` element,
/// late-bound through the final constant table, each mistake one error at its attribute;
/// overridable constants and the values an app gives for them.
@Suite struct DerivedColorTests {
    let workspace = ThemeWorkspace()

    static func theme(constants: String, background: String = "<color ref=\"brandPressed\"/>", text: String? = nil)
        -> String
    {
        let textOperation =
            text.map {
                "<operation name=\"textColor\"><param name=\"color\">\($0)</param></operation>"
            } ?? ""
        return """
            <theme>
              <constants>
            \(constants)
              </constants>
              <instances>
                <uilabel id="label"><operation name="backgroundColor"><param name="color">\(background)</param></operation>\(textOperation)</uilabel>
              </instances>
            </theme>
            """
    }

    func color(_ theme: ResolvedTheme?, _ operation: String = "backgroundColor") -> String? {
        guard
            case .color(let color)? = theme?.instance("label")?.operations.first(where: { $0.name == operation })?
                .params.first?.value
        else { return nil }
        return color.hexString
    }

    /// The contract's example, and late binding: a child that redefines `brand` gets its own
    /// pressed colour without writing it.
    @Test func derivedColoursFollowAChildsBrand() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Colors.xml": Self.theme(
                constants: """
                    <color name="brand">#FF3B30</color>
                    <color name="brandPressed" ref="brand" darken="0.15"/>
                    """),
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/Colors.xml": "<theme><constants><color name=\"brand\">#3478F6</color></constants></theme>",
        ])
        let base = try workspace.resolve(themeAt: themes.theme("Base.theme"), traits: .none).unwrap()
        #expect(color(base) == "#D93229FF")
        let child = try workspace.resolve(themeAt: themes.theme("Child.theme"), traits: .none).unwrap()
        let expected = ColorModifiers(shift: .darken(0.15)).apply(
            to: Color(red: 0x34 / 255, green: 0x78 / 255, blue: 0xF6 / 255))
        #expect(color(child) == expected.hexString)
        #expect(workspace.validate(paths: [themes.path]).isEmpty)
    }

    /// Modifiers on a param's literal, mix and contrast-with naming constants, in every space.
    @Test func operandsAreLateBoundConstantsOrHex() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/Colors.xml": Self.theme(
                constants: """
                    <color name="brand">#FF3B30</color>
                    <color name="paper">#FFFFFF</color>
                    <color name="brandPressed" ref="brand" mix="paper" amount="0.25" space="lch"/>
                    """,
                text: "<color contrast-with=\"brandPressed\" min-ratio=\"3\" space=\"hsl\">#FF8800</color>"),
        ])
        let theme = try workspace.resolve(themeAt: themes.theme("T.theme"), traits: .none).unwrap()
        let brand = Color(red: 1, green: 0x3B / 255, blue: 0x30 / 255)
        let pressed = ColorModifiers(shift: .mix(Color(red: 1, green: 1, blue: 1), amount: 0.25), space: .lch)
            .apply(to: brand)
        #expect(color(theme) == pressed.hexString)
        let text = ColorModifiers(contrast: .init(background: pressed, minimumRatio: 3), space: .hsl)
            .apply(to: Color(red: 1, green: 0x88 / 255, blue: 0))
        #expect(color(theme, "textColor") == text.hexString)
        #expect(ContrastRatio.ratio(text, on: pressed) >= 3)
    }

    @Test func cyclesThroughMixAndContrastWithAreErrors() throws {
        for constants in [
            ##"<color name="a" ref="b" mix="a" amount="0.5"/><color name="b">#000000</color><color name="brandPressed" ref="a"/>"##,
            ##"<color name="a" contrast-with="brandPressed">#000000</color><color name="brandPressed" ref="a"/>"##,
        ] {
            let themes = try TemporaryThemes([
                "T.theme/Info.xml": TemporaryThemes.info("t"),
                "T.theme/Colors.xml": Self.theme(constants: constants),
            ])
            let findings = workspace.validate(paths: [themes.path])
            #expect(findings.contains { $0.code == .referenceCycle }, "\(findings.map(\.description))")
        }
    }

    /// Each mistake is one error, at the attribute that carries it.
    @Test func eachMistakeIsOneErrorAtItsAttribute() throws {
        let cases: [(element: String, attribute: String, code: DiagnosticCode)] = [
            (##"<color lighten="1.5">#FF0000</color>"##, "lighten", .valueInvalid),
            (##"<color darken="much">#FF0000</color>"##, "darken", .valueInvalid),
            (##"<color alpha="-0.1">#FF0000</color>"##, "alpha", .valueInvalid),
            (##"<color lighten="0.1" darken="0.2">#FF0000</color>"##, "darken", .attributeInvalid),
            (##"<color mix="#FFFFFF">#FF0000</color>"##, "mix", .attributeMissing),
            (##"<color amount="0.5">#FF0000</color>"##, "amount", .attributeInvalid),
            (##"<color mix="#FFFFFF" amount="2">#FF0000</color>"##, "amount", .valueInvalid),
            (##"<color mix="#GGGGGG" amount="0.5">#FF0000</color>"##, "mix", .valueInvalid),
            (##"<color min-ratio="3">#FF0000</color>"##, "min-ratio", .attributeInvalid),
            (##"<color contrast-with="#FFFFFF" min-ratio="22">#FF0000</color>"##, "min-ratio", .valueInvalid),
            (##"<color lighten="0.1" space="p3">#FF0000</color>"##, "space", .valueInvalid),
            (##"<color mix="nowhere" amount="0.5">#FF0000</color>"##, "mix", .referenceUnknown),
            (##"<color contrast-with="radius">#FF0000</color>"##, "contrast-with", .referenceType),
        ]
        for (element, attribute, code) in cases {
            let source = Self.theme(constants: ##"<float name="radius">4</float>"##, background: element)
            let themes = try TemporaryThemes([
                "T.theme/Info.xml": TemporaryThemes.info("t"),
                "T.theme/Colors.xml": source,
            ])
            let errors = workspace.validate(paths: [themes.path]).filter { $0.severity == .error }
            #expect(errors.count == 1, "\(element): \(errors.map(\.description))")
            #expect(errors.first?.code == code, "\(element): \(errors.map(\.description))")
            #expect(
                errors.first?.location?.column == Self.column(of: attribute, in: element, source: source), "\(element)")
        }
    }

    /// Where `attribute` of `element` stands in `source` (1-based), on its line.
    static func column(of attribute: String, in element: String, source: String) -> Int? {
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            guard let start = line.range(of: element), let at = line[start].range(of: " \(attribute)=") else {
                continue
            }
            return line.distance(from: line.startIndex, to: at.lowerBound) + 2
        }
        return nil
    }

    @Test func modifiersBelongOnColoursOnly() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/Colors.xml": """
            <theme><instances><uiview id="v"><operation name="alpha"><param name="value"><float lighten="0.2">0.5</float></param></operation></uiview></instances></theme>
            """,
        ])
        let errors = workspace.validate(paths: [themes.path]).filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.code == .attributeInvalid)
        #expect(errors.first?.message.contains("lighten") == true)
    }

    @Test func anUnreachableRatioWarnsAtTheAttribute() throws {
        let element = ##"<color contrast-with="#767676" min-ratio="21">#808080</color>"##
        let source = Self.theme(constants: "", background: element)
        let themes = try TemporaryThemes(["T.theme/Info.xml": TemporaryThemes.info("t"), "T.theme/C.xml": source])
        let findings = workspace.validate(paths: [themes.path])
        #expect(findings.count == 1, "\(findings.map(\.description))")
        #expect(findings.first?.code == .contrastUnreachable)
        #expect(findings.first?.severity == .warning)
        #expect(findings.first?.location?.column == Self.column(of: "contrast-with", in: element, source: source))
        // The colour is still the better end of the search: black.
        let theme = try workspace.resolve(themeAt: themes.theme("T.theme"), traits: .none).unwrap()
        #expect(color(theme) == "#000000FF")
    }

    /// Contrast checks (section 7.3) see the derived colours: a guard fixes a pair that the
    /// same colour without it fails.
    @Test func contrastChecksSeeDerivedColours() throws {
        func findings(_ text: String) throws -> [Diagnostic] {
            let themes = try TemporaryThemes([
                "T.theme/Info.xml": TemporaryThemes.info("t"),
                "T.theme/C.xml": Self.theme(
                    constants:
                        ##"<color name="brand">#FF3B30</color><color name="brandPressed" ref="brand" darken="0.1"/>"##,
                    text: text),
            ])
            return workspace.validate(paths: [themes.path])
        }
        #expect(try findings(##"<color>#FF8080</color>"##).contains { $0.code == .contrastLow })
        #expect(try findings(##"<color contrast-with="brandPressed">#FF8080</color>"##).isEmpty)
    }

    @Test func overridableCannotBeTakenBack() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/C.xml": Self.theme(
                constants:
                    ##"<color name="brand" overridable="true">#FF3B30</color><color name="brandPressed" ref="brand"/>"##
            ),
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/C.xml":
                ##"<theme><constants><color name="brand" overridable="false">#000000</color></constants></theme>"##,
        ])
        let errors = workspace.validate(paths: [themes.path]).filter { $0.severity == .error }
        #expect(errors.count == 1, "\(errors.map(\.description))")
        #expect(errors.first?.location?.file.hasSuffix("Child.theme/C.xml") == true)
        #expect(errors.first?.location?.column == 39)
        #expect(workspace.overridableConstants(ofThemeAt: themes.theme("Child.theme"))?.map(\.name) == ["brand"])
    }

    /// A value replaces the constant's final value before references and modifiers: the
    /// derived colour follows; a name that is not overridable changes nothing.
    @Test func overrideValuesReachDerivedColours() throws {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/C.xml": Self.theme(
                constants: ##"""
                    <color name="brand" overridable="true">#FF3B30</color>
                    <color name="other">#FF3B30</color>
                    <color name="brandPressed" ref="brand" darken="0.15"/>
                    """##),
        ])
        let path = themes.theme("T.theme")
        let value = try ThemeWorkspace.overrideValue("#3478F6", type: .color).get()
        let overridden = try workspace.resolve(themeAt: path, traits: .none, overriding: ["brand": value]).unwrap()
        let expected = ColorModifiers(shift: .darken(0.15)).apply(
            to: Color(red: 0x34 / 255, green: 0x78 / 255, blue: 0xF6 / 255))
        #expect(color(overridden) == expected.hexString)
        let ignored = try workspace.resolve(themeAt: path, traits: .none, overriding: ["other": value]).unwrap()
        #expect(color(ignored) == "#D93229FF")
        #expect(throws: OverrideProblem.self) { try ThemeWorkspace.overrideValue("12", type: .color).get() }
    }
}

/// `contrast-unguarded` (format 1.3, section 9.2): which pairs a user's choice can break.
@Suite struct ContrastGuardTests {
    let workspace = ThemeWorkspace()

    func unguarded(constants: String, background: String, text: String) throws -> [Diagnostic] {
        let themes = try TemporaryThemes([
            "T.theme/Info.xml": TemporaryThemes.info("t"),
            "T.theme/C.xml": DerivedColorTests.theme(constants: constants, background: background, text: text),
        ])
        return workspace.validate(paths: [themes.path]).filter { $0.code == .contrastUnguarded }
    }

    static let accent = ##"<color name="accent" overridable="true">#0A4FD6</color>"##

    @Test func textOnAChoiceNeedsAGuardNamingIt() throws {
        // white on the accent: unguarded
        #expect(
            try unguarded(
                constants: Self.accent, background: ##"<color ref="accent"/>"##, text: "<color>#FFFFFF</color>"
            ).count == 1)
        // guarded by the constant the background refers to, also through a plain reference
        #expect(
            try unguarded(
                constants: Self.accent + ##"<color name="surface" ref="accent"/>"##,
                background: ##"<color ref="surface"/>"##,
                text: ##"<color contrast-with="surface">#FFFFFF</color>"##
            ).isEmpty)
        // a guard naming another colour does not count (a light accent, so that the text passes
        // today and no contrast-low finding stands at the same place)
        #expect(
            try unguarded(
                constants:
                    ##"<color name="accent" overridable="true">#FFD60A</color><color name="paper">#FFFFFF</color>"##,
                background: ##"<color ref="accent"/>"##,
                text: ##"<color contrast-with="paper">#000000</color>"##
            ).count == 1)
        // the text derived from the choice, on a fixed background, is unguarded too
        #expect(
            try unguarded(
                constants: Self.accent, background: "<color>#FFFFFF</color>",
                text: ##"<color ref="accent" darken="0.3"/>"##
            ).count == 1)
    }

    @Test func themesWithoutChoicesAreNotConcerned() throws {
        #expect(
            try unguarded(
                constants: ##"<color name="accent">#0A4FD6</color>"##, background: ##"<color ref="accent"/>"##,
                text: "<color>#FFFFFF</color>"
            ).isEmpty)
    }
}
