// Which qualifier each modifier context of a DTCG resolver stands for.
import LiveryModel

/// Which qualifier each modifier context stands for.
public struct ContextMap: Sendable {
    /// `modifier:context` to trait set, from `--map`.
    public var explicit: [String: TraitSet] = [:]
    /// The dimensions whose tags a context may be named like (app-defined ones included).
    public var dimensions: TraitDimensions = .standard

    public init(explicit: [String: TraitSet] = [:], dimensions: TraitDimensions = .standard) {
        self.explicit = explicit
        self.dimensions = dimensions
    }

    /// Parses `--map modifier:context=qualifier` (qualifier: tags joined by `~`, or `none`).
    public static func parse(_ entries: [String], dimensions: TraitDimensions = .standard) throws(MapError)
        -> ContextMap
    {
        var map = ContextMap(dimensions: dimensions)
        for entry in entries {
            let halves = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard halves.count == 2, halves[0].contains(":") else { throw MapError(entry: entry) }
            let tags = halves[1].lowercased() == "none" ? [] : halves[1].split(separator: "~").map(String.init)
            guard let traits = try? dimensions.traits(tags: tags) else { throw MapError(entry: entry) }
            map.explicit[halves[0]] = traits
        }
        return map
    }

    public struct MapError: Error, Sendable { public var entry: String }

    /// The default context is the unqualified look; a context named like a qualifier of any
    /// dimension (`dark`, `highcontrast`, `ipad`, `largetext`, `rtl`, an app's `compact`...; also
    /// `high-contrast`) maps to it; everything else needs `--map`.
    public func traits(modifier: ResolverDocument.Modifier, context: String) -> TraitSet? {
        if let given = explicit["\(modifier.name):\(context)"] { return given }
        if context == modifier.defaultContext { return TraitSet.none }
        switch context.lowercased() {
        case "high-contrast", "contrast-high", "more-contrast": return TraitSet(contrast: .highcontrast)
        default: return try? dimensions.traits(tags: [context])
        }
    }
}
