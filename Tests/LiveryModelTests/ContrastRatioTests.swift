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
}
