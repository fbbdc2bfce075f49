#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#endif

/// The project's one reference for colour spaces: CSS Color 4's conversion code (sRGB and its
/// transfer curve, HSL, CIE Lab/LCH with a D50 white reached from sRGB's D65 by the Bradford
/// transform). Colour modifiers (format 1.3, section 9.1) and design-token import both convert
/// here, so a theme and its token file cannot disagree about a colour. Everything is in double
/// precision on unrounded, unclamped channels; callers clip where the format says.
///
/// The only dependency is the platform's C maths library (`pow`, `cbrt`, `atan2`, `sin`, `cos`).
public enum ColorScience {
    /// An sRGB channel (gamma-encoded) to linear light; odd-symmetric, so values outside 0...1
    /// (out-of-gamut intermediates) convert too.
    public static func linear(_ encoded: Double) -> Double {
        let magnitude = abs(encoded)
        return copysign(magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4), encoded)
    }

    /// Linear light to an sRGB channel (gamma-encoded); odd-symmetric like `linear`.
    public static func encoded(_ linear: Double) -> Double {
        let magnitude = abs(linear)
        return copysign(magnitude > 0.0031308 ? 1.055 * pow(magnitude, 1 / 2.4) - 0.055 : 12.92 * magnitude, linear)
    }

    // MARK: HSL

    /// Hue in degrees 0..<360 (0 for a grey), saturation and lightness 0...100.
    public static func hsl(_ color: Color) -> (hue: Double, saturation: Double, lightness: Double) {
        let (r, g, b) = (color.red, color.green, color.blue)
        let high = max(r, g, b)
        let low = min(r, g, b)
        let lightness = (high + low) / 2
        let delta = high - low
        var hue = 0.0
        var saturation = 0.0
        if delta != 0 {
            saturation = lightness == 0 || lightness == 1 ? 0 : (high - lightness) / min(lightness, 1 - lightness)
            switch high {
            case r: hue = (g - b) / delta + (g < b ? 6 : 0)
            case g: hue = (b - r) / delta + 2
            default: hue = (r - g) / delta + 4
            }
            hue *= 60
        }
        if saturation < 0 {
            // CSS Color 4: a negative saturation (out-of-gamut input) turns the hue around.
            hue += 180
            saturation = abs(saturation)
        }
        if hue >= 360 { hue -= 360 }
        return (hue, saturation * 100, lightness * 100)
    }

    /// The sRGB colour of an HSL triple (saturation and lightness 0...100), opaque.
    public static func color(hue: Double, saturation: Double, lightness: Double) -> Color {
        let s = saturation / 100, l = lightness / 100
        var h = hue.truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        func channel(_ n: Double) -> Double {
            let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
            let a = s * min(l, 1 - l)
            return l - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return Color(red: channel(0), green: channel(8), blue: channel(4))
    }

    // MARK: CIE Lab and LCH (D50)

    /// D50 white as CSS Color 4 writes it (x/y chromaticity 0.3457/0.3585).
    static let whiteD50 = [0.3457 / 0.3585, 1.0, (1.0 - 0.3457 - 0.3585) / 0.3585]
    static let kappa = 24389.0 / 27
    static let epsilon = 216.0 / 24389

    /// CIE LCH (D50): lightness 0...100, chroma >= 0, hue in degrees 0..<360 (0 for a grey).
    public static func lch(_ color: Color) -> (lightness: Double, chroma: Double, hue: Double) {
        let (l, a, b) = lab(xyzD50: xyzD50(color))
        var hue = atan2(b, a) * 180 / .pi
        if hue < 0 { hue += 360 }
        return (l, (a * a + b * b).squareRoot(), hue)
    }

    /// The sRGB colour (unclipped) of an LCH triple, opaque.
    public static func color(lightness: Double, chroma: Double, hue: Double) -> Color {
        let radians = hue * .pi / 180
        let encodedChannels = sRGB(xyzD50: xyzD50(lab: (lightness, chroma * cos(radians), chroma * sin(radians))))
        return Color(red: encodedChannels[0], green: encodedChannels[1], blue: encodedChannels[2])
    }

    /// CIE XYZ relative to D50 to CIE Lab.
    public static func lab(xyzD50 xyz: [Double]) -> (l: Double, a: Double, b: Double) {
        let f = zip(xyz, whiteD50).map { value, white -> Double in
            let scaled = value / white
            return scaled > epsilon ? cbrt(scaled) : (kappa * scaled + 16) / 116
        }
        return (116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2]))
    }

    /// CIE Lab to CIE XYZ relative to D50.
    public static func xyzD50(lab: (l: Double, a: Double, b: Double)) -> [Double] {
        let f1 = (lab.l + 16) / 116, f0 = lab.a / 500 + f1, f2 = f1 - lab.b / 200
        let x = f0 * f0 * f0 > epsilon ? f0 * f0 * f0 : (116 * f0 - 16) / kappa
        let y = lab.l > kappa * epsilon ? f1 * f1 * f1 : lab.l / kappa
        let z = f2 * f2 * f2 > epsilon ? f2 * f2 * f2 : (116 * f2 - 16) / kappa
        return [x * whiteD50[0], y, z * whiteD50[2]]
    }

    // MARK: XYZ

    /// CIE XYZ (D50) of an sRGB colour: linearised, to XYZ D65, Bradford-adapted to D50.
    public static func xyzD50(_ color: Color) -> [Double] {
        multiply(bradfordD65ToD50, multiply(linearSRGBToXYZ, [color.red, color.green, color.blue].map(linear)))
    }

    /// CIE XYZ (D65) of an sRGB colour.
    public static func xyzD65(_ color: Color) -> [Double] {
        multiply(linearSRGBToXYZ, [color.red, color.green, color.blue].map(linear))
    }

    /// Gamma-encoded sRGB channels (unclipped) of a CIE XYZ colour relative to D65.
    public static func sRGB(xyzD65 xyz: [Double]) -> [Double] { multiply(xyzToLinearSRGB, xyz).map(encoded) }

    /// Gamma-encoded sRGB channels (unclipped) of a CIE XYZ colour relative to D50.
    public static func sRGB(xyzD50 xyz: [Double]) -> [Double] { sRGB(xyzD65: multiply(bradfordD50ToD65, xyz)) }

    /// A 3x3 matrix times a 3-vector.
    public static func multiply(_ matrix: [[Double]], _ vector: [Double]) -> [Double] {
        matrix.map { row in row[0] * vector[0] + row[1] * vector[1] + row[2] * vector[2] }
    }

    /// CSS Color 4's rational sRGB matrices, as decimals.
    static let linearSRGBToXYZ: [[Double]] = [
        [0.4123907992659595, 0.35758433938387796, 0.1804807884018343],
        [0.21263900587151036, 0.7151686787677559, 0.07219231536073371],
        [0.01933081871559185, 0.11919477979462599, 0.9505321522496606],
    ]
    static let xyzToLinearSRGB: [[Double]] = [
        [3.2409699419045213, -1.5373831775700935, -0.4986107602930033],
        [-0.9692436362808798, 1.8759675015077206, 0.04155505740717561],
        [0.05563007969699361, -0.20397695888897657, 1.0569715142428786],
    ]
    static let bradfordD65ToD50: [[Double]] = [
        [1.0479297925449969, 0.022946870601609652, -0.05019226628920524],
        [0.02962780877005599, 0.9904344267538799, -0.017073799063418826],
        [-0.009243040646204504, 0.015055191490298152, 0.7518742814281371],
    ]
    static let bradfordD50ToD65: [[Double]] = [
        [0.955473421488075, -0.02309845494876471, 0.06325924320057072],
        [-0.0283697093338637, 1.0099953980813041, 0.021041441191917323],
        [0.012314014864481998, -0.020507649298898964, 1.330365926242124],
    ]
}
