import Testing

@testable import LiveryModel

@Suite struct ContrastRatioTests {
    static let white = Color(red: 1, green: 1, blue: 1)
    static let black = Color(red: 0, green: 0, blue: 0)

    static func grey(_ byte: Int) -> Color {
        let value = Double(byte) / 255
        return Color(red: value, green: value, blue: value)
    }

    /// The values WCAG tools publish for these pairs.
    @Test func ratiosMatchKnownWCAGValues() {
        #expect(ContrastRatio.text(ContrastRatio.ratio(Self.grey(0x76), on: Self.white)) == "4.54")
        #expect(ContrastRatio.text(ContrastRatio.ratio(Self.grey(0x77), on: Self.white)) == "4.48")
        #expect(ContrastRatio.ratio(Self.black, on: Self.white) == 21)
        #expect(ContrastRatio.ratio(Self.white, on: Self.black) == 21)
        #expect(ContrastRatio.ratio(Self.white, on: Self.white) == 1)
        // The pure-Swift x^2.4 agrees with the published curve: sRGB 0x80 is 0.2158605 linear.
        #expect(abs(ContrastRatio.luminance(Self.grey(0x80)) - 0.2158605) < 1e-6)
    }

    @Test func thresholdsFollowTheContract() {
        #expect(ContrastRatio.required(largeText: false, highContrast: false) == 4.5)
        #expect(ContrastRatio.required(largeText: true, highContrast: false) == 3)
        #expect(ContrastRatio.required(largeText: false, highContrast: true) == 7)
        #expect(ContrastRatio.required(largeText: true, highContrast: true) == 4.5)
        #expect(ContrastRatio.isLargeText(Font(family: "A", size: 18)))
        #expect(!ContrastRatio.isLargeText(Font(family: "A", size: 17.9)))
        #expect(ContrastRatio.isLargeText(Font(family: "A", size: 14, weight: .semibold)))
        #expect(ContrastRatio.isLargeText(Font(family: "A", size: 14, weight: .black)))
        #expect(!ContrastRatio.isLargeText(Font(family: "A", size: 14, weight: .medium)))
        #expect(!ContrastRatio.isLargeText(Font(family: "A", size: nil, weight: .bold)))
        #expect(!ContrastRatio.isLargeText(nil))
    }

    @Test func translucentTextIsCompositedFirst() {
        let halfBlack = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
        let shown = ContrastRatio.composite(halfBlack, over: Self.white)
        #expect(shown == Color(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
        #expect(ContrastRatio.ratio(halfBlack, on: Self.white) == ContrastRatio.ratio(shown, on: Self.white))
        #expect(ContrastRatio.ratio(halfBlack, on: Self.white) < ContrastRatio.ratio(Self.black, on: Self.white))
    }

    /// A failing ratio never prints as its threshold.
    @Test func aShortRatioNeverPrintsAsPassing() {
        #expect(ContrastRatio.text(4.497, required: 4.5) == "4.49")
        #expect(ContrastRatio.text(4.497) == "4.50")
        #expect(ContrastRatio.text(21) == "21.00")
        #expect(ContrastRatio.text(3.05) == "3.05")
    }

    @Test func theNearestPassingColourKeepsTheHueAndPasses() throws {
        let fix = try #require(ContrastRatio.nearestPassing(Self.grey(0x77), on: Self.white, required: 4.5))
        #expect(fix.hexString == "#767676FF")
        let blue = Color(red: 0.35, green: 0.78, blue: 0.98)
        let passing = try #require(ContrastRatio.nearestPassing(blue, on: Self.white, required: 4.5))
        #expect(ContrastRatio.ratio(passing, on: Self.white) >= 4.5)
        let (hue, _, lightness) = ContrastRatio.hsl(blue)
        let (newHue, _, newLightness) = ContrastRatio.hsl(passing)
        #expect(abs(hue - newHue) < 2)
        #expect(newLightness < lightness)
        // On mid grey not even black or white reaches 7:1: nothing to suggest.
        #expect(ContrastRatio.nearestPassing(Self.white, on: Self.grey(0x76), required: 7) == nil)
    }

    /// Bisection finds what trying every lightness step in order finds (the rule it relies on:
    /// from a failing step, the ratio only falls, then only rises), for random colours,
    /// translucent ones included, and the thresholds the checks use.
    @Test func theNearestPassingColourIsWhatTryingEveryStepFinds() {
        var generator = SystemRandomNumberGenerator()
        func stepwise(_ foreground: Color, on background: Color, required: Double) -> Color? {
            let (hue, saturation, lightness) = ContrastRatio.hsl(foreground)
            for step in 1...1000 {
                for direction in [-1.0, 1.0] {
                    let candidateLightness = lightness + direction * Double(step) / 1000
                    guard (0...1).contains(candidateLightness) else { continue }
                    var candidate = ContrastRatio.rgb(hue: hue, saturation: saturation, lightness: candidateLightness)
                    candidate.alpha = foreground.alpha
                    candidate = ContrastRatio.quantized(candidate)
                    if ContrastRatio.ratio(candidate, on: background) >= required { return candidate }
                }
            }
            return nil
        }
        func random() -> Color {
            Color(
                red: .random(in: 0...1, using: &generator), green: .random(in: 0...1, using: &generator),
                blue: .random(in: 0...1, using: &generator))
        }
        var found = 0
        for index in 0..<600 {
            var foreground = random()
            if index % 4 == 0 { foreground.alpha = .random(in: 0.2...1, using: &generator) }
            let background = random()
            let required = [3.0, 4.5, 7.0][index % 3]
            guard ContrastRatio.ratio(foreground, on: background) < required else { continue }
            var opaque = foreground
            opaque.alpha = 1
            let expected =
                stepwise(foreground, on: background, required: required)
                ?? (foreground.alpha < 1 ? stepwise(opaque, on: background, required: required) : nil)
            #expect(
                ContrastRatio.nearestPassing(foreground, on: background, required: required) == expected,
                "\(foreground.hexString) on \(background.hexString) at \(required)")
            if expected != nil { found += 1 }
        }
        #expect(found > 100)
    }
}
