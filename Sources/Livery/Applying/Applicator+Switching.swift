import LiveryModel

// Switching: re-resolving the scopes and moving every group to its new instance.
@MainActor
extension Applicator {
    /// A group's plan queued by the first phase of a switch.
    struct PendingPlan {
        var group: GroupID
        var first: Int32
        var count: Int32
    }

    // MARK: Switching

    /// Re-resolves every scope against the manager's theme and traits and applies what
    /// changed. The manager's observers call it; apps rarely need to.
    public func refresh() {
        originals.enterPass()
        defer { endPass(overEveryComponent: true) }
        counters = ApplyStatistics()
        var themeChanged = false
        var targets: [(ScopeID, PreparedTheme)] = []
        for scope in registry.scopeIDs {
            guard let theme = preparedTheme(for: scope) else { continue }
            let current = registry.theme(of: scope)
            if theme !== current {
                if theme.key.themeID != current?.key.themeID
                    || theme.key.themeGeneration != current?.key.themeGeneration
                {
                    themeChanged = true
                }
                targets.append((scope, theme))
            }
        }
        // A theme's cached images never outlive it.
        if themeChanged { imageCache.removeAll() }
        var statistics = ApplyStatistics()
        for (scope, theme) in targets {
            let previous = registry.theme(of: scope)
            registry.setTheme(theme, of: scope)
            let context = ValueContext(images: theme.images)
            // Plans from the scope's previous theme: every group of the scope shows it. Nil
            // exactly when there is no previous theme.
            let plans = previous.map { theme.plans(from: $0) }
            // The queue's buffer is reused from pass to pass; a pass that a setter starts inside
            // this one takes an empty queue of its own.
            var queue = pendingBuffer
            pendingBuffer = []
            queue.removeAll(keepingCapacity: true)
            // A change of personal choices only: the groups it does not reach show the same
            // prepared instance in both themes, and are left alone.
            let only = previous.flatMap { familyDifference(from: $0, to: theme) }
            for group in registry.groups(of: scope) {
                if let only {
                    let number = registry.identifier(of: group).index
                    guard number < only.count, only[number] else { continue }
                }
                switchGroup(
                    group, from: previous, to: theme, plans: plans, queue: &queue, context: context,
                    statistics: &statistics)
            }
            if let plans { runPending(queue, plans, theme: theme, context: context, statistics: &statistics) }
            pendingBuffer = queue
            theme.images.endPass()
        }
        counters = statistics
    }

    func effective(scope: ScopeID) -> (themeID: String?, traits: TraitSet, scale: Int, constants: [String: Value]) {
        var result: (themeID: String?, traits: TraitSet, scale: Int, constants: [String: Value])
        if let parent = registry.parent(of: scope) {
            result = effective(scope: parent)
        } else {
            result = (manager.currentThemeID, manager.traits, manager.scale, [:])
        }
        let overrides = registry.overrides(of: scope)
        if let id = overrides.themeID { result.themeID = id }
        result.traits = overrides.applied(to: result.traits, dimensions: manager.dimensions)
        if let scale = overrides.scale { result.scale = max(1, scale) }
        if !overrides.constants.isEmpty { result.constants.merge(overrides.constants) { $1 } }
        return result
    }

    func preparedTheme(for scope: ScopeID) -> PreparedTheme? {
        let wanted = effective(scope: scope)
        guard let themeID = wanted.themeID else { return nil }
        let key = PreparedTheme.Key(
            themeID: themeID, traits: wanted.traits, scale: wanted.scale,
            themeGeneration: manager.generation, bindingGeneration: bindings.generation,
            textScale: manager.textScale, constants: wanted.constants, invalidations: invalidations)
        if let cached = prepared.use(key) { return cached }
        // The scope's theme, or its family's root (kept by the themes derived from it), after the
        // cache let it go.
        if let current = registry.theme(of: scope),
            let known = [current, current.root].first(where: { $0?.key == key }) ?? nil
        {
            prepared.keep(known)
            return known
        }
        // Unavailable themes were reported by the manager; the scope keeps what it has.
        guard let loaded = manager.theme(themeID) else { return registry.theme(of: scope) }
        let source =
            wanted.constants.isEmpty
            ? loaded.instances(for: wanted.traits, textScale: key.textScale)
            : loaded.instances(
                for: wanted.traits, textScale: key.textScale,
                choices: acceptedChoices(wanted.constants, of: loaded, traits: wanted.traits),
                problem: { reportChoiceProblem($0, themeID: themeID) })
        let images = ImageLoader(
            theme: source.header, scale: wanted.scale, source: loaded.assets, decoder: imageDecoder,
            cache: imageCache, diagnostics: diagnostics)
        if let current = registry.theme(of: scope),
            let (root, forgotten, replaced) = derivable(from: current, as: key, source: source)
        {
            let theme = PreparedTheme(
                derivedFrom: root, key: key, source: source, images: images, bindings: bindings.snapshot(),
                operationKeys: operationKeys, forgetting: forgotten, replaced: replaced)
            prepared.keep(theme)
            return theme
        }
        let theme = PreparedTheme(
            key: key, source: source, images: images, bindings: bindings.snapshot(),
            operationKeys: operationKeys, identifiers: registry.identifiers)
        prepared.keep(theme)
        return theme
    }

    /// Moves a group from the scope's previous theme to its new one. The common case, same
    /// component type, only finds (or builds) the group's plan and queues it for `runPending`;
    /// a group whose binding changed is reverted and applied in full here. Runs once per group
    /// per switch: nothing here may retain or allocate per group.
    func switchGroup(
        _ group: GroupID, from oldTheme: PreparedTheme?, to theme: PreparedTheme, plans: PlanTable?,
        queue: inout ContiguousArray<PendingPlan>, context: ValueContext,
        statistics: inout ApplyStatistics
    ) {
        let new = theme.instance(identifier: registry.identifier(of: group))
        let old = registry.instance(of: group)
        registry.setInstance(new, of: group)
        guard registry.memberCount(of: group) > 0 else { return }
        if new == nil { reportUnknownIdentifier(group: group) }
        // A warm switch: the plan was built (the identifier names the same instances in both
        // themes for every group, so the binding check below was made when it was).
        if let plans, old != nil, let new, let range = plans.plan(new) {
            guard !range.isEmpty else { return }
            statistics.identifiersChanged += 1
            queue.append(PendingPlan(group: group, first: Int32(range.lowerBound), count: Int32(range.count)))
            return
        }
        if let oldTheme, let plans, let old, let new,
            oldTheme.instances[old.index].bindingIdentity == theme.instances[new.index].bindingIdentity
        {
            // The common case: same component type, apply the difference.
            let range = buildDiff(from: oldTheme, old, to: theme, new, into: plans, group: group)
            guard !range.isEmpty else { return }
            statistics.identifiersChanged += 1
            queue.append(PendingPlan(group: group, first: Int32(range.lowerBound), count: Int32(range.count)))
        } else {
            // The component type or its binding changed (or the instance appeared or vanished):
            // revert everything, then apply the new instance in full.
            statistics.identifiersChanged += 1
            var updated = 0
            let plan = new.map { fullApplyPlan(theme, $0, group: group) }
            registry.forEachLiveMember(of: group) { slot, object in
                statistics.operationsReverted += originals.revertAll(slot, object: object)
                registry.setAccepted(false, slot)
                if let plan, let new {
                    let accepted = accepts(theme, new, object, group: group)
                    registry.setAccepted(accepted, slot)
                    if accepted {
                        applyInFull(
                            plan, on: slot, object: object, theme: theme, group: group,
                            context: context, statistics: &statistics)
                    }
                }
                updated += 1
            }
            statistics.componentsUpdated += updated
            if let plan { emitChanges(group: group, plan: plan, theme: theme, components: updated) }
        }
    }

    /// Runs the queued plans of a switch on the groups' members: one weak load per component
    /// and one setter call per changed operation. Plans are all built by now, so the arrays
    /// are copied once per pass (a retain each), and a setter that re-enters the applicator
    /// and appends to them makes them copy on write, leaving these buffers intact.
    func runPending(
        _ work: ContiguousArray<PendingPlan>, _ plans: PlanTable, theme: PreparedTheme,
        context: ValueContext, statistics: inout ApplyStatistics
    ) {
        let steps = plans.steps
        let operations = theme.operations
        withBuffers(steps, operations) { steps, operations in
            for entry in work {
                let group = entry.group
                let range = Int(entry.first)..<Int(entry.first + entry.count)
                var updated = 0
                registry.forEachLiveMember(of: group) { slot, object in
                    guard registry.isAccepted(slot) else { return }
                    runSteps(
                        steps, range, operations, on: slot, object: object, theme: theme, group: group,
                        context: context, statistics: &statistics)
                    updated += 1
                }
                statistics.componentsUpdated += updated
                if onChange != nil {
                    emitChanges(group: group, plan: Plan(table: plans, steps: range), theme: theme, components: updated)
                }
            }
        }
    }

    func retarget(_ slot: ComponentSlot, object: AnyObject, to group: GroupID) {
        let oldGroup = registry.group(of: slot)
        let wasAccepted = registry.isAccepted(slot)
        let oldTheme = registry.theme(of: registry.scope(of: oldGroup))
        let old = registry.instance(of: oldGroup)
        registry.move(slot, to: group)
        let newTheme = registry.theme(of: registry.scope(of: group))
        let new = registry.instance(of: group)
        if new == nil { reportUnknownIdentifier(group: group) }
        var statistics = ApplyStatistics()
        if wasAccepted, let oldTheme, let newTheme, let old, let new,
            oldTheme.instances[old.index].bindingIdentity == newTheme.instances[new.index].bindingIdentity
        {
            // A one-off plan: re-targeting is rare and pairs arbitrary instances.
            let table = PlanTable(from: oldTheme, isFullApply: false)
            let plan = Plan(
                table: table, steps: buildDiff(from: oldTheme, old, to: newTheme, new, into: table, group: group))
            run(
                plan, on: slot, object: object, theme: newTheme, group: group,
                context: ValueContext(images: newTheme.images), statistics: &statistics)
        } else {
            statistics.operationsReverted += originals.revertAll(slot, object: object)
            registry.setAccepted(false, slot)
            if let newTheme, let new {
                let accepted = accepts(newTheme, new, object, group: group)
                registry.setAccepted(accepted, slot)
                if accepted {
                    applyInFull(
                        fullApplyPlan(newTheme, new, group: group), on: slot, object: object,
                        theme: newTheme, group: group, context: ValueContext(images: newTheme.images),
                        statistics: &statistics)
                }
            }
        }
        counters = statistics
    }
}

// MARK: Personal choices

@MainActor
extension Applicator {
    /// When `key` differs from the key of `current`'s family root (the theme prepared afresh
    /// that `current` is or was derived from) only in the values of personal choices: that root,
    /// and the identifiers a theme derived from it must look up again (marks by identifier
    /// number), those the root's values or `source`'s change; and those `source`'s change. Nil
    /// when the theme must be prepared afresh.
    func derivable(from current: PreparedTheme, as key: PreparedTheme.Key, source: InstanceSource)
        -> (root: PreparedTheme, marks: ContiguousArray<Bool>, replaced: [IdentifierNumber])?
    {
        let root = current.root ?? current
        var plain = key
        plain.constants = root.key.constants
        guard plain == root.key, !root.isComplete, root.source.readsLazily == source.readsLazily else { return nil }
        // A value changed again (a colour picker dragged) reaches the same ids: they are numbered
        // once (`livery-switch-bench --choice`).
        let after =
            source.replacedIDs == current.source.replacedIDs
            ? current.replacedNumbers() : source.replacedIDs.compactMap { registry.identifiers.existingNumber($0) }
        var marks = ContiguousArray<Bool>(repeating: false, count: registry.identifiers.count)
        for number in [root.replacedNumbers(), after].joined() where number.index < marks.count {
            marks[number.index] = true
        }
        return (root, marks, after)
    }

    /// When `old` and `new` are of one family (a theme and those derived from it by changes of
    /// personal choices), the identifiers whose instances may differ between them (marks by
    /// number): those the root's values or either's change. Nil otherwise.
    func familyDifference(from old: PreparedTheme, to new: PreparedTheme) -> ContiguousArray<Bool>? {
        let root = new.root ?? new
        guard old.root ?? old === root, old !== root || new !== root else { return nil }
        var marks = ContiguousArray<Bool>(repeating: false, count: registry.identifiers.count)
        for number in [root.replacedNumbers(), old.replacedNumbers(), new.replacedNumbers()].joined()
        where number.index < marks.count {
            marks[number.index] = true
        }
        return marks
    }

    /// The values `loaded` can take (format 1.3, section 9.2); each other one is reported once,
    /// never fatal: a value for a constant the theme does not have overridable, or of another type.
    func acceptedChoices(_ values: [String: Value], of loaded: LoadedTheme, traits: TraitSet) -> [String: Value] {
        let (accepted, refused) = ChoiceTable(constants: loaded.choiceConstants).accepting(values)
        for (name, refusal) in refused.sorted(by: { $0.key < $1.key }) {
            let reason: String
            switch refusal {
            case .notOverridable:
                reason = "theme '\(loaded.info.id)' has no overridable constant '\(name)'"
            case .wrongType(let expected):
                reason =
                    "constant '\(name)' of theme '\(loaded.info.id)' takes \(Self.article(expected.rawValue)), not \(Self.article(values[name]!.type.rawValue))"
            }
            diagnostics.report(
                .warning(.runtimeChoiceRefused, "\(reason); the value given for it is ignored", at: nil),
                finding: .choiceRefused(themeID: loaded.info.id, name: name, value: values[name]!))
        }
        return accepted
    }

    func reportChoiceProblem(_ problem: ChoiceProblem, themeID: String) {
        diagnostics.report(
            .warning(
                .runtimeChoiceRefused,
                "the value given for \(problem.constants.map { "'\($0)'" }.joined(separator: ", ")) does not fit instance '\(problem.id)' of theme '\(themeID)': \(problem.message); the theme's value is kept",
                at: nil),
            finding: .choiceProblem(themeID: themeID, problem))
    }

    static func article(_ word: String) -> String {
        (["a", "e", "i", "o", "u"].contains(word.prefix(1)) ? "an " : "a ") + word
    }
}
