import LiveryModel

// Plans: the steps that take a component from one prepared instance to another.
@MainActor
extension Applicator {
    /// Where a plan's steps are.
    struct Plan {
        let table: PlanTable
        let steps: Range<Int>
        /// The layout of the originals a full-apply plan records in a block; nil for other plans
        /// and for full-apply plans that record nothing in a block.
        var layout: LayoutID?
        /// Added to every step's operation: the first operation of the instance a full-apply
        /// plan runs for (instances of one shape share the plan); 0 for other plans.
        var base: Int32 = 0
    }

    // MARK: Plans

    /// Every usable operation of `instance`, recording originals first. It runs only on
    /// components with no original recorded (new, or just reverted in full), so a key's first
    /// step records without looking for an earlier original; a repeated key only sets.
    /// The plan is the instance's shape's (see `PreparedInstance.shape`), its steps' operations
    /// counted from the instance's first.
    func fullApplyPlan(_ theme: PreparedTheme, _ instance: PreparedInstanceID, group: GroupID) -> Plan {
        let table = theme.fullApplyPlans
        let record = theme.instances[instance.index]
        if let steps = table.plan(shape: record.shape) {
            return Plan(table: table, steps: steps, layout: table.layout(shape: record.shape), base: record.first)
        }
        let first = table.steps.count
        var recorded: [(key: OperationKeyNumber, setter: Unmanaged<OperationSetter>)] = []
        recorded.reserveCapacity(Int(record.count))
        for operation in record.first..<record.first + record.count
        where usable(operation, in: theme, instance: instance, group: group) {
            let key = theme.operations[Int(operation)].key
            var repeated = false
            for index in first..<table.steps.count where table.steps[index].key == key { repeated = true }
            let offset = operation - record.first
            if repeated {
                table.steps.append(PlanStep(kind: .set, operation: offset, key: key))
            } else if let setter = theme.operations[Int(operation)].setter,
                recorded.count < OriginalLayouts.maxEntries, OriginalLayouts.fits(setter)
            {
                table.steps.append(
                    PlanStep(
                        kind: .setRecording, operation: offset, key: key,
                        entry: UInt8(recorded.count)))
                recorded.append((key, setter))
            } else {
                // Outside the block: recorded on the component's overflow list.
                table.steps.append(PlanStep(kind: .setCapturing, operation: offset, key: key))
            }
        }
        let layout = recorded.isEmpty ? nil : originals.layouts.number(of: recorded)
        if let layout {
            let entries = originals.layouts.layouts[layout.index].entries
            for index in first..<table.steps.count where table.steps[index].kind == .setRecording {
                table.steps[index].offset = entries[Int(table.steps[index].entry)].offset
            }
        }
        return Plan(
            table: table, steps: table.finish(shape: record.shape, first: first, layout: layout), layout: layout,
            base: record.first)
    }

    /// Appends to `table` the steps that turn instance `old` of `oldTheme` into `new` of
    /// `theme`: operations whose values changed, new ones (recording originals first) and
    /// reverts of those `new` no longer has.
    // Not inlined into `switchGroup`: there it made every warm switch retain and release per
    // group (the buffers' arrays), for work only a group's first switch does.
    @inline(never)
    func buildDiff(
        from oldTheme: PreparedTheme, _ old: PreparedInstanceID, to theme: PreparedTheme,
        _ new: PreparedInstanceID, into table: PlanTable, group: GroupID
    ) -> Range<Int> {
        let oldRecord = oldTheme.instances[old.index]
        let newRecord = theme.instances[new.index]
        let oldRange = Int(oldRecord.first)..<Int(oldRecord.first + oldRecord.count)
        let newRange = Int(newRecord.first)..<Int(newRecord.first + newRecord.count)
        // Through the buffers, so that reading an operation retains and releases no array. (A
        // diagnostic hook that re-enters the applicator and prepares more makes the arrays copy,
        // not these buffers move.)
        return withScratch(of: PlanStep.self, count: PlanDiff.maximumSteps(old: oldRange.count, new: newRange.count)) {
            scratch in
            let written = withBuffers(oldTheme.operations, theme.operations) { oldOperations, operations in
                PlanDiff.steps(
                    from: oldOperations, oldRange, to: operations, newRange, into: scratch,
                    sameEffect: { theme.sameEffect(Int32($0), as: Int32($1), in: oldTheme) },
                    usable: { usable(Int32($0), in: theme, instance: new, group: group) })
            }
            let first = table.steps.count
            table.steps.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
            return table.finish(new, first: first)
        }
    }

    /// Whether the operation can be applied; reports once why not.
    func usable(_ operation: Int32, in theme: PreparedTheme, instance: PreparedInstanceID, group: GroupID) -> Bool {
        // The common answer without retaining the binding: a setter that takes the operation's
        // state is exactly what `revertible` records.
        if theme.operations[Int(operation)].setter != nil, theme.operations[Int(operation)].revertible { return true }
        guard let binding = theme.binding(of: instance) else { return false }
        let record = theme.operations[Int(operation)]
        guard let setter = record.setter?.takeUnretainedValue() else {
            let resolved = theme.resolvedInstance(instance)
            let name = theme.resolvedOperation(operation).name
            report(
                .error(
                    .runtimeUnknownOperation,
                    "the '\(resolved.component)' binding (\(binding.typeName)) has no setter for operation '\(name)' used by instance '\(resolved.id)'; it is skipped",
                    at: nil),
                finding: .unknownOperation(component: resolved.component, operation: name), group: group)
            return false
        }
        let state = theme.state(of: operation)
        if !setter.takesState && state != .normal {
            let resolved = theme.resolvedInstance(instance)
            report(
                .error(
                    .runtimeUnexpectedState,
                    "operation '\(setter.operation)' of '\(resolved.component)' has no states, but instance '\(resolved.id)' sets it for state '\(state)'; it is skipped",
                    at: nil),
                finding: .unexpectedState(component: resolved.component, operation: setter.operation, state: state),
                group: group)
            return false
        }
        return true
    }
}
