/// The space a colour modifier works in (format 1.3, section 9.1).
public enum ModifierSpace: String, CaseIterable, Hashable, Sendable {
    /// Gamma-encoded sRGB channels, 0...1 (the default).
    case srgb
    /// sRGB's cylindrical form: hue, saturation and lightness 0...100.
    case hsl
    /// CIE LCH with a D50 white, as CSS Color 4's `lch()`.
    case lch
}

/// How a colour is derived from its base (format 1.3, section 9.1): at most one of lighten,
/// darken or mix, then alpha, then a contrast guard, in that order whatever the order written.
/// Operand colours are resolved (the front end looks named constants up, late-bound).
public struct ColorModifiers: Hashable, Sendable {
    /// The first step: a change of lightness, or a mix towards another colour.
    public enum Shift: Hashable, Sendable {
        /// Towards white by `amount` in 0...1.
        case lighten(Double)
        /// Towards black by `amount` in 0...1.
        case darken(Double)
        /// Towards `color` by `amount` in 0...1 (0 keeps the base, 1 gives `color`).
        case mix(Color, amount: Double)
    }

    /// Keeps a colour readable on `background` (taken as opaque): ratio at least `minimumRatio`.
    public struct ContrastGuard: Hashable, Sendable {
        public var background: Color
        /// 1...21; the format's default is 4.5.
        public var minimumRatio: Double
        public init(background: Color, minimumRatio: Double = 4.5) {
            self.background = background
            self.minimumRatio = minimumRatio
        }
    }

    public var shift: Shift?
    /// Replaces the alpha, 0...1.
    public var alpha: Double?
    public var contrast: ContrastGuard?
    public var space: ModifierSpace

    public init(shift: Shift? = nil, alpha: Double? = nil, contrast: ContrastGuard? = nil, space: ModifierSpace = .srgb)
    {
        self.shift = shift
        self.alpha = alpha
        self.contrast = contrast
        self.space = space
    }

    /// One step of a derivation, for explanations: what was done and the colour after it.
    public struct Step: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            case shift(Shift)
            case alpha(Double)
            /// The colour already had the ratio (`adjusted` nil), or was lightened or darkened by
            /// `adjusted`'s amount; `reached` is false where no amount reaches the ratio.
            case contrast(ContrastGuard, adjusted: Shift?, ratio: Double, reached: Bool)
        }
        public var kind: Kind
        /// The colour after this step, clipped to sRGB, unrounded.
        public var color: Color
    }

    /// The derived colour and how it came about.
    public struct Derivation: Hashable, Sendable {
        public var color: Color
        public var steps: [Step]
        /// False where the contrast guard could not reach its ratio (`contrast-unreachable`).
        public var contrastReached: Bool {
            for step in steps {
                if case .contrast(_, _, _, let reached) = step.kind { return reached }
            }
            return true
        }
    }

    /// The colour these modifiers derive from `base`.
    public func apply(to base: Color) -> Color { derive(from: base).color }

    /// The derivation step by step. Each step's result is clipped channel by channel to sRGB,
    /// so the next step, and a contrast guard's ratio, see the colour that will be shown.
    public func derive(from base: Color) -> Derivation {
        var color = base
        var steps: [Step] = []
        if let shift {
            color = Self.apply(shift, to: color, in: space).clipped
            steps.append(Step(kind: .shift(shift), color: color))
        }
        if let alpha {
            color.alpha = alpha
            steps.append(Step(kind: .alpha(alpha), color: color))
        }
        if let contrast {
            let (found, adjusted, ratio, reached) = Self.guarded(color, contrast, in: space)
            color = found
            steps.append(
                Step(kind: .contrast(contrast, adjusted: adjusted, ratio: ratio, reached: reached), color: color))
        }
        return Derivation(color: color, steps: steps)
    }

    /// One shift in `space`, unclipped. Alpha is kept, except that a mix interpolates it.
    public static func apply(_ shift: Shift, to color: Color, in space: ModifierSpace) -> Color {
        var result: Color
        switch (shift, space) {
        case (.lighten(let p), .srgb):
            result = Color(
                red: color.red + p * (1 - color.red), green: color.green + p * (1 - color.green),
                blue: color.blue + p * (1 - color.blue))
        case (.darken(let p), .srgb):
            result = Color(red: color.red * (1 - p), green: color.green * (1 - p), blue: color.blue * (1 - p))
        case (.lighten(let p), .hsl):
            let (h, s, l) = ColorScience.hsl(color)
            result = ColorScience.color(hue: h, saturation: s, lightness: l + p * (100 - l))
        case (.darken(let p), .hsl):
            let (h, s, l) = ColorScience.hsl(color)
            result = ColorScience.color(hue: h, saturation: s, lightness: l * (1 - p))
        case (.lighten(let p), .lch):
            let (l, c, h) = ColorScience.lch(color)
            result = ColorScience.color(lightness: min(100, l + p * (100 - l)), chroma: c * (1 - p), hue: h)
        case (.darken(let p), .lch):
            let (l, c, h) = ColorScience.lch(color)
            result = ColorScience.color(lightness: l * (1 - p), chroma: c * (1 - p), hue: h)
        case (.mix(let other, let p), _):
            result = mix(color, other, p, in: space)
            result.alpha = color.alpha + p * (other.alpha - color.alpha)
            return result
        }
        result.alpha = color.alpha
        return result
    }

    /// Below these a colour has no hue (HSL saturation and LCH chroma, on their 0...100 and
    /// 0...150 scales): a grey converted from sRGB has a chroma of about 1e-5, not 0.
    static let achromaticSaturation = 1e-4
    static let achromaticChroma = 1e-4

    private static func mix(_ from: Color, _ to: Color, _ p: Double, in space: ModifierSpace) -> Color {
        func lerp(_ a: Double, _ b: Double) -> Double { a + p * (b - a) }
        switch space {
        case .srgb:
            return Color(red: lerp(from.red, to.red), green: lerp(from.green, to.green), blue: lerp(from.blue, to.blue))
        case .hsl:
            let a = ColorScience.hsl(from), b = ColorScience.hsl(to)
            let (h1, h2) = hues(a.hue, a.saturation < achromaticSaturation, b.hue, b.saturation < achromaticSaturation)
            return ColorScience.color(
                hue: lerp(h1, h2), saturation: lerp(a.saturation, b.saturation),
                lightness: lerp(a.lightness, b.lightness))
        case .lch:
            let a = ColorScience.lch(from), b = ColorScience.lch(to)
            let (h1, h2) = hues(a.hue, a.chroma < achromaticChroma, b.hue, b.chroma < achromaticChroma)
            return ColorScience.color(
                lightness: lerp(a.lightness, b.lightness), chroma: lerp(a.chroma, b.chroma), hue: lerp(h1, h2))
        }
    }

    /// The two hues to interpolate: a colour without hue takes the other's, and the second is
    /// moved by a turn where that makes the arc between them the shorter one.
    static func hues(_ first: Double, _ firstAchromatic: Bool, _ second: Double, _ secondAchromatic: Bool) -> (
        Double, Double
    ) {
        var a = first, b = second
        if firstAchromatic && !secondAchromatic { a = b }
        if secondAchromatic && !firstAchromatic { b = a }
        if firstAchromatic && secondAchromatic {
            a = 0
            b = 0
        }
        if b - a > 180 { b -= 360 } else if b - a < -180 { b += 360 }
        return (a, b)
    }

    /// The contrast guard's search: the colour kept when it already reaches the ratio on the
    /// (opaque) background, else the first of p = 0.01, 0.02, ..., 1 at which lightening or
    /// darkening by p does (both: the higher ratio); at p = 1 without reaching it, the higher.
    static func guarded(_ color: Color, _ guardRule: ContrastGuard, in space: ModifierSpace) -> (
        Color, Shift?, Double, Bool
    ) {
        var background = guardRule.background
        background.alpha = 1
        let required = guardRule.minimumRatio
        let start = ContrastRatio.ratio(color, on: background)
        if start >= required { return (color, nil, start, true) }
        var best: (Color, Shift, Double) = (color, .lighten(0), start)
        for step in 1...100 {
            let p = Double(step) / 100
            let lighter = apply(.lighten(p), to: color, in: space).clipped
            let darker = apply(.darken(p), to: color, in: space).clipped
            let lighterRatio = ContrastRatio.ratio(lighter, on: background)
            let darkerRatio = ContrastRatio.ratio(darker, on: background)
            best =
                lighterRatio >= darkerRatio ? (lighter, .lighten(p), lighterRatio) : (darker, .darken(p), darkerRatio)
            if best.2 >= required { return (best.0, best.1, best.2, true) }
        }
        return (best.0, best.1, best.2, false)
    }
}

extension Color {
    /// Each channel clipped to 0...1 (format 1.3: a result outside sRGB is clipped).
    public var clipped: Color {
        func clip(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
        return Color(red: clip(red), green: clip(green), blue: clip(blue), alpha: clip(alpha))
    }
}
