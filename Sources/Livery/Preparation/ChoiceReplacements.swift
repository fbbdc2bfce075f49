import LiveryModel

/// The values an app gave for a theme's overridable constants (format 1.3, section 9.2),
/// evaluated for one trait set: per instance id, the params they replace. Built once per change of
/// the values (from the uses of one variant, whether the theme came from a folder or a compiled
/// file), then applied to each instance as it is read, so both give the same result.
struct ChoiceReplacements: Sendable {
    struct Replacement: Sendable {
        var operation: Int
        var param: String
        var value: Value
    }

    private(set) var byID: [String: [Replacement]] = [:]
    /// The keys of `byID`, in the order of the uses: the same for two sets of values that reach
    /// the same uses, which a change of values checks with one comparison.
    private(set) var ids: [String] = []

    var isEmpty: Bool { byID.isEmpty }

    init() {}

    /// Evaluates `uses` with `values` (already accepted by the theme); a use whose value its
    /// param cannot take keeps the theme's value and is handed to `problem`. A use that gives the
    /// value the theme has is kept too: it costs one comparison when applied.
    init(
        uses: [ChoiceUse], values: [String: Value], traits: TraitSet, assets: AssetCatalog,
        instance: (String) -> ResolvedInstance?, problem: (ChoiceProblem) -> Void
    ) {
        guard !values.isEmpty else { return }
        byID.reserveCapacity(uses.count)
        for use in uses where use.expression.mentions(anyOf: values) {
            switch use.value(given: values, traits: traits, assets: assets, operationName: "") {
            case .success(let value):
                let replacement = Replacement(operation: use.operation, param: use.param, value: value)
                if byID[use.id]?.append(replacement) == nil {
                    byID[use.id] = [replacement]
                    ids.append(use.id)
                }
            case .failure:
                // Rare: the instance is read only to name the operation in the message.
                let operations = instance(use.id)?.operations ?? []
                let name = use.operation < operations.count ? operations[use.operation].name : "operation"
                if case .failure(let found) = use.value(
                    given: values, traits: traits, assets: assets, operationName: name)
                {
                    problem(found)
                }
            }
        }
    }

    /// The replacements of instance `id`'s params, nil when none.
    func replacements(of id: String) -> [Replacement]? { byID[id] }

    /// `instance` with its replacements.
    func apply(to instance: ResolvedInstance) -> ResolvedInstance {
        byID[instance.id].map { Self.apply($0, to: instance) } ?? instance
    }

    /// `instance` with `replacements`, those of its id.
    static func apply(_ replacements: [Replacement], to instance: ResolvedInstance) -> ResolvedInstance {
        var result = instance
        for replacement in replacements where replacement.operation < result.operations.count {
            let params = result.operations[replacement.operation].params
            guard let index = params.firstIndex(where: { $0.name == replacement.param }),
                params[index].value != replacement.value
            else { continue }
            result.operations[replacement.operation].params[index].value = replacement.value
        }
        return result
    }
}
