/// What `Info.xml` says about a theme.
public struct ThemeInfo: Hashable, Sendable {
    public var id: String
    public var name: String
    /// `MAJOR.MINOR.PATCH`; `1.0.0` when the theme gives none.
    public var version: String
    public var parent: String?
    public var description: String?

    public init(id: String, name: String, version: String = "1.0.0", parent: String? = nil, description: String? = nil)
    {
        self.id = id
        self.name = name
        self.version = version
        self.parent = parent
        self.description = description
    }
}

/// One param of an operation with its resolved value.
public struct Param: Hashable, Sendable {
    public var name: String
    public var value: Value
    public init(name: String, value: Value) {
        self.name = name
        self.value = value
    }
}

/// An operation after resolution. Its identity is the pair (name, state): `key`.
public struct ResolvedOperation: Hashable, Sendable {
    public var name: String
    public var state: ControlState
    /// Sorted by name.
    public var params: [Param]

    public init(name: String, state: ControlState = .normal, params: [Param]) {
        self.name = name
        self.state = state
        // Most operations have one param: sorting would copy the array for nothing.
        self.params = params.count < 2 || params.isSortedByName ? params : params.sorted { $0.name < $1.name }
    }

    public func param(_ name: String) -> Value? {
        params.first { $0.name == name }?.value
    }
}

/// An instance after resolution: its effective operations in effective order.
public struct ResolvedInstance: Hashable, Sendable {
    public var id: String
    public var component: String
    public var operations: [ResolvedOperation]

    public init(id: String, component: String, operations: [ResolvedOperation]) {
        self.id = id
        self.component = component
        self.operations = operations
    }
}

/// A theme resolved for one trait set: what an app applies.
public struct ResolvedTheme: Hashable, Sendable {
    public var info: ThemeInfo
    public var traits: TraitSet
    /// Sorted by id.
    public var instances: [ResolvedInstance]
    /// The assets of the theme and its ancestors, for choosing image files by traits and scale.
    public var assets: AssetCatalog
    /// The dimensions `traits` is a trait set of: they name its tags.
    public var dimensions: TraitDimensions

    public init(
        info: ThemeInfo, traits: TraitSet, instances: [ResolvedInstance], assets: AssetCatalog,
        dimensions: TraitDimensions = .standard
    ) {
        self.info = info
        self.traits = traits
        self.dimensions = dimensions
        self.instances = instances.sorted { $0.id < $1.id }
        self.assets = assets
    }

    public func instance(_ id: String) -> ResolvedInstance? {
        var low = 0
        var high = instances.count
        while low < high {
            let middle = (low + high) / 2
            if instances[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < instances.count && instances[low].id == id ? instances[low] : nil
    }
}

/// A theme resolved for every trait set it distinguishes: what the compiler stores, so one
/// compiled file serves iPhone, iPad, dark, high contrast and every mix.
public struct ThemeVariants: Hashable, Sendable {
    public var info: ThemeInfo
    /// The ancestors, root first (empty for a theme without a parent).
    public var ancestors: [ThemeInfo]
    /// The trait dimensions the theme was resolved under: the standard ones and the app's own.
    public var dimensions: TraitDimensions
    public var axes: TraitAxes
    /// Keyed by canonical trait sets (`axes.canonical`); every one of `axes.traitSets` is present.
    public var variants: [TraitSet: [ResolvedInstance]]
    public var assets: AssetCatalog
    /// What the theme's overridable constants change (format 1.3, section 9.2); empty without any.
    public var choices: ChoiceTable

    public init(
        info: ThemeInfo, ancestors: [ThemeInfo], axes: TraitAxes,
        variants: [TraitSet: [ResolvedInstance]], assets: AssetCatalog, dimensions: TraitDimensions = .standard,
        choices: ChoiceTable = ChoiceTable()
    ) {
        self.choices = choices
        self.info = info
        self.ancestors = ancestors
        self.dimensions = dimensions
        self.axes = axes
        self.variants = variants
        self.assets = assets
    }

    /// The theme as an app running with `traits` sees it.
    public func resolved(for traits: TraitSet) -> ResolvedTheme {
        ResolvedTheme(
            info: info, traits: traits, instances: variants[axes.canonical(traits)] ?? [], assets: assets,
            dimensions: dimensions)
    }
}

extension Array where Element == Param {
    var isSortedByName: Bool {
        var index = 1
        while index < count {
            if self[index].name < self[index - 1].name { return false }
            index += 1
        }
        return true
    }
}
