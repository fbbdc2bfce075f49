import LiveryModel

/// The steps that turn a prepared instance into another (a switch's plan for one identifier).
/// Not isolated: the main actor diffs instances as groups first switch, and `Applicator.preload`
/// diffs whole themes on another thread.
enum PlanDiff {
    /// The most steps a diff of instances of `old` and `new` operations makes: a set per new
    /// operation and a revert per old one.
    static func maximumSteps(old: Int, new: Int) -> Int { old + new }

    /// Writes into `steps` the steps that turn the operations `oldRange` of `old` into
    /// `newRange` of `new`: operations whose values changed, new ones (recording originals
    /// first) and reverts of those the new instance no longer has. Returns how many it wrote;
    /// `steps` has room for `maximumSteps`.
    ///
    /// `sameEffect(new, old)` answers for a pair of one key whose values are not plain bits;
    /// `usable(new)` says whether an operation can be applied (and reports why not). Both take
    /// indices into the buffers. The steps go to scratch memory, not straight into a plan
    /// table: `usable` may call app code (a diagnostics observer) that switches themes, and so
    /// appends to the same table.
    @inline(__always)
    static func steps(
        from old: UnsafeBufferPointer<PreparedOperation>, _ oldRange: Range<Int>,
        to new: UnsafeBufferPointer<PreparedOperation>, _ newRange: Range<Int>,
        into steps: UnsafeMutableBufferPointer<PlanStep>,
        sameEffect: (Int, Int) -> Bool, usable: (Int) -> Bool
    ) -> Int {
        var count = 0
        // Plain loops over interned keys: instances have a handful of operations.
        for operation in newRange {
            let key = new[operation].key
            var previous: Int?
            for candidate in oldRange where old[candidate].key == key {
                previous = candidate
                break
            }
            if let previous,
                PreparedTheme.sameEffect(new[operation], as: old[previous]) ?? sameEffect(operation, previous)
            {
                continue
            }
            guard usable(operation) else { continue }
            let capture = previous.map { !old[$0].revertible } ?? true
            steps[count] = PlanStep(kind: capture ? .setCapturing : .set, operation: Int32(operation), key: key)
            count += 1
        }
        for operation in oldRange {
            let key = old[operation].key
            var kept = false
            for candidate in newRange where new[candidate].key == key {
                kept = true
                break
            }
            if !kept, old[operation].revertible {
                steps[count] = PlanStep(kind: .revert, operation: 0, key: key)
                count += 1
            }
        }
        return count
    }
}

/// Plans between two themes computed off the main actor (`Applicator.preload`), in the arrays
/// of a `PlanTable`: plan `i` is for instance `i` of the new theme, `PlanTable.none` where none
/// was computed.
struct PlanContents: Sendable {
    var start: ContiguousArray<Int32> = []
    var count: ContiguousArray<Int32> = []
    var steps: ContiguousArray<PlanStep> = []

    /// The plans from `old` to `new`, two themes prepared whole with one numbering of keys:
    /// for each instance of `new` whose id `old` has too, with the same binding. An instance
    /// with an operation that cannot be applied gets no plan here: the main actor diffs it
    /// when a group first switches, and reports the operation then.
    init(from old: PreparedContents, to new: PreparedContents) {
        let oldTheme = old.resolved
        let newTheme = new.resolved
        var oldIndex: [String: Int32] = [:]
        oldIndex.reserveCapacity(oldTheme.count)
        for (index, instance) in oldTheme.enumerated() where oldIndex[instance.id] == nil {
            oldIndex[instance.id] = Int32(index)
        }
        start = ContiguousArray(repeating: PlanTable.none, count: new.instances.count)
        count = ContiguousArray(repeating: 0, count: new.instances.count)
        // About a step per operation when everything changes.
        steps.reserveCapacity(new.operations.count)
        withBuffers(old.operations, new.operations) { oldOperations, newOperations in
            for (index, newRecord) in new.instances.enumerated() {
                guard let oldInstance = oldIndex[newTheme[index].id] else { continue }
                let oldRecord = old.instances[Int(oldInstance)]
                guard oldRecord.bindingIdentity == newRecord.bindingIdentity else { continue }
                let newRange = Int(newRecord.first)..<Int(newRecord.first + newRecord.count)
                let oldRange = Int(oldRecord.first)..<Int(oldRecord.first + oldRecord.count)
                // What `usable` answers without reporting: a setter that takes the state.
                guard newRange.allSatisfy({ newOperations[$0].setter != nil && newOperations[$0].revertible }) else {
                    continue
                }
                let first = steps.count
                withScratch(of: PlanStep.self, count: PlanDiff.maximumSteps(old: oldRange.count, new: newRange.count)) {
                    scratch in
                    let written = PlanDiff.steps(
                        from: oldOperations, oldRange, to: newOperations, newRange, into: scratch,
                        sameEffect: {
                            PreparedTheme.sameEffect(
                                newOperations[$0], Int32($0), of: newTheme, new.imageFiles,
                                as: oldOperations[$1], Int32($1), of: oldTheme, old.imageFiles)
                        },
                        usable: { _ in true })
                    steps.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<written]))
                }
                start[index] = Int32(first)
                count[index] = Int32(steps.count - first)
            }
        }
    }
}
