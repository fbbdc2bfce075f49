/// One component's originals: a block laid out by its full-apply plan, and a list for the rest.
struct ComponentOriginals {
    var block: UnsafeMutableRawPointer?
    /// Which of the layout's entries hold an original.
    var present: UInt64 = 0
    /// The block's layout, `OriginalsStorage.none` without a block (see `layoutID`).
    var layout: Int32 = OriginalsStorage.none
    /// The newest original outside the block (through `OriginalsStorage.overflow`),
    /// `OriginalsStorage.none` when there is none.
    var overflow: Int32 = OriginalsStorage.none
    /// Changes whenever the originals are dropped or replaced.
    var generation: UInt32 = 0

    var layoutID: LayoutID? { layout == OriginalsStorage.none ? nil : LayoutID(rawValue: layout) }
    var isEmpty: Bool { present == 0 && overflow == OriginalsStorage.none }
}

/// An original outside its component's block, in memory of its own.
struct OverflowOriginal {
    /// Unretained; alive for the reason given at `OriginalLayout.Entry.setter`.
    var setter: Unmanaged<OperationSetter>
    /// The interned (operation, state).
    var key: OperationKeyNumber
    var memory: UnsafeMutableRawPointer
    /// The next (older) original of the component, `OriginalsStorage.none` at the end.
    var next: Int32
}

/// The memory `OriginalsStore` keeps originals in; only it uses this. A class of its own, not
/// isolated, so that its deinit can give back whatever the originals still hold wherever the
/// applicator is released. It holds the slots, so they outlive it.
///
/// Invariant that makes the unchecked accesses safe: used on the main actor only (its deinit
/// aside, when nothing else can reach it), and no access spans a call into app code.
final class OriginalsStorage {
    /// The stored value of a missing layout or overflow link.
    static let none: Int32 = -1

    /// The slots whose `originals` fields are the store's (see `SlotStorage`).
    let slots: SlotOriginals
    let layouts = OriginalLayouts()
    @exclusivity(unchecked) var memory = OriginalMemory()
    /// Originals outside the blocks, in lists per slot, and the free entries.
    @exclusivity(unchecked) var overflow: ContiguousArray<OverflowOriginal> = []
    @exclusivity(unchecked) var freeOverflow: [Int32] = []

    init(slots: SlotOriginals) {
        self.slots = slots
    }

    deinit {
        for index in 0..<slots.count { discard(slots[index].pointee) }
        memory.releaseAll()
    }

    /// Deinitialises what one slot's originals hold, without writing anything back.
    private func discard(_ originals: ComponentOriginals) {
        var cursor = originals.overflow
        while cursor != Self.none {
            let record = overflow[Int(cursor)]
            record.setter.withGuaranteedSetter { setter in
                setter.discard(record.memory)
                memory.free(record.memory, size: setter.originalSize, alignment: setter.originalAlignment)
            }
            cursor = record.next
        }
        guard let block = originals.block, let layout = originals.layoutID else { return }
        for (index, entry) in layouts.layouts[layout.index].entries.enumerated()
        where originals.present & (1 << UInt64(index)) != 0 {
            entry.setter.withGuaranteedSetter { $0.discard(block + Int(entry.offset)) }
        }
        memory.free(block, size: layouts.layouts[layout.index].size, alignment: OriginalLayouts.blockAlignment)
    }
}
