import LiveryModel

/// The uses of overridable constants in one variant of a theme (format 1.3, section 9.2), grouped
/// by instance id once: every set of values given for that variant is evaluated against it,
/// without grouping them again (`livery-switch-bench --choice`).
final class ChoiceUseIndex: Sendable {
    /// In the variant's order.
    let uses: [ChoiceUse]
    /// Indices into `uses`, grouped by id, the groups in the order of their ids' first use.
    fileprivate let grouped: [Int32]
    /// The ids, in the order of their first use, and each one's range of `grouped`.
    fileprivate let ids: [String]
    fileprivate let ranges: [Range<Int>]
    /// Id -> its place in `ids`.
    fileprivate let places: [String: Int]

    init(uses: [ChoiceUse]) {
        self.uses = uses
        var groups: [[Int32]] = []
        var places: [String: Int] = [:]
        var ids: [String] = []
        for (index, use) in uses.enumerated() {
            if let place = places[use.id] {
                groups[place].append(Int32(index))
            } else {
                places[use.id] = ids.count
                ids.append(use.id)
                groups.append([Int32(index)])
            }
        }
        var grouped: [Int32] = []
        grouped.reserveCapacity(uses.count)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(ids.count)
        for group in groups {
            ranges.append(grouped.count..<grouped.count + group.count)
            grouped += group
        }
        self.grouped = grouped
        self.ids = ids
        self.ranges = ranges
        self.places = places
    }
}

/// The values an app gave for a theme's overridable constants (format 1.3, section 9.2),
/// evaluated for one trait set: per use of the variant, the value its param takes. Built once per
/// change of the values (from the uses of one variant, whether the theme came from a folder or a
/// compiled file), then applied to each instance as it is read, so both give the same result.
struct ChoiceReplacements: Sendable {
    struct Replacement: Sendable {
        var operation: Int
        var param: String
        var value: Value

        /// Puts the value in `operation` (the one at `self.operation`), in place of its param's;
        /// nothing when it has no such param, or the value is the same (its params are not
        /// copied then).
        func apply(to operation: inout ResolvedOperation) {
            guard let index = operation.params.firstIndex(where: { $0.name == param }),
                operation.params[index].value != value
            else { return }
            operation.params[index].value = value
        }
    }

    /// The replacements of one instance's params.
    struct Replacements: Sequence, Sendable {
        fileprivate let index: ChoiceUseIndex
        fileprivate let values: ContiguousArray<Value?>
        fileprivate let range: Range<Int>

        struct Iterator: IteratorProtocol {
            fileprivate let replacements: Replacements
            fileprivate var position: Int

            mutating func next() -> Replacement? {
                let index = replacements.index
                while position < replacements.range.upperBound {
                    let use = Int(index.grouped[position])
                    position += 1
                    if let value = replacements.values[use] {
                        return Replacement(
                            operation: index.uses[use].operation, param: index.uses[use].param, value: value)
                    }
                }
                return nil
            }
        }

        func makeIterator() -> Iterator { Iterator(replacements: self, position: range.lowerBound) }
    }

    private let index: ChoiceUseIndex?
    /// By use: the value its param takes, nil where the values do not reach it (or it cannot
    /// take theirs).
    private let values: ContiguousArray<Value?>
    /// The ids whose params the values replace, in the order of the uses: the same for two sets
    /// of values that reach the same uses, which a change of values checks with one comparison.
    let ids: [String]

    var isEmpty: Bool { ids.isEmpty }

    init() {
        index = nil
        values = []
        ids = []
    }

    /// Evaluates the uses of `index` with `values` (already accepted by the theme); a use whose
    /// value its param cannot take keeps the theme's value and is handed to `problem`. A use
    /// that gives the value the theme has is kept too: it costs one comparison when applied.
    init(
        index: ChoiceUseIndex, values given: [String: Value], traits: TraitSet, assets: AssetCatalog,
        instance: (String) -> ResolvedInstance?, problem: (ChoiceProblem) -> Void
    ) {
        self.index = index
        var values = ContiguousArray<Value?>(repeating: nil, count: given.isEmpty ? 0 : index.uses.count)
        if !given.isEmpty {
            for (position, use) in index.uses.enumerated() where use.expression.mentions(anyOf: given) {
                switch use.value(given: given, traits: traits, assets: assets, operationName: "") {
                case .success(let value):
                    values[position] = value
                case .failure:
                    // Rare: the instance is read only to name the operation in the message.
                    let operations = instance(use.id)?.operations ?? []
                    let name = use.operation < operations.count ? operations[use.operation].name : "operation"
                    if case .failure(let found) = use.value(
                        given: given, traits: traits, assets: assets, operationName: name)
                    {
                        problem(found)
                    }
                }
            }
        }
        self.values = values
        // Usually every id is reached, and the index's list is the answer, shared.
        let reached = index.ranges.map { Self.reaches(values, index.grouped[$0]) }
        if values.isEmpty {
            ids = []
        } else if !reached.contains(false) {
            ids = index.ids
        } else {
            ids = index.ids.indices.filter { reached[$0] }.map { index.ids[$0] }
        }
    }

    private static func reaches(_ values: ContiguousArray<Value?>, _ uses: ArraySlice<Int32>) -> Bool {
        uses.contains { values[Int($0)] != nil }
    }

    /// The replacements of instance `id`'s params, nil when none.
    func replacements(of id: String) -> Replacements? {
        guard let index, !values.isEmpty, let place = index.places[id],
            Self.reaches(values, index.grouped[index.ranges[place]])
        else { return nil }
        return Replacements(index: index, values: values, range: index.ranges[place])
    }

    /// `instance` with its replacements.
    func apply(to instance: ResolvedInstance) -> ResolvedInstance {
        replacements(of: instance.id).map { Self.apply($0, to: instance) } ?? instance
    }

    /// `instance` with `replacements`, those of its id.
    static func apply(_ replacements: Replacements, to instance: ResolvedInstance) -> ResolvedInstance {
        var result = instance
        for replacement in replacements where replacement.operation < result.operations.count {
            replacement.apply(to: &result.operations[replacement.operation])
        }
        return result
    }
}
