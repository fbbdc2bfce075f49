import LiveryModel

/// Which theme and traits a scope uses instead of its parent's: nil fields inherit.
public struct ScopeOverrides: Hashable, Sendable, Codable {
    /// The theme the scope uses; nil follows the manager's current theme.
    public var themeID: String?
    /// Per trait dimension, by name (`appearance`, `direction`, an app's `density`), the value the
    /// scope uses; a dimension not listed follows the manager's traits. Kept by name, so a saved
    /// form reads back after dimensions are added; a name or value the dimensions in force do not
    /// know is ignored.
    public var traits: [String: String]
    /// The display scale the scope's images are chosen for; nil follows the manager.
    public var scale: Int?
    /// Values for the theme's overridable constants (format section 9.2), by constant name: the
    /// user's accent, one contact's bubble colour. A constant not listed follows the enclosing
    /// scope, then the theme.
    public var constants: [String: Value]

    /// Overrides of the given fields; the others inherit. `traits` adds any dimension by name;
    /// `constants` gives values for overridable constants by name.
    public init(
        themeID: String? = nil, idiom: Idiom? = nil, appearance: Appearance? = nil,
        contrast: Contrast? = nil, textSize: TextSize? = nil, direction: LayoutDirection? = nil,
        scale: Int? = nil, traits: [String: String] = [:], constants: [String: Value] = [:]
    ) {
        self.themeID = themeID
        self.traits = traits
        self.constants = constants
        self.scale = scale
        self.idiom = idiom ?? self.idiom
        self.appearance = appearance ?? self.appearance
        self.contrast = contrast ?? self.contrast
        self.textSize = textSize ?? self.textSize
        self.direction = direction ?? self.direction
    }

    private enum CodingKeys: String, CodingKey { case themeID, traits, scale, constants }

    /// Every field may be missing from a saved form (one written before the field existed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        themeID = try container.decodeIfPresent(String.self, forKey: .themeID)
        traits = try container.decodeIfPresent([String: String].self, forKey: .traits) ?? [:]
        scale = try container.decodeIfPresent(Int.self, forKey: .scale)
        constants = try container.decodeIfPresent([String: Value].self, forKey: .constants) ?? [:]
    }

    private func typed<Value: RawRepresentable<String>>(_ dimension: Int) -> Value? {
        traits[TraitDimensions.standard.all[dimension].name].flatMap(Value.init(rawValue:))
    }

    private mutating func setTyped<Value: RawRepresentable<String>>(_ value: Value?, _ dimension: Int) {
        traits[TraitDimensions.standard.all[dimension].name] = value?.rawValue
    }

    /// The idiom the scope uses; nil follows the manager's traits.
    public var idiom: Idiom? {
        get { typed(TraitDimensions.idiom) }
        set { setTyped(newValue, TraitDimensions.idiom) }
    }
    /// Light or dark for the scope; nil follows the manager's traits.
    public var appearance: Appearance? {
        get { typed(TraitDimensions.appearance) }
        set { setTyped(newValue, TraitDimensions.appearance) }
    }
    /// High contrast for the scope; nil follows the manager's traits.
    public var contrast: Contrast? {
        get { typed(TraitDimensions.contrast) }
        set { setTyped(newValue, TraitDimensions.contrast) }
    }
    /// Large text for the scope; nil follows the manager's traits.
    public var textSize: TextSize? {
        get { typed(TraitDimensions.textSize) }
        set { setTyped(newValue, TraitDimensions.textSize) }
    }
    /// The layout direction for the scope; nil follows the manager's traits.
    public var direction: LayoutDirection? {
        get { typed(TraitDimensions.direction) }
        set { setTyped(newValue, TraitDimensions.direction) }
    }

    /// `inherited` with every overridden dimension that `dimensions` knows set to the scope's value.
    public func applied(to inherited: TraitSet, dimensions: TraitDimensions) -> TraitSet {
        var result = inherited
        for (name, tag) in traits {
            guard let position = dimensions.position(of: tag), dimensions.all[position.dimension].name == name
            else { continue }
            result[position.dimension] = position.value
        }
        return result
    }
}

/// A part of the app (a screen, a subtree) styled with its own theme or traits. Components
/// styled through a scope follow the scope; everything else follows the app.
@MainActor
public final class ThemeScope {
    // Unowned: the applicator's registry holds the handle, so the applicator outlives it
    // unless the app keeps the handle after releasing the applicator, which is a misuse that
    // traps (unowned is checked), never reads freed memory.
    unowned let applicator: Applicator
    let scope: ScopeID

    init(applicator: Applicator, scope: ScopeID) {
        self.applicator = applicator
        self.scope = scope
    }

    /// Changing the overrides re-applies, as a diff, to the scope's components and its children.
    public var overrides: ScopeOverrides {
        get { applicator.registry.overrides(of: scope) }
        set {
            applicator.registry.setOverrides(newValue, of: scope)
            applicator.refresh()
        }
    }

    /// The theme the scope's components get now.
    public var theme: ResolvedTheme? { applicator.registry.theme(of: scope)?.theme }

    /// Styles `component` with the scope's theme; see `Applicator.style(_:as:)`.
    public func style(_ component: AnyObject, as identifier: String) {
        applicator.style(component, as: identifier, scope: scope)
    }

    /// A scope inside this one: it inherits this scope's overrides, then applies its own.
    public func makeScope(_ overrides: ScopeOverrides) -> ThemeScope {
        applicator.makeScope(overrides, parent: scope)
    }
}
