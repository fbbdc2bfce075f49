/// One file of an asset: `assets/bubble@2x~ipad.png` is a variant of `bubble` for iPad at scale 2.
public struct AssetVariant: Hashable, Sendable {
    public var name: String
    /// The theme whose folder holds the file.
    public var themeID: String
    /// Relative to that theme's folder, e.g. `assets/bubble@2x~ipad.png`.
    public var file: String
    public var qualifiers: TraitSet
    public var scale: Int

    public init(name: String, themeID: String, file: String, qualifiers: TraitSet = .none, scale: Int = 1) {
        self.name = name
        self.themeID = themeID
        self.file = file
        self.qualifiers = qualifiers
        self.scale = scale
    }

    /// The file this variant is.
    public var fileKey: AssetFileKey { AssetFileKey(themeID: themeID, file: file) }
}

/// One asset file, as the catalog names it: which theme's folder and which path inside it. What
/// a compiled file stores asset bytes by, and what the runtime's image caches key images by.
public struct AssetFileKey: Hashable, Sendable {
    public var themeID: String
    public var file: String
    public init(themeID: String, file: String) {
        self.themeID = themeID
        self.file = file
    }
}

/// The assets a theme can see (its own and its ancestors'), and the rule that picks a file.
public struct AssetCatalog: Hashable, Sendable {
    /// Theme ids from the theme itself towards the root: the order names are searched in.
    public private(set) var searchOrder: [String]
    public private(set) var variants: [AssetVariant]
    private var variantsByName: [String: [AssetVariant]]

    public init(searchOrder: [String], variants: [AssetVariant]) {
        self.searchOrder = searchOrder
        self.variants = variants.sorted { ($0.themeID, $0.file) < ($1.themeID, $1.file) }
        self.variantsByName = Dictionary(grouping: self.variants, by: \.name)
    }

    public static let empty = AssetCatalog(searchOrder: [], variants: [])

    /// Whether any theme of the chain has a variant of `name` that applies with `traits`.
    public func contains(_ name: String, traits: TraitSet) -> Bool {
        variantsByName[name]?.contains { $0.qualifiers.applies(in: traits) } ?? false
    }

    /// The format's rule: search from the theme towards the root; in the first theme with an
    /// applicable variant, take the highest specificity, then the exact scale, else the nearest
    /// higher scale, else the nearest lower.
    public func select(_ name: String, traits: TraitSet, scale: Int) -> AssetVariant? {
        guard let candidates = variantsByName[name] else { return nil }
        for themeID in searchOrder {
            let applicable = candidates.filter { $0.themeID == themeID && $0.qualifiers.applies(in: traits) }
            guard let specificity = applicable.map(\.qualifiers.specificity).max() else { continue }
            let best = applicable.filter { $0.qualifiers.specificity == specificity }
            func distance(_ variant: AssetVariant) -> (Int, Int, String) {
                let delta = variant.scale - scale
                // exact first, then higher scales nearest first, then lower scales nearest first
                let rank = delta == 0 ? 0 : (delta > 0 ? 1 : 2)
                return (rank, abs(delta), variant.file)
            }
            return best.min { distance($0) < distance($1) }
        }
        return nil
    }
}
