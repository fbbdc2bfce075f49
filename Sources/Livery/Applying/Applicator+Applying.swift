import LiveryModel

// Applying: running plans on components, and reporting what cannot be applied.
@MainActor
extension Applicator {
    // MARK: Applying

    /// Applies a full-apply plan to a component with no originals (new, or just reverted in
    /// full), in the block its plan lays out.
    func applyInFull(
        _ plan: Plan, on slot: ComponentSlot, object: AnyObject, theme: PreparedTheme, group: GroupID,
        context: ValueContext, statistics: inout ApplyStatistics
    ) {
        // Only app code re-entering the applicator during a revert can leave originals here; what
        // it applied then stands.
        guard originals.prepareBlock(slot, layout: plan.layout) else { return }
        run(plan, on: slot, object: object, theme: theme, group: group, context: context, statistics: &statistics)
    }

    /// Runs a plan on one component (registration, re-targeting, full re-apply).
    func run(
        _ plan: Plan, on slot: ComponentSlot, object: AnyObject, theme: PreparedTheme, group: GroupID,
        context: ValueContext, statistics: inout ApplyStatistics
    ) {
        let steps = plan.table.steps
        let operations = theme.operations
        withBuffers(steps, operations) { steps, operations in
            // A full-apply plan counts its operations from its instance's first: it reads them
            // through the buffer rebased there.
            let base = Int(plan.base)
            runSteps(
                steps, plan.steps, UnsafeBufferPointer(rebasing: operations[base...]), on: slot, object: object,
                theme: theme, group: group, context: context, statistics: &statistics)
        }
    }

    /// The hot path of a switch: a plan's steps on one component. The setter is called through
    /// an unretained reference (the prepared theme's bindings keep it alive) with a value
    /// decoded when the theme was prepared; nothing is allocated once the originals are
    /// recorded, and nothing is reference counted but the component's own weak load.
    ///
    /// `operations` starts where the steps count from (see `Plan.base`); the paths off the hot
    /// one find what they need from the operation's record, not its index, so the hot loop keeps
    /// no more values live than it needs (`livery-switch-bench --profile-switch`).
    @inline(__always)
    func runSteps(
        _ steps: UnsafeBufferPointer<PlanStep>, _ range: Range<Int>,
        _ operations: UnsafeBufferPointer<PreparedOperation>, on slot: ComponentSlot, object: AnyObject,
        theme: PreparedTheme, group: GroupID, context: ValueContext,
        statistics: inout ApplyStatistics
    ) {
        var applied = 0
        let generation = originals.generation(of: slot)
        for index in range {
            // App code that ran in the last step re-targeted or unstyled this component: the
            // rest of the plan is not its plan any more (see `OriginalsStore`).
            if originals.generation(of: slot) != generation { break }
            let step = steps[index]
            if step.kind == .revert {
                if originals.revert(slot, key: step.key, object: object) { statistics.operationsReverted += 1 }
                continue
            }
            let operation = operations[Int(step.operation)]
            guard let setter = operation.setter else { continue }
            if step.kind == .setRecording, let value = operation.value, let block = originals.block(of: slot) {
                // A first application: one call writes the original into the component's block
                // and sets the value.
                assert(!originals.hasOriginal(slot, key: step.key), "a recording step met a recorded original")
                setter.withGuaranteedSetter { $0.captureAndApplyStored(object, value, block + Int(step.offset)) }
                if originals.generation(of: slot) == generation { originals.markRecorded(slot, entry: step.entry) }
                applied += 1
                continue
            }
            if step.kind != .set {
                originals.record(
                    slot, key: operation.key, setter: setter, state: theme.state(of: operation),
                    object: object)
            }
            if let value = operation.value {
                setter.withGuaranteedSetter { $0.applyStored(object, value) }
                applied += 1
                continue
            }
            if applyUndecoded(operation, setter: setter, to: object, theme: theme, group: group, context: context) {
                applied += 1
            }
        }
        statistics.operationsApplied += applied
    }

    /// The general path of `runSteps`, for an operation whose record holds no decoded value: one
    /// values of personal choices reach in the theme's family, whose value is in an overlay
    /// (`ValueOverlay`), or one not decoded when the theme was prepared (images), which it
    /// decodes and applies, or reports why not. Kept out of the hot loop.
    @inline(never)
    func applyUndecoded(
        _ operation: PreparedOperation, setter: Unmanaged<OperationSetter>, to object: AnyObject,
        theme: PreparedTheme, group: GroupID, context: ValueContext
    ) -> Bool {
        if operation.replaced, let value = theme.overlaidValue(of: operation) {
            setter.withGuaranteedSetter { $0.applyStored(object, value) }
            return true
        }
        let resolved = theme.resolvedOperation(operation)
        switch setter.takeUnretainedValue().apply(object, resolved, context) {
        case .applied:
            return true
        case .wrongTarget:
            return false
        case .valueMismatch(let reason):
            let id = theme.resolvedInstance(operation.instance).id
            report(
                .error(
                    .runtimeValueMismatch,
                    "operation '\(resolved.name)' of instance '\(id)': \(reason); it is skipped", at: nil),
                finding: .valueMismatch(instance: id, operation: resolved.name, state: resolved.state), group: group)
            return false
        }
    }

    func accepts(_ theme: PreparedTheme, _ instance: PreparedInstanceID, _ object: AnyObject, group: GroupID) -> Bool {
        guard let binding = theme.binding(of: instance) else {
            let resolved = theme.resolvedInstance(instance)
            report(
                .error(
                    .runtimeUnboundComponent,
                    "no binding is registered for component type '\(resolved.component)' (instance '\(resolved.id)'); register a ComponentBinding for it",
                    at: nil),
                finding: .unboundComponent(component: resolved.component), group: group)
            return false
        }
        guard binding.takes(object) else {
            let resolved = theme.resolvedInstance(instance)
            let type = String(describing: Swift.type(of: object))
            report(
                .error(
                    .runtimeComponentMismatch,
                    "instance '\(resolved.id)' is a '\(resolved.component)' (bound to \(binding.typeName)), but the component styled as it is a \(type); nothing is applied to it",
                    at: nil),
                finding: .componentMismatch(instance: resolved.id, type: type), group: group)
            return false
        }
        return true
    }

    func reportUnknownIdentifier(group: GroupID) {
        let name = registry.identifierName(of: group)
        guard let theme = registry.theme(of: registry.scope(of: group))?.source.header else { return }
        report(
            .warning(
                .runtimeUnknownIdentifier,
                "theme \(theme.info.id) (\(theme.traits)) has no instance '\(name)'; components styled as it keep their own look",
                at: nil),
            finding: .unknownIdentifier(name), group: group)
    }

    /// Findings are keyed per theme and trait set: a new theme may have new problems.
    func report(_ diagnostic: Diagnostic, finding: RuntimeFinding, group: GroupID) {
        let theme = registry.theme(of: registry.scope(of: group))?.key
        diagnostics.report(
            diagnostic,
            finding: .applying(
                finding, themeID: theme?.themeID, traits: theme?.traits,
                generation: manager.generation))
    }

    func emitChanges(group: GroupID, plan: Plan, theme: PreparedTheme, components: Int) {
        guard let onChange, !plan.steps.isEmpty else { return }
        let identifier = registry.identifierName(of: group)
        for index in plan.steps {
            let step = plan.table.steps[index]
            if step.kind == .revert {
                onChange(
                    StyleChange(
                        identifier: identifier, operation: operationKeys.numbering.keys[step.key.index],
                        kind: .reverted,
                        components: components))
            } else {
                let operation = theme.resolvedOperation(plan.base + step.operation)
                onChange(
                    StyleChange(
                        identifier: identifier, operation: operation.key,
                        kind: .set(
                            operation.params.count == 1
                                ? operation.params[0].value
                                : .array(operation.params.map(\.value))),
                        components: components))
            }
        }
    }
}
