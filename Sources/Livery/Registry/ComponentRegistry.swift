import LiveryModel

/// The components an applicator styles: a slot per component, holding it weakly, and the groups
/// and scopes the slots are linked into.
///
/// Invariants, kept by this type alone (its storage is private):
/// - A slot is either free (on the free list, holding no object, in no group, with no
///   originals) or in use: it holds its component weakly, the address index maps the
///   component's address to it, and it is linked into exactly one group's list.
/// - A group's list links exactly its `count` slots, newest first; a group belongs to one
///   scope and one identifier, and the scope's table finds it by that identifier.
/// - A slot is freed (its originals discarded through `OriginalsStore`) when its component
///   was released and a pass meets it, when it is unstyled, or by the sweep before the slot
///   table grows; the sweep keeps the work O(1) per registration, amortised.
///
/// Scopes are never removed, groups neither (a group without members costs its record only).
@MainActor
final class ComponentRegistry {
    /// The slots, in one manually managed buffer (`SlotStorage`), shared with `originals`.
    private let slots: SlotStorage
    // The registry's arrays are read and written by index from the main actor only, and no
    // access spans a call into app code (bodies of `forEachLiveMember` run between accesses):
    // dynamic exclusivity checks on them could never fire, and they are on the per-component
    // path of `livery-switch-bench`'s registration and warm switch.
    @exclusivity(unchecked) private var freeSlots: [ComponentSlot] = []
    private let slotByObject = SlotIndex()
    @exclusivity(unchecked) private var groups: ContiguousArray<Group> = []
    @exclusivity(unchecked) private var scopes: [ScopeState] = []
    /// Identifier strings, numbered.
    let identifiers = IdentifierTable()
    /// The originals of the slots' components: freeing a slot discards them there.
    let originals: OriginalsStore

    init(operationKeys: OperationKeys) {
        let slots = SlotStorage()
        self.slots = slots
        originals = OriginalsStore(slots: SlotOriginals(slots), operationKeys: operationKeys)
    }

    private struct Group {
        let scope: ScopeID
        let identifier: IdentifierNumber
        /// The newest member, `SlotStorage.none` when the group has none.
        var head: Int32 = SlotStorage.none
        var count = 0
        /// The instance of the scope's current prepared theme that every accepted member has
        /// had applied; nil when the theme has none. (The theme is not stored per group: it is
        /// always the scope's, and a reference per group would be retained and released per
        /// group per switch.)
        var instance: PreparedInstanceID?
        /// The class of components the binding of `instance` was last found to take: a screen
        /// registers many of one class. Nil whenever `instance` changes.
        var acceptedClass: ObjectIdentifier?
    }

    private struct ScopeState {
        var parent: ScopeID?
        var overrides: ScopeOverrides
        var current: PreparedTheme?
        /// Identifier number -> group (`SlotStorage.none`: none yet): an array, not a
        /// dictionary, because registration looks a group up per component.
        var groupByIdentifier: ContiguousArray<Int32> = []
        var groups: [GroupID] = []
        var handle: ThemeScope?
    }

    // MARK: Scopes

    /// Every scope, the root first; a sequence that allocates nothing.
    var scopeIDs: LazyMapSequence<Range<Int>, ScopeID> { (0..<scopes.count).lazy.map { ScopeID($0) } }

    func addScope(parent: ScopeID?, overrides: ScopeOverrides) -> ScopeID {
        scopes.append(ScopeState(parent: parent, overrides: overrides))
        return ScopeID(scopes.count - 1)
    }

    func parent(of scope: ScopeID) -> ScopeID? { scopes[scope.index].parent }

    func overrides(of scope: ScopeID) -> ScopeOverrides { scopes[scope.index].overrides }

    func setOverrides(_ overrides: ScopeOverrides, of scope: ScopeID) {
        scopes[scope.index].overrides = overrides
    }

    /// The prepared theme the scope's groups show.
    func theme(of scope: ScopeID) -> PreparedTheme? { scopes[scope.index].current }

    func setTheme(_ theme: PreparedTheme, of scope: ScopeID) {
        scopes[scope.index].current = theme
    }

    func handle(of scope: ScopeID) -> ThemeScope? { scopes[scope.index].handle }

    func setHandle(_ handle: ThemeScope, of scope: ScopeID) {
        scopes[scope.index].handle = handle
    }

    func groups(of scope: ScopeID) -> [GroupID] { scopes[scope.index].groups }

    // MARK: Groups

    func scope(of group: GroupID) -> ScopeID { groups[group.index].scope }

    func identifier(of group: GroupID) -> IdentifierNumber { groups[group.index].identifier }

    func identifierName(of group: GroupID) -> String { identifiers.name(of: groups[group.index].identifier) }

    /// The prepared instance every accepted member shows; nil when the scope's theme has none.
    func instance(of group: GroupID) -> PreparedInstanceID? { groups[group.index].instance }

    /// Records the group's new instance; the class found accepted is forgotten.
    func setInstance(_ instance: PreparedInstanceID?, of group: GroupID) {
        groups[group.index].instance = instance
        groups[group.index].acceptedClass = nil
    }

    func acceptedClass(of group: GroupID) -> ObjectIdentifier? { groups[group.index].acceptedClass }

    func setAcceptedClass(_ type: ObjectIdentifier, of group: GroupID) {
        groups[group.index].acceptedClass = type
    }

    func memberCount(of group: GroupID) -> Int { groups[group.index].count }

    /// Reads the scope's table in place (a method on the `ScopeState` copy would retain each
    /// of its fields).
    @inline(__always)
    func existingGroup(scope: ScopeID, identifier: IdentifierNumber) -> GroupID? {
        guard identifier.index < scopes[scope.index].groupByIdentifier.count else { return nil }
        let group = scopes[scope.index].groupByIdentifier[identifier.index]
        return group == SlotStorage.none ? nil : GroupID(rawValue: group)
    }

    /// The group of `identifier` in `scope`, made on first use with the instance the scope's
    /// theme shows for it.
    func group(scope: ScopeID, identifier: IdentifierNumber) -> GroupID {
        if let group = existingGroup(scope: scope, identifier: identifier) { return group }
        // Found before the group is numbered: preparing the instance may run app code that
        // styles other components, and so makes other groups (perhaps this one).
        let instance = scopes[scope.index].current?.instance(identifier: identifier)
        if let group = existingGroup(scope: scope, identifier: identifier) { return group }
        let group = GroupID(groups.count)
        // Room for a group per identifier known, reserved at once: untouched capacity costs
        // address space, not memory, and growing by doubling copies the groups into fresh pages
        // again and again (page faults, in `livery-switch-bench`'s registration of 10,000
        // components under 10,000 identifiers).
        if groups.count == groups.capacity { groups.reserveCapacity(max(groups.count * 2, identifiers.count)) }
        groups.append(Group(scope: scope, identifier: identifier, instance: instance))
        let needed = identifier.index + 1
        let missing = needed - scopes[scope.index].groupByIdentifier.count
        if missing > 0 {
            if scopes[scope.index].groupByIdentifier.capacity < needed {
                scopes[scope.index].groupByIdentifier.reserveCapacity(max(needed, identifiers.count))
            }
            scopes[scope.index].groupByIdentifier.append(contentsOf: repeatElement(SlotStorage.none, count: missing))
        }
        scopes[scope.index].groupByIdentifier[identifier.index] = group.rawValue
        scopes[scope.index].groups.append(group)
        return group
    }

    // MARK: Slots

    /// Slots in use, released components not yet swept included.
    var registeredCount: Int { slotByObject.count }

    /// The slot of `component` if it is registered and alive. A slot whose object died and
    /// whose address was reused by `component` is freed here.
    func liveSlot(of component: AnyObject) -> ComponentSlot? {
        guard let slot = slotByObject[ObjectIdentifier(component)] else { return nil }
        if slots.membership(slot.index).pointee.held.load() === component { return slot }
        release(slot)
        return nil
    }

    /// A slot holding `component`, linked into `group`.
    func register(_ component: AnyObject, in group: GroupID) -> ComponentSlot {
        if freeSlots.isEmpty && slots.count == slots.capacity { sweepBeforeGrowing() }
        let slot: ComponentSlot
        if let free = freeSlots.popLast() {
            slot = free
        } else {
            slot = slots.append()
        }
        slots.membership(slot.index).pointee.held = HeldComponent(component)
        slots.membership(slot.index).pointee.objectID = ObjectIdentifier(component)
        slotByObject.set(slot, for: ObjectIdentifier(component))
        link(slot, into: group)
        return slot
    }

    func group(of slot: ComponentSlot) -> GroupID { GroupID(rawValue: slots.membership(slot.index).pointee.group) }

    /// Whether the group's binding takes the slot's component (a mismatch is reported, never
    /// applied).
    @inline(__always)
    func isAccepted(_ slot: ComponentSlot) -> Bool { slots.membership(slot.index).pointee.accepted }

    func setAccepted(_ accepted: Bool, _ slot: ComponentSlot) {
        slots.membership(slot.index).pointee.accepted = accepted
    }

    /// Moves a slot to another group.
    func move(_ slot: ComponentSlot, to group: GroupID) {
        unlink(slot)
        link(slot, into: group)
    }

    /// Calls `body` with each live member of `group` and frees the slots of released ones.
    /// The next member is read before `body` runs, so `body` may move its own slot elsewhere.
    @inline(__always)
    func forEachLiveMember(of group: GroupID, _ body: (_ slot: ComponentSlot, _ object: AnyObject) -> Void) {
        var slot = groups[group.index].head
        while slot != SlotStorage.none {
            let next = slots.membership(Int(slot)).pointee.next
            if let object = slots.membership(Int(slot)).pointee.held.load() {
                body(ComponentSlot(rawValue: slot), object)
            } else {
                release(ComponentSlot(rawValue: slot))
            }
            slot = next
        }
    }

    /// Frees a slot; its originals are dropped (the component is gone or was just reverted).
    func release(_ slot: ComponentSlot) {
        guard let objectID = slots.membership(slot.index).pointee.objectID else { return }
        unlink(slot)
        if slotByObject[objectID] == slot { slotByObject.remove(objectID) }
        slots.membership(slot.index).pointee.held = HeldComponent()
        slots.membership(slot.index).pointee.objectID = nil
        slots.membership(slot.index).pointee.accepted = false
        originals.discard(slot)
        freeSlots.append(slot)
    }

    func releaseDeadSlots() {
        for index in 0..<slots.count
        where slots.membership(index).pointee.objectID != nil && slots.membership(index).pointee.held.isReleased {
            release(ComponentSlot(index))
        }
    }

    // MARK: Invariants

    /// Checks every invariant stated on this type and on `OriginalsStore`, in O(slots + groups
    /// + originals); stops the program naming the first broken one. For
    /// `assert(registry.verifyInvariants())` after each pass, so release builds never run it.
    func verifyInvariants() -> Bool {
        guard let broken = brokenInvariant() else { return true }
        preconditionFailure("ComponentRegistry: \(broken)")
    }

    /// The first invariant that does not hold, described; nil when all hold.
    func brokenInvariant() -> String? {
        var free = [Bool](repeating: false, count: slots.count)
        for slot in freeSlots {
            guard slot.index < slots.count, !free[slot.index] else { return "slot \(slot.index) is free twice" }
            free[slot.index] = true
            let member = slots.membership(slot.index).pointee
            guard member.objectID == nil, member.held.isReleased, member.group == SlotStorage.none,
                member.previous == SlotStorage.none, member.next == SlotStorage.none, !member.accepted
            else { return "free slot \(slot.index) holds a component, a group or a link" }
            guard originals.hasNone(slot) else { return "free slot \(slot.index) has originals" }
        }
        var inUse = 0
        for index in 0..<slots.count where !free[index] {
            let member = slots.membership(index).pointee
            guard let objectID = member.objectID else { return "slot \(index) is neither free nor in use" }
            guard member.group >= 0, Int(member.group) < groups.count else {
                return "slot \(index) is in use but in no group"
            }
            if !member.held.isReleased, slotByObject[objectID] != ComponentSlot(index) {
                return "slot \(index)'s live component is not found at its address"
            }
            inUse += 1
        }
        guard slotByObject.count <= inUse else { return "the address index has more entries than slots in use" }
        var members = 0
        for (index, group) in groups.enumerated() {
            var slot = group.head
            var previous = SlotStorage.none
            var count = 0
            while slot != SlotStorage.none {
                guard slot >= 0, Int(slot) < slots.count, count < group.count else {
                    return "group \(index)'s list is longer than its count \(group.count)"
                }
                let member = slots.membership(Int(slot)).pointee
                guard member.group == Int32(index), member.previous == previous else {
                    return "group \(index)'s list links slot \(slot), which is not linked back as its member"
                }
                count += 1
                previous = slot
                slot = member.next
            }
            guard count == group.count else {
                return "group \(index) links \(count) slots, its count is \(group.count)"
            }
            members += count
            guard group.scope.index < scopes.count,
                group.identifier.index < scopes[group.scope.index].groupByIdentifier.count,
                scopes[group.scope.index].groupByIdentifier[group.identifier.index] == Int32(index)
            else { return "group \(index) is not found by its identifier in its scope" }
        }
        guard members == inUse else { return "groups link \(members) slots, \(inUse) are in use" }
        guard scopes.reduce(0, { $0 + $1.groups.count }) == groups.count,
            scopes.indices.allSatisfy({ scope in
                scopes[scope].groups.allSatisfy { groups[$0.index].scope.index == scope }
            })
        else { return "a scope's groups are not exactly the groups of that scope" }
        return originals.brokenInvariant()
    }

    /// Breaks the invariant "a group's list links exactly its `count` slots" on purpose, for
    /// the test that shows `brokenInvariant` finds it.
    func breakGroupCountForTesting(_ group: GroupID) {
        groups[group.index].count += 1
    }

    // MARK: Internals

    private func link(_ slot: ComponentSlot, into group: GroupID) {
        // At the head, so a component styled by a setter during a pass is not visited twice.
        let head = groups[group.index].head
        slots.membership(slot.index).pointee.group = group.rawValue
        slots.membership(slot.index).pointee.previous = SlotStorage.none
        slots.membership(slot.index).pointee.next = head
        if head != SlotStorage.none { slots.membership(Int(head)).pointee.previous = slot.rawValue }
        groups[group.index].head = slot.rawValue
        groups[group.index].count += 1
    }

    private func unlink(_ slot: ComponentSlot) {
        let group = slots.membership(slot.index).pointee.group
        guard group != SlotStorage.none else { return }
        let previous = slots.membership(slot.index).pointee.previous
        let next = slots.membership(slot.index).pointee.next
        if previous != SlotStorage.none {
            slots.membership(Int(previous)).pointee.next = next
        } else {
            groups[Int(group)].head = next
        }
        if next != SlotStorage.none { slots.membership(Int(next)).pointee.previous = previous }
        groups[Int(group)].count -= 1
        slots.membership(slot.index).pointee.group = SlotStorage.none
        slots.membership(slot.index).pointee.previous = SlotStorage.none
        slots.membership(slot.index).pointee.next = SlotStorage.none
    }

    /// Frees released components' slots when the table is full, before it grows; grows it at
    /// once unless a quarter came free. Either way the next sweep is at least a quarter of the
    /// table's capacity of registrations away, so the work is O(1) per registration, amortised,
    /// and the table stays within a few times the peak of live components.
    private func sweepBeforeGrowing() {
        releaseDeadSlots()
        // Growing, to room for a component per identifier known at least, for the reason given
        // in `group(scope:identifier:)`. (Not the address table: its buckets are all written
        // when it is made, so room there costs memory whether components come or not.)
        if freeSlots.count < slots.capacity / 4 { slots.grow(toHold: identifiers.count) }
    }
}
