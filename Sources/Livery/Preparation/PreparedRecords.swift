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
    /// Values of personal choices reach it in a theme of its family: the record holds no value
    /// (`value` is nil), and each theme reads its value and params from its `ValueOverlay`, or
    /// else its root's.
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
/// instances they came from and the files of their images. Appended to, never changed, but for
/// the `replaced` marks (whose values move to the root's `ValueOverlay`).
///
/// Shared by a theme and the themes derived from it by a change of personal choices (its
/// family): a derived theme answers every identifier with the root's instance, and keeps the
/// values its personal choices give in an overlay of its own (`ValueOverlay`), so a derivation
/// copies and prepares nothing (`livery-switch-bench --choice`).
@MainActor
final class PreparedRecords {
    // Invariant that makes the unchecked accesses safe: main actor only, appended to and read
    // by index, never through a reference kept across a call out (as in `PreparedTheme`).
    @exclusivity(unchecked) var operations: ContiguousArray<PreparedOperation>
    @exclusivity(unchecked) var instances: ContiguousArray<PreparedInstance>
    /// The resolved instance of each prepared instance (the same numbers as `instances`).
    @exclusivity(unchecked) var resolved: ContiguousArray<ResolvedInstance>
    /// The files an operation's images resolve to, by operation: the same image name may be
    /// another file after a theme, trait or scale change.
    @exclusivity(unchecked) var imageFiles: [Int32: String]
    /// The preparer whose decoded values the records point to.
    private let preparer: InstancePreparer

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

    /// Appends the operations of an instance and the instance they were prepared from;
    /// `images` are the operations whose values are read with their files. Returns the
    /// instance's number and its first operation; the caller then writes `instances[number]`.
    func append(
        _ scratch: UnsafeMutableBufferPointer<PreparedOperation>, from read: ResolvedInstance,
        images: [(index: Int, files: String)]
    ) -> (instance: PreparedInstanceID, first: Int32) {
        let number = PreparedInstanceID(instances.count)
        let first = Int32(operations.count)
        for index in scratch.indices { scratch[index].instance = number }
        operations.append(contentsOf: UnsafeBufferPointer(scratch))
        resolved.append(read)
        for (index, files) in images { imageFiles[first + Int32(index)] = files }
        // Written by the caller; here so that the numbers of instances prepared meanwhile
        // (decoding runs app code) stay apart.
        instances.append(
            PreparedInstance(
                first: first, count: Int32(scratch.count), binding: nil, shape: ShapeNumber(0), bindingIdentity: nil))
        return (number, first)
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
