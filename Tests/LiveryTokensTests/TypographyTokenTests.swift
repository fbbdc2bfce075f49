import Foundation
import LiveryModel
import LiveryTokens
import Testing

/// Format 1.2, section 8 for design tokens: a `typography` token's letter spacing and line height
/// both ways, the neutral values and `$extensions` record that make round trips exact, and `$root`
/// tokens coming back as `$root`.
@Suite struct TypographyTokenTests {
    static let fixtures: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").standardizedFileURL.path
    static let typographyFile = fixtures + "/Typography/tokens/typography.json"

    struct Imported {
        var constants: [ThemeConstant]
        var diagnostics: [Diagnostic]
        var roots: Set<String>
    }

    static func importing(_ text: String, remBase: Double = 16) -> Imported {
        var tokenImport = TokenImport(options: .init(remBase: remBase)) { path in
            path == "tokens.json" ? Array(text.utf8) : nil
        }
        let layers = tokenImport.layers(files: ["tokens.json"])
        return Imported(
            constants: layers.first?.constants ?? [],
            diagnostics: tokenImport.diagnostics + tokenImport.importer.diagnostics,
            roots: tokenImport.importer.rootNames)
    }

    static func exporting(_ imported: Imported) -> String {
        var exporter = TokenExporter()
        return exporter.document(ImportExportTests.exported(imported.constants), roots: imported.roots).rendered()
    }

    static func element(_ imported: Imported, _ name: String) -> String? {
        imported.constants.first { $0.name == name }?.element
    }

    static func fixtureText() throws -> String {
        try String(contentsOfFile: typographyFile, encoding: .utf8)
    }

    @Test func importMapsLetterSpacingAndLineHeight() throws {
        let result = Self.importing(try Self.fixtureText())
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics)")
        #expect(
            Self.element(result, "type.display")
                == #"<font name="type.display" family="Inter" size="32" weight="bold" letter-spacing="-0.75" line-height="1.125"/>"#
        )
        // rem at 16 points; a string weight; a letter spacing of 0 is written.
        #expect(
            Self.element(result, "type.body")
                == #"<font name="type.body" family="Inter" size="16" letter-spacing="0" line-height="1.5"/>"#)
        #expect(
            Self.element(result, "type.caption")
                == #"<font name="type.caption" family="Inter" size="12" weight="light" letter-spacing="0.4" line-height="1.25"/>"#
        )
        // A size of 0 leaves the size out; spacing and line height of 0 are kept.
        #expect(
            Self.element(result, "type.unsized")
                == #"<font name="type.unsized" family="Menlo" letter-spacing="0" line-height="0"/>"#)
        // Parts that reference other tokens are resolved to their values.
        #expect(
            Self.element(result, "type.referencing")
                == #"<font name="type.referencing" family="Menlo" size="14" weight="bold" letter-spacing="-0.5" line-height="1.4"/>"#
        )
        #expect(Self.element(result, "type.alias") == #"<font name="type.alias" ref="type.display"/>"#)
        #expect(
            Self.element(result, "type.heading")
                == #"<font name="type.heading" family="Inter" size="24" weight="semibold" letter-spacing="0.5" line-height="1.2"/>"#
        )
        #expect(result.roots == ["font.family", "type.heading", "color.background.disabled"])
    }

    @Test func remLetterSpacingFollowsTheRemOption() throws {
        let result = Self.importing(try Self.fixtureText(), remBase: 10)
        #expect(
            Self.element(result, "type.caption")
                == #"<font name="type.caption" family="Inter" size="7.5" weight="light" letter-spacing="0.25" line-height="1.25"/>"#
        )
    }

    /// Export writes typography with the font's own members, `$root` where the import found it,
    /// and no `$extensions` when the font has every member.
    @Test func exportWritesTypographyAndRoots() throws {
        let imported = Self.importing(try Self.fixtureText())
        let text = Self.exporting(imported)
        let root = try TokenSource.read("export.json", bytes: Array(text.utf8)).root
        let display = try #require(root["type"]?["display"])
        #expect(display["$type"]?.string == "typography")
        #expect(
            display["$value"]?["fontSize"]?["value"]?.number == 32
                && display["$value"]?["fontSize"]?["unit"]?.string == "px")
        #expect(display["$value"]?["fontWeight"]?.number == 700)
        #expect(display["$value"]?["letterSpacing"]?["value"]?.number == -0.75)
        #expect(display["$value"]?["lineHeight"]?.number == 1.125)
        #expect(display["$extensions"] == nil)
        #expect(root["type"]?["heading"]?["$root"]?["$type"]?.string == "typography")
        #expect(root["color"]?["background"]?["disabled"]?["$root"]?["$type"]?.string == "color")
        #expect(root["font"]?["family"]?["$root"]?["$value"]?.string == "Inter")
        #expect(root["type"]?["alias"]?["$value"]?.string == "{type.display}")
        #expect(root["type"]?["unsized"]?["$value"]?["fontSize"]?["value"]?.number == 0)
        // Without the record, a lone $root is just the group's name.
        var plain = TokenExporter()
        let withoutRoots = try TokenSource.read(
            "plain.json", bytes: Array(plain.document(ImportExportTests.exported(imported.constants)).rendered().utf8)
        ).root
        #expect(withoutRoots["color"]?["background"]?["disabled"]?["$type"]?.string == "color")
    }

    /// Import, export, import: the same constants; export again: the same document. And every
    /// token of the input comes back with its type and value (rem as px, weights as numbers).
    @Test func tokensRoundTripWithTheirTypesAndValues() throws {
        let original = try Self.fixtureText()
        let first = Self.importing(original)
        let exported = Self.exporting(first)
        let second = Self.importing(exported)
        #expect(!second.diagnostics.hasErrors, "\(second.diagnostics)\n\(exported)")
        #expect(second.constants.map(\.element).sorted() == first.constants.map(\.element).sorted())
        #expect(second.roots == first.roots)
        #expect(Self.exporting(second) == exported)

        let before = try Self.resolvedByPath(original)
        let after = try Self.resolvedByPath(exported)
        #expect(Set(after.keys) == Set(before.keys), "every token path comes back, $root included")
        for (path, token) in before {
            let back = try #require(after[path], "\(path)")
            #expect(back.type == token.type, "\(path)")
            #expect(Self.normalised(back.value) == Self.normalised(token.value), "\(path)")
        }
    }

    /// The DTCG suite's typography cases, as a designer would try them: import then export gives
    /// back a typography token (not a fontFamily) with the same values and nothing added.
    @Test(arguments: [
        "typography/typography-basic.json", "typography/typography-string-weight.json",
        "typography/typography-negative-letterspacing.json", "typography/typography-rem-fontsize.json",
        "references/typography-property-refs.json",
    ])
    func conformanceTypographyCasesRoundTrip(_ file: String) throws {
        let original = try String(contentsOfFile: Self.fixtures + "/DTCG/format/positive/" + file, encoding: .utf8)
        let imported = Self.importing(original)
        #expect(!imported.diagnostics.hasErrors, "\(imported.diagnostics)")
        let exported = Self.exporting(imported)
        let before = try Self.resolvedByPath(original)
        let after = try Self.resolvedByPath(exported)
        for (path, token) in before where token.type == .typography {
            let back = try #require(after[path], "\(path)")
            #expect(back.type == .typography, "\(path)")
            #expect(Self.normalised(back.value) == Self.normalised(token.value), "\(path)")
        }
        #expect(!exported.contains("$extensions"), "a token with every member needs no record")
    }

    /// Export, then import: a font lacking a member gets the neutral value and a record of its
    /// absence, and comes back exactly as it went in.
    @Test func fontsLackingMembersComeBackExactly() throws {
        let fonts: [(String, Font)] = [
            ("sized", Font(family: "A", size: 12)),
            ("spaced", Font(family: "A", size: nil, letterSpacing: -0.5)),
            ("leading", Font(family: "A", size: nil, weight: .bold, lineHeight: 1.5)),
            ("zeros", Font(family: "A", size: nil, letterSpacing: 0, lineHeight: 0)),
            ("full", Font(family: "A", size: 14, weight: .medium, letterSpacing: 0.25, lineHeight: 1.25)),
            ("family", Font(family: "A", size: nil)),
        ]
        var exporter = TokenExporter()
        let text = exporter.document(fonts.map { ExportedConstant(name: $0.0, value: .font($0.1), reference: nil) })
            .rendered()
        let root = try TokenSource.read("export.json", bytes: Array(text.utf8)).root
        #expect(root["family"]?["$type"]?.string == "fontFamily")
        #expect(root["sized"]?["$type"]?.string == "typography")
        #expect(root["sized"]?["$value"]?["letterSpacing"]?["value"]?.number == 0)
        #expect(root["sized"]?["$value"]?["lineHeight"]?.number == 1)
        #expect(
            root["sized"]?["$extensions"]?["com.livery"]?["absent"]?.array?.compactMap(\.string) == [
                "letterSpacing", "lineHeight",
            ])
        #expect(root["spaced"]?["$value"]?["fontSize"]?["value"]?.number == 0)
        #expect(root["spaced"]?["$extensions"]?["com.livery"]?["absent"]?.array?.compactMap(\.string) == ["lineHeight"])
        #expect(
            root["leading"]?["$extensions"]?["com.livery"]?["absent"]?.array?.compactMap(\.string) == ["letterSpacing"])
        #expect(root["zeros"]?["$extensions"] == nil && root["full"]?["$extensions"] == nil)
        let back = Self.importing(text)
        #expect(!back.diagnostics.hasErrors, "\(back.diagnostics)")
        for (name, font) in fonts {
            let constant = try #require(back.constants.first { $0.name == name })
            #expect(constant.content == .literal(.font(font)), "\(name)")
        }
    }

    @Test func aNegativeLineHeightIsAnErrorAtTheToken() {
        let result = Self.importing(
            #"""
            {"t": {"$type": "typography", "$value": {"fontFamily": "A", "fontSize": {"value": 12, "unit": "px"}, "fontWeight": 400,
                   "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": -1}}}
            """#)
        let errors = result.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1)
        #expect(errors.first?.code == .tokenValue)
        #expect(errors.first?.location?.line == 1 && errors.first?.location?.column == 2)
        #expect(errors.first?.message.contains("cannot be negative") == true)
        #expect(result.constants.isEmpty)
    }

    /// Vendor data Livery does not understand is ignored, as `$extensions` should be.
    @Test func anUnknownRecordIsIgnored() {
        let result = Self.importing(
            #"""
            {"t": {"$type": "typography", "$value": {"fontFamily": "A", "fontSize": {"value": 12, "unit": "px"}, "fontWeight": 400,
                   "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1},
                   "$extensions": {"com.livery": {"absent": "lineHeight"}, "com.example": {"absent": ["letterSpacing"]}}}}
            """#)
        #expect(
            result.constants.first?.content
                == .literal(.font(Font(family: "A", size: 12, letterSpacing: 0, lineHeight: 1))))
    }

    // MARK: - Helpers

    /// Every resolved token of a document by its path (with `$root` segments).
    static func resolvedByPath(_ text: String) throws -> [String: ResolvedToken] {
        let (tokens, diagnostics) = ImportExportTests.resolve(text)
        #expect(!diagnostics.hasErrors, "\(diagnostics)")
        return Dictionary(tokens.map { ($0.path.joined(separator: "."), $0) }, uniquingKeysWith: { $1 })
    }

    /// A value as Livery keeps it: dimensions in px (rem at 16), the first font family, weights
    /// rounded to Livery's nine; other values as they are.
    static func normalised(_ value: TokenValue) -> String {
        func px(_ dimension: LiveryTokens.Dimension) -> Double {
            dimension.unit == .rem ? dimension.value * 16 : dimension.value
        }
        switch value {
        case .typography(let t):
            return
                "typography \(t.fontFamily.value[0]) \(px(t.fontSize.value)) \(TokenImporter.weight(t.fontWeight.value)) \(px(t.letterSpacing.value)) \(t.lineHeight.value)"
        case .fontFamily(let families): return "fontFamily \(families[0])"
        case .dimension(let dimension): return "dimension \(px(dimension))"
        case .fontWeight(let weight): return "fontWeight \(TokenImporter.weight(weight))"
        case .color(let color): return "color \(color.space) \(color.components) \(color.alpha)"
        default: return "\(value)"
        }
    }
}
