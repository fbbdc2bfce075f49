/// The token types of DTCG 2025.10 (sections 8 and 9).
public enum TokenType: String, CaseIterable, Hashable, Sendable {
    case color, dimension, fontFamily, fontWeight, duration, cubicBezier, number
    case strokeStyle, border, transition, shadow, gradient, typography
}

/// The colour spaces a DTCG colour may be written in.
public enum ColorSpace: String, CaseIterable, Hashable, Sendable {
    case srgb, srgbLinear = "srgb-linear", hsl, hwb, lab, lch, oklab, oklch
    case displayP3 = "display-p3", a98rgb = "a98-rgb", prophotoRGB = "prophoto-rgb", rec2020
    case xyzD65 = "xyz-d65", xyzD50 = "xyz-d50"
}

public struct TokenColor: Hashable, Sendable {
    public var space: ColorSpace
    /// `nil` is the keyword `none` (a missing component, e.g. the hue of a grey).
    public var components: [Double?]
    public var alpha: Double
    public var hex: String?
    public init(space: ColorSpace, components: [Double?], alpha: Double = 1, hex: String? = nil) {
        self.space = space
        self.components = components
        self.alpha = alpha
        self.hex = hex
    }
}

public enum DimensionUnit: String, Hashable, Sendable { case px, rem }
public struct Dimension: Hashable, Sendable {
    public var value: Double
    public var unit: DimensionUnit
    public init(_ value: Double, _ unit: DimensionUnit) {
        self.value = value
        self.unit = unit
    }
}

public enum DurationUnit: String, Hashable, Sendable { case ms, s }
public struct Duration: Hashable, Sendable {
    public var value: Double
    public var unit: DurationUnit
}

/// A value that may have come through an alias: `alias` is the referenced token's path, kept so
/// the imported constant can reference the constant instead of copying the value.
public struct Aliased<Value: Hashable & Sendable>: Hashable, Sendable {
    public var value: Value
    public var alias: [String]?
    public init(_ value: Value, alias: [String]? = nil) {
        self.value = value
        self.alias = alias
    }
}

public enum StrokeStyle: Hashable, Sendable {
    case keyword(String)
    case dashes([Aliased<Dimension>], lineCap: String)
}

public struct Border: Hashable, Sendable {
    public var color: Aliased<TokenColor>
    public var width: Aliased<Dimension>
    public var style: Aliased<StrokeStyle>
}

public struct Transition: Hashable, Sendable {
    public var duration: Aliased<Duration>
    public var delay: Aliased<Duration>
    public var timingFunction: Aliased<[Double]>
}

public struct Shadow: Hashable, Sendable {
    public var color: Aliased<TokenColor>
    public var offsetX, offsetY, blur, spread: Aliased<Dimension>
    public var inset: Bool
}

public struct GradientStop: Hashable, Sendable {
    public var color: Aliased<TokenColor>
    public var position: Aliased<Double>
}

public struct Typography: Hashable, Sendable {
    public var fontFamily: Aliased<[String]>
    public var fontSize: Aliased<Dimension>
    /// The numeric weight (1...1000); keywords are converted (bold = 700).
    public var fontWeight: Aliased<Double>
    public var letterSpacing: Aliased<Dimension>
    public var lineHeight: Aliased<Double>
}

/// A token's value, validated against its type, with references resolved.
public enum TokenValue: Hashable, Sendable {
    case color(TokenColor)
    case dimension(Dimension)
    case fontFamily([String])
    case fontWeight(Double)
    case duration(Duration)
    case cubicBezier([Double])
    case number(Double)
    case strokeStyle(StrokeStyle)
    case border(Border)
    case transition(Transition)
    case shadow([Shadow])
    case gradient([GradientStop])
    case typography(Typography)

    public var type: TokenType {
        switch self {
        case .color: .color
        case .dimension: .dimension
        case .fontFamily: .fontFamily
        case .fontWeight: .fontWeight
        case .duration: .duration
        case .cubicBezier: .cubicBezier
        case .number: .number
        case .strokeStyle: .strokeStyle
        case .border: .border
        case .transition: .transition
        case .shadow: .shadow
        case .gradient: .gradient
        case .typography: .typography
        }
    }
}

/// The font-weight keywords of DTCG 2025.10 section 8.4 and the numbers they stand for.
public enum FontWeightKeyword {
    public static let values: [String: Double] = [
        "thin": 100, "hairline": 100, "extra-light": 200, "ultra-light": 200, "light": 300,
        "normal": 400, "regular": 400, "book": 400, "medium": 500, "semi-bold": 600, "demi-bold": 600,
        "bold": 700, "extra-bold": 800, "ultra-bold": 800, "black": 900, "heavy": 900,
        "extra-black": 950, "ultra-black": 950,
    ]
}
