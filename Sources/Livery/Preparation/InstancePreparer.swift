import LiveryBinary
import LiveryModel

/// What preparing a whole theme on another thread produced (`InstancePreparer.prepareAll`),
/// handed to the main actor in one piece: every instance of the theme, in the order of its
/// source positions, with operation keys numbered by the preparer (`InstancePreparer.numbering`).
struct PreparedContents: @unchecked Sendable {
    // Unchecked: the records point to setters and into the preparer's arena, which travel
    // with them; nothing here is shared while it crosses.
    var operations: ContiguousArray<PreparedOperation> = []
    var instances: ContiguousArray<PreparedInstance> = []
    /// The resolved instance of each prepared one.
    var resolved: ContiguousArray<ResolvedInstance> = []
    /// Source position -> prepared instance, nil where the traits define none.
    var preparedByPosition: ContiguousArray<PreparedInstanceID?> = []
    /// Damaged blocks of a compiled file met on the way (those instances are left out).
    var readErrors: [BinaryFormatError] = []
    var imageFiles: [Int32: String] = [:]
    /// The (name, state) pairs that the operations' keys number.
    var keys: [OperationKey] = []

    /// Gives every contents one numbering of keys, the applicator's as far as `known` (its keys
    /// when the work began) goes, then the keys met here in order; returns that numbering. Plans
    /// between the contents can then compare keys (`PlanContents`), and unless the applicator
    /// numbered other keys meanwhile, the main actor has no key to map.
    static func numberKeys(_ all: inout [PreparedContents], startingWith known: [OperationKey]) -> [OperationKey] {
        var merged = OperationKeyNumbering(known)
        for index in all.indices {
            let map = all[index].keys.map { merged.number($0) }
            all[index].operations.withUnsafeMutableBufferPointer { operations in
                for operation in operations.indices {
                    operations[operation].key = OperationKeyNumber(rawValue: map[operations[operation].key.index])
                }
            }
        }
        for index in all.indices { all[index].keys = merged.keys }
        return merged.keys
    }
}

/// Turns a resolved theme's instances into prepared records (see `PreparedTheme`): setters
/// looked up, values decoded into the arena, instances numbered by shape.
///
/// Not isolated to the main actor. On the main actor a prepared theme asks it for instances
/// one at a time, as they are first styled; `Applicator.preload` runs it over a whole theme on
/// another thread and hands it to the main actor when done. One thread uses it at a time,
/// never two (hence `@unchecked Sendable`: that hand-over is its only crossing).
///
/// Operation keys are its own numbers (`keys`): the applicator's table of keys is main-actor
/// state, so the prepared theme maps them to the applicator's numbers there.
final class InstancePreparer: @unchecked Sendable {
    let source: InstanceSource
    /// The theme's facts (traits, assets) images are chosen by.
    var theme: ResolvedTheme { source.header }
    let scale: Int
    let bindings: BindingSnapshot
    /// The decoded values; they live as long as the prepared theme, which keeps the preparer.
    let arena = ValueArena()

    /// The (name, state) pairs met, numbered in order: the keys of the operations prepared.
    private(set) var numbering = OperationKeyNumbering()

    /// The last lookups of (name, state) -> what preparing the operation needs, by position in
    /// an instance, for the binding being prepared.
    private struct Lookup {
        var binding: BindingIndex?
        var key: OperationKey
        var found: Found
    }
    /// What a lookup finds: plain values, read out of `lookups` without retaining its strings.
    private struct Found {
        var key: OperationKeyNumber
        /// Unowned: `bindings` keeps the setter alive.
        var setter: Unmanaged<OperationSetter>?
        var revertible: Bool
        /// The arena's destroyer for the setter's values, nil when none is needed.
        var destroyer: Int32?
    }
    // Invariant that makes the unchecked accesses below safe: one thread uses the preparer at a
    // time, and nothing here is accessed across a call that could reach it again except through
    // `prepare`, which swaps the caches whole (see there).
    @exclusivity(unchecked) private var lookups: ContiguousArray<Lookup> = []
    /// Per binding (index + 1): its lookups while another binding's are in `lookups`, and the
    /// shape and operation count of its last instance prepared. Themes interleave component
    /// types (a label, a button, a label...), and one cache for all of them would miss on every
    /// operation.
    private struct LookupCache {
        var lookups: ContiguousArray<Lookup> = []
        /// The operation count and shape of the binding's last instance, nil before the first.
        var last: (count: Int, shape: ShapeNumber)?
    }
    @exclusivity(unchecked) private var lookupCaches: [LookupCache] = []
    /// The component types of the last instances prepared, with their binding indices, most
    /// recent first: comparing a few short strings is cheaper than hashing one.
    @exclusivity(unchecked) private var recentComponents: [(name: String, binding: BindingIndex?)] = []
    /// Shape number by (binding, operation keys in order).
    private struct Shape: Hashable {
        var binding: BindingIndex?
        var keys: [OperationKeyNumber]
    }
    @exclusivity(unchecked) private var shapes: [Shape: ShapeNumber] = [:]

    init(source: InstanceSource, scale: Int, bindings: BindingSnapshot) {
        self.source = source
        self.scale = scale
        self.bindings = bindings
    }

    /// Prepares every instance of the theme, in the order of its source positions: what
    /// `Applicator.preload` does on another thread.
    func prepareAll() -> PreparedContents {
        var contents = PreparedContents()
        contents.operations.reserveCapacity(PreparedTheme.operationCount(of: theme))
        contents.instances.reserveCapacity(source.positionCount)
        contents.preparedByPosition.reserveCapacity(source.positionCount)
        for position in 0..<source.positionCount {
            let read: ResolvedInstance
            do {
                guard let instance = try source.instance(at: SourcePosition(position)) else {
                    contents.preparedByPosition.append(nil)
                    continue
                }
                read = instance
            } catch {
                contents.readErrors.append(error)
                contents.preparedByPosition.append(nil)
                continue
            }
            contents.preparedByPosition.append(PreparedInstanceID(contents.instances.count))
            let instance = prepare(read) { scratch, withImages in
                let number = PreparedInstanceID(contents.instances.count)
                for index in scratch.indices { scratch[index].instance = number }
                contents.resolved.append(read)
                let first = Int32(contents.operations.count)
                contents.operations.append(contentsOf: UnsafeBufferPointer(scratch))
                for (index, files) in withImages { contents.imageFiles[first + Int32(index)] = files }
                return first
            }
            contents.instances.append(instance)
        }
        contents.keys = numbering.keys
        return contents
    }

    /// Prepares an instance: its operations' lookups, decoded values and shape. `store` receives
    /// the operations (which it may change in place, and must number with the prepared
    /// instance's number, `PreparedOperation.instance`) with the files of those that hold
    /// images, by position, stores them and returns where the first went.
    ///
    /// On the main actor, app code may run in here (a decoding closure that assumes it) and
    /// style a component, which prepares another instance in the middle of this one. So the
    /// operations are made in scratch memory on the stack and handed to `store` together at the
    /// end, where nothing else can come between them, and the per-binding lookup cache is
    /// swapped in and out whole.
    func prepare(
        _ instance: ResolvedInstance,
        store: (UnsafeMutableBufferPointer<PreparedOperation>, [(index: Int, files: String)]) -> Int32
    )
        -> PreparedInstance
    {
        let binding = bindingNumber(for: instance.component)
        let cache = binding.map { $0.index + 1 } ?? 0
        if cache >= lookupCaches.count {
            lookupCaches.append(contentsOf: repeatElement(LookupCache(), count: cache + 1 - lookupCaches.count))
        }
        let count = instance.operations.count
        // The shape of the binding's last instance, if every lookup repeats one of it: all its
        // positions were written by that instance, which had as many operations.
        let previous = lookupCaches[cache].last
        var sameShape = previous?.count == count
        var withImages: [(index: Int, files: String)] = []
        swap(&lookups, &lookupCaches[cache].lookups)
        let first = withScratch(of: PreparedOperation.self, count: count) { scratch -> Int32 in
            // Through the buffer, with `prepareOperation` inlined: `enumerated()` and a call per
            // operation would copy each operation through outlined value-witness calls
            // (`livery-switch-bench --profile-register-many`).
            withBuffer(instance.operations) { resolved in
                for index in resolved.indices {
                    let (operation, repeated, files) = prepareOperation(resolved[index], index: index, binding: binding)
                    (scratch.baseAddress! + index).initialize(to: operation)
                    sameShape = sameShape && repeated
                    if let files { withImages.append((index, files)) }
                }
            }
            return store(scratch, withImages)
        }
        let shape = sameShape ? previous!.shape : shapeNumber(binding: binding, count: count)
        swap(&lookups, &lookupCaches[cache].lookups)
        lookupCaches[cache].last = (count, shape)
        return PreparedInstance(
            first: first, count: Int32(count), binding: binding,
            shape: shape,
            bindingIdentity: binding.map { ObjectIdentifier(bindings.bindings[$0.index]) })
    }

    /// The number of the shape of the instance whose `count` lookups are in `lookups`.
    private func shapeNumber(binding: BindingIndex?, count: Int) -> ShapeNumber {
        let shape = Shape(binding: binding, keys: lookups.prefix(count).map(\.found.key))
        if let known = shapes[shape] { return known }
        let number = ShapeNumber(shapes.count)
        shapes[shape] = number
        return number
    }

    /// The index in `bindings` of the binding for `component`, nil without one.
    private func bindingNumber(for component: String) -> BindingIndex? {
        for recent in recentComponents where recent.name == component { return recent.binding }
        let binding = bindings.index[component]
        recentComponents.insert((component, binding), at: 0)
        if recentComponents.count > 8 { recentComponents.removeLast() }
        return binding
    }

    /// The prepared operation, whether the lookup at `index` was already the operation's (see
    /// `lookUp`), and the files of its images if it has any (then its value is read when
    /// applied, not decoded here).
    @inline(__always)  // see `prepare`
    private func prepareOperation(_ operation: ResolvedOperation, index: Int, binding: BindingIndex?)
        -> (PreparedOperation, repeated: Bool, files: String?)
    {
        let (found, repeated) = lookUp(operation, at: index, binding: binding)
        let files = imageFiles(of: operation)
        var value: UnsafeMutableRawPointer?
        if let setter = found.setter, files == nil {
            value = decode(operation, with: setter, destroyer: found.destroyer)
        }
        // `instance` is numbered by `store` (see `prepare`).
        let prepared = PreparedOperation(
            setter: found.setter, value: value, key: found.key,
            instance: PreparedInstanceID(rawValue: 0),
            index: Int32(index), revertible: found.revertible)
        return (prepared, repeated, files)
    }

    /// Makes `lookups[index]` the lookup of `operation`. Instances of a theme mostly repeat
    /// the same operations in the same order: the previous instance's lookup at this position
    /// usually answers, with two string comparisons (short names are compared inline) instead
    /// of two hash lookups, and keeps the key, revertibility and destroyer with it. Returns
    /// what it found and whether that lookup answered.
    @inline(__always)
    private func lookUp(_ operation: ResolvedOperation, at index: Int, binding: BindingIndex?) -> (
        Found, repeated: Bool
    ) {
        if index < lookups.count, lookups[index].binding == binding, lookups[index].key.name == operation.name,
            lookups[index].key.state == operation.state
        {
            return (lookups[index].found, true)
        }
        let lookup = makeLookup(operation, binding: binding)
        if index < lookups.count { lookups[index] = lookup } else { lookups.append(lookup) }
        return (lookup.found, false)
    }

    private func makeLookup(_ operation: ResolvedOperation, binding: BindingIndex?) -> Lookup {
        let key = operation.key
        var found = Found(
            key: OperationKeyNumber(rawValue: numbering.number(key)), setter: nil, revertible: false, destroyer: nil)
        if let binding, let setter = bindings.bindings[binding.index].setters[operation.name] {
            found.setter = Unmanaged.passUnretained(setter)
            found.revertible = setter.takesState || key.state == .normal
            found.destroyer = arena.destroyer(for: setter)
        }
        return Lookup(binding: binding, key: key, found: found)
    }

    /// The operation's value decoded into the arena, nil when it does not decode.
    @inline(__always)
    private func decode(_ operation: ResolvedOperation, with setter: Unmanaged<OperationSetter>, destroyer: Int32?)
        -> UnsafeMutableRawPointer?
    {
        setter.withGuaranteedSetter { setter in
            let memory = arena.allocate(size: setter.valueSize, alignment: setter.valueAlignment)
            guard setter.decodeInto(operation, memory) else { return nil }
            arena.adopt(memory, destroyer: destroyer)
            return memory
        }
    }

    /// `operation`'s value decoded anew with `setter`, the one its lookup found: for an operation
    /// whose params values of personal choices replace (`ValueOverlay.fill`). Nil when it does
    /// not decode.
    func decodeAgain(_ operation: ResolvedOperation, with setter: Unmanaged<OperationSetter>)
        -> UnsafeMutableRawPointer?
    {
        decode(operation, with: setter, destroyer: setter.withGuaranteedSetter { arena.destroyer(for: $0) })
    }

    /// The files of the operation's images, nil when it has none. Most operations hold no
    /// image: the check is inlined into `prepareOperation`, and nothing is built for them.
    @inline(__always)
    private func imageFiles(of operation: ResolvedOperation) -> String? {
        Self.mayHoldImages(operation) ? collectImageFiles(of: operation) : nil
    }

    /// Whether a param of `operation` is an image or an array (which may hold images).
    @inline(__always)
    static func mayHoldImages(_ operation: ResolvedOperation) -> Bool {
        // Through the buffer: a `for` loop copied each param (its name and value retained).
        withBuffer(operation.params) { params in
            for index in params.indices {
                switch params[index].value {
                case .image, .array: return true
                default: continue
                }
            }
            return false
        }
    }

    /// The files joined by `|`, built in one string (the first `joined(separator:)` of a
    /// process resolves its generic witnesses by a scan of the loaded images, on the launch path).
    private func collectImageFiles(of operation: ResolvedOperation) -> String? {
        var files: String?
        func collect(_ value: Value) {
            switch value {
            case .image(let reference):
                let variant = ImageLoader.variant(reference, of: theme, scale: scale)
                let file = variant.map { "\($0.themeID):\($0.file)" } ?? "-"
                if files == nil { files = file } else { files! += "|" + file }
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        for param in operation.params { collect(param.value) }
        return files
    }
}
