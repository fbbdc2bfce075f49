import LiveryModel

// The registry: slots holding components weakly, groups of slots per (scope, identifier).
@MainActor
extension Applicator {
    // MARK: Registry storage

    struct Slot {
        // Fields ordered largest first (64 bytes, not 72): registering 10,000 components
        // touches every byte of the slots for the first time, and first touches are page faults.
        /// Holds no object when the slot is free.
        var held = HeldComponent()
        var objectID: ObjectIdentifier?
        var originals = ComponentOriginals()
        var group: Int32 = -1
        var previous: Int32 = -1
        var next: Int32 = -1
        /// Changes whenever the originals are dropped or replaced (see `Originals.swift`).
        var generation: UInt32 = 0
        /// Whether the group's binding takes this object (a mismatch is reported, never applied).
        var accepted = false
    }

    struct Group {
        let scope: Int32
        let identifier: Int32
        var head: Int32 = -1
        var count = 0
        /// The instance of the scope's current prepared theme that every accepted member has
        /// had applied; -1: none. (The theme is not stored per group: it is always the scope's,
        /// and a reference per group would cost a retain and a release per group per switch.)
        var instance: Int32 = -1
        /// The class of components the binding of `instance` was last found to take: a screen
        /// registers many of one class, and asking the binding costs a retain, a release and a
        /// call. Nil whenever `instance` changes.
        var acceptedClass: ObjectIdentifier?
    }

    struct ScopeState {
        var parent: Int32
        var overrides: ScopeOverrides
        var current: PreparedTheme?
        /// Identifier number -> group, -1 when the scope has none: an array, not a dictionary,
        /// because registration looks a group up per component.
        var groupByIdentifier: ContiguousArray<Int32> = []


        var groups: [Int32] = []
        var handle: ThemeScope?
    }

    /// A group's plan queued by the first phase of a switch.
    struct PendingPlan {
        var group: Int32
        var first: Int32
        var count: Int32
    }

    /// Where a plan's steps are.
    struct Plan {
        let table: PlanTable
        let steps: Range<Int>
        /// The layout of the originals a full-apply plan records in a block; -1 for other plans.
        var layout: Int32 = -1
        /// Added to every step's operation: the first operation of the instance a full-apply
        /// plan runs for (instances of one shape share the plan); 0 for other plans.
        var base: Int32 = 0
    }

    // MARK: Registry internals

    func intern(_ identifier: String) -> Int32 {
        identifiers.number(identifier)
    }

    /// The prepared instance of `theme` that `group`'s identifier names, -1 when none.
    @inline(__always)
    func instance(of group: Int32, in theme: PreparedTheme) -> Int32 {
        let identifier = groups[Int(group)].identifier
        let known = theme.knownInstance(identifier: identifier)
        return known != -2 ? known : theme.instance(identifier: identifier)
    }

    /// Reads the scope's table in place (a method on the `ScopeState` copy would retain each
    /// of its fields).
    @inline(__always)
    func existingGroup(scope: Int32, identifier: Int32) -> Int32? {
        let index = Int(identifier)
        guard index < scopes[Int(scope)].groupByIdentifier.count else { return nil }
        let group = scopes[Int(scope)].groupByIdentifier[index]
        return group >= 0 ? group : nil
    }

    func group(scope: Int32, identifier: Int32) -> Int32 {
        if let group = existingGroup(scope: scope, identifier: identifier) { return group }
        // Found before the group is numbered: preparing the instance may run app code that
        // styles other components, and so makes other groups (perhaps this one).
        let instance = scopes[Int(scope)].current?.instance(identifier: identifier) ?? -1
        if let group = existingGroup(scope: scope, identifier: identifier) { return group }
        let group = Int32(groups.count)
        // Room for a group per identifier known (the themes' ids are numbered when a theme is
        // first looked up), reserved at once: untouched capacity costs address space, not
        // memory, and growing by doubling copied the groups into fresh pages again and again
        // (page faults were a third of registering 10,000 components under 10,000 identifiers).
        if groups.count == groups.capacity { groups.reserveCapacity(max(groups.count * 2, identifiers.count)) }
        groups.append(Group(scope: scope, identifier: identifier, instance: instance))
        let missing = Int(identifier) + 1 - scopes[Int(scope)].groupByIdentifier.count
        if missing > 0 {
            if scopes[Int(scope)].groupByIdentifier.capacity < Int(identifier) + 1 {
                scopes[Int(scope)].groupByIdentifier.reserveCapacity(max(Int(identifier) + 1, identifiers.count))
            }
            scopes[Int(scope)].groupByIdentifier.append(contentsOf: repeatElement(-1, count: missing))
        }
        scopes[Int(scope)].groupByIdentifier[Int(identifier)] = group
        scopes[Int(scope)].groups.append(group)
        return group
    }

    /// The slot of `component` if it is registered and alive. A slot whose object died and
    /// whose address was reused by `component` is reclaimed here.
    func liveSlot(of component: AnyObject) -> Int32? {
        guard let slot = slotByObject[ObjectIdentifier(component)] else { return nil }
        if slots.base[Int(slot)].held.load() === component { return slot }
        releaseSlot(slot)
        return nil
    }

    func allocateSlot(for component: AnyObject) -> Int32 {
        if freeSlots.isEmpty && slots.count == slots.capacity { sweepBeforeGrowing() }
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.append(Slot())
        }
        slots.base[Int(slot)].held = HeldComponent(component)
        slots.base[Int(slot)].objectID = ObjectIdentifier(component)
        slotByObject.set(slot, for: ObjectIdentifier(component))
        return slot
    }

    /// Calls `body` with each live member of `group` and reclaims the slots of released ones.
    /// The next member is read before `body` runs, so `body` may move its own slot elsewhere.
    @inline(__always)
    func forEachLiveMember(of group: Int32, _ body: (_ slot: Int32, _ object: AnyObject) -> Void) {
        var slot = groups[Int(group)].head
        while slot >= 0 {
            let next = slots.base[Int(slot)].next
            if let object = slots.base[Int(slot)].held.load() { body(slot, object) } else { releaseSlot(slot) }
            slot = next
        }
    }

    func link(slot: Int32, into group: Int32) {
        // At the head, so a component styled by a setter during a pass is not visited twice.
        let head = groups[Int(group)].head
        slots.base[Int(slot)].group = group
        slots.base[Int(slot)].previous = -1
        slots.base[Int(slot)].next = head
        if head >= 0 { slots.base[Int(head)].previous = slot }
        groups[Int(group)].head = slot
        groups[Int(group)].count += 1
    }

    func unlink(slot: Int32) {
        let group = slots.base[Int(slot)].group
        guard group >= 0 else { return }
        let previous = slots.base[Int(slot)].previous
        let next = slots.base[Int(slot)].next
        if previous >= 0 { slots.base[Int(previous)].next = next } else { groups[Int(group)].head = next }
        if next >= 0 { slots.base[Int(next)].previous = previous }
        groups[Int(group)].count -= 1
        slots.base[Int(slot)].group = -1
        slots.base[Int(slot)].previous = -1
        slots.base[Int(slot)].next = -1
    }

    /// Frees a slot; its originals are dropped (the component is gone or was just reverted).
    func releaseSlot(_ slot: Int32) {
        guard let objectID = slots.base[Int(slot)].objectID else { return }
        unlink(slot: slot)
        if slotByObject[objectID] == slot { slotByObject.remove(objectID) }
        slots.base[Int(slot)].held = HeldComponent()
        slots.base[Int(slot)].objectID = nil
        slots.base[Int(slot)].accepted = false
        discardOriginals(slot: slot)
        freeSlots.append(slot)
    }

    func releaseDeadSlots() {
        for index in 0..<slots.count where slots.base[index].objectID != nil && slots.base[index].held.isReleased {
            releaseSlot(Int32(index))
        }
    }

    /// Reclaims released components' slots when the table is full, before it grows; grows it
    /// at once unless a quarter came free. Either way the next sweep is at least a quarter of
    /// the table's capacity of registrations away, so the work is O(1) per registration,
    /// amortised, and the table stays within a few times the peak of live components.
    func sweepBeforeGrowing() {
        releaseDeadSlots()
        // Growing, to room for a component per identifier known at least, for the reason given
        // in `group(scope:identifier:)`. (Not the address table: its buckets are all written
        // when it is made, so room there costs memory whether components come or not.)
        if freeSlots.count < slots.capacity / 4 { slots.grow(toHold: identifiers.count) }
    }
}

/// The registry's slots in one manually managed buffer, with the memory their originals are in
/// (see `Originals.swift`): an apply pass reads a slot's component and links in place, without
/// copying the slot (an `Array` of structs would copy, and pay exclusivity checks, on every
/// access).
final class SlotStorage: @unchecked Sendable {
    // Used on the main actor only; `Sendable` so that its nonisolated deinit may give back what
    // the slots hold.
    // Read on every step of a pass; only `append` and `grow` write it, never during another access.
    @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<Applicator.Slot>
    private(set) var count = 0
    private(set) var capacity = 64
    /// The layouts of the slots' blocks of originals, and the memory originals are in.
    let layouts = OriginalLayouts()
    @exclusivity(unchecked) var memory = OriginalMemory()
    /// Originals outside the blocks, in lists per slot, and the free entries.
    @exclusivity(unchecked) var overflow: ContiguousArray<OverflowOriginal> = []
    @exclusivity(unchecked) var freeOverflow: [Int32] = []
    /// Keeps every setter that originals point to alive as long as the originals.
    private let bindings: BindingTable

    init(bindings: BindingTable) {
        self.bindings = bindings
        base = .allocate(capacity: capacity)
    }

    deinit {
        for index in 0..<count {
            discardOriginals(base[index].originals)
        }
        base.deinitialize(count: count)
        base.deallocate()
        memory.releaseAll()
    }

    /// Deinitialises and frees what one slot's originals hold, without writing anything back.
    private func discardOriginals(_ originals: ComponentOriginals) {
        var cursor = originals.overflow
        while cursor >= 0 {
            let record = overflow[Int(cursor)]
            record.setter._withUnsafeGuaranteedRef { setter in
                setter.discard(record.memory)
                memory.free(record.memory, size: setter.originalSize, alignment: setter.originalAlignment)
            }
            cursor = record.next
        }
        guard let block = originals.block else { return }
        let layout = layouts.layouts[Int(originals.layout)]
        for (index, entry) in layout.entries.enumerated() where originals.present & (1 << UInt64(index)) != 0 {
            entry.setter._withUnsafeGuaranteedRef { $0.discard(block + Int(entry.offset)) }
        }
        memory.free(block, size: layout.size, alignment: OriginalLayouts.blockAlignment)
    }

    /// Appends a slot and returns its index; amortised O(1).
    func append(_ slot: Applicator.Slot) -> Int32 {
        if count == capacity { grow(toHold: 0) }
        (base + count).initialize(to: slot)
        count += 1
        return Int32(count - 1)
    }

    /// Doubles the capacity, or more to hold `minimum` slots, moving the slots.
    func grow(toHold minimum: Int) {
        let newCapacity = max(capacity * 2, minimum)
        let grown = UnsafeMutablePointer<Applicator.Slot>.allocate(capacity: newCapacity)
        if _isBitwiseTakable(Applicator.Slot.self) {
            // Without Objective-C a slot moves as plain bytes (a native weak reference points to
            // the object's side table, not to itself), so growing copies bytes instead of moving
            // slots one by one (`livery-switch-bench --profile-register-many`).
            UnsafeMutableRawPointer(grown).copyMemory(from: base, byteCount: count * MemoryLayout<Applicator.Slot>.stride)
        } else {
            grown.moveInitialize(from: base, count: count)
        }
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
