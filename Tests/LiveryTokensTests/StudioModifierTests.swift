import Foundation
import LiveryModel
import LiveryTokens
import Testing

/// Format 1.3, section 9.3: Tokens Studio's colour modifiers (`$extensions` `studio.tokens`
/// `modify`) import as the theme's own modifiers, and give the colours Tokens Studio computes
/// (expected values from coloraide: Tests/Fixtures/ColorModifiers/generate.py).
@Suite struct StudioModifierTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ColorModifiers").standardizedFileURL.path

    static func imported() throws -> TypographyTokenTests.Imported {
        let text = try String(contentsOfFile: folder + "/studio.tokens.json", encoding: .utf8)
        return TypographyTokenTests.importing(text)
    }

    static func expected() throws -> [String: [Double]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/studio-expected.json"))
        return try JSONDecoder().decode([String: [Double]].self, from: data)
    }

    /// The colour a constant gives: its base (a literal, or the constant it refers to) with its
    /// modifiers applied as the format says.
    static func color(of name: String, in constants: [ThemeConstant]) -> Color? {
        guard let constant = constants.first(where: { $0.name == name }) else { return nil }
        var base: Color
        switch constant.content {
        case .literal(.color(let color)): base = color
        case .reference(let target):
            guard let color = color(of: target, in: constants) else { return nil }
            base = color
        default: return nil
        }
        guard let derivation = constant.derivation else { return base }
        var modifiers = ColorModifiers(alpha: derivation.alpha, space: derivation.space)
        if let p = derivation.lighten { modifiers.shift = .lighten(p) }
        if let p = derivation.darken { modifiers.shift = .darken(p) }
        if let mix = derivation.mix, let amount = derivation.amount {
            let other: Color? =
                mix.hasPrefix("#") ? hex(mix) : color(of: mix, in: constants)
            guard let other else { return nil }
            modifiers.shift = .mix(other, amount: amount)
        }
        return modifiers.apply(to: base)
    }

    static func hex(_ text: String) -> Color? {
        guard let number = UInt32(text.dropFirst(), radix: 16), text.count == 7 else { return nil }
        return Color(
            red: Double(number >> 16 & 0xFF) / 255, green: Double(number >> 8 & 0xFF) / 255,
            blue: Double(number & 0xFF) / 255)
    }

    @Test func everySpaceGivesTokensStudiosColours() throws {
        let imported = try Self.imported()
        let expected = try Self.expected()
        try #require(expected.count == 20)
        for (name, channels) in expected.sorted(by: { $0.key < $1.key }) {
            let got = try #require(Self.color(of: name, in: imported.constants), "\(name)")
            let worst = zip([got.red, got.green, got.blue, got.alpha], channels).map { abs($0 - $1) }.max()!
            #expect(worst < 1e-6, "\(name): got \(got.hexString)")
        }
    }

    @Test func modifiersImportAsTheThemesOwn() throws {
        let imported = try Self.imported()
        func element(_ name: String) -> String? { imported.constants.first { $0.name == name }?.element }
        #expect(element("srgb.darken") == ##"<color name="srgb.darken" darken="0.15" ref="brand"/>"##)
        #expect(
            element("lch.mixAlias")
                == ##"<color name="lch.mixAlias" mix="paper" amount="0.4" space="lch" ref="brand"/>"##)
        #expect(element("hsl.mix") == ##"<color name="hsl.mix" mix="#3478F6" amount="0.5" space="hsl" ref="brand"/>"##)
        #expect(element("hsl.alpha") == ##"<color name="hsl.alpha" alpha="0.5" space="hsl" ref="brand"/>"##)
        // p3 has no theme modifier: the resolved colour, with one warning per token
        #expect(imported.constants.first { $0.name == "p3.lighten" }?.derivation == nil)
        let p3Warnings = imported.diagnostics.filter { $0.message.contains("p3") }
        #expect(p3Warnings.count == 5, "\(imported.diagnostics.map(\.description))")
        #expect(imported.diagnostics.count == 5, "\(imported.diagnostics.map(\.description))")
    }
}
