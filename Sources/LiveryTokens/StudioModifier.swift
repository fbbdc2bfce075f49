import LiveryModel

/// Tokens Studio's colour modifier, kept in a colour token's `$extensions` (format 1.3, section
/// 9.3): `"studio.tokens": {"modify": {"type", "value", "space", "color"}}`. The token's `$value`
/// is the colour it starts from; `type` is `lighten`, `darken`, `mix` or `alpha`, `value` the
/// amount (a number, or a string holding one), `space` `srgb`, `hsl`, `lch` or `p3`, and `color`
/// the colour a mix goes towards (a hex colour or an alias `{group.token}`).
public struct StudioModifier: Hashable, Sendable {
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case lighten, darken, mix, alpha
    }

    public var kind: Kind
    public var value: Double
    /// `srgb`, `hsl`, `lch`; `p3`, which a theme has no modifier for, is nil here.
    public var space: ModifierSpace?
    /// A mix's colour as written: `#RRGGBB` or `{group.token}`.
    public var color: String?

    public static let vendor = "studio.tokens"

    public init(kind: Kind, value: Double, space: ModifierSpace?, color: String? = nil) {
        self.kind = kind
        self.value = value
        self.space = space
        self.color = color
    }

    /// The modifier a token's `$extensions` holds; nil when it holds none, a message when it holds
    /// one Livery cannot read.
    public static func read(_ extensions: JSONNode?) -> Result<StudioModifier, ModifierProblem>? {
        guard let modify = extensions?[vendor]?["modify"] else { return nil }
        guard let kindText = modify["type"]?.string, let kind = Kind(rawValue: kindText) else {
            return .failure(
                .init(message: "its Tokens Studio modifier has no type Livery knows (lighten, darken, mix, alpha)"))
        }
        let amount = modify["value"]?.number ?? modify["value"]?.string.flatMap { Double($0) }
        guard let amount, (0...1).contains(amount) else {
            return .failure(.init(message: "its Tokens Studio modifier's value is not a number in 0...1"))
        }
        let spaceText = modify["space"]?.string ?? "srgb"
        let space = ModifierSpace(rawValue: spaceText)
        guard space != nil || spaceText == "p3" else {
            return .failure(
                .init(message: "its Tokens Studio modifier's space '\(spaceText)' is not srgb, hsl, lch or p3"))
        }
        let color = modify["color"]?.string
        guard kind != .mix || color != nil else {
            return .failure(.init(message: "its Tokens Studio mix modifier names no color"))
        }
        return .success(StudioModifier(kind: kind, value: amount, space: space, color: kind == .mix ? color : nil))
    }

    /// The modifier as a theme writes it, with the mix colour as the theme names it.
    func derivation(mixOperand: String?) -> ColorDerivationAttributes {
        var attributes = ColorDerivationAttributes(space: space ?? .srgb)
        switch kind {
        case .lighten: attributes.lighten = value
        case .darken: attributes.darken = value
        case .alpha: attributes.alpha = value
        case .mix:
            attributes.mix = mixOperand
            attributes.amount = value
        }
        return attributes
    }

    /// The colour Tokens Studio computes in `p3`: the same formulas as `srgb` on Display P3's
    /// channels, then back to sRGB, clipped.
    static func resolvedInP3(_ kind: Kind, _ value: Double, base: Color, mix: Color?) -> Color {
        func p3(_ color: Color) -> Color {
            let channels = ColorScience.multiply(xyzToLinearP3, ColorScience.xyzD65(color)).map(ColorScience.encoded)
            return Color(red: channels[0], green: channels[1], blue: channels[2], alpha: color.alpha)
        }
        let start = p3(base)
        var shifted: Color
        switch kind {
        case .lighten: shifted = ColorModifiers.apply(.lighten(value), to: start, in: .srgb)
        case .darken: shifted = ColorModifiers.apply(.darken(value), to: start, in: .srgb)
        case .mix: shifted = ColorModifiers.apply(.mix(p3(mix ?? base), amount: value), to: start, in: .srgb)
        case .alpha:
            shifted = start
            shifted.alpha = value
        }
        let back = ColorConversion.sRGB(
            TokenColor(space: .displayP3, components: [shifted.red, shifted.green, shifted.blue], alpha: shifted.alpha))
        return Color(red: back.red, green: back.green, blue: back.blue, alpha: min(max(shifted.alpha, 0), 1))
    }

    /// CSS Color 4's XYZ (D65) to linear Display P3.
    static let xyzToLinearP3: [[Double]] = [
        [2.4934969119414245, -0.9313836179191236, -0.40271078445071684],
        [-0.829488969561575, 1.7626640603183468, 0.02362468584194359],
        [0.035845830243784335, -0.07617238926804171, 0.9568845240076873],
    ]
}

/// Why a token's modifier cannot be imported.
public struct ModifierProblem: Error, Hashable, Sendable {
    public var message: String
}

/// A colour constant's modifier attributes as `tokens import` writes them (format 1.3, 9.1).
public struct ColorDerivationAttributes: Hashable, Sendable {
    public var lighten: Double?
    public var darken: Double?
    /// A hex colour or a constant's name.
    public var mix: String?
    public var amount: Double?
    public var alpha: Double?
    public var space: ModifierSpace

    public init(space: ModifierSpace = .srgb) { self.space = space }

    /// ` darken="0.15" space="lch"`: each attribute given, `space` only when not srgb.
    var text: String {
        var out = ""
        if let lighten { out += " lighten=\"\(XMLText.number(lighten))\"" }
        if let darken { out += " darken=\"\(XMLText.number(darken))\"" }
        if let mix { out += " mix=\"\(MarkupText.escaped(mix))\"" }
        if let amount { out += " amount=\"\(XMLText.number(amount))\"" }
        if let alpha { out += " alpha=\"\(XMLText.number(alpha))\"" }
        if space != .srgb { out += " space=\"\(space.rawValue)\"" }
        return out
    }
}
