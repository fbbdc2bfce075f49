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
struct PreparedOperation {
    /// The interned (name, state).
    var key: Int32
    /// Where the resolved operation is: `theme.instances[instance].operations[index]`.
    var instance: Int32
    var index: Int32
    /// The setter (kept alive by `PreparedTheme.bindings`), nil when the binding has none.
    var setter: Unmanaged<OperationSetter>?
    /// The value decoded once by the setter, nil when the operation must take the general
    /// path (images, which are read when applied, or values that do not decode).
    var value: UnsafeMutableRawPointer?
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
    @exclusivity(unchecked) private var values: [(UnsafeMutableRawPointer, @Sendable (UnsafeMutableRawPointer) -> Void)] = []
    private static let chunkSize = 16 << 10

    func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let alignment = max(alignment, 1)
        var offset = (used + alignment - 1) / alignment * alignment
        if chunks.isEmpty || offset + size > capacity {
            let bytes = max(Self.chunkSize, size + alignment)
            chunks.append(.allocate(byteCount: bytes, alignment: max(alignment, 16)))
            capacity = bytes
            offset = 0
        }
        used = offset + max(size, 1)
        return chunks[chunks.count - 1] + offset
    }

    func adopt(_ value: UnsafeMutableRawPointer, destroy: @escaping @Sendable (UnsafeMutableRawPointer) -> Void) {
        values.append((value, destroy))
    }

    deinit {
        for (value, destroy) in values { destroy(value) }
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
    /// The last lookups of (name, state) -> (key, setter), by position in an instance.
    private struct Lookup {
        var binding: Int32
        var name: String
        var state: String
        var key: Int32
        var setter: OperationSetter?
    }
    @exclusivity(unchecked) private var lookups: [Lookup] = []
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
        imageFiles[new] == other.imageFiles[old] && resolvedOperation(new).params == other.resolvedOperation(old).params
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
        let instance = theme.instances[themeIndex]
        let binding: Int32
        if let known = bindingIndex[instance.component] {
            binding = known
        } else if let resolved = bindingTable.binding(for: instance.component) {
            binding = Int32(bindings.count)
            bindings.append(resolved)
            bindingIndex[instance.component] = binding
        } else {
            binding = -1
            bindingIndex[instance.component] = -1
        }
        let setters = binding < 0 ? nil : bindings[Int(binding)].setters
        let first = Int32(operations.count)
        for (index, operation) in instance.operations.enumerated() {
            // Instances of a theme mostly repeat the same operations in the same order: the
            // previous instance's lookup at this position usually answers, with two string
            // comparisons (short names are compared inline) instead of two hash lookups.
            let key: Int32
            let setter: OperationSetter?
            if index < lookups.count, lookups[index].binding == binding, lookups[index].name == operation.name,
               lookups[index].state == operation.state {
                key = lookups[index].key
                setter = lookups[index].setter
            } else {
                key = operationKeys.number(operation.name, operation.state)
                setter = setters?[operation.name]
                let lookup = Lookup(binding: binding, name: operation.name, state: operation.state, key: key, setter: setter)
                if index < lookups.count { lookups[index] = lookup } else { lookups.append(lookup) }
            }
            let files = Self.imageFiles(of: operation, images: images)
            var value: UnsafeMutableRawPointer?
            if let setter, files == nil {
                let memory = arena.allocate(size: setter.valueSize, alignment: setter.valueAlignment)
                if setter.decodeInto(operation, memory) {
                    arena.adopt(memory, destroy: setter.destroyStored)
                    value = memory
                }
            }
            let state = ControlState(rawValue: operation.state)
            if let files { imageFiles[Int32(operations.count)] = files }
            var revertible = false
            var unretained: Unmanaged<OperationSetter>?
            if let setter {
                revertible = setter.takesState || state == .normal
                unretained = Unmanaged.passUnretained(setter)
            }
            operations.append(PreparedOperation(
                key: key, instance: Int32(themeIndex),
                index: Int32(index), setter: unretained, value: value, revertible: revertible))
            states.append(state)
        }
        instances.append(PreparedInstance(themeIndex: Int32(themeIndex), first: first,
                                          count: Int32(operations.count) - first, binding: binding,
                                          bindingIdentity: binding < 0 ? nil : ObjectIdentifier(bindings[Int(binding)])))
        return Int32(instances.count - 1)
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
