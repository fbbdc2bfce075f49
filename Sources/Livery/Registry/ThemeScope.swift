import LiveryModel

/// Which theme and traits a scope uses instead of its parent's: nil fields inherit.
public struct ScopeOverrides: Hashable, Sendable {
    /// The theme the scope uses; nil follows the manager's current theme.
    public var themeID: String?
    /// The idiom the scope uses; nil follows the manager's traits.
    public var idiom: Idiom?
    /// Light or dark for the scope; nil follows the manager's traits.
    public var appearance: Appearance?
    /// High contrast for the scope; nil follows the manager's traits.
    public var contrast: Contrast?
    /// The display scale the scope's images are chosen for; nil follows the manager.
    public var scale: Int?

    /// Overrides of the given fields; the others inherit.
    public init(
        themeID: String? = nil, idiom: Idiom? = nil, appearance: Appearance? = nil,
        contrast: Contrast? = nil, scale: Int? = nil
    ) {
        self.themeID = themeID
        self.idiom = idiom
        self.appearance = appearance
        self.contrast = contrast
        self.scale = scale
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
