import LiveryBinary
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
    @exclusivity(unchecked) private(set) var numbering = OperationKeyNumbering()

    func number(_ key: OperationKey) -> Int32 { numbering.number(key) }
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
    /// Where the resolved operation is: `resolved[instance].operations[index]` of its prepared
    /// theme (the prepared instance's number).
    var instance: Int32
    var index: Int32
    /// The setter exists and takes the operation's state: reverting it is possible.
    var revertible: Bool
}

/// One instance of a prepared theme: a range of `PreparedTheme.operations`.
struct PreparedInstance {
    var first: Int32
    var count: Int32
    /// Index into `PreparedTheme.bindings`, or -1 when no binding exists for the component type.
    var binding: Int32
    /// Instances of one shape (binding, and operation keys in order) share a full-apply plan:
    /// it depends on nothing else, and a theme repeats a few shapes over many instances.
    var shape: Int32
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
    /// The operation in the new theme (`set`, `setCapturing`, `setRecording`); in a full-apply
    /// plan, counted from the instance's first operation.
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

/// Apply plans towards the instances of one prepared theme, computed lazily: per instance from
/// one other prepared theme (a switch), or per shape from nothing (a full apply to a new
/// component; see `PreparedInstance.shape`).
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

    /// The plan of a prepared instance (of a shape, in full-apply tables), if computed.
    func plan(_ instance: Int32) -> Range<Int>? {
        guard Int(instance) < start.count, start[Int(instance)] >= 0 else { return nil }
        let first = Int(start[Int(instance)])
        return first..<first + Int(count[Int(instance)])
    }

    /// The layout of originals of a full-apply plan that is computed.
    func layout(of instance: Int32) -> Int32 {
        layouts[Int(instance)]
    }

    /// Takes plans computed on another thread, their keys mapped through `keyMap` to the
    /// applicator's (nil: they are the applicator's already).
    func adopt(_ contents: PlanContents, keyMap: ContiguousArray<Int32>?) {
        start = contents.start
        count = contents.count
        layouts = ContiguousArray(repeating: -1, count: contents.start.count)
        steps = contents.steps
        guard let keyMap else { return }
        steps.withUnsafeMutableBufferPointer { steps in
            for index in steps.indices { steps[index].key = keyMap[Int(steps[index].key)] }
        }
    }

    /// Records the steps appended since `first` as the plan of `instance` (recording originals
    /// in `layout`, for a full-apply plan).
    func finish(_ instance: Int32, first: Int, layout: Int32 = -1) -> Range<Int> {
        if Int(instance) >= start.count {
            // Geometric: plans are mostly made for instances in the order they were prepared,
            // and growing by one cost three generic appends per plan.
            let missing = max(Int(instance) + 1 - start.count, start.count, 16)
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
/// actually shows, unless the theme was prepared whole on other threads (`Applicator.preload`,
/// `isComplete`); from a compiled file, an instance is not even read before that
/// (`InstanceSource`). Built once per (theme, traits, scale, bindings) and cached.
@MainActor
final class PreparedTheme {
    struct Key: Equatable {
        var themeID: String
        var traits: TraitSet
        var scale: Int
        var themeGeneration: Int
        var bindingGeneration: Int
        /// Fonts are prepared at this text scale (ThemeManager+TextSize.swift).
        var textScale: Double = TextScale.standard
    }

    /// Lives exactly as long as the theme; what plan tables hold weakly.
    final class Token {}

    let key: Key
    let token = Token()
    /// Where instances are read from.
    let source: InstanceSource
    let images: ImageLoader
    private let operationKeys: OperationKeys
    /// Prepares instances as they are first styled; it also owns the decoded values.
    private let preparer: InstancePreparer

    // Appended to as instances are prepared; read by index (see `PlanTable` for why the
    // exclusivity checks are off).
    @exclusivity(unchecked) private(set) var operations: ContiguousArray<PreparedOperation> = []
    @exclusivity(unchecked) private(set) var instances: ContiguousArray<PreparedInstance> = []
    /// The resolved instance of each prepared instance (the same numbers as `instances`).
    @exclusivity(unchecked) private(set) var resolved: ContiguousArray<ResolvedInstance> = []
    /// Identifier number -> prepared instance: -2 not looked up yet, -1 absent from the theme.
    @exclusivity(unchecked) private var byIdentifier: ContiguousArray<Int32> = []
    /// Identifier number -> slot of a resolved theme in memory (-1 or past the end: not in the
    /// theme), built at the first lookup by numbering every instance's id (see
    /// `indexIdentifiers`). A compiled file's own hash table answers instead.
    @exclusivity(unchecked) private var themeIndexByIdentifier: ContiguousArray<Int32> = []
    /// A theme prepared whole: slot -> prepared instance (-1: the traits do not define it).
    private var preparedBySlot: ContiguousArray<Int32> = []
    private var indexed = false
    private let identifiers: IdentifierTable
    /// The bindings the instances use; they keep the setters `operations` point to alive.
    let bindings: [ResolvedBinding]
    /// The files an operation's images resolve to, by operation: the same image name may be
    /// another file after a theme, trait or scale change.
    @exclusivity(unchecked) private var imageFiles: [Int32: String] = [:]
    /// The preparer's key numbers -> the applicator's (`OperationKeys`), grown as it meets keys.
    @exclusivity(unchecked) private var keyNumbers: [Int32] = []
    private var plans: [PlanTable] = []
    let fullApplyPlans = PlanTable(from: nil, isFullApply: true)
    /// Whether every instance was prepared ahead (`Applicator.preload`).
    let isComplete: Bool

    /// A theme whose instances are prepared as they are first styled.
    init(key: Key, source: InstanceSource, images: ImageLoader, bindings: BindingSnapshot, operationKeys: OperationKeys,
         identifiers: IdentifierTable) {
        self.key = key
        self.source = source
        self.images = images
        self.bindings = bindings.bindings
        self.operationKeys = operationKeys
        self.identifiers = identifiers
        self.preparer = InstancePreparer(source: source, scale: key.scale, bindings: bindings)
        isComplete = false
    }

    /// A theme whose every instance `preparer` prepared on another thread (`prepareAll`), its
    /// keys numbered as `keyMap` maps to the applicator's (see `PreparedContents.numberKeys`;
    /// nil when they are the applicator's numbers already). Its ids are numbered here, and no
    /// lookup prepares more.
    init(key: Key, images: ImageLoader, preparer: InstancePreparer, contents: PreparedContents,
         keyMap: ContiguousArray<Int32>?, operationKeys: OperationKeys, identifiers: IdentifierTable) {
        self.key = key
        self.source = preparer.source
        self.images = images
        self.bindings = preparer.bindings.bindings
        self.operationKeys = operationKeys
        self.identifiers = identifiers
        self.preparer = preparer
        isComplete = true
        operations = contents.operations
        instances = contents.instances
        resolved = contents.resolved
        preparedBySlot = contents.preparedBySlot
        imageFiles = contents.imageFiles
        if let keyMap {
            // Rare (the applicator numbered keys while this was prepared): the records are
            // copied here, which is why the numbering is otherwise the applicator's already.
            operations.withUnsafeMutableBufferPointer { records in
                for index in records.indices { records[index].key = keyMap[Int(records[index].key)] }
            }
        }
        for error in contents.readErrors { reportUnreadable(error, id: nil) }
        if !source.readsLazily {
            indexIdentifiers()
            // Every instance of a resolved theme is prepared, in order: the slot is the answer
            // to every lookup.
            byIdentifier = themeIndexByIdentifier
        }
    }

    /// The theme for these traits, every instance of it (read whole from a compiled file: only
    /// for an app that asks, `ThemeScope.theme`).
    var theme: ResolvedTheme {
        source.theme { error, slot in
            reportUnreadable(error, id: source.compiledFile?.id(of: InstanceHandle(rawValue: UInt32(slot))))
        }
    }

    /// The prepared instance styled as identifier `number`, -1 when the theme has none, or -2
    /// when it was not looked up yet (then `instance(identifier:)` prepares it).
    @inline(__always)
    func knownInstance(identifier number: Int32) -> Int32 {
        Int(number) < byIdentifier.count ? byIdentifier[Int(number)] : -2
    }

    /// The prepared instance styled as identifier `number`, or -1.
    func instance(identifier number: Int32) -> Int32 {
        let slot = Int(number)
        if slot < byIdentifier.count, byIdentifier[slot] != -2 { return byIdentifier[slot] }
        if !indexed, !source.readsLazily { indexIdentifiers() }
        if slot >= byIdentifier.count {
            byIdentifier.append(contentsOf: repeatElement(-2, count: slot + 1 - byIdentifier.count))
        }
        let index = sourceSlot(identifier: number)
        let prepared = index < 0 ? -1 : isComplete ? preparedBySlot[index] : prepare(slot: index)
        byIdentifier[slot] = prepared
        return prepared
    }

    /// The slot of identifier `number` in the source, -1 when the theme has none.
    private func sourceSlot(identifier number: Int32) -> Int {
        if source.readsLazily {
            let id = identifiers.names[Int(number)]
            do {
                return try source.slot(of: id) ?? -1
            } catch {
                reportUnreadable(error, id: id)
                return -1
            }
        }
        let slot = Int(number)
        return slot < themeIndexByIdentifier.count ? Int(themeIndexByIdentifier[slot]) : -1
    }

    /// A corrupt block of a compiled file, found by the read that needed it: the instance is
    /// not applied (no value from a corrupt block reaches a setter), and the app is told once.
    private func reportUnreadable(_ error: BinaryFormatError, id: String?) {
        let file = source.compiledFile?.path
        let what = id.map { "instance '\($0)' of theme '\(source.header.info.id)' is not applied" }
            ?? "instances of theme '\(source.header.info.id)' in the damaged blocks are not applied"
        images.diagnostics.report(
            .error(.runtimeCompiledCorrupt, "the compiled theme file is damaged (\(error.description)); \(what)",
                   at: file.map { SourceLocation(file: $0) }),
            key: "corrupt|\(file ?? source.header.info.id)|\(error.offset ?? -1)")
    }

    /// Numbers every instance's id in the applicator's identifier table, once: then finding
    /// an identifier's instance is an array read, and the app styling a component as one of
    /// them finds its number already there, instead of a search by string per registration
    /// (`livery-switch-bench --profile-register-many`).
    private func indexIdentifiers() {
        indexed = true
        let theme = source.header
        if !isComplete {
            // Room for the whole theme, reserved once: untouched capacity costs address space,
            // not memory (pages are mapped when first written). Growing by doubling instead
            // copied the records into fresh pages four times over, and on this machine page
            // faults, not instructions, were most of the time preparing 10,000 instances took.
            // (A theme prepared whole has its records, still shared with the work that made
            // them: reserving would copy them.)
            operations.reserveCapacity(Self.operationCount(of: theme))
            instances.reserveCapacity(theme.instances.count)
        }
        identifiers.reserveCapacity(adding: theme.instances.count)
        var table = ContiguousArray<Int32>(repeating: -1, count: identifiers.count + theme.instances.count)
        withBuffer(theme.instances) { instances in
            for index in instances.indices {
                let number = Int(identifiers.number(instances[index].id))
                if number >= table.count { table.append(contentsOf: repeatElement(-1, count: number + 1 - table.count)) }
                if table[number] < 0 { table[number] = Int32(index) }  // the first of equal ids, as before
            }
        }
        themeIndexByIdentifier = table
    }

    /// How many operations the theme's instances have in all.
    nonisolated static func operationCount(of theme: ResolvedTheme) -> Int {
        withBuffer(theme.instances) { instances in
            var total = 0
            for index in instances.indices { total += instances[index].operations.count }
            return total
        }
    }

    /// The state an operation sets (the one its key was interned with: a switch's records
    /// carry no string).
    func state(of operation: Int32) -> ControlState {
        state(of: operations[Int(operation)])
    }

    func state(of record: PreparedOperation) -> ControlState {
        operationKeys.numbering.keys[Int(record.key)].state
    }

    func binding(of instance: Int32) -> ResolvedBinding? {
        let index = instances[Int(instance)].binding
        return index < 0 ? nil : bindings[Int(index)]
    }

    func resolvedInstance(_ instance: Int32) -> ResolvedInstance {
        resolved[Int(instance)]
    }

    func resolvedOperation(_ operation: Int32) -> ResolvedOperation {
        resolvedOperation(operations[Int(operation)])
    }

    func resolvedOperation(_ record: PreparedOperation) -> ResolvedOperation {
        resolved[Int(record.instance)].operations[Int(record.index)]
    }

    /// Whether applying `new` after `old` (operations of one key, so of one setter, as a diff
    /// pairs them) changes nothing, answered from their decoded values when they are plain
    /// bits; nil when only their params can tell (`sameEffect(_:as:in:)`).
    ///
    /// Equal bits are equal values, so nothing is ever skipped wrongly; the reverse may not
    /// hold (-0.0 and 0.0, padding bytes), and such a value is applied again, harmlessly.
    /// Comparing params is the slow path of a first switch's diff
    /// (`livery-switch-bench --profile-switch-many`).
    @inline(__always)
    nonisolated static func sameEffect(_ new: PreparedOperation, as old: PreparedOperation) -> Bool? {
        guard let newValue = new.value, let oldValue = old.value, let setter = new.setter,
              setter.toOpaque() == old.setter?.toOpaque() else { return nil }
        return setter.withGuaranteedSetter { setter -> Bool? in
            guard setter.valueIsTrivial else { return nil }
            return bytesEqual(newValue, oldValue, count: setter.valueSize)
        }
    }

    @inline(__always)
    private nonisolated static func bytesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
            offset += 8
        }
        while offset < count {
            if lhs.load(fromByteOffset: offset, as: UInt8.self) != rhs.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }

    /// Whether applying operation `new` of this theme after `old` of `other` changes nothing.
    func sameEffect(_ new: Int32, as old: Int32, in other: PreparedTheme) -> Bool {
        Self.sameEffect(operations[Int(new)], new, of: resolved, imageFiles, as: other.operations[Int(old)], old,
                        of: other.resolved, other.imageFiles)
    }

    /// The same from the parts (the records, their indices, themes and image files): what a
    /// theme prepared on another thread has before it is a `PreparedTheme`.
    nonisolated static func sameEffect(_ newRecord: PreparedOperation, _ new: Int32,
                                       of newTheme: ContiguousArray<ResolvedInstance>, _ newFiles: [Int32: String],
                                       as oldRecord: PreparedOperation, _ old: Int32,
                                       of oldTheme: ContiguousArray<ResolvedInstance>,
                                       _ oldFiles: [Int32: String]) -> Bool {
        // An operation with a decoded value has no image files (they are only recorded for
        // operations that are not decoded): the two dictionary lookups are needed only when
        // either is undecoded.
        if newRecord.value == nil || oldRecord.value == nil, newFiles[new] != oldFiles[old] { return false }
        // The params are read in place, not copied out as whole operations, so nothing is
        // retained or released per pair (`livery-switch-bench --profile-register-many`).
        return sameParams(newTheme[Int(newRecord.instance)].operations[Int(newRecord.index)].params,
                          oldTheme[Int(oldRecord.instance)].operations[Int(oldRecord.index)].params)
    }

    /// `lhs == rhs`, element by element through the buffers: the same answer as `Array.==`
    /// (identical buffers are equal without comparing, as there), without copying each
    /// param (retaining its name and value) as that did.
    private nonisolated static func sameParams(_ lhs: [Param], _ rhs: [Param]) -> Bool {
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
        // When everything changes, the table gets about a step per operation of the theme:
        // room for that much at once, for the reason given at `indexIdentifiers` (reverts may
        // add more, and then the array grows as usual).
        table.steps.reserveCapacity(max(operations.capacity, other.operations.capacity))
        plans.append(table)
        return table
    }

    // MARK: Preparing

    /// Reads the instance in `slot` and prepares it (see `InstancePreparer.prepare`), its
    /// operations appended with the applicator's key numbers; -1 when the traits do not define
    /// it or its records are damaged.
    private func prepare(slot: Int) -> Int32 {
        assert(!isComplete, "a theme prepared whole has every instance already")
        let read: ResolvedInstance
        do {
            guard let instance = try source.instance(at: slot) else { return -1 }
            read = instance
        } catch {
            reportUnreadable(error, id: source.compiledFile?.id(of: InstanceHandle(rawValue: UInt32(slot))))
            return -1
        }
        let instance = preparer.prepare(read) { scratch, withImages in
            mapKeys(of: scratch)
            // App code run while preparing (a decoding closure) may have prepared other
            // instances meanwhile; nothing runs between here and the append below.
            let number = Int32(instances.count)
            for index in scratch.indices { scratch[index].instance = number }
            resolved.append(read)
            let first = Int32(operations.count)
            operations.append(contentsOf: UnsafeBufferPointer(scratch))
            for (index, files) in withImages { imageFiles[first + Int32(index)] = files }
            return first
        }
        instances.append(instance)
        return Int32(instances.count - 1)
    }

    /// Replaces the preparer's key numbers in `records` by the applicator's.
    private func mapKeys(of records: UnsafeMutableBufferPointer<PreparedOperation>) {
        var highest: Int32 = -1
        for index in records.indices { highest = max(highest, records[index].key) }
        if Int(highest) >= keyNumbers.count {
            // The preparer's numbering only grows: number the keys it met since.
            for key in preparer.numbering.keys[keyNumbers.count...] { keyNumbers.append(operationKeys.number(key)) }
        }
        // Through the buffer, so that indexing retains and releases nothing per key
        // (`livery-switch-bench --profile-register-many`).
        withBuffer(keyNumbers) { map in
            for index in records.indices { records[index].key = map[Int(records[index].key)] }
        }
    }

    /// Takes the plans from `other` computed with this theme on another thread, their keys
    /// numbered as this theme's contents were (`keyMap` as at `init`).
    func adoptPlans(_ contents: PlanContents, from other: PreparedTheme, keyMap: ContiguousArray<Int32>?) {
        let table = plans(from: other)
        guard table.steps.isEmpty else { return }  // plans were made meanwhile: keep them
        table.adopt(contents, keyMap: keyMap)
    }
}

/// Lends uninitialised memory for `count` values of a trivial type, on the stack when it is
/// small. Compiled in Swift 6 mode for the reason given at `withBuffers`.
@inline(__always)
func withScratch<Element, Result>(of type: Element.Type, count: Int,
                                  _ body: (UnsafeMutableBufferPointer<Element>) -> Result) -> Result {
    withUnsafeTemporaryAllocation(of: type, capacity: count, body)
}

/// Lends the buffer of an array: elements read from it are borrowed, not copied. Compiled in
/// Swift 6 mode for the reason given at `withBuffers`.
@inline(__always)
func withBuffer<Element, Result>(_ array: [Element], _ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
    array.withUnsafeBufferPointer(body)
}
