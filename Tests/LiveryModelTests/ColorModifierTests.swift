import Foundation
import Testing

@testable import LiveryModel

/// Colour modifiers (format 1.3, section 9.1) against expected values computed independently with
/// PyPI's coloraide (Tests/Fixtures/ColorModifiers/generate.py writes expected.json).
@Suite struct ColorModifierTests {
    struct Case: Decodable {
        struct Shift: Decodable {
            var lighten: Double?
            var darken: Double?
            var mix: [Double]?
            var amount: Double?
        }
        struct Contrast: Decodable {
            var background: [Double]
            var minimumRatio: Double
        }
        var base: [Double]
        var space: String
        var shift: Shift?
        var alpha: Double?
        var contrast: Contrast?
        var reached: Bool?
        var expected: [Double]
    }

    static let cases: [Case] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/ColorModifiers/expected.json")
        struct File: Decodable { var cases: [Case] }
        guard let data = try? Data(contentsOf: url), let file = try? JSONDecoder().decode(File.self, from: data) else {
            return []
        }
        return file.cases
    }()

    static func color(_ channels: [Double]) -> Color {
        Color(red: channels[0], green: channels[1], blue: channels[2], alpha: channels[3])
    }

    static func modifiers(_ test: Case) -> ColorModifiers {
        var modifiers = ColorModifiers(space: ModifierSpace(rawValue: test.space)!)
        if let shift = test.shift {
            if let p = shift.lighten { modifiers.shift = .lighten(p) }
            if let p = shift.darken { modifiers.shift = .darken(p) }
            if let other = shift.mix, let p = shift.amount { modifiers.shift = .mix(color(other), amount: p) }
        }
        modifiers.alpha = test.alpha
        if let contrast = test.contrast {
            modifiers.contrast = .init(background: color(contrast.background), minimumRatio: contrast.minimumRatio)
        }
        return modifiers
    }

    /// Far below what `#RRGGBBAA` can show (1/255), above the two libraries' matrix rounding.
    static let tolerance = 1e-6

    @Test func everyCaseMatchesColoraide() throws {
        try #require(Self.cases.count > 150, "the fixture is missing or truncated")
        for (index, test) in Self.cases.enumerated() {
            let derivation = Self.modifiers(test).derive(from: Self.color(test.base))
            let got = derivation.color
            let want = Self.color(test.expected)
            let worst = zip([got.red, got.green, got.blue, got.alpha], [want.red, want.green, want.blue, want.alpha])
                .map { abs($0 - $1) }.max()!
            #expect(
                worst < Self.tolerance, "case \(index) (\(test.space)): got \(got.hexString), want \(want.hexString)")
            if let reached = test.reached {
                #expect(derivation.contrastReached == reached, "case \(index)")
            }
        }
    }

    @Test func fixtureCoversEverySpaceAndModifier() {
        for space in ModifierSpace.allCases {
            let mine = Self.cases.filter { $0.space == space.rawValue }
            #expect(mine.contains { $0.shift?.lighten != nil })
            #expect(mine.contains { $0.shift?.darken != nil })
            #expect(mine.contains { $0.shift?.mix != nil })
            #expect(mine.contains { $0.alpha != nil })
            #expect(mine.contains { $0.reached == false })
            #expect(mine.contains { $0.reached == true })
        }
    }

    static let red = Color(red: 1, green: 0x3B / 255, blue: 0x30 / 255)

    /// The contract's example: `brand` #FF3B30 darkened 0.15 in srgb is #D93229.
    @Test func darkenInSRGBIsTheContractExample() {
        #expect(ColorModifiers(shift: .darken(0.15)).apply(to: Self.red).hexString == "#D93229FF")
    }

    /// Red (hue about 3 degrees in HSL) mixed halfway with magenta (300): the shorter arc passes
    /// 0 and lands near 331, not the long way round near 151 (a green).
    @Test func hueTakesTheShorterArc() {
        let magenta = Color(red: 1, green: 0, blue: 1)
        let mixed = ColorModifiers(shift: .mix(magenta, amount: 0.5), space: .hsl).apply(to: Self.red)
        let hue = ColorScience.hsl(mixed).hue
        #expect(hue > 320 && hue < 340, "hue \(hue)")
        let lchMixed = ColorModifiers(shift: .mix(magenta, amount: 0.5), space: .lch).apply(to: Self.red)
        #expect(lchMixed.green < lchMixed.red && lchMixed.green < lchMixed.blue, "\(lchMixed.hexString) is not a pink")
    }

    /// A grey has no hue: mixing it with blue keeps blue's hue all the way instead of turning
    /// through red (hue 0).
    @Test func achromaticTakesTheOthersHue() {
        let grey = Color(red: 0.5, green: 0.5, blue: 0.5)
        let blue = Color(red: 0x34 / 255, green: 0x78 / 255, blue: 0xF6 / 255)
        for space in [ModifierSpace.hsl, .lch] {
            let mixed = ColorModifiers(shift: .mix(blue, amount: 0.5), space: space).apply(to: grey)
            #expect(mixed.blue > mixed.green && mixed.green > mixed.red, "\(space): \(mixed.hexString)")
        }
    }

    /// Lightening pure green in LCH leaves sRGB: the result is clipped channel by channel.
    @Test func outOfGamutResultsAreClipped() {
        let green = Color(red: 0, green: 1, blue: 0)
        let unclipped = ColorModifiers.apply(.lighten(0.3), to: green, in: .lch)
        #expect([unclipped.red, unclipped.green, unclipped.blue].contains { $0 < 0 || $0 > 1 })
        let result = ColorModifiers(shift: .lighten(0.3), space: .lch).apply(to: green)
        for channel in [result.red, result.green, result.blue] { #expect((0...1).contains(channel)) }
    }

    /// The search stops at the first step that reaches the ratio, and that step passes while
    /// the one before does not.
    @Test func contrastSearchTakesTheFirstPassingStep() throws {
        let white = Color(red: 1, green: 1, blue: 1)
        let derivation = ColorModifiers(contrast: .init(background: white)).derive(from: Self.red)
        let step = try #require(derivation.steps.last)
        guard case .contrast(_, .darken(let p)?, let ratio, true) = step.kind else {
            Issue.record("expected a darkening that reaches the ratio, got \(step.kind)")
            return
        }
        #expect(ratio >= 4.5)
        let before = ColorModifiers(shift: .darken(p - 0.01)).apply(to: Self.red)
        #expect(ContrastRatio.ratio(before, on: white) < 4.5)
    }

    @Test func contrastAlreadyReachedKeepsTheColour() {
        let black = Color(red: 0, green: 0, blue: 0)
        let white = Color(red: 1, green: 1, blue: 1)
        let derivation = ColorModifiers(contrast: .init(background: white)).derive(from: black)
        #expect(derivation.color == black)
        #expect(derivation.contrastReached)
    }

    @Test func unreachableContrastTakesTheBetterEnd() {
        let grey = Color(red: 0.5, green: 0.5, blue: 0.5)
        let background = Color(red: 0x76 / 255, green: 0x76 / 255, blue: 0x76 / 255)
        let derivation = ColorModifiers(contrast: .init(background: background, minimumRatio: 21)).derive(from: grey)
        #expect(!derivation.contrastReached)
        #expect(derivation.color.hexString == "#000000FF")
    }

    /// Modifiers apply lighten/darken/mix, then alpha, then the guard, whatever was written
    /// first: the guard sees the translucent colour composited over its background.
    @Test func alphaComesBeforeTheGuard() {
        let white = Color(red: 1, green: 1, blue: 1)
        let derivation = ColorModifiers(alpha: 0.5, contrast: .init(background: white, minimumRatio: 3))
            .derive(from: Self.red)
        #expect(derivation.steps.count == 2)
        #expect(derivation.color.alpha == 0.5)
        #expect(ContrastRatio.ratio(derivation.color, on: white) >= 3)
    }

    @Test func conversionsRoundTrip() {
        for color in [Self.red, Color(red: 0.2, green: 0.7, blue: 0.1), Color(red: 0.5, green: 0.5, blue: 0.5)] {
            let (h, s, l) = ColorScience.hsl(color)
            let back = ColorScience.color(hue: h, saturation: s, lightness: l)
            let (lightness, chroma, hue) = ColorScience.lch(color)
            let back2 = ColorScience.color(lightness: lightness, chroma: chroma, hue: hue)
            for (a, b) in [(back, color), (back2, color)] {
                #expect(abs(a.red - b.red) + abs(a.green - b.green) + abs(a.blue - b.blue) < 1e-9)
            }
        }
        // CSS Color 4's published value: sRGB red is lch(54.29 106.84 40.85).
        let (l, c, h) = ColorScience.lch(Color(red: 1, green: 0, blue: 0))
        #expect(abs(l - 54.29) < 0.01 && abs(c - 106.84) < 0.01 && abs(h - 40.85) < 0.01)
    }
}
