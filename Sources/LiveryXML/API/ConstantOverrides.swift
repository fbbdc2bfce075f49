import LiveryModel

/// A constant the app's user may replace at run time (format 1.3, section 9.2): some definition
/// of it in the theme's chain says `overridable="true"`.
public struct OverridableConstant: Hashable, Sendable {
    public var name: String
    public var type: ValueType
    /// The definition that made it overridable.
    public var location: SourceLocation
}

extension ThemeWorkspace {
    /// The overridable constants of a theme and its ancestors, sorted by name; nil when the
    /// chain cannot be read.
    public func overridableConstants(ofThemeAt path: String) -> [OverridableConstant]? {
        guard let chain = loadChain(path).0 else { return nil }
        return Self.overridableConstants(of: chain)
    }

    /// The overridable constants of a chain (root first), sorted by name: each with the type of
    /// the first definition that says so.
    static func overridableConstants(of chain: [DecodedThemeFolder]) -> [OverridableConstant] {
        var found: [String: OverridableConstant] = [:]
        for theme in chain {
            for file in theme.files {
                for constant in file.constants where constant.overridable == true && found[constant.name] == nil {
                    found[constant.name] = OverridableConstant(
                        name: constant.name, type: constant.object.type, location: constant.location)
                }
            }
        }
        return found.values.sorted { $0.name < $1.name }
    }

    /// A value for a constant of `type` written as its XML text (`#00AA88`, `12`, `true`), as
    /// `dump --override NAME=VALUE` takes it: a colour in hex, rgb (`r,g,b`) or rgba
    /// (`r,g,b,a`) form. Fonts and arrays have no text and cannot be given this way.
    public static func overrideValue(_ text: String, type: ValueType) -> Result<Value, OverrideProblem> {
        func wrap<T>(_ parsed: ValueSyntax.Parsed<T>, _ make: (T) -> Value) -> Result<Value, OverrideProblem> {
            parsed.map(make).mapError { OverrideProblem(message: $0.message) }
        }
        switch type {
        case .float: return wrap(ValueSyntax.float(text), Value.float)
        case .integer: return wrap(ValueSyntax.integer(text), Value.integer)
        case .bool: return wrap(ValueSyntax.bool(text), Value.bool)
        case .string: return .success(.string(text))
        case .color:
            let commas = text.filter { $0 == "," }.count
            let format = commas == 3 ? "rgba" : commas == 2 ? "rgb" : "hex"
            return wrap(ValueSyntax.color(text, format: format), Value.color)
        case .point: return wrap(ValueSyntax.point(text), Value.point)
        case .size: return wrap(ValueSyntax.size(text), Value.size)
        case .rect: return wrap(ValueSyntax.rect(text), Value.rect)
        case .insets: return wrap(ValueSyntax.insets(text), Value.insets)
        case .enumeration: return wrap(ValueSyntax.enumeration(text), Value.enumeration)
        case .image: return wrap(ValueSyntax.assetName(text), { .image(ImageReference(name: $0)) })
        case .font, .array:
            return .failure(OverrideProblem(message: "\(Phrasing.a(type.rawValue)) has no text form to give here"))
        }
    }

    /// The theme as an app running with `traits` sees it when its user has given `values` for
    /// overridable constants: each replaces the constant's final value, so every reference to
    /// it and every colour derived from it follows. Values for names the theme has no
    /// overridable constant of (of that type) are ignored.
    public func resolve(themeAt path: String, traits: TraitSet, overriding values: [String: Value]) -> Checked<
        ResolvedTheme
    > {
        guard let (resolver, diagnostics) = resolver(forThemeAt: path), let info = resolver.chain.last?.info else {
            return Checked(value: nil, diagnostics: loadFailure(path))
        }
        resolver.constantOverrides = values
        let instances = resolver.resolve(traits)
        let all = Array(Set(diagnostics + resolver.diagnostics)).sorted()
        guard !all.hasErrors else { return Checked(value: nil, diagnostics: all) }
        return Checked(
            value: ResolvedTheme(
                info: info, traits: traits, instances: instances, assets: resolver.assets,
                dimensions: resolver.dimensions),
            diagnostics: all)
    }
}

/// Why a value given for an overridable constant cannot be read.
public struct OverrideProblem: Error, Hashable, Sendable {
    public var message: String
}
