import LiveryTokens
import Testing

/// Every colour space of the format to sRGB, checked against colours with known sRGB values.
struct ColorConversionTests {
    func rgb(_ space: ColorSpace, _ components: [Double?]) -> (Double, Double, Double, Bool) {
        let result = ColorConversion.sRGB(TokenColor(space: space, components: components))
        return (result.red, result.green, result.blue, result.clamped)
    }

    func close(
        _ actual: (Double, Double, Double, Bool), _ expected: (Double, Double, Double), tolerance: Double = 0.004
    ) -> Bool {
        abs(actual.0 - expected.0) < tolerance && abs(actual.1 - expected.1) < tolerance
            && abs(actual.2 - expected.2) < tolerance
    }

    /// Magenta (#FF00FF) written in every space that can express it (values from CSS Color 4's converter).
    @Test(arguments: [
        (ColorSpace.srgb, [1.0, 0, 1]),
        (.hsl, [300.0, 100, 50]),
        (.hwb, [300.0, 0, 0]),
        (.lab, [60.17, 93.55, -60.5]),
        (.lch, [60.17, 111.4, 327.11]),
        (.oklab, [0.7017, 0.2746, -0.1693]),
        (.oklch, [0.7017, 0.3225, 328.36]),
        (.xyzD65, [0.5929, 0.2848, 0.9696]),
        (.xyzD50, [0.5791, 0.2831, 0.728]),
        (.displayP3, [0.9175, 0.2003, 0.9619]),
        (.srgbLinear, [1.0, 0, 1]),
    ])
    func magentaFromEverySpace(_ space: ColorSpace, _ components: [Double]) {
        let result = rgb(space, components)
        #expect(close(result, (1, 0, 1), tolerance: 0.01), "\(space): \(result)")
    }

    @Test func wideGamutPrimariesAreClampedAndReported() {
        for space in [ColorSpace.displayP3, .a98rgb, .prophotoRGB, .rec2020] {
            let red = rgb(space, [1, 0, 0])
            #expect(red.3, "\(space) red is outside sRGB")
            #expect(red.0 == 1 && red.1 == 0, "\(space): \(red)")
            // White is white in every RGB space (all are D65 or adapted to it).
            #expect(close(rgb(space, [1, 1, 1]), (1, 1, 1)), "\(space) white")
            #expect(!rgb(space, [0.5, 0.5, 0.5]).3, "\(space) grey is inside sRGB")
        }
    }

    @Test func knownValues() {
        #expect(close(rgb(.hsl, [180, 50, 50]), (0.25, 0.75, 0.75)))
        #expect(close(rgb(.srgbLinear, [0.5, 0.5, 0.5]), (0.7354, 0.7354, 0.7354)))
        #expect(close(rgb(.hwb, [0, 60, 60]), (0.5, 0.5, 0.5)))  // whiteness + blackness > 100: grey
        #expect(close(rgb(.hsl, [nil, 0, 100]), (1, 1, 1)))  // 'none' hue
        #expect(close(rgb(.oklab, [1, 0, 0]), (1, 1, 1)))
        #expect(close(rgb(.lab, [0, 0, 0]), (0, 0, 0)))
    }
}
