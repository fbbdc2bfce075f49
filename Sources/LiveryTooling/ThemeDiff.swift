import LiveryModel

/// What changed between two versions of a theme, for code review: instances added and removed,
/// operations added, removed or given other values, each with the trait sets it happens in.
///
/// Without a trait set, every trait set either version distinguishes is compared, and identical
/// changes are merged: a change seen only in dark trait sets is reported once, `with dark`.
public struct ThemeDiff: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable {
        case instanceAdded = "instance-added"
        case instanceRemoved = "instance-removed"
        case componentChanged = "component-changed"
        case operationAdded = "operation-added"
        case operationRemoved = "operation-removed"
        case operationChanged = "operation-changed"
        /// A derived colour constant resolves to another colour (format 1.3, section 9.1).
        case derivedColorChanged = "derived-color-changed"
    }

    public struct Change: Hashable, Sendable {
        public var kind: Kind
        public var instance: String
        /// The new component type (the old one for a removed instance).
        public var component: String
        /// The operation (name, state), for the operation kinds.
        public var operation: OperationKey?
        public var old: [Param]?
        public var new: [Param]?
        /// The compared trait sets this change happens in.
        public var traits: [TraitSet]
        /// Those trait sets said briefly: `all traits`, `with dark`, or the list.
        public var scope: String
        /// The old component type, for `component-changed`.
        public var oldComponent: String?
        /// For `derived-color-changed`: the constant and its derivation before and after.
        public var constant: DerivedColorChange? = nil
    }

    public var old: ThemeInfo
    public var new: ThemeInfo
    /// Every trait set compared.
    public var traitSets: [TraitSet]
    public var changes: [Change]
    /// The dimensions that name the trait sets (the new theme's).
    public var dimensions: TraitDimensions = .standard

    public var isEmpty: Bool { changes.isEmpty }

    /// Compares two themes for one trait set, or for every trait set either distinguishes.
    public static func compare(_ old: ThemeVariants, _ new: ThemeVariants, traits: TraitSet? = nil) -> ThemeDiff {
        var axes = old.axes
        for set in new.axes.traitSets { axes.insert(set) }
        let traitSets = traits.map { [$0] } ?? axes.traitSets
        struct Key: Hashable {
            var kind: Kind, instance: String, component: String, operation: OperationKey? = nil
            var old: [Param]? = nil, new: [Param]? = nil, oldComponent: String? = nil
        }
        var order: [Key] = []
        var seen: [Key: [TraitSet]] = [:]
        func note(_ key: Key, _ traits: TraitSet) {
            if seen[key] == nil { order.append(key) }
            seen[key, default: []].append(traits)
        }
        for set in traitSets {
            let before = Dictionary(uniqueKeysWithValues: old.resolved(for: set).instances.map { ($0.id, $0) })
            let after = Dictionary(uniqueKeysWithValues: new.resolved(for: set).instances.map { ($0.id, $0) })
            for id in Set(before.keys).union(after.keys).sorted() {
                switch (before[id], after[id]) {
                case (nil, let added?):
                    note(Key(kind: .instanceAdded, instance: id, component: added.component), set)
                case (let removed?, nil):
                    note(Key(kind: .instanceRemoved, instance: id, component: removed.component), set)
                case (let was?, let now?):
                    if was.component != now.component {
                        note(
                            Key(
                                kind: .componentChanged, instance: id, component: now.component,
                                oldComponent: was.component), set)
                    }
                    let oldOps = Dictionary(was.operations.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
                    let newOps = Dictionary(now.operations.map { ($0.key, $0) }, uniquingKeysWith: { $1 })
                    // in the new effective order, then the removed ones in the old order
                    for operation in now.operations {
                        let key = operation.key
                        if let earlier = oldOps[key] {
                            if earlier.params != operation.params {
                                note(
                                    Key(
                                        kind: .operationChanged, instance: id, component: now.component, operation: key,
                                        old: earlier.params, new: operation.params), set)
                            }
                        } else {
                            note(
                                Key(
                                    kind: .operationAdded, instance: id, component: now.component, operation: key,
                                    new: operation.params), set)
                        }
                    }
                    for operation in was.operations where newOps[operation.key] == nil {
                        note(
                            Key(
                                kind: .operationRemoved, instance: id, component: now.component,
                                operation: operation.key,
                                old: operation.params), set)
                    }
                case (nil, nil):
                    break
                }
            }
        }
        // grouped by instance (added/removed first), then by operation in order of first sight
        struct Sighting: Hashable { var instance: String, operation: OperationKey? }
        var firstSight: [Sighting: Int] = [:]
        for (index, key) in order.enumerated() {
            let sighting = Sighting(instance: key.instance, operation: key.operation)
            if firstSight[sighting] == nil { firstSight[sighting] = index }
        }
        let changes = order.enumerated().sorted { lhs, rhs in
            func sortKey(_ item: (offset: Int, element: Key)) -> (String, Int, Int, Int) {
                let key = item.element
                return (
                    key.instance, rank(key.kind),
                    firstSight[Sighting(instance: key.instance, operation: key.operation)] ?? 0, item.offset
                )
            }
            return sortKey(lhs) < sortKey(rhs)
        }.map(\.element).map { key in
            let traits = seen[key]!
            return Change(
                kind: key.kind, instance: key.instance, component: key.component, operation: key.operation,
                old: key.old, new: key.new, traits: traits,
                scope: scope(of: traits, among: traitSets, dimensions: new.dimensions),
                oldComponent: key.oldComponent)
        }
        return ThemeDiff(
            old: old.info, new: new.info, traitSets: traitSets, changes: changes, dimensions: new.dimensions)
    }

    private static func rank(_ kind: Kind) -> Int {
        switch kind {
        case .instanceAdded, .instanceRemoved: 0
        case .componentChanged: 1
        default: 2
        }
    }

    /// `all traits` when a change happens in every compared set; `with T` when it happens exactly
    /// in the sets that include tags T; otherwise the list.
    static func scope(of traits: [TraitSet], among all: [TraitSet], dimensions: TraitDimensions = .standard) -> String {
        func name(_ set: TraitSet) -> String { dimensions.description(of: set) }
        let found = Set(traits)
        if found.count == Set(all).count { return all.count == 1 ? name(all[0]) : "all traits" }
        var candidates = Set(all)
        for set in all { candidates.formUnion(subsets(of: set)) }
        let best = candidates.filter { tags in Set(all.filter { tags.applies(in: $0) }) == found }
            .min { (dimensions.tags(of: $0).count, name($0)) < (dimensions.tags(of: $1).count, name($1)) }
        if let best, !best.isEmpty { return "with " + dimensions.tags(of: best).joined(separator: "+") }
        // the complement of one tag: `without dark`
        let tags = Set(all.flatMap { dimensions.tags(of: $0) }).sorted()
        for tag in tags {
            guard let single = try? dimensions.traits(tags: [tag]) else { continue }
            if Set(all.filter { !single.applies(in: $0) }) == found { return "without " + tag }
        }
        return "in " + traits.map(name).joined(separator: "; ")
    }

    /// Every trait set made of some of `set`'s values, whatever dimensions they belong to.
    private static func subsets(of set: TraitSet) -> [TraitSet] {
        var result = [TraitSet.none]
        for dimension in 0..<TraitSet.capacity {
            guard let value = set[dimension] else { continue }
            result += result.map { subset in
                var larger = subset
                larger[dimension] = value
                return larger
            }
        }
        return result
    }

    // MARK: - Output

    /// The review form: one line per change, then a summary line.
    public func text(oldLabel: String, newLabel: String) -> String {
        var lines = ["--- \(oldLabel) (\(old.id) \(old.version))", "+++ \(newLabel) (\(new.id) \(new.version))"]
        let traitsLine =
            traitSets.count == 1
            ? "traits: \(dimensions.description(of: traitSets[0]))"
            : "compared \(traitSets.count) trait sets"
        lines.append(traitsLine)
        for change in changes {
            let op = change.operation?.description ?? ""
            let line: String
            switch change.kind {
            case .instanceAdded: line = "+ \(change.instance) (\(change.component))"
            case .instanceRemoved: line = "- \(change.instance) (\(change.component))"
            case .componentChanged:
                line = "~ \(change.instance): component \(change.oldComponent ?? "?") -> \(change.component)"
            case .operationAdded: line = "+ \(change.instance).\(op): \(ValueText.describe(change.new ?? []))"
            case .operationRemoved: line = "- \(change.instance).\(op): \(ValueText.describe(change.old ?? []))"
            case .operationChanged:
                line =
                    "~ \(change.instance).\(op): \(ValueText.describe(change.old ?? [])) -> \(ValueText.describe(change.new ?? []))"
            case .derivedColorChanged:
                // the colour on the change's line, its derivation before and after below it
                let parts = (change.constant.map(Self.text) ?? "").split(separator: "\n").map(String.init)
                lines.append((parts.first ?? "") + "  [\(change.scope)]")
                lines += parts.dropFirst()
                continue
            }
            lines.append(line + "  [\(change.scope)]")
        }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    public var summary: String {
        guard !changes.isEmpty else { return "no differences" }
        func count(_ kinds: Kind...) -> Int { changes.filter { kinds.contains($0.kind) }.count }
        var parts: [String] = []
        for (number, what) in [
            (count(.instanceAdded), "instances added"), (count(.instanceRemoved), "instances removed"),
            (count(.componentChanged), "components changed"), (count(.operationAdded), "operations added"),
            (count(.operationRemoved), "operations removed"), (count(.operationChanged), "operations changed"),
            (count(.derivedColorChanged), "derived colours changed"),
        ]
        where number > 0 {
            parts.append("\(number) \(number == 1 ? what.replacingOccurrences(of: "s ", with: " ") : what)")
        }
        return "\(changes.count) change\(changes.count == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }

    /// The machine form; values in the canonical JSON of `dump` (images by name).
    public func json() -> JSONValue {
        func info(_ info: ThemeInfo) -> JSONValue {
            .object([("id", .string(info.id)), ("version", .string(info.version))])
        }
        let empty = ResolvedTheme(info: new, traits: .none, instances: [], assets: .empty)
        func params(_ params: [Param]?) -> JSONValue {
            guard let params else { return .null }
            return .object(params.map { ($0.name, CanonicalJSON.value($0.value, theme: empty, scale: 1)) })
        }
        return .object([
            ("old", info(old)),
            ("new", info(new)),
            ("traitSets", .array(traitSets.map { .array(dimensions.tags(of: $0).map(JSONValue.string)) })),
            (
                "changes",
                .array(
                    changes.map { change in
                        var members: [(String, JSONValue)] = [
                            ("kind", .string(change.kind.rawValue)),
                            ("instance", .string(change.instance)),
                            ("component", .string(change.component)),
                        ]
                        if let old = change.oldComponent { members.append(("oldComponent", .string(old))) }
                        if let constant = change.constant { members += Self.json(constant) }
                        if let operation = change.operation {
                            members.append(("operation", .string(operation.name)))
                            members.append(("state", .string(operation.state.rawValue)))
                            members.append(("old", params(change.old)))
                            members.append(("new", params(change.new)))
                        }
                        members.append(("scope", .string(change.scope)))
                        members.append(
                            (
                                "traits",
                                .array(change.traits.map { .array(dimensions.tags(of: $0).map(JSONValue.string)) })
                            ))
                        return .object(members)
                    })
            ),
        ])
    }
}
