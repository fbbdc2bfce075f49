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
        /// The applicator's `invalidations` when the theme was prepared: one prepared before
        /// the applicator let every prepared theme go (a new image decoder) is never used again,
        /// nor derived from.
        var invalidations = 0
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
    let records: PreparedRecords
    /// Identifier -> prepared instance.
    private let lookup: InstanceLookup
    /// The preparer's key numbers -> the applicator's.
    private let keys: KeyTranslation
    /// The plans towards this theme's instances.
    private var plans = PlanCache()
    /// The theme this one was derived from by a change of personal choices, nil for one
    /// prepared afresh: its family's root, whose records it shares. The two answer every
    /// identifier with the same prepared instance, and differ only in the operations the root's
    /// or this theme's values of personal choices reach, whose values this theme keeps in
    /// `overlay`: a switch within a family visits only those identifiers
    /// (`Applicator.familyDifference`).
    let root: PreparedTheme?
    /// This theme's values for the operations values of personal choices reach in its family
    /// (`PreparedOperation.replaced`): a root's own, moved there from its records, or a derived
    /// theme's.
    let overlay: ValueOverlay
    /// `replacedNumbers()`'s answer, and the identifier count it was numbered at.
    private var replaced: (numbers: [IdentifierNumber], identifierCount: Int)?

    var operations: ContiguousArray<PreparedOperation> { records.operations }
    var instances: ContiguousArray<PreparedInstance> { records.instances }
    /// The full-apply plans, by instance shape: a family's are its root's, whose preparer
    /// numbers the shapes of every instance in the family.
    var fullApplyPlans: PlanTable { (root ?? self).plans.fullApply }

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
        root = nil
        overlay = ValueOverlay()
    }

    /// The theme `root` (one prepared afresh, not whole) becomes when only the values of
    /// personal choices change (`key` differs from `root.key` in `constants` only): its records
    /// and answers are shared; the identifiers `forgotten` marks (those the root's or these
    /// values reach, `replaced` being these) are looked up again as they are needed, to put
    /// their values in the overlay.
    init(
        derivedFrom root: PreparedTheme, key: Key, source: InstanceSource, images: ImageLoader,
        bindings: BindingSnapshot, operationKeys: OperationKeys, forgetting forgotten: ContiguousArray<Bool>,
        replaced: [IdentifierNumber]
    ) {
        assert(root.root == nil && !root.isComplete, "only a theme prepared afresh, not whole, is derived from")
        self.key = key
        self.source = source
        self.images = images
        self.bindings = bindings.bindings
        self.keys = KeyTranslation(operationKeys: operationKeys)
        self.lookup = InstanceLookup(copying: root.lookup, forgetting: forgotten)
        self.preparer = InstancePreparer(source: source, scale: key.scale, bindings: bindings)
        isComplete = false
        records = root.records
        overlay = ValueOverlay(capacity: source.replacedIDs.count)
        self.root = root
        self.replaced = (replaced, lookup.identifiers.count)
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
        root = nil
        overlay = ValueOverlay()
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
        let prepared: PreparedInstanceID?
        if let root {
            prepared = lookUpDerived(identifier: number, root: root)
        } else {
            if !lookup.isIndexed, !source.readsLazily { indexIdentifiers() }
            if let position = sourcePosition(identifier: number) {
                prepared = isComplete ? lookup.prepared(at: position) : prepare(at: position)
            } else {
                prepared = nil
            }
        }
        lookup.record(prepared, for: number)
        return prepared
    }

    /// In a derived theme: the root's instance, with the values of the operations the root's or
    /// this theme's values of personal choices reach put in the overlay.
    private func lookUpDerived(identifier number: IdentifierNumber, root: PreparedTheme) -> PreparedInstanceID? {
        guard let instance = root.instance(identifier: number) else { return nil }
        let id = lookup.identifiers.name(of: number)
        let before = root.source.replacements(of: id)
        let after = source.replacements(of: id)
        if before != nil || after != nil {
            overlay.fill(
                instance, of: records, root: root.overlay, replacing: before, with: after, textScale: key.textScale,
                preparer: preparer,
                read: { root.sourcePosition(identifier: number).flatMap { read(at: $0) } })
        }
        return instance
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

    /// The resolved instance `instance` was prepared from, for its id and component: the params
    /// of an operation values of personal choices replace are `resolvedOperation`'s.
    func resolvedInstance(_ instance: PreparedInstanceID) -> ResolvedInstance {
        records.resolved[instance.index]
    }

    func resolvedOperation(_ operation: Int32) -> ResolvedOperation {
        resolvedOperation(records.operations[Int(operation)])
    }

    /// The resolved operation of `record`, with this theme's params where its overlay has them.
    func resolvedOperation(_ record: PreparedOperation) -> ResolvedOperation {
        var operation = records.resolved[record.instance.index].operations[Int(record.index)]
        if record.replaced, let entry = overlay.entry(for: record) { operation.params = entry.params }
        return operation
    }

    /// The plans from `other` (a switch), created on first use.
    func plans(from other: PreparedTheme) -> PlanTable {
        plans.table(from: other, reserving: max(records.operations.capacity, other.records.operations.capacity))
    }

    // MARK: Preparing

    /// Reads the instance at `position` and prepares it (see `InstancePreparer.prepare`), its
    /// operations appended with the applicator's key numbers; nil when the traits do not define
    /// it or its records are damaged.
    private func prepare(at position: SourcePosition) -> PreparedInstanceID? {
        assert(!isComplete, "a theme prepared whole has every instance already")
        guard let resolved = read(at: position) else { return nil }
        var number = PreparedInstanceID(0)
        let instance = preparer.prepare(resolved) { scratch, withImages in
            keys.translate(scratch, from: preparer.numbering)
            // App code run while preparing (a decoding closure) may have prepared other
            // instances meanwhile; nothing runs between here and the write below.
            let stored = records.append(scratch, from: resolved, images: withImages)
            number = stored.instance
            return stored.first
        }
        records.instances[number.index] = instance
        return number
    }

    /// The instance at `position` of the source, nil when the traits do not define it or its
    /// records are damaged (reported).
    private func read(at position: SourcePosition) -> ResolvedInstance? {
        do {
            return try source.instance(at: position)
        } catch {
            reportUnreadable(
                error, id: source.compiledFile?.id(of: InstanceHandle(rawValue: UInt32(position.rawValue))))
            return nil
        }
    }

    /// The numbers of the identifiers whose instances this theme's values of personal choices
    /// change (`InstanceSource.replacedIDs`), numbered again only when identifiers were numbered
    /// since: one of them may be among the new ones.
    func replacedNumbers() -> [IdentifierNumber] {
        let identifiers = lookup.identifiers
        if let replaced, replaced.identifierCount == identifiers.count { return replaced.numbers }
        let numbers = source.replacedIDs.compactMap { identifiers.existingNumber($0) }
        replaced = (numbers, identifiers.count)
        return numbers
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
