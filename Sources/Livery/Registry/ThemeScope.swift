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
    public init(themeID: String? = nil, idiom: Idiom? = nil, appearance: Appearance? = nil,
                contrast: Contrast? = nil, scale: Int? = nil) {
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
    unowned let applicator: Applicator
    let index: Int32

    init(applicator: Applicator, index: Int32) {
        self.applicator = applicator
        self.index = index
    }

    /// Changing the overrides re-applies, as a diff, to the scope's components and its children.
    public var overrides: ScopeOverrides {
        get { applicator.scopes[Int(index)].overrides }
        set {
            applicator.scopes[Int(index)].overrides = newValue
            applicator.refresh()
        }
    }

    /// The theme the scope's components get now.
    public var theme: ResolvedTheme? { applicator.scopes[Int(index)].current?.theme }

    /// Styles `component` with the scope's theme; see `Applicator.style(_:as:)`.
    public func style(_ component: AnyObject, as identifier: String) {
        applicator.style(component, as: identifier, scope: index)
    }

    /// A scope inside this one: it inherits this scope's overrides, then applies its own.
    public func makeScope(_ overrides: ScopeOverrides) -> ThemeScope {
        applicator.makeScope(overrides, parent: index)
    }
}
