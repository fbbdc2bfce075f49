import LiveryModel

/// The originals of every registry slot's component: what revert writes back.
///
/// Invariants, kept by this type alone:
/// - A slot's originals are a block laid out by a full-apply plan (`OriginalLayouts`), whose
///   presence bits say which entries hold a captured value, plus a list of overflow originals;
///   each key has at most one original, looked up in the block first, then on the list.
/// - Every present original is initialised memory, written by its setter's `capture` and
///   consumed exactly once: by `restore` (revert) or `discard` (the component is gone).
/// - App code (getters and setters) runs inside several of these methods, and may re-enter the
///   applicator: restyle or unstyle the very component being worked on. So a slot's state is
///   read again after every call into app code, a presence bit is cleared before its original
///   is restored and set only after it is captured, and memory given back during a pass is
///   freed when the outermost pass ends (`enterPass` / `leavePass`), never under a closure
///   writing it. A slot's `generation` changes whenever its originals are dropped or replaced,
///   which tells a loop that its component was re-targeted under it.
@MainActor
final class OriginalsStore {
    private let storage: OriginalsStorage
    /// `storage.slots`, held here too so that the apply path reaches a slot's record in as few
    /// loads as the registry does (`livery-bench runtime` warm switches).
    private let slots: SlotOriginals
    /// How many passes that call app code are running (they nest when a setter re-enters), and
    /// the memory of originals given back meanwhile, freed when the outermost ends.
    // Invariant that makes the unchecked accesses safe: main actor only, and no access spans a
    // call into app code.
    @exclusivity(unchecked) private var passDepth = 0
    @exclusivity(unchecked) private var retiredMemory: [(memory: UnsafeMutableRawPointer, size: Int, alignment: Int)] =
        []
    /// The interned keys, for the state an original is restored in.
    private let operationKeys: OperationKeys

    /// The originals of the components in `slots` (the registry's: see `SlotStorage`).
    init(slots: SlotOriginals, operationKeys: OperationKeys) {
        storage = OriginalsStorage(slots: slots)
        self.slots = slots
        self.operationKeys = operationKeys
    }

    /// The layouts of the blocks.
    var layouts: OriginalLayouts { storage.layouts }

    /// Changes whenever the slot's originals are dropped or replaced.
    @inline(__always)
    func generation(of slot: ComponentSlot) -> UInt32 { slots[slot.index].pointee.generation }

    /// The slot's block, nil without one.
    @inline(__always)
    func block(of slot: ComponentSlot) -> UnsafeMutableRawPointer? { slots[slot.index].pointee.block }

    /// Brackets work that calls app code (see the type's invariants).
    @inline(__always)
    func enterPass() {
        passDepth += 1
    }

    /// Whether a pass is running (between the outermost `enterPass` and its `leavePass`).
    var isInPass: Bool { passDepth > 0 }

    @inline(__always)
    func leavePass() {
        passDepth -= 1
        if passDepth == 0 && !retiredMemory.isEmpty {
            for (memory, size, alignment) in retiredMemory {
                storage.memory.free(memory, size: size, alignment: alignment)
            }
            retiredMemory.removeAll()
        }
    }

    /// Allocates the block for a full application of a plan with `layout` (nil: the plan
    /// records nothing in a block); the component must have no originals.
    /// False, allocating nothing, when the component has originals after all.
    @inline(__always)
    func prepareBlock(_ slot: ComponentSlot, layout: LayoutID?) -> Bool {
        guard slots[slot.index].pointee.isEmpty, slots[slot.index].pointee.block == nil else {
            return false
        }
        guard let layout else { return true }
        slots[slot.index].pointee.block = storage.memory.allocate(
            size: storage.layouts.layouts[layout.index].size, alignment: OriginalLayouts.blockAlignment)
        slots[slot.index].pointee.layout = layout.rawValue
        return true
    }

    // A key is looked up in the block first, then on the overflow list: a key of the layout goes
    // on the list if a setter other than the layout's records it. (A new binding reverts the
    // component in full first, so no path does; the lookups stay consistent anyway.)
    func hasOriginal(_ slot: ComponentSlot, key: OperationKeyNumber) -> Bool {
        let originals = slots[slot.index].pointee
        if let layout = originals.layoutID, let entry = storage.layouts.layouts[layout.index].entry(of: key),
            originals.present & (1 << UInt64(entry)) != 0
        {
            return true
        }
        var cursor = originals.overflow
        while cursor != OriginalsStorage.none {
            if storage.overflow[Int(cursor)].key == key { return true }
            cursor = storage.overflow[Int(cursor)].next
        }
        return false
    }

    /// Records the property's current value unless one is recorded already for `key`.
    func record(
        _ slot: ComponentSlot, key: OperationKeyNumber, setter: Unmanaged<OperationSetter>, state: ControlState,
        object: AnyObject
    ) {
        if hasOriginal(slot, key: key) { return }
        let generation = slots[slot.index].pointee.generation
        let originals = slots[slot.index].pointee
        if let layout = originals.layoutID, let block = originals.block,
            let entry = storage.layouts.layouts[layout.index].entry(of: key),
            storage.layouts.layouts[layout.index].entries[entry].setter.toOpaque() == setter.toOpaque()
        {
            let memory = block + Int(storage.layouts.layouts[layout.index].entries[entry].offset)
            setter.withGuaranteedSetter { $0.capture(object, state, memory) }
            if slots[slot.index].pointee.generation == generation {
                slots[slot.index].pointee.present |= 1 << UInt64(entry)
            } else {
                setter.withGuaranteedSetter { $0.discard(memory) }
            }
            return
        }
        let (size, alignment) = setter.withGuaranteedSetter { ($0.originalSize, $0.originalAlignment) }
        let memory = storage.memory.allocate(size: size, alignment: alignment)
        setter.withGuaranteedSetter { $0.capture(object, state, memory) }
        guard slots[slot.index].pointee.generation == generation else {
            setter.withGuaranteedSetter { $0.discard(memory) }
            release(memory, size: size, alignment: alignment)
            return
        }
        let record = OverflowOriginal(
            setter: setter, key: key, memory: memory,
            next: slots[slot.index].pointee.overflow)
        let position: Int32
        if let free = storage.freeOverflow.popLast() {
            position = free
            storage.overflow[Int(position)] = record
        } else {
            position = Int32(storage.overflow.count)
            storage.overflow.append(record)
        }
        slots[slot.index].pointee.overflow = position
    }

    /// Marks the block entry a recording step just filled (`PlanStep.Kind.setRecording`).
    @inline(__always)
    func markRecorded(_ slot: ComponentSlot, entry: UInt8) {
        slots[slot.index].pointee.present |= 1 << UInt64(entry)
    }

    /// Puts the original of `key` back; false when there is none.
    func revert(_ slot: ComponentSlot, key: OperationKeyNumber, object: AnyObject) -> Bool {
        let originals = slots[slot.index].pointee
        if let layout = originals.layoutID, let block = originals.block,
            let entry = storage.layouts.layouts[layout.index].entry(of: key),
            originals.present & (1 << UInt64(entry)) != 0
        {
            restoreBlockEntry(entry, slot: slot, block: block, layout: layout, object: object)
            return true
        }
        guard let record = takeOverflow(slot, key: key) else { return false }
        restore(record, on: object)
        return true
    }

    /// Puts back every recorded original, newest first (the order that undoes the writes):
    /// the overflow list, then the block from its last entry. Leaves the component with none.
    func revertAll(_ slot: ComponentSlot, object: AnyObject) -> Int {
        let generation = slots[slot.index].pointee.generation
        var reverted = 0
        while let record = takeOverflow(slot, key: nil) {
            restore(record, on: object)
            reverted += 1
            if slots[slot.index].pointee.generation != generation { return reverted }
        }
        while true {
            let originals = slots[slot.index].pointee
            guard originals.present != 0, let block = originals.block, let layout = originals.layoutID else { break }
            let entry = 63 - originals.present.leadingZeroBitCount
            restoreBlockEntry(entry, slot: slot, block: block, layout: layout, object: object)
            reverted += 1
            if slots[slot.index].pointee.generation != generation { return reverted }
        }
        dropBlock(slot)
        return reverted
    }

    /// Drops every original without writing it back (the component is gone, or was just
    /// reverted).
    func discard(_ slot: ComponentSlot) {
        while let record = takeOverflow(slot, key: nil) {
            record.setter.withGuaranteedSetter { $0.discard(record.memory) }
            releaseMemory(of: record)
        }
        let originals = slots[slot.index].pointee
        if let block = originals.block, originals.present != 0, let layout = originals.layoutID {
            for (index, entry) in storage.layouts.layouts[layout.index].entries.enumerated()
            where originals.present & (1 << UInt64(index)) != 0 {
                entry.setter.withGuaranteedSetter { setter in
                    if !setter.originalIsTrivial { setter.discard(block + Int(entry.offset)) }
                }
            }
        }
        dropBlock(slot)
    }

    // MARK: Invariants

    /// Whether the slot holds no original and no block (a free slot's state).
    func hasNone(_ slot: ComponentSlot) -> Bool {
        slots[slot.index].pointee.isEmpty && slots[slot.index].pointee.block == nil
    }

    /// The first invariant of this type that does not hold between passes, described; nil when
    /// all hold. O(slots + overflow originals); `ComponentRegistry.verifyInvariants` runs it.
    func brokenInvariant() -> String? {
        guard passDepth == 0, retiredMemory.isEmpty else { return "memory is retired outside a pass" }
        var onList = [Bool](repeating: false, count: storage.overflow.count)
        for free in storage.freeOverflow {
            guard free >= 0, Int(free) < onList.count, !onList[Int(free)] else {
                return "overflow entry \(free) is free twice"
            }
            onList[Int(free)] = true
        }
        for index in 0..<slots.count {
            let originals = slots[index].pointee
            guard (originals.block == nil) == (originals.layoutID == nil) else {
                return "slot \(index) has a block without a layout, or a layout without a block"
            }
            if let layout = originals.layoutID {
                guard layout.index < storage.layouts.layouts.count else { return "slot \(index)'s layout is unknown" }
                let entries = storage.layouts.layouts[layout.index].entries.count
                guard entries >= 64 || originals.present >> UInt64(entries) == 0 else {
                    return "slot \(index) marks an entry its layout does not have"
                }
            } else if originals.present != 0 {
                return "slot \(index) marks originals present without a block"
            }
            var keys: Set<OperationKeyNumber> = []
            var cursor = originals.overflow
            while cursor != OriginalsStorage.none {
                guard cursor >= 0, Int(cursor) < onList.count, !onList[Int(cursor)] else {
                    return "slot \(index)'s overflow list reaches entry \(cursor), free or on another list"
                }
                onList[Int(cursor)] = true
                let key = storage.overflow[Int(cursor)].key
                guard keys.insert(key).inserted else { return "slot \(index) has two originals of key \(key.rawValue)" }
                if let layout = originals.layoutID, let entry = storage.layouts.layouts[layout.index].entry(of: key),
                    originals.present & (1 << UInt64(entry)) != 0
                {
                    return "slot \(index) has an original of key \(key) in its block and on its list"
                }
                cursor = storage.overflow[Int(cursor)].next
            }
        }
        guard onList.allSatisfy({ $0 }) else { return "an overflow entry is neither free nor on a slot's list" }
        return nil
    }

    // MARK: Internals

    /// Gives memory that held originals back, after the outermost pass if one is running: a
    /// closure of an enclosing pass may still be writing it.
    private func release(_ memory: UnsafeMutableRawPointer, size: Int, alignment: Int) {
        if passDepth > 0 {
            retiredMemory.append((memory, size, alignment))
        } else {
            storage.memory.free(memory, size: size, alignment: alignment)
        }
    }

    private func restoreBlockEntry(
        _ entry: Int, slot: ComponentSlot, block: UnsafeMutableRawPointer,
        layout: LayoutID, object: AnyObject
    ) {
        slots[slot.index].pointee.present &= ~(1 << UInt64(entry))
        let record = storage.layouts.layouts[layout.index].entries[entry]
        let state = operationKeys.numbering.keys[record.key.index].state
        record.setter.withGuaranteedSetter { $0.restore(object, state, block + Int(record.offset)) }
    }

    private func restore(_ record: OverflowOriginal, on object: AnyObject) {
        let state = operationKeys.numbering.keys[record.key.index].state
        record.setter.withGuaranteedSetter { $0.restore(object, state, record.memory) }
        releaseMemory(of: record)
    }

    private func releaseMemory(of record: OverflowOriginal) {
        let (size, alignment) = record.setter.withGuaranteedSetter { ($0.originalSize, $0.originalAlignment) }
        release(record.memory, size: size, alignment: alignment)
    }

    /// Takes the overflow original of `key` (any, newest first, when nil) off the component's
    /// list.
    private func takeOverflow(_ slot: ComponentSlot, key: OperationKeyNumber?) -> OverflowOriginal? {
        var previous: Int32?
        var cursor = slots[slot.index].pointee.overflow
        while cursor != OriginalsStorage.none {
            let next = storage.overflow[Int(cursor)].next
            if key == nil || storage.overflow[Int(cursor)].key == key {
                if let previous {
                    storage.overflow[Int(previous)].next = next
                } else {
                    slots[slot.index].pointee.overflow = next
                }
                storage.freeOverflow.append(cursor)
                return storage.overflow[Int(cursor)]
            }
            previous = cursor
            cursor = next
        }
        return nil
    }

    /// Frees the block (its entries must be restored or discarded) and starts a new generation.
    private func dropBlock(_ slot: ComponentSlot) {
        let originals = slots[slot.index].pointee
        if let block = originals.block, let layout = originals.layoutID {
            release(block, size: storage.layouts.layouts[layout.index].size, alignment: OriginalLayouts.blockAlignment)
        }
        let generation = originals.generation &+ 1
        slots[slot.index].pointee = ComponentOriginals()
        slots[slot.index].pointee.generation = generation
    }
}
