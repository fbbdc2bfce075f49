import LiveryModel

// Switching: re-resolving the scopes and moving every group to its new instance.
@MainActor
extension Applicator {
    // MARK: Switching

    /// Re-resolves every scope against the manager's theme and traits and applies what
    /// changed. The manager's observers call it; apps rarely need to.
    public func refresh() {
        enterPass()
        defer { leavePass() }
        counters = ApplyStatistics()
        var themeChanged = false
        var targets: [(Int, PreparedTheme)] = []
        for scope in scopes.indices {
            guard let theme = preparedTheme(forScope: scope) else { continue }
            if theme !== scopes[scope].current {
                if theme.key.themeID != scopes[scope].current?.key.themeID
                    || theme.key.themeGeneration != scopes[scope].current?.key.themeGeneration {
                    themeChanged = true
                }
                targets.append((scope, theme))
            }
        }
        // A theme's cached images never outlive it.
        if themeChanged { imageCache.removeAll() }
        var statistics = ApplyStatistics()
        for (scope, theme) in targets {
            let previous = scopes[scope].current
            scopes[scope].current = theme
            let context = ValueContext(images: theme.images)
            // Plans from the scope's previous theme: every group of the scope shows it. Nil
            // exactly when there is no previous theme.
            let plans = previous.map { theme.plans(from: $0) }
            // The queue's buffer is reused from pass to pass; a pass that a setter starts inside
            // this one takes an empty queue of its own.
            var queue = pendingBuffer
            pendingBuffer = []
            queue.removeAll(keepingCapacity: true)
            for group in scopes[scope].groups {
                switchGroup(group, from: previous, to: theme, plans: plans, queue: &queue, context: context,
                            statistics: &statistics)
            }
            if let plans { runPending(queue, plans, theme: theme, context: context, statistics: &statistics) }
            pendingBuffer = queue
            theme.images.endPass()
        }
        counters = statistics
    }

    func effective(scope: Int) -> (themeID: String?, traits: TraitSet, scale: Int) {
        let state = scopes[scope]
        var result: (themeID: String?, traits: TraitSet, scale: Int)
        if state.parent >= 0 {
            result = effective(scope: Int(state.parent))
        } else {
            result = (manager.currentThemeID, manager.traits, manager.scale)
        }
        let overrides = state.overrides
        if let id = overrides.themeID { result.themeID = id }
        if let idiom = overrides.idiom { result.traits.idiom = idiom }
        if let appearance = overrides.appearance { result.traits.appearance = appearance }
        if let contrast = overrides.contrast { result.traits.contrast = contrast }
        if let scale = overrides.scale { result.scale = max(1, scale) }
        return result
    }

    func preparedTheme(forScope scope: Int) -> PreparedTheme? {
        let wanted = effective(scope: scope)
        guard let themeID = wanted.themeID else { return nil }
        let key = PreparedTheme.Key(themeID: themeID, traits: wanted.traits, scale: wanted.scale,
                                    themeGeneration: manager.generation, bindingGeneration: bindings.generation,
                                    textScale: manager.textScale)
        if let cached = prepared.use(key) { return cached }
        // Unavailable themes were reported by the manager; the scope keeps what it has.
        guard let loaded = manager.theme(themeID) else { return scopes[scope].current }
        let source = loaded.instances(for: wanted.traits, textScale: key.textScale)
        let images = ImageLoader(theme: source.header, scale: wanted.scale, source: loaded.assets, decoder: imageDecoder,
                                 cache: imageCache, diagnostics: diagnostics)
        let theme = PreparedTheme(key: key, source: source, images: images, bindings: bindings.snapshot(),
                                  operationKeys: operationKeys, identifiers: identifiers)
        prepared.keep(theme)
        return theme
    }

    /// Moves a group from the scope's previous theme to its new one. The common case, same
    /// component type, only finds (or builds) the group's plan and queues it for `runPending`;
    /// a group whose binding changed is reverted and applied in full here. Runs once per group
    /// per switch: nothing here may retain or allocate per group.
    func switchGroup(_ group: Int32, from oldTheme: PreparedTheme?, to theme: PreparedTheme, plans: PlanTable?,
                             queue: inout ContiguousArray<PendingPlan>, context: ValueContext,
                             statistics: inout ApplyStatistics) {
        let new = instance(of: group, in: theme)
        let old = groups[Int(group)].instance
        groups[Int(group)].instance = new
        groups[Int(group)].acceptedClass = nil
        guard groups[Int(group)].count > 0 else { return }
        if new < 0 { reportUnknownIdentifier(group: group) }
        // A warm switch: the plan was built (the identifier names the same instances in both
        // themes for every group, so the binding check below was made when it was).
        if let plans, old >= 0, new >= 0, let range = plans.plan(new) {
            guard !range.isEmpty else { return }
            statistics.identifiersChanged += 1
            queue.append(PendingPlan(group: group, first: Int32(range.lowerBound), count: Int32(range.count)))
            return
        }
        if let oldTheme, let plans, old >= 0, new >= 0,
           oldTheme.instances[Int(old)].bindingIdentity == theme.instances[Int(new)].bindingIdentity {
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
            let plan = new >= 0 ? fullApplyPlan(theme, new, group: group) : nil
            forEachLiveMember(of: group) { slot, object in
                statistics.operationsReverted += revertAll(slot: slot, object: object)
                slots.base[Int(slot)].accepted = false
                if let plan {
                    slots.base[Int(slot)].accepted = accepts(theme, new, object, group: group)
                    if slots.base[Int(slot)].accepted {
                        applyInFull(plan, on: slot, object: object, theme: theme, group: group,
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
    func runPending(_ work: ContiguousArray<PendingPlan>, _ plans: PlanTable, theme: PreparedTheme,
                            context: ValueContext, statistics: inout ApplyStatistics) {
        let steps = plans.steps
        let operations = theme.operations
        withBuffers(steps, operations) { steps, operations in
            for entry in work {
                let group = entry.group
                let range = Int(entry.first)..<Int(entry.first + entry.count)
                var updated = 0
                forEachLiveMember(of: group) { slot, object in
                    guard slots.base[Int(slot)].accepted else { return }
                    runSteps(steps, range, operations, on: slot, object: object, theme: theme, group: group,
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

    func retarget(slot: Int32, object: AnyObject, to group: Int32) {
        let oldGroup = slots.base[Int(slot)].group
        let wasAccepted = slots.base[Int(slot)].accepted
        let oldTheme = scopes[Int(groups[Int(oldGroup)].scope)].current
        let old = groups[Int(oldGroup)].instance
        unlink(slot: slot)
        link(slot: slot, into: group)
        let newTheme = scopes[Int(groups[Int(group)].scope)].current
        let new = groups[Int(group)].instance
        if new < 0 { reportUnknownIdentifier(group: group) }
        var statistics = ApplyStatistics()
        if wasAccepted, let oldTheme, let newTheme, old >= 0, new >= 0,
           oldTheme.instances[Int(old)].bindingIdentity == newTheme.instances[Int(new)].bindingIdentity {
            // A one-off plan: re-targeting is rare and pairs arbitrary instances.
            let table = PlanTable(from: oldTheme, isFullApply: false)
            let plan = Plan(table: table, steps: buildDiff(from: oldTheme, old, to: newTheme, new, into: table, group: group))
            run(plan, on: slot, object: object, theme: newTheme, group: group,
                context: ValueContext(images: newTheme.images), statistics: &statistics)
        } else {
            statistics.operationsReverted += revertAll(slot: slot, object: object)
            slots.base[Int(slot)].accepted = false
            if let newTheme, new >= 0 {
                slots.base[Int(slot)].accepted = accepts(newTheme, new, object, group: group)
                if slots.base[Int(slot)].accepted {
                    applyInFull(fullApplyPlan(newTheme, new, group: group), on: slot, object: object,
                                theme: newTheme, group: group, context: ValueContext(images: newTheme.images),
                                statistics: &statistics)
                }
            }
        }
        counters = statistics
    }
}
