import LiveryModel

/// Interned operation identities (name, state): diffs and originals compare these numbers, not
/// strings. Shared by an applicator and its prepared themes.
///
/// Here and in the applicator's registry, stored properties that registration and switching
/// touch are `@exclusivity(unchecked)`. Invariant that makes that safe: they are accessed only
/// on the main actor, and no access spans a call into app code, so the dynamic exclusivity check
/// (a runtime call per access) could never fire.
@MainActor
final class OperationKeys {
    @exclusivity(unchecked) private(set) var numbering = OperationKeyNumbering()

    func number(_ key: OperationKey) -> OperationKeyNumber { OperationKeyNumber(rawValue: numbering.number(key)) }
}

/// One operation of a prepared theme: plain numbers and unowned pointers, stored in one flat
/// array, so a switch reads it without reference counting.
///
/// The pointers come first: Swift lays stored properties out in declaration order, and this
/// order makes the record 32 bytes instead of 40 (preparing copies the array as it grows).
struct PreparedOperation {
    /// The setter (kept alive by `PreparedTheme.bindings`), nil when the binding has none.
    var setter: Unmanaged<OperationSetter>?
    /// The value decoded once by the setter, nil when the operation must take the general
    /// path (images, which are read when applied, or values that do not decode). It points
    /// into the `ValueArena` of the theme's preparer, which lives as long as the theme and never
    /// moves what it holds.
    var value: UnsafeMutableRawPointer?
    /// The interned (name, state).
    var key: OperationKeyNumber
    /// Where the resolved operation is: `resolved[instance].operations[index]` of its prepared
    /// theme.
    var instance: PreparedInstanceID
    var index: Int32
    /// The setter exists and takes the operation's state: reverting it is possible.
    var revertible: Bool
    /// Its params are `PreparedRecords.replacedParams`' (values of personal choices replace
    /// some), not those of the resolved operation, which is shared with the root's instance.
    var replaced = false
}

/// One instance of a prepared theme: a range of `PreparedTheme.operations`.
struct PreparedInstance {
    var first: Int32
    var count: Int32
    /// The binding's index, `noBinding` when no binding exists for the component type: four
    /// bytes where an optional would take eight (`binding` is the typed view).
    private var storedBinding: Int32
    /// Instances of one shape (binding, and operation keys in order) share a full-apply plan:
    /// it depends on nothing else, and a theme repeats a few shapes over many instances.
    var shape: ShapeNumber
    /// The binding's identity, nil without one: a switch compares it across themes without
    /// retaining either binding.
    var bindingIdentity: ObjectIdentifier?

    private static let noBinding: Int32 = -1

    init(first: Int32, count: Int32, binding: BindingIndex?, shape: ShapeNumber, bindingIdentity: ObjectIdentifier?) {
        self.first = first
        self.count = count
        storedBinding = binding?.rawValue ?? Self.noBinding
        self.shape = shape
        self.bindingIdentity = bindingIdentity
    }

    /// The index of the instance's binding in `PreparedTheme.bindings`, nil without one.
    var binding: BindingIndex? { storedBinding == Self.noBinding ? nil : BindingIndex(rawValue: storedBinding) }
}

/// One step of an apply plan.
struct PlanStep {
    enum Kind: UInt8 {
        /// Apply the new theme's operation.
        case set
        /// Apply it, recording the property's original first unless one is recorded (the old
        /// theme did not set it).
        case setCapturing
        /// Apply it, recording the original in the component's block at `offset`: a full
        /// application to a component that has no original recorded.
        case setRecording
        /// Put the original of `key` back (the new theme no longer sets it).
        case revert
    }

    var kind: Kind
    /// `setRecording`: the entry of the plan's layout of originals (its presence bit).
    var entry: UInt8 = 0
    /// The operation in the new theme (`set`, `setCapturing`, `setRecording`); in a full-apply
    /// plan, counted from the instance's first operation. Unused by `revert`.
    var operation: Int32
    /// The interned (name, state).
    var key: OperationKeyNumber
    /// `setRecording`: where in the component's block the original goes.
    var offset: Int32 = 0

    init(kind: Kind, operation: Int32, key: OperationKeyNumber, entry: UInt8 = 0) {
        self.kind = kind
        self.operation = operation
        self.key = key
        self.entry = entry
    }
}

/// The records of a prepared theme: its prepared instances, their operations, the resolved
/// instances they came from and the files of their images.
///
/// Shared by a theme and the themes derived from it by a change of personal choices (its
/// family): each derived theme stores the instances its values change in slots it leases, and
/// reads only the numbers its own lookup gave it, so numbers stay valid for all of them and a
/// derivation copies nothing (`livery-switch-bench --choice`). A slot is written once by its
/// lease, and reused by a later derivation only once the theme that leased it is gone, so a
/// user dragging a colour picker keeps a bounded number of records, and of decoded values.
@MainActor
final class PreparedRecords {
    /// What a derived theme holds here: the slots of the instances it prepared, and the preparer
    /// its decoded values live in, both let go once the theme is gone.
    final class Lease {
        weak var owner: PreparedTheme.Token?
        let preparer: InstancePreparer
        fileprivate var slots: [PreparedInstanceID] = []

        init(owner: PreparedTheme.Token, preparer: InstancePreparer) {
            self.owner = owner
            self.preparer = preparer
        }
    }

    // Invariant that makes the unchecked accesses safe: main actor only, appended to and read
    // by index, never through a reference kept across a call out (as in `PreparedTheme`).
    @exclusivity(unchecked) var operations: ContiguousArray<PreparedOperation>
    @exclusivity(unchecked) var instances: ContiguousArray<PreparedInstance>
    /// The resolved instance of each prepared instance (the same numbers as `instances`); a
    /// patched instance shares its root's, and its `replaced` operations' params are apart.
    @exclusivity(unchecked) var resolved: ContiguousArray<ResolvedInstance>
    /// The files an operation's images resolve to, by operation: the same image name may be
    /// another file after a theme, trait or scale change.
    @exclusivity(unchecked) var imageFiles: [Int32: String]
    /// The params of the `replaced` operations, by operation: a patched instance shares the
    /// root's resolved instance, and only the params its values change are kept here.
    @exclusivity(unchecked) var replacedParams: [Int32: [Param]] = [:]
    /// The preparer of the theme the records were made for (its values are never let go).
    private let preparer: InstancePreparer
    /// The leases of the derived themes, alive or not reclaimed yet.
    private var leases: [Lease] = []
    /// The slots of leases whose theme is gone, by operation count.
    private var free: [Int32: [PreparedInstanceID]] = [:]

    init(
        preparer: InstancePreparer, operations: ContiguousArray<PreparedOperation> = [],
        instances: ContiguousArray<PreparedInstance> = [], resolved: ContiguousArray<ResolvedInstance> = [],
        imageFiles: [Int32: String] = [:]
    ) {
        self.operations = operations
        self.instances = instances
        self.resolved = resolved
        self.imageFiles = imageFiles
        self.preparer = preparer
    }

    /// A lease for the theme `owner` derived now, whose values `preparer` decodes; the slots of
    /// the derived themes gone since the last one are free from now on.
    func lease(for owner: PreparedTheme.Token, preparer: InstancePreparer) -> Lease {
        leases.removeAll { lease in
            guard lease.owner == nil else { return false }
            // Taken out of the dictionary while appended to: appending through its subscript
            // copied the array each time (`livery-switch-bench --profile-choice`).
            var count: Int32 = -1
            var slots: [PreparedInstanceID] = []
            for slot in lease.slots {
                if instances[slot.index].count != count {
                    if count >= 0 { free[count] = slots }
                    count = instances[slot.index].count
                    slots = free.removeValue(forKey: count) ?? []
                }
                slots.append(slot)
            }
            if count >= 0 { free[count] = slots }
            return true
        }
        let lease = Lease(owner: owner, preparer: preparer)
        leases.append(lease)
        return lease
    }

    /// Stores the operations of an instance and the instance they were prepared from, in a
    /// slot `lease` takes (a free one of as many operations if there is one) or, without a
    /// lease, at the end; `images` are the operations whose values are read with their files,
    /// `params` those whose params replace `read`'s (`replaced`). Returns the instance's number
    /// and its first operation; the caller then writes `instances[number]`.
    func store(
        _ scratch: UnsafeMutableBufferPointer<PreparedOperation>, from read: ResolvedInstance,
        images: [(index: Int, files: String)], params: [(index: Int, params: [Param])] = [], lease: Lease?
    ) -> (instance: PreparedInstanceID, first: Int32) {
        let count = Int32(scratch.count)
        let number: PreparedInstanceID
        let first: Int32
        if let lease, let slot = free[count]?.popLast() {
            (number, first) = (slot, instances[slot.index].first)
            for index in scratch.indices where operations[Int(first) + index].replaced {
                replacedParams[first + Int32(index)] = nil
            }
            if !imageFiles.isEmpty {
                for index in scratch.indices { imageFiles[first + Int32(index)] = nil }
            }
            for index in scratch.indices {
                scratch[index].instance = slot
                operations[Int(first) + index] = scratch[index]
            }
            resolved[slot.index] = read
        } else {
            (number, first) = (PreparedInstanceID(instances.count), Int32(operations.count))
            for index in scratch.indices { scratch[index].instance = number }
            operations.append(contentsOf: UnsafeBufferPointer(scratch))
            resolved.append(read)
            // Written by the caller; here so that the numbers of instances prepared meanwhile
            // (decoding runs app code) stay apart.
            instances.append(
                PreparedInstance(first: first, count: count, binding: nil, shape: ShapeNumber(0), bindingIdentity: nil))
        }
        lease?.slots.append(number)
        for (index, files) in images { imageFiles[first + Int32(index)] = files }
        for (index, params) in params {
            operations[Int(first) + index].replaced = true
            replacedParams[first + Int32(index)] = params
        }
        return (number, first)
    }

    /// The params of `record` (an operation of these records).
    func params(of record: PreparedOperation) -> [Param] {
        record.replaced
            ? replacedParams[instances[record.instance.index].first + record.index]!
            : resolved[record.instance.index].operations[Int(record.index)].params
    }

    /// The resolved operation of `record`, with its replaced params.
    func resolvedOperation(_ record: PreparedOperation) -> ResolvedOperation {
        var operation = resolved[record.instance.index].operations[Int(record.index)]
        if record.replaced { operation.params = params(of: record) }
        return operation
    }

    /// The instance of the theme `lease` is for, made from `old`, the root's instance of the same
    /// identifier: the two come from one source instance and differ only in the params the
    /// derived theme's values of personal choices (`after`, at the source's text scale) or the
    /// root's (`before`) replace. So `old`'s records are copied, its resolved instance is shared,
    /// and only the operations `after` reaches get params of their own and are decoded again, by
    /// the lease's preparer (`livery-switch-bench --choice`). Nil when the root's values replace
    /// a param these do not (the theme's own value is read from the source then), or an
    /// operation these reach may hold images or was not decoded: the caller prepares the
    /// instance in full.
    func patch(
        _ old: PreparedInstanceID, replacing before: [ChoiceReplacements.Replacement],
        with after: [ChoiceReplacements.Replacement], textScale: Double, lease: Lease
    ) -> PreparedInstanceID? {
        let record = instances[old.index]
        let count = Int(record.count)
        let oldFirst = Int(record.first)
        let shared = resolved[old.index]
        for replaced in before
        where !after.contains(where: { $0.operation == replaced.operation && $0.param == replaced.param }) {
            return nil
        }
        var reached: [(index: Int, operation: ResolvedOperation)] = []
        for replacement in after {
            let index = replacement.operation
            guard index < count, operations[oldFirst + index].value != nil else { return nil }
            var entry = reached.firstIndex { $0.index == index }
            if entry == nil {
                reached.append((index, shared.operations[index]))
                entry = reached.count - 1
            }
            let params = reached[entry!].operation.params
            guard let param = params.firstIndex(where: { $0.name == replacement.param }) else { continue }
            reached[entry!].operation.params[param].value =
                textScale == TextScale.standard
                ? replacement.value : replacement.value.applyingTextScale(textScale) ?? replacement.value
        }
        for entry in reached where InstancePreparer.mayHoldImages(entry.operation) { return nil }
        let stored = withScratch(of: PreparedOperation.self, count: count) { scratch in
            for index in 0..<count {
                (scratch.baseAddress! + index).initialize(to: operations[oldFirst + index])
            }
            for entry in reached {
                if let setter = scratch[entry.index].setter {
                    scratch[entry.index].value = lease.preparer.decodeAgain(entry.operation, with: setter)
                }
            }
            var images: [(index: Int, files: String)] = []
            if !imageFiles.isEmpty {
                for index in 0..<count where scratch[index].value == nil {
                    if let files = imageFiles[Int32(oldFirst + index)] { images.append((index, files)) }
                }
            }
            // As in `PreparedTheme.prepareInFull`: app code run while decoding may have prepared
            // other instances; nothing runs between here and the write below.
            return store(
                scratch, from: shared, images: images, params: reached.map { ($0.index, $0.operation.params) },
                lease: lease)
        }
        var instance = record
        instance.first = stored.first
        instances[stored.instance.index] = instance
        return stored.instance
    }
}

/// A preparer's key numbers mapped to the applicator's (`OperationKeys`), grown as the preparer
/// meets keys: the preparer may run off the main actor, where the applicator's table is not.
/// A class for the reason given at `InstanceLookup`.
@MainActor
final class KeyTranslation {
    private let operationKeys: OperationKeys
    /// The preparer's key number -> the applicator's.
    // Invariant that makes the unchecked access safe: main actor only, no call out during an
    // access.
    @exclusivity(unchecked) private var numbers: [OperationKeyNumber] = []

    init(operationKeys: OperationKeys) {
        self.operationKeys = operationKeys
    }

    /// The state of the applicator's key `key`.
    func state(of key: OperationKeyNumber) -> ControlState {
        operationKeys.numbering.keys[key.index].state
    }

    /// Replaces the preparer's key numbers in `records` (numbered by `numbering`) by the
    /// applicator's.
    func translate(
        _ records: UnsafeMutableBufferPointer<PreparedOperation>,
        from numbering: OperationKeyNumbering
    ) {
        var highest: Int32 = -1
        for index in records.indices { highest = max(highest, records[index].key.rawValue) }
        if Int(highest) >= numbers.count {
            // The preparer's numbering only grows: number the keys it met since.
            for key in numbering.keys[numbers.count...] { numbers.append(operationKeys.number(key)) }
        }
        // Through the buffer, so that indexing retains and releases nothing per key
        // (`livery-switch-bench --profile-register-many`).
        withBuffer(numbers) { map in
            for index in records.indices { records[index].key = map[records[index].key.index] }
        }
    }
}
