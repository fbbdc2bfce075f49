import Foundation
import LiveryModel

/// The allowed numbers of one colour component (the format's JSON schema, per colour space).
public struct ComponentRange: Sendable {
    public var lower: Double
    public var upper: Double
    /// Hues stop short of 360.
    public var upperIncluded: Bool

    public func contains(_ value: Double) -> Bool {
        value >= lower && (upperIncluded ? value <= upper : value < upper)
    }

    var text: String {
        let top = upper.isInfinite ? "∞)" : ValueText.number(upper) + (upperIncluded ? "]" : ")")
        return lower.isInfinite ? "any number" : "[\(ValueText.number(lower)), \(top)"
    }
}

/// Converts every colour space of DTCG 2025.10 to sRGB, with the matrices of CSS Color 4
/// (D50 spaces adapted to D65 with the Bradford transform). sRGB, HSL, Lab, LCH and XYZ convert
/// through `ColorScience`, the one implementation colour modifiers use too; the wide-gamut RGB
/// spaces and Oklab, which only token files carry, have their matrices here.
public enum ColorConversion {
    private static let unit = ComponentRange(lower: 0, upper: 1, upperIncluded: true)
    private static let percent = ComponentRange(lower: 0, upper: 100, upperIncluded: true)
    private static let hue = ComponentRange(lower: 0, upper: 360, upperIncluded: false)
    private static let chroma = ComponentRange(lower: 0, upper: .infinity, upperIncluded: true)
    private static let any = ComponentRange(lower: -.infinity, upper: .infinity, upperIncluded: true)

    public static func range(of space: ColorSpace, component: Int) -> ComponentRange {
        switch space {
        case .hsl, .hwb: [hue, percent, percent][component]
        case .lab: [percent, any, any][component]
        case .lch: [percent, chroma, hue][component]
        case .oklab: [unit, any, any][component]
        case .oklch: [unit, chroma, hue][component]
        default: unit
        }
    }

    /// sRGB components (gamma-encoded, 0...1) and whether the colour lay outside the sRGB gamut
    /// before it was clamped into it. `none` components count as 0 (CSS Color 4, section 4.4).
    public static func sRGB(_ color: TokenColor) -> (red: Double, green: Double, blue: Double, clamped: Bool) {
        let c = color.components.map { $0 ?? 0 }
        var rgb: [Double]
        switch color.space {
        case .srgb: rgb = c
        case .srgbLinear: rgb = c.map(encode)
        case .hsl: rgb = channels(ColorScience.color(hue: c[0], saturation: c[1], lightness: c[2]))
        case .hwb: rgb = hwb(c[0], c[1] / 100, c[2] / 100)
        case .lab: rgb = fromXYZ50(ColorScience.xyzD50(lab: (c[0], c[1], c[2])))
        case .lch: rgb = channels(ColorScience.color(lightness: c[0], chroma: c[1], hue: c[2]))
        case .oklab: rgb = oklab(c[0], c[1], c[2])
        case .oklch: rgb = oklab(c[0], c[1] * cos(c[2] * .pi / 180), c[1] * sin(c[2] * .pi / 180))
        case .displayP3: rgb = fromXYZ65(multiply(p3ToXYZ, c.map(decode)))
        case .a98rgb: rgb = fromXYZ65(multiply(a98ToXYZ, c.map { copysign(pow(abs($0), 563.0 / 256.0), $0) }))
        case .prophotoRGB:
            rgb = fromXYZ50(
                multiply(prophotoToXYZ50, c.map { abs($0) <= 16.0 / 512.0 ? $0 / 16 : copysign(pow(abs($0), 1.8), $0) })
            )
        case .rec2020: rgb = fromXYZ65(multiply(rec2020ToXYZ, c.map(rec2020Decode)))
        case .xyzD65: rgb = fromXYZ65(c)
        case .xyzD50: rgb = fromXYZ50(c)
        }
        let tolerance = 1e-4
        let clamped = rgb.contains { $0 < -tolerance || $0 > 1 + tolerance || $0.isNaN }
        rgb = rgb.map { $0.isNaN ? 0 : min(max($0, 0), 1) }
        return (rgb[0], rgb[1], rgb[2], clamped)
    }

    static func encode(_ linear: Double) -> Double { ColorScience.encoded(linear) }
    static func decode(_ encoded: Double) -> Double { ColorScience.linear(encoded) }

    private static func channels(_ color: Color) -> [Double] { [color.red, color.green, color.blue] }

    private static func rec2020Decode(_ encoded: Double) -> Double {
        let alpha = 1.09929682680944, beta = 0.018053968510807
        let magnitude = abs(encoded)
        return copysign(
            magnitude < beta * 4.5 ? magnitude / 4.5 : pow((magnitude + alpha - 1) / alpha, 1 / 0.45), encoded)
    }

    private static func hwb(_ hue: Double, _ white: Double, _ black: Double) -> [Double] {
        if white + black >= 1 {
            let gray = white / (white + black)
            return [gray, gray, gray]
        }
        return channels(ColorScience.color(hue: hue, saturation: 100, lightness: 50)).map {
            $0 * (1 - white - black) + white
        }
    }

    private static func oklab(_ l: Double, _ a: Double, _ b: Double) -> [Double] {
        let lms = [
            l + 0.3963377774 * a + 0.2158037573 * b,
            l - 0.1055613458 * a - 0.0638541728 * b,
            l - 0.0894841775 * a - 1.2914855480 * b,
        ].map { $0 * $0 * $0 }
        return multiply(
            [
                [4.0767416621, -3.3077115913, 0.2309699292],
                [-1.2684380046, 2.6097574011, -0.3413193965],
                [-0.0041960863, -0.7034186147, 1.7076147010],
            ], lms
        ).map(encode)
    }

    private static func fromXYZ65(_ xyz: [Double]) -> [Double] { ColorScience.sRGB(xyzD65: xyz) }
    private static func fromXYZ50(_ xyz: [Double]) -> [Double] { ColorScience.sRGB(xyzD50: xyz) }
    private static func multiply(_ matrix: [[Double]], _ vector: [Double]) -> [Double] {
        ColorScience.multiply(matrix, vector)
    }

    private static let p3ToXYZ = [
        [0.4865709486482162, 0.26566769316909306, 0.1982172852343625],
        [0.2289745640697488, 0.6917385218365064, 0.079286914093745],
        [0.0, 0.04511338185890264, 1.043944368900976],
    ]
    private static let a98ToXYZ = [
        [0.5766690429101305, 0.1855582379065463, 0.1882286462349947],
        [0.29734497525053605, 0.6273635662554661, 0.07529145849399788],
        [0.02703136138641234, 0.07068885253582723, 0.9913375368376388],
    ]
    private static let prophotoToXYZ50 = [
        [0.7977666449006423, 0.13518129740053308, 0.0313477341283922],
        [0.2880748288194013, 0.711835234241873, 0.00008993693872564],
        [0.0, 0.0, 0.8251046025104602],
    ]
    private static let rec2020ToXYZ = [
        [0.6369580483012914, 0.14461690358620832, 0.1688809751641721],
        [0.2627002120112671, 0.6779980715188708, 0.05930171646986196],
        [0.0, 0.028072693049087428, 1.060985057710791],
    ]
}
