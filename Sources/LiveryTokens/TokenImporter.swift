import LiveryModel

/// Turns resolved tokens into theme constants (the mapping table of docs/Tokens.md).
public struct TokenImporter {
    public struct Options: Sendable {
        /// Points per `rem`.
        public var remBase: Double
        public init(remBase: Double = 16) { self.remBase = remBase }
    }

    public var options: Options
    public private(set) var diagnostics: [Diagnostic] = []
    /// Token types Livery has no constant for, with the paths of the tokens skipped.
    public private(set) var skipped: [(type: String, path: String)] = []
    private var names: [String: (path: String, location: SourceLocation)] = [:]
    /// The constants made from `$root` tokens (`color.bg.$root` is `color.bg`): export needs them
    /// to write `$root` again, since the constant name no longer says so.
    public private(set) var rootNames: Set<String> = []
    /// Constants made from `number` tokens with a fraction: floats, like dimensions, so the
    /// record (`TokenRoots`) tells export to write them as `number` again.
    public private(set) var numberNames: Set<String> = []

    public init(options: Options = Options()) { self.options = options }

    /// The constant name of a token path: segments joined with `.`, every character outside
    /// `[A-Za-z0-9_-]` replaced by `_`, `$root` dropped, `_` in front of a name that would start with
    /// a digit or `-`. `color.bg.default` stays `color.bg.default`; `Brand Blue.500` becomes `Brand_Blue.500`.
    public static func constantName(_ path: [String]) -> String {
        let segments = path.filter { $0 != "$root" }.map { segment in
            String(
                segment.unicodeScalars.map { scalar -> Character in
                    scalar.isASCII
                        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_"
                            || scalar == "-")
                        ? Character(scalar) : "_"
                })
        }
        var name = segments.joined(separator: ".")
        if name.isEmpty { name = "root" }
        if let first = name.unicodeScalars.first, !(first.properties.isAlphabetic || first == "_") { name = "_" + name }
        return name
    }

    /// The constants of one set of tokens, in token order. Problems (collisions, colours out of
    /// gamut) are added to `diagnostics`; types without a Livery constant to `skipped`.
    public mutating func constants(of tokens: [ResolvedToken]) -> [ThemeConstant] {
        let byPath = Dictionary(tokens.map { ($0.path, $0) }, uniquingKeysWith: { _, last in last })
        var result: [ThemeConstant] = []
        for token in tokens {
            let name = Self.constantName(token.path)
            if let first = names[name], first.path != token.raw.key {
                diagnostics.append(
                    .error(
                        .tokenNameCollision,
                        "tokens '\(first.path)' (at \(first.location)) and '\(token.raw.key)' both become the constant '\(name)'; rename one",
                        at: token.raw.location))
                continue
            }
            names[name] = (token.raw.key, token.raw.location)
            if token.path.count > 1, token.path.last == "$root" { rootNames.insert(name) }
            if case .number(let number) = token.value, Self.numberType(number) == .float { numberNames.insert(name) }
            var made = constants(for: token, named: name, byPath: byPath)
            if token.raw.extensions?[TypographyExtension.vendor]?["overridable"]?.bool == true, !made.isEmpty {
                made[0].overridable = true
            }
            if !made.isEmpty {
                var lines: [String] = []
                if let description = token.raw.description, !description.isEmpty { lines.append(description) }
                if let deprecated = token.raw.deprecated {
                    lines.append(deprecated.isEmpty ? "Deprecated." : "Deprecated: \(deprecated)")
                }
                if !lines.isEmpty { made[0].comment = lines.joined(separator: " ") }
            }
            result += made
        }
        return result
    }

    private func target(_ alias: [String]?, in byPath: [[String]: ResolvedToken]) -> String? {
        guard let alias, byPath[alias] != nil else { return nil }
        return Self.constantName(alias)
    }

    private mutating func constants(for token: ResolvedToken, named name: String, byPath: [[String]: ResolvedToken])
        -> [ThemeConstant]
    {
        let aliased = target(token.alias, in: byPath)
        switch token.value {
        case .color(let color):
            return [colorConstant(color, of: token, named: name, aliased: aliased, byPath: byPath)]
        case .dimension(let dimension):
            if let aliased { return [ThemeConstant(name: name, type: .float, content: .reference(aliased))] }
            return [ThemeConstant(name: name, type: .float, content: .literal(.float(points(dimension))))]
        case .number(let number):
            let type = Self.numberType(number)
            if let aliased { return [ThemeConstant(name: name, type: type, content: .reference(aliased))] }
            return [
                ThemeConstant(
                    name: name, type: type,
                    content: .literal(type == .integer ? .integer(Int64(number)) : .float(number)))
            ]
        case .fontFamily(let families):
            if let aliased { return [ThemeConstant(name: name, type: .font, content: .reference(aliased))] }
            return [
                ThemeConstant(name: name, type: .font, content: .literal(.font(Font(family: families[0], size: nil))))
            ]
        case .fontWeight(let weight):
            if let aliased { return [ThemeConstant(name: name, type: .enumeration, content: .reference(aliased))] }
            return [
                ThemeConstant(
                    name: name, type: .enumeration, content: .literal(.enumeration(Self.weight(weight).rawValue)))
            ]
        case .typography(let typography):
            if let aliased { return [ThemeConstant(name: name, type: .font, content: .reference(aliased))] }
            // Format 1.2, section 8: spacing and line height are written even when 0, unless
            // the token records (as export does) that the font had none; a size of 0 is none.
            let absent = TypographyExtension.absentMembers(of: token.raw.extensions)
            let size = points(typography.fontSize.value)
            let lineHeight = typography.lineHeight.value
            guard absent.contains("lineHeight") || lineHeight >= 0 else {
                diagnostics.append(
                    .error(
                        .tokenValue,
                        "the lineHeight of '\(token.raw.key)' is \(JSONValue.format(lineHeight)); a line height is a multiple of the font size and cannot be negative",
                        at: token.raw.location))
                return []
            }
            let font = Font(
                family: typography.fontFamily.value[0], size: size > 0 ? size : nil,
                weight: Self.weight(typography.fontWeight.value),
                letterSpacing: absent.contains("letterSpacing") ? nil : points(typography.letterSpacing.value),
                lineHeight: absent.contains("lineHeight") ? nil : lineHeight)
            return [ThemeConstant(name: name, type: .font, content: .literal(.font(font)))]
        case .border(let border):
            return [
                part(name, "color", border.color, token, aliased), part(name, "width", border.width, token, aliased),
            ]
        case .shadow(let layers):
            return layers.enumerated().flatMap { index, layer -> [ThemeConstant] in
                let base = layers.count == 1 ? name : "\(name).\(index + 1)"
                var parts = [
                    part(base, "color", layer.color, token, aliased),
                    part(base, "offsetX", layer.offsetX, token, aliased),
                    part(base, "offsetY", layer.offsetY, token, aliased),
                    part(base, "blur", layer.blur, token, aliased), part(base, "spread", layer.spread, token, aliased),
                ]
                if layer.inset {
                    parts.append(ThemeConstant(name: base + ".inset", type: .bool, content: .literal(.bool(true))))
                }
                return parts
            }
        case .gradient(let stops):
            return stops.enumerated().flatMap { index, stop -> [ThemeConstant] in
                let base = "\(name).stop\(index + 1)"
                return [
                    part(base, "color", stop.color, token, aliased),
                    ThemeConstant(
                        name: base + ".position", type: .float,
                        content: aliased.map { .reference("\($0).stop\(index + 1).position") }
                            ?? .literal(.float(stop.position.value))),
                ]
            }
        case .duration, .cubicBezier, .strokeStyle, .transition:
            skipped.append((token.type.rawValue, token.raw.key))
            return []
        }
    }

    /// A colour token's constant: a reference when it aliases a token, else the colour; a Tokens Studio
    /// modifier becomes a derivation (a p3 one, the colour it gives).
    private mutating func colorConstant(
        _ color: TokenColor, of token: ResolvedToken, named name: String, aliased: String?,
        byPath: [[String]: ResolvedToken]
    ) -> ThemeConstant {
        var constant =
            aliased.map { ThemeConstant(name: name, type: .color, content: .reference($0)) }
            ?? ThemeConstant(name: name, type: .color, content: .literal(.color(convert(color, token))))
        switch StudioModifier.read(token.raw.extensions) {
        case nil: break
        case .failure(let problem)?:
            diagnostics.append(
                .warning(
                    .tokenValue, "'\(token.raw.key)': \(problem.message); imported without it",
                    at: token.raw.location))
        case .success(let modifier)?:
            // Livery's export records the constant the colour starts from; $value is then the
            // resolved colour, not the base.
            if let base = token.raw.extensions?[TypographyExtension.vendor]?["base"]?.string,
                base.hasPrefix("{"), base.hasSuffix("}")
            {
                let path = base.dropFirst().dropLast().split(separator: ".").map(String.init)
                if byPath[path] != nil {
                    constant = ThemeConstant(name: name, type: .color, content: .reference(Self.constantName(path)))
                }
            }
            let mixColor = modifier.color.flatMap { mixOperand($0, byPath: byPath) }
            if modifier.kind == .mix, mixColor == nil {
                diagnostics.append(
                    .warning(
                        .tokenValue,
                        "'\(token.raw.key)': its Tokens Studio mix colour '\(modifier.color ?? "")' is neither a hex colour nor a colour token; imported without the modifier",
                        at: token.raw.location))
            } else if modifier.space == nil {
                let base = convert(color, token)
                let resolved = StudioModifier.resolvedInP3(
                    modifier.kind, modifier.value, base: base, mix: mixColor?.color)
                constant = ThemeConstant(name: name, type: .color, content: .literal(.color(resolved)))
                diagnostics.append(
                    .warning(
                        .tokenValue,
                        "'\(token.raw.key)': a theme has no p3 modifiers; imported as the colour it gives, \(resolved.hexString)",
                        at: token.raw.location))
            } else {
                constant.derivation = modifier.derivation(mixOperand: mixColor?.operand)
            }
        }
        return constant
    }

    /// A part of a composite: a reference when the whole token or the part is an alias.
    private mutating func part(
        _ base: String, _ key: String, _ color: Aliased<TokenColor>, _ token: ResolvedToken, _ aliased: String?
    ) -> ThemeConstant {
        let name = base + "." + key
        if let aliased {
            return ThemeConstant(
                name: name, type: .color,
                content: .reference(base.replacingPrefix(of: token, with: aliased) + "." + key))
        }
        if let alias = color.alias {
            return ThemeConstant(name: name, type: .color, content: .reference(Self.constantName(alias)))
        }
        return ThemeConstant(name: name, type: .color, content: .literal(.color(convert(color.value, token))))
    }

    private func part(
        _ base: String, _ key: String, _ dimension: Aliased<Dimension>, _ token: ResolvedToken, _ aliased: String?
    ) -> ThemeConstant {
        let name = base + "." + key
        if let aliased {
            return ThemeConstant(
                name: name, type: .float,
                content: .reference(base.replacingPrefix(of: token, with: aliased) + "." + key))
        }
        if let alias = dimension.alias {
            return ThemeConstant(name: name, type: .float, content: .reference(Self.constantName(alias)))
        }
        return ThemeConstant(name: name, type: .float, content: .literal(.float(points(dimension.value))))
    }

    /// A Tokens Studio mix colour: a hex colour as written, or an alias of a colour token as the
    /// constant it becomes; with its colour, for computing in p3.
    private mutating func mixOperand(_ text: String, byPath: [[String]: ResolvedToken]) -> (
        operand: String, color: Color
    )? {
        if text.hasPrefix("{"), text.hasSuffix("}") {
            let path = text.dropFirst().dropLast().split(separator: ".").map(String.init)
            guard let target = byPath[path], case .color(let color) = target.value else { return nil }
            return (Self.constantName(path), convert(color, target))
        }
        guard text.hasPrefix("#"), text.count == 7 || text.count == 9,
            let number = UInt64(text.dropFirst(), radix: 16)
        else { return nil }
        let bytes = text.count == 7 ? (number << 8) | 0xFF : number
        func channel(_ shift: UInt64) -> Double { Double((bytes >> shift) & 0xFF) / 255 }
        return (text.uppercased(), Color(red: channel(24), green: channel(16), blue: channel(8), alpha: channel(0)))
    }

    private func points(_ dimension: Dimension) -> Double {
        dimension.unit == .rem ? dimension.value * options.remBase : dimension.value
    }

    private mutating func convert(_ color: TokenColor, _ token: ResolvedToken) -> Color {
        let (red, green, blue, clamped) = ColorConversion.sRGB(color)
        if clamped {
            diagnostics.append(
                .warning(
                    .colorOutOfGamut,
                    "the \(color.space.rawValue) colour of '\(token.raw.key)' is outside sRGB; it was mapped to the nearest sRGB colour by clipping",
                    at: token.raw.location))
        }
        return Color(red: red, green: green, blue: blue, alpha: color.alpha)
    }

    /// Whole numbers become `integer` constants (a count, a z-index); others `float`.
    static func numberType(_ number: Double) -> ValueType {
        number == number.rounded() && abs(number) < 9_007_199_254_740_992 ? .integer : .float
    }

    /// The nearest of Livery's nine weights to a numeric weight (100 ultralight ... 900 black).
    public static func weight(_ number: Double) -> FontWeight {
        let steps: [FontWeight] = [.ultralight, .thin, .light, .regular, .medium, .semibold, .bold, .heavy, .black]
        let index = Int(((number - 100) / 100).rounded())
        return steps[min(max(index, 0), steps.count - 1)]
    }

    /// The numeric weight `export` writes for a Livery weight.
    public static func number(of weight: FontWeight) -> Double {
        Double(
            100
                * (([.ultralight, .thin, .light, .regular, .medium, .semibold, .bold, .heavy, .black] as [FontWeight])
                    .firstIndex(of: weight)! + 1))
    }
}

extension String {
    /// For a composite that aliases another whole composite: its part `name.color` refers to the
    /// target's part `target.color` (the shadow layer or gradient stop suffix carries over).
    fileprivate func replacingPrefix(of token: ResolvedToken, with target: String) -> String {
        let own = TokenImporter.constantName(token.path)
        return target + dropFirst(own.count)
    }
}
