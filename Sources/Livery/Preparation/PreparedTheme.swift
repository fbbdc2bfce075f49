import LiveryBinary
import LiveryModel

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
        /// The values given for overridable constants, the scope's merged with its parents'.
        var constants: [String: Value] = [:]
    }

    /// Lives exactly as long as the theme; what plan tables hold weakly.
    final class Token {}

    let key: Key
    let token = Token()
    /// Where instances are read from.
    let source: InstanceSource
    let images: ImageLoader
    /// Prepares instances as they are first styled; it also owns the decoded values.
    private let preparer: InstancePreparer
    /// The bindings the instances use; they keep the setters `operations` point to alive.
    let bindings: [ErasedBinding]
    /// Whether every instance was prepared ahead (`Applicator.preload`).
    let isComplete: Bool
    /// The prepared instances and their operations (shared with the themes derived from this).
    private let records: PreparedRecords
    /// Identifier -> prepared instance.
    private let lookup: InstanceLookup
    /// The preparer's key numbers -> the applicator's.
    private let keys: KeyTranslation
    /// The plans towards this theme's instances.
    private var plans = PlanCache()
    /// The theme this one was derived from by a change of personal choices (whose records it
    /// shares): a switch from it visits only the identifiers `rederived` marks.
    let base: PreparedTheme?
    /// How many derivations lead to this theme (0 for one prepared afresh).
    let derivation: Int
    /// By identifier number: true for the identifiers this theme looked up again when it was
    /// derived (the others answer exactly as in `base`, with the same prepared instances).
    let rederived: ContiguousArray<Bool>
    /// The identifiers whose instances this theme's values of personal choices change, as
    /// numbered when the applicator had `identifierCount` identifiers (`Applicator.rederivable`);
    /// nil for a theme not derived.
    let replacedIdentifiers: (numbers: [IdentifierNumber], identifierCount: Int)?

    var operations: ContiguousArray<PreparedOperation> { records.operations }
    var instances: ContiguousArray<PreparedInstance> { records.instances }
    /// The resolved instance of each prepared instance (the same numbers as `instances`).
    var resolved: ContiguousArray<ResolvedInstance> { records.resolved }
    /// The full-apply plans, by instance shape.
    var fullApplyPlans: PlanTable { plans.fullApply }

    /// A theme whose instances are prepared as they are first styled.
    init(
        key: Key, source: InstanceSource, images: ImageLoader, bindings: BindingSnapshot, operationKeys: OperationKeys,
        identifiers: IdentifierTable
    ) {
        self.key = key
        self.source = source
        self.images = images
        self.bindings = bindings.bindings
        self.keys = KeyTranslation(operationKeys: operationKeys)
        self.lookup = InstanceLookup(identifiers: identifiers)
        self.preparer = InstancePreparer(source: source, scale: key.scale, bindings: bindings)
        records = PreparedRecords(preparer: preparer)
        isComplete = false
        base = nil
        derivation = 0
        rederived = []
        replacedIdentifiers = nil
    }

    /// The theme `base` becomes when only the values of personal choices change (`key` differs
    /// from `base.key` in `constants` only): its records and answers are kept, and the instances
    /// of the identifiers `rederived` marks (those either set of values reaches) are prepared
    /// again from `source` as they are looked up. A switch from `base` then visits those groups
    /// only: every other group shows the same prepared instance in both.
    init(
        derivedFrom base: PreparedTheme, key: Key, source: InstanceSource, images: ImageLoader,
        bindings: BindingSnapshot, operationKeys: OperationKeys, rederived: ContiguousArray<Bool>,
        replacedIdentifiers: (numbers: [IdentifierNumber], identifierCount: Int)
    ) {
        assert(!base.isComplete, "a theme prepared whole is never derived from")
        self.key = key
        self.source = source
        self.images = images
        self.bindings = bindings.bindings
        self.keys = KeyTranslation(operationKeys: operationKeys)
        self.lookup = InstanceLookup(copying: base.lookup, forgetting: rederived)
        self.preparer = InstancePreparer(source: source, scale: key.scale, bindings: bindings)
        isComplete = false
        records = base.records
        records.keep(preparer)
        self.base = base
        derivation = base.derivation + 1
        self.rederived = rederived
        self.replacedIdentifiers = replacedIdentifiers
    }

    /// A theme whose every instance `preparer` prepared on another thread (`prepareAll`), its
    /// keys numbered as `keyMap` maps to the applicator's (see `PreparedContents.numberKeys`;
    /// nil when they are the applicator's numbers already). Its ids are numbered here, and no
    /// lookup prepares more.
    init(
        key: Key, images: ImageLoader, preparer: InstancePreparer, contents: PreparedContents,
        keyMap: ContiguousArray<OperationKeyNumber>?, operationKeys: OperationKeys, identifiers: IdentifierTable
    ) {
        self.key = key
        self.source = preparer.source
        self.images = images
        self.bindings = preparer.bindings.bindings
        self.keys = KeyTranslation(operationKeys: operationKeys)
        self.lookup = InstanceLookup(identifiers: identifiers, preparedByPosition: contents.preparedByPosition)
        self.preparer = preparer
        isComplete = true
        records = PreparedRecords(
            preparer: preparer, operations: contents.operations, instances: contents.instances,
            resolved: contents.resolved, imageFiles: contents.imageFiles)
        base = nil
        derivation = 0
        rederived = []
        replacedIdentifiers = nil
        if let keyMap {
            // Rare (the applicator numbered keys while this was prepared): the records are
            // copied here, which is why the numbering is otherwise the applicator's already.
            records.operations.withUnsafeMutableBufferPointer { records in
                for index in records.indices { records[index].key = keyMap[records[index].key.index] }
            }
        }
        for error in contents.readErrors { reportUnreadable(error, id: nil) }
        if !source.readsLazily {
            indexIdentifiers()
            // Every instance of a resolved theme is prepared, in order: the position is the
            // answer to every lookup.
            lookup.answerByPosition()
        }
    }

    /// The theme for these traits, every instance of it (read whole from a compiled file: only
    /// for an app that asks, `ThemeScope.theme`).
    var theme: ResolvedTheme {
        source.theme { error, position in
            reportUnreadable(
                error, id: source.compiledFile?.id(of: InstanceHandle(rawValue: UInt32(position.rawValue))))
        }
    }

    /// The prepared instance styled as identifier `number`, nil when the theme has none; an
    /// instance not looked up yet is prepared now.
    @inline(__always)
    func instance(identifier number: IdentifierNumber) -> PreparedInstanceID? {
        switch lookup.answer(for: number) {
        case .instance(let instance): instance
        case .absent: nil
        case .notLookedUp: lookUpInstance(identifier: number)
        }
    }

    @inline(never)
    private func lookUpInstance(identifier number: IdentifierNumber) -> PreparedInstanceID? {
        if !lookup.isIndexed, !source.readsLazily { indexIdentifiers() }
        let prepared: PreparedInstanceID?
        if let position = sourcePosition(identifier: number) {
            prepared = isComplete ? lookup.prepared(at: position) : prepare(at: position, identifier: number)
        } else {
            prepared = nil
        }
        lookup.record(prepared, for: number)
        return prepared
    }

    /// The position of identifier `number` in the source, nil when the theme has none.
    private func sourcePosition(identifier number: IdentifierNumber) -> SourcePosition? {
        guard source.readsLazily else { return lookup.position(of: number) }
        let id = lookup.identifiers.name(of: number)
        do {
            return try source.position(of: id)
        } catch {
            reportUnreadable(error, id: id)
            return nil
        }
    }

    /// A corrupt block of a compiled file, found by the read that needed it: the instance is
    /// not applied (no value from a corrupt block reaches a setter), and the app is told once.
    private func reportUnreadable(_ error: BinaryFormatError, id: String?) {
        let file = source.compiledFile?.path
        let what =
            id.map { "instance '\($0)' of theme '\(source.header.info.id)' is not applied" }
            ?? "instances of theme '\(source.header.info.id)' in the damaged blocks are not applied"
        images.diagnostics.report(
            .error(
                .runtimeCompiledCorrupt, "the compiled theme file is damaged (\(error.description)); \(what)",
                at: file.map { SourceLocation(file: $0) }),
            finding: .corruptFile(file ?? source.header.info.id, offset: error.offset))
    }

    /// Numbers every instance's id in the applicator's identifier table, once: then finding
    /// an identifier's instance is an array read, and the app styling a component as one of
    /// them finds its number already there, instead of a search by string per registration
    /// (`livery-switch-bench --profile-register-many`).
    private func indexIdentifiers() {
        let theme = source.header
        if !isComplete {
            // Room for the whole theme, reserved once: untouched capacity costs address space,
            // not memory (pages are mapped when first written), and growing by doubling copies
            // the records into fresh pages again and again (page faults, in
            // `livery-switch-bench`'s registration of 10,000 instances). A theme prepared whole
            // has its records, still shared with the work that made them: reserving would copy
            // them.
            records.operations.reserveCapacity(Self.operationCount(of: theme))
            records.instances.reserveCapacity(theme.instances.count)
        }
        lookup.index(theme.instances)
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
        state(of: records.operations[Int(operation)])
    }

    func state(of record: PreparedOperation) -> ControlState {
        keys.state(of: record.key)
    }

    func binding(of instance: PreparedInstanceID) -> ErasedBinding? {
        records.instances[instance.index].binding.map { bindings[$0.index] }
    }

    func resolvedInstance(_ instance: PreparedInstanceID) -> ResolvedInstance {
        records.resolved[instance.index]
    }

    func resolvedOperation(_ operation: Int32) -> ResolvedOperation {
        resolvedOperation(records.operations[Int(operation)])
    }

    func resolvedOperation(_ record: PreparedOperation) -> ResolvedOperation {
        records.resolved[record.instance.index].operations[Int(record.index)]
    }

    /// Whether applying operation `new` of this theme after `old` of `other` changes nothing.
    func sameEffect(_ new: Int32, as old: Int32, in other: PreparedTheme) -> Bool {
        Self.sameEffect(
            records.operations[Int(new)], new, of: records.resolved, records.imageFiles,
            as: other.records.operations[Int(old)], old, of: other.records.resolved, other.records.imageFiles)
    }

    /// The plans from `other` (a switch), created on first use.
    func plans(from other: PreparedTheme) -> PlanTable {
        plans.table(from: other, reserving: max(records.operations.capacity, other.records.operations.capacity))
    }

    // MARK: Preparing

    /// Reads the instance at `position` (identifier `number`'s) and prepares it (see
    /// `InstancePreparer.prepare`), its operations appended with the applicator's key numbers;
    /// nil when the traits do not define it or its records are damaged.
    private func prepare(at position: SourcePosition, identifier number: IdentifierNumber) -> PreparedInstanceID? {
        assert(!isComplete, "a theme prepared whole has every instance already")
        let read: ResolvedInstance
        do {
            guard let instance = try source.instance(at: position) else { return nil }
            read = instance
        } catch {
            reportUnreadable(
                error, id: source.compiledFile?.id(of: InstanceHandle(rawValue: UInt32(position.rawValue))))
            return nil
        }
        if let base, case .instance(let old) = base.lookup.answer(for: number),
            let patched = patch(old, of: base, to: read)
        {
            return patched
        }
        let instance = preparer.prepare(read) { scratch, withImages in
            keys.translate(scratch, from: preparer.numbering)
            // App code run while preparing (a decoding closure) may have prepared other
            // instances meanwhile; nothing runs between here and the append below.
            let number = PreparedInstanceID(records.instances.count)
            for index in scratch.indices { scratch[index].instance = number }
            records.resolved.append(read)
            let first = Int32(records.operations.count)
            records.operations.append(contentsOf: UnsafeBufferPointer(scratch))
            for (index, files) in withImages { records.imageFiles[first + Int32(index)] = files }
            return first
        }
        records.instances.append(instance)
        return PreparedInstanceID(records.instances.count - 1)
    }

    /// The instance `read`, made from `old`, the instance `base` prepared for the same identifier:
    /// the two come from one source instance and differ only in the params that either theme's
    /// values of personal choices replace. So `old`'s records are copied, and only those
    /// operations decoded again (`livery-switch-bench --choice`); `old` itself when neither set
    /// of values reaches it. Nil when an operation those values reach may hold images or was not
    /// decoded: the caller prepares `read` in full.
    private func patch(_ old: PreparedInstanceID, of base: PreparedTheme, to read: ResolvedInstance)
        -> PreparedInstanceID?
    {
        let record = records.instances[old.index]
        let count = Int(record.count)
        guard count == read.operations.count else { return nil }
        let before = base.source.replacements(of: read.id) ?? []
        let after = source.replacements(of: read.id) ?? []
        guard !before.isEmpty || !after.isEmpty else { return old }
        /// Calls `body` with each operation either set of values reaches, while it answers true.
        func reached(_ body: (Int) -> Bool) -> Bool {
            for replacement in before where !body(replacement.operation) { return false }
            for replacement in after where !body(replacement.operation) { return false }
            return true
        }
        let oldFirst = Int(record.first)
        guard
            reached({ index in
                index < count && records.operations[oldFirst + index].value != nil
                    && !InstancePreparer.mayHoldImages(read.operations[index])
            })
        else { return nil }
        let first = withScratch(of: PreparedOperation.self, count: count) { scratch -> Int32 in
            for index in 0..<count {
                (scratch.baseAddress! + index).initialize(to: records.operations[oldFirst + index])
            }
            _ = reached { index in
                // An operation reached by both sets of values is decoded once.
                if let setter = scratch[index].setter,
                    scratch[index].value == records.operations[oldFirst + index].value
                {
                    scratch[index].value = preparer.decodeAgain(read.operations[index], with: setter)
                }
                return true
            }
            // As in `prepare`: app code run while decoding may have prepared other instances;
            // nothing runs between here and the appends.
            let number = PreparedInstanceID(records.instances.count)
            for index in scratch.indices { scratch[index].instance = number }
            let first = Int32(records.operations.count)
            for index in 0..<count where scratch[index].value == nil {
                if let files = records.imageFiles[Int32(oldFirst + index)] {
                    records.imageFiles[first + Int32(index)] = files
                }
            }
            records.resolved.append(read)
            records.operations.append(contentsOf: UnsafeBufferPointer(scratch))
            return first
        }
        var instance = record
        instance.first = first
        records.instances.append(instance)
        return PreparedInstanceID(records.instances.count - 1)
    }

    /// Takes the plans from `other` computed with this theme on another thread, their keys
    /// numbered as this theme's contents were (`keyMap` as at `init`).
    func adoptPlans(_ contents: PlanContents, from other: PreparedTheme, keyMap: ContiguousArray<OperationKeyNumber>?) {
        let table = plans(from: other)
        guard table.steps.isEmpty else { return }  // plans were made meanwhile: keep them
        table.adopt(contents, keyMap: keyMap)
    }
}

/// Lends uninitialised memory for `count` values of a trivial type, on the stack when it is
/// small. Compiled in Swift 6 mode for the reason given at `withBuffers`.
@inline(__always)
func withScratch<Element, Result>(
    of type: Element.Type, count: Int,
    _ body: (UnsafeMutableBufferPointer<Element>) -> Result
) -> Result {
    withUnsafeTemporaryAllocation(of: type, capacity: count, body)
}

/// Lends the buffer of an array: elements read from it are borrowed, not copied. Compiled in
/// Swift 6 mode for the reason given at `withBuffers`.
@inline(__always)
func withBuffer<Element, Result>(_ array: [Element], _ body: (UnsafeBufferPointer<Element>) -> Result) -> Result {
    array.withUnsafeBufferPointer(body)
}
