import LiveryModel

/// Interned operation identities (name, state): diffs and originals compare these numbers, not
/// strings. Shared by an applicator and its prepared themes.
///
/// Here and in the applicator's registry, stored properties that registration and switching
/// touch are `@exclusivity(unchecked)`: they are accessed only on the main actor, and no access
/// spans a call into app code, so the dynamic exclusivity check (a runtime call per access)
/// could never fire and only costs time.
@MainActor
final class OperationKeys {
    private struct Key: Hashable {
        var name: String
        var state: String
    }

    @exclusivity(unchecked) private var numbers: [Key: Int32] = [:]
    @exclusivity(unchecked) private(set) var names: [(name: String, state: ControlState)] = []

    func number(_ name: String, _ state: String) -> Int32 {
        let key = Key(name: name, state: state)
        if let number = numbers[key] { return number }
        let number = Int32(names.count)
        numbers[key] = number
        names.append((name, ControlState(rawValue: state)))
        return number
    }
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
    /// path (images, which are read when applied, or values that do not decode).
    var value: UnsafeMutableRawPointer?
    /// The interned (name, state).
    var key: Int32
    /// Where the resolved operation is: `theme.instances[instance].operations[index]`.
    var instance: Int32
    var index: Int32
    /// The setter exists and takes the operation's state: reverting it is possible.
    var revertible: Bool
}

/// One instance of a prepared theme: a range of `PreparedTheme.operations`.
struct PreparedInstance {
    var themeIndex: Int32
    var first: Int32
    var count: Int32
    /// Index into `PreparedTheme.bindings`, or -1 when no binding exists for the component type.
    var binding: Int32
    /// The binding's identity, nil without one: a switch compares it across themes without
    /// retaining either binding.
    var bindingIdentity: ObjectIdentifier?
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
    /// The operation in the new theme (`set`, `setCapturing`, `setRecording`).
    var operation: Int32
    /// The interned (name, state).
    var key: Int32
    /// `setRecording`: where in the component's block the original goes.
    var offset: Int32 = 0

    init(kind: Kind, operation: Int32, key: Int32, entry: UInt8 = 0) {
        self.kind = kind
        self.operation = operation
        self.key = key
        self.entry = entry
    }
}

/// Apply plans towards the instances of one prepared theme, computed lazily per instance: from
/// one other prepared theme (a switch), or from nothing (a full apply to a new component).
/// Prepared themes are cached, so toggling between two themes or trait sets finds its plans
/// here instead of diffing every identifier again.
@MainActor
final class PlanTable {
    /// The token of the theme the plans start from; nil for full-apply plans and once that
    /// theme is gone. (A weak reference to the theme itself would give it a side table, and
    /// every retain and release of it would take the runtime's slow path.)
    weak var from: PreparedTheme.Token?
    let isFullApply: Bool
    // Appended to while plans are computed, read by index in apply passes (never through a
    // pointer kept across a setter call, which may re-enter the applicator): no access here
    // overlaps another, so the dynamic exclusivity checks are pure cost.
    @exclusivity(unchecked) var start: ContiguousArray<Int32> = []
    @exclusivity(unchecked) var count: ContiguousArray<Int32> = []
    @exclusivity(unchecked) var steps: ContiguousArray<PlanStep> = []
    /// Full-apply plans: the layout of the originals each plan records, by instance.
    @exclusivity(unchecked) private var layouts: ContiguousArray<Int32> = []

    init(from: PreparedTheme?, isFullApply: Bool) {
        self.from = from?.token
        self.isFullApply = isFullApply
    }

    /// The plan of a prepared instance, if computed.
    func plan(_ instance: Int32) -> Range<Int>? {
        guard Int(instance) < start.count, start[Int(instance)] >= 0 else { return nil }
        let first = Int(start[Int(instance)])
        return first..<first + Int(count[Int(instance)])
    }

    /// The layout of originals of a full-apply plan that is computed.
    func layout(of instance: Int32) -> Int32 {
        layouts[Int(instance)]
    }

    /// Records the steps appended since `first` as the plan of `instance` (recording originals
    /// in `layout`, for a full-apply plan).
    func finish(_ instance: Int32, first: Int, layout: Int32 = -1) -> Range<Int> {
        if Int(instance) >= start.count {
            let missing = Int(instance) + 1 - start.count
            start.append(contentsOf: repeatElement(-1, count: missing))
            count.append(contentsOf: repeatElement(0, count: missing))
            layouts.append(contentsOf: repeatElement(-1, count: missing))
        }
        start[Int(instance)] = Int32(first)
        count[Int(instance)] = Int32(steps.count - first)
        layouts[Int(instance)] = layout
        return first..<steps.count
    }
}

/// Decoded values of a prepared theme, in chunks that never move (prepared operations point
/// into them). Deinitialises what it holds when the theme goes.
final class ValueArena: @unchecked Sendable {
    // Owned by one prepared theme and used on the main actor only; `Sendable` only so that
    // the theme's nonisolated deinit may release it.
    @exclusivity(unchecked) private var chunks: [UnsafeMutableRawPointer] = []
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private var capacity = 0
    /// The values to deinitialise, each with its index in `destroyers`: plain records. (A
    /// closure per value, stored in the array, cost a heap allocation per value for its
    /// reabstraction thunk: 34 M of the 203 M instructions that preparing 2 x 10,000 instances
    /// took.) Trivial values (numbers, colours) are not recorded at all.
    @exclusivity(unchecked) private var values: [Adopted] = []
    @exclusivity(unchecked) private var destroyers: [@Sendable (UnsafeMutableRawPointer) -> Void] = []
    /// The index in `destroyers` by setter: a setter's destroy function is stored once. (The
    /// setters stay alive while the theme does, through its bindings, so identities are not
    /// reused meanwhile.)
    @exclusivity(unchecked) private var destroyerIndex: [ObjectIdentifier: Int32] = [:]
    private static let chunkSize = 16 << 10

    private struct Adopted {
        var value: UnsafeMutableRawPointer
        var destroyer: Int32
    }

    /// `alignment` is a power of two (a `MemoryLayout` alignment).
    @inline(__always)
    func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let mask = max(alignment, 1) - 1
        let offset = (used + mask) & ~mask
        if chunks.isEmpty || offset + size > capacity { return allocateChunk(size: size, alignment: mask + 1) }
        used = offset + max(size, 1)
        return chunks[chunks.count - 1] + offset
    }

    private func allocateChunk(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let bytes = max(Self.chunkSize, size + alignment)
        chunks.append(.allocate(byteCount: bytes, alignment: max(alignment, 16)))
        capacity = bytes
        used = max(size, 1)
        return chunks[chunks.count - 1]
    }

    /// The number under which `setter`'s values are destroyed, -1 when they need no
    /// deinitialisation. Looked up once per setter, not per value (`PreparedTheme` keeps it
    /// with its other per-setter lookups).
    func destroyer(for setter: OperationSetter) -> Int32 {
        guard let destroy = setter.destroyStored else { return -1 }
        let identity = ObjectIdentifier(setter)
        if let known = destroyerIndex[identity] { return known }
        let index = Int32(destroyers.count)
        destroyers.append(destroy)
        destroyerIndex[identity] = index
        return index
    }

    /// Takes charge of deinitialising `value` with destroyer `destroyer` (from
    /// `destroyer(for:)`; nothing is recorded for -1).
    @inline(__always)
    func adopt(_ value: UnsafeMutableRawPointer, destroyer: Int32) {
        if destroyer >= 0 { values.append(Adopted(value: value, destroyer: destroyer)) }
    }

    deinit {
        for adopted in values { destroyers[Int(adopted.destroyer)](adopted.value) }
        for chunk in chunks { chunk.deallocate() }
    }
}

/// A resolved theme in the shape apply passes want: instances found by interned identifier
/// number, setters looked up and values decoded once, in flat arrays of plain records.
/// Instances are prepared on first use, so a theme of 10,000 instances costs only what the app
/// actually shows. Built once per (theme, traits, scale, bindings) and cached.
@MainActor
final class PreparedTheme {
    struct Key: Hashable {
        var themeID: String
        var traits: TraitSet
        var scale: Int
        var themeGeneration: Int
        var bindingGeneration: Int
    }

    /// Lives exactly as long as the theme; what plan tables hold weakly.
    final class Token {}

    let key: Key
    let token = Token()
    let theme: ResolvedTheme
    let images: ImageLoader
    private let bindingTable: BindingTable
    private let operationKeys: OperationKeys

    // Appended to as instances are prepared; read by index (see `PlanTable` for why the
    // exclusivity checks are off).
    @exclusivity(unchecked) private(set) var operations: ContiguousArray<PreparedOperation> = []
    @exclusivity(unchecked) private(set) var states: ContiguousArray<ControlState> = []
    @exclusivity(unchecked) private(set) var instances: ContiguousArray<PreparedInstance> = []
    /// Identifier number -> prepared instance: -2 not looked up yet, -1 absent from the theme.
    @exclusivity(unchecked) private var byIdentifier: ContiguousArray<Int32> = []
    /// The bindings the instances use; they keep the setters `operations` point to alive.
    @exclusivity(unchecked) private(set) var bindings: [ResolvedBinding] = []
    @exclusivity(unchecked) private var bindingIndex: [String: Int32] = [:]
    /// The files an operation's images resolve to, by operation: the same image name may be
    /// another file after a theme, trait or scale change.
    @exclusivity(unchecked) private var imageFiles: [Int32: String] = [:]
    private let arena = ValueArena()
    /// The last lookups of (name, state) -> what preparing the operation needs, by position in
    /// an instance.
    private struct Lookup {
        var binding: Int32
        var name: String
        var state: String
        var key: Int32
        /// Unowned: `bindings` keeps the setter alive.
        var setter: Unmanaged<OperationSetter>?
        var controlState: ControlState
        var revertible: Bool
        /// The arena's destroyer for the setter's values (-1: none needed).
        var destroyer: Int32
    }
    @exclusivity(unchecked) private var lookups: ContiguousArray<Lookup> = []
    /// The component type of the last instance prepared and its binding index: instances of
    /// one type usually come together, and this saves hashing the type name per instance.
    @exclusivity(unchecked) private var lastComponent: (name: String, binding: Int32)?
    private var plans: [PlanTable] = []
    let fullApplyPlans = PlanTable(from: nil, isFullApply: true)

    init(key: Key, theme: ResolvedTheme, images: ImageLoader, bindings: BindingTable, operationKeys: OperationKeys) {
        self.key = key
        self.theme = theme
        self.images = images
        self.bindingTable = bindings
        self.operationKeys = operationKeys
    }

    /// The prepared instance styled as identifier `number`, -1 when the theme has none, or -2
    /// when it was not looked up yet (then `instance(identifier:name:)` prepares it).
    @inline(__always)
    func knownInstance(identifier number: Int32) -> Int32 {
        Int(number) < byIdentifier.count ? byIdentifier[Int(number)] : -2
    }

    /// The prepared instance styled as identifier `number` (whose string is `name`), or -1.
    func instance(identifier number: Int32, name: String) -> Int32 {
        let slot = Int(number)
        if slot < byIdentifier.count, byIdentifier[slot] != -2 { return byIdentifier[slot] }
        if slot >= byIdentifier.count {
            byIdentifier.append(contentsOf: repeatElement(-2, count: slot + 1 - byIdentifier.count))
        }
        // `if let`, not `Optional.map(prepare)`: a main-actor function handed to the standard
        // library gets a dynamic isolation check per call (see `withBuffers`).
        var prepared: Int32 = -1
        if let index = themeIndex(of: name) { prepared = prepare(themeIndex: index) }
        byIdentifier[slot] = prepared
        return prepared
    }

    func binding(of instance: Int32) -> ResolvedBinding? {
        let index = instances[Int(instance)].binding
        return index < 0 ? nil : bindings[Int(index)]
    }

    func resolvedInstance(_ instance: Int32) -> ResolvedInstance {
        theme.instances[Int(instances[Int(instance)].themeIndex)]
    }

    func resolvedOperation(_ operation: Int32) -> ResolvedOperation {
        let record = operations[Int(operation)]
        return theme.instances[Int(record.instance)].operations[Int(record.index)]
    }

    /// Whether applying operation `new` of this theme after `old` of `other` changes nothing.
    func sameEffect(_ new: Int32, as old: Int32, in other: PreparedTheme) -> Bool {
        // An operation with a decoded value has no image files (they are only recorded for
        // operations that are not decoded): the two dictionary lookups are needed only when
        // either is undecoded.
        let newRecord = operations[Int(new)]
        let oldRecord = other.operations[Int(old)]
        if newRecord.value == nil || oldRecord.value == nil, imageFiles[new] != other.imageFiles[old] { return false }
        // The params read in place: `resolvedOperation` copied each whole operation (its
        // strings and params retained and released). With the check above, 6,380 -> 2,920
        // instructions per pair of instances of 8 operations (`--profile-register-many`).
        return Self.sameParams(theme.instances[Int(newRecord.instance)].operations[Int(newRecord.index)].params,
                               other.theme.instances[Int(oldRecord.instance)].operations[Int(oldRecord.index)].params)
    }

    /// `lhs == rhs`, element by element through the buffers: the same answer as `Array.==`
    /// (identical buffers are equal without comparing, as there), without copying each
    /// param (retaining its name and value) as that did.
    private static func sameParams(_ lhs: [Param], _ rhs: [Param]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return withBuffer(lhs) { lhs in
            withBuffer(rhs) { rhs in
                if lhs.baseAddress == rhs.baseAddress { return true }
                for index in lhs.indices where lhs[index].name != rhs[index].name || lhs[index].value != rhs[index].value {
                    return false
                }
                return true
            }
        }
    }

    /// The plans from `other` (a switch), created on first use.
    func plans(from other: PreparedTheme) -> PlanTable {
        for table in plans where table.from === other.token { return table }
        plans.removeAll { $0.from == nil }  // themes evicted from the cache
        let table = PlanTable(from: other, isFullApply: false)
        plans.append(table)
        return table
    }

    // MARK: Preparing

    private func themeIndex(of id: String) -> Int? {
        let instances = theme.instances
        var low = 0
        var high = instances.count
        while low < high {
            let middle = (low + high) / 2
            if instances[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < instances.count && instances[low].id == id ? low : nil
    }

    private func prepare(themeIndex: Int) -> Int32 {
        let binding = bindingNumber(for: theme.instances[themeIndex].component)
        let first = Int32(operations.count)
        // Through the buffer, with `prepareOperation` inlined: `enumerated()` and a call per
        // operation copied each operation through outlined value-witness calls (its strings
        // and params retained and released), 21 M of the 124 M that preparing 2 x 10,000
        // instances took.
        withBuffer(theme.instances[themeIndex].operations) { resolved in
            reserveOperations(resolved.count)
            for index in resolved.indices {
                prepareOperation(resolved[index], index: index, themeIndex: themeIndex, binding: binding)
            }
        }
        instances.append(PreparedInstance(themeIndex: Int32(themeIndex), first: first,
                                          count: Int32(operations.count) - first, binding: binding,
                                          bindingIdentity: binding < 0 ? nil : ObjectIdentifier(bindings[Int(binding)])))
        return Int32(instances.count - 1)
    }

    /// The index in `bindings` of the binding for `component`, -1 without one.
    private func bindingNumber(for component: String) -> Int32 {
        if let last = lastComponent, last.name == component { return last.binding }
        let binding: Int32
        if let known = bindingIndex[component] {
            binding = known
        } else if let resolved = bindingTable.binding(for: component) {
            binding = Int32(bindings.count)
            bindings.append(resolved)
            bindingIndex[component] = binding
        } else {
            binding = -1
            bindingIndex[component] = -1
        }
        lastComponent = (component, binding)
        return binding
    }

    /// Room for `count` more operations, growing geometrically (`reserveCapacity` alone would
    /// allocate exactly, and copy the arrays once per instance).
    private func reserveOperations(_ count: Int) {
        let needed = operations.count + count
        guard needed > operations.capacity else { return }
        let capacity = max(needed, operations.capacity * 2, 64)
        operations.reserveCapacity(capacity)
        states.reserveCapacity(capacity)
    }

    @inline(__always)  // see `prepare`
    private func prepareOperation(_ operation: ResolvedOperation, index: Int, themeIndex: Int, binding: Int32) {
        lookUp(operation, at: index, binding: binding)
        let files = Self.imageFiles(of: operation, images: images)
        var value: UnsafeMutableRawPointer?
        if let setter = lookups[index].setter, files == nil {
            value = setter.withGuaranteedSetter { decode(operation, with: $0, destroyer: lookups[index].destroyer) }
        }
        if let files { imageFiles[Int32(operations.count)] = files }
        operations.append(PreparedOperation(
            setter: lookups[index].setter, value: value, key: lookups[index].key, instance: Int32(themeIndex),
            index: Int32(index), revertible: lookups[index].revertible))
        states.append(lookups[index].controlState)
    }

    /// Makes `lookups[index]` the lookup of `operation`. Instances of a theme mostly repeat
    /// the same operations in the same order: the previous instance's lookup at this position
    /// usually answers, with two string comparisons (short names are compared inline) instead
    /// of two hash lookups, and keeps the state, revertibility and destroyer with it.
    @inline(__always)
    private func lookUp(_ operation: ResolvedOperation, at index: Int, binding: Int32) {
        if index < lookups.count, lookups[index].binding == binding, lookups[index].name == operation.name,
           lookups[index].state == operation.state {
            return
        }
        let lookup = makeLookup(operation, binding: binding)
        if index < lookups.count { lookups[index] = lookup } else { lookups.append(lookup) }
    }

    private func makeLookup(_ operation: ResolvedOperation, binding: Int32) -> Lookup {
        let key = operationKeys.number(operation.name, operation.state)
        let state = ControlState(rawValue: operation.state)
        var lookup = Lookup(binding: binding, name: operation.name, state: operation.state, key: key, setter: nil,
                            controlState: state, revertible: false, destroyer: -1)
        if binding >= 0, let setter = bindings[Int(binding)].setters[operation.name] {
            lookup.setter = Unmanaged.passUnretained(setter)
            lookup.revertible = setter.takesState || state == .normal
            lookup.destroyer = arena.destroyer(for: setter)
        }
        return lookup
    }

    /// The operation's value decoded into the arena, nil when it does not decode.
    @inline(__always)
    private func decode(_ operation: ResolvedOperation, with setter: OperationSetter, destroyer: Int32)
        -> UnsafeMutableRawPointer? {
        let memory = arena.allocate(size: setter.valueSize, alignment: setter.valueAlignment)
        guard setter.decodeInto(operation, memory) else { return nil }
        arena.adopt(memory, destroyer: destroyer)
        return memory
    }

    private static func imageFiles(of operation: ResolvedOperation, images: ImageLoader) -> String? {
        // Most operations hold no image: answer without building anything (this runs for
        // every operation an app shows).
        var mayHoldImages = false
        for param in operation.params {
            switch param.value {
            case .image, .array: mayHoldImages = true
            default: continue
            }
        }
        guard mayHoldImages else { return nil }
        var files: [String] = []
        func collect(_ value: Value) {
            switch value {
            case .image(let reference):
                let variant = images.variant(reference)
                files.append(variant.map { "\($0.themeID):\($0.file)" } ?? "-")
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        for param in operation.params { collect(param.value) }
        return files.isEmpty ? nil : files.joined(separator: "|")
    }
}

/// Lends the buffer of an array: elements read from it are borrowed, not copied. Compiled in
/// Swift 6 mode for the reason given at `withBuffers`.
@inline(__always)
func withBuffer<Element, Result>(_ array: [Element], _ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
    array.withUnsafeBufferPointer(body)
}
