// Where the originals of a component's properties are kept: what makes revert possible.
//
// A first application records an original for every operation it applies, eight or so per
// component, and it is the most common thing the applicator does (a screen of new components).
// So those originals go into one block of memory per component, at offsets fixed by the
// component's full-apply plan (its *layout*, shared by every component styled as the same
// kind of instance): recording one is a typed store at a known offset and a bit set, with no
// record, table or allocation per original. Keys recorded later, by switches that set
// properties the first theme did not, go on a short list per component (`OverflowOriginal`).
//
// Every original is written and read by the setter's typed closures; the applicator only owns
// the memory (in `SlotStorage`, whose deinit gives it back).

import LiveryModel

/// The shape of a component's block of originals: for each recorded key, the setter that
/// captured it and where its value is.
struct OriginalLayout {
    struct Entry {
        var key: Int32
        /// Unretained: the binding table keeps every setter it ever resolved alive.
        var setter: Unmanaged<OperationSetter>
        var offset: Int32
    }

    /// At most `OriginalLayouts.maxEntries`, in the order of the plan that records them.
    let entries: [Entry]
    let size: Int

    /// The entry index of `key`, nil when the layout has none.
    @inline(__always)
    func entry(of key: Int32) -> Int? {
        for index in entries.indices where entries[index].key == key { return index }
        return nil
    }
}

/// Every layout an applicator's components use, numbered and shared: identical plans (the same
/// keys and setters in the same order) get one layout whatever theme made them. Layouts are
/// never removed; blocks refer to them by number after their theme is gone, and there are as
/// many as the distinct shapes of instances an app shows.
final class OriginalLayouts: @unchecked Sendable {
    // Used on the main actor only; `Sendable` so that the slot storage's nonisolated deinit may
    // read it.
    /// A block's presence bits are one `UInt64`.
    static let maxEntries = 64
    /// Blocks are allocated with this alignment; a property type that needs more has its
    /// originals on the overflow list.
    static let blockAlignment = 16

    @exclusivity(unchecked) private(set) var layouts: ContiguousArray<OriginalLayout> = []
    /// Layout numbers by a hash of their entries' keys and setters (equal hashes are compared).
    @exclusivity(unchecked) private var numbers: [UInt64: [Int32]] = [:]

    /// Whether a setter's originals can live in a block.
    static func fits(_ setter: Unmanaged<OperationSetter>) -> Bool {
        setter._withUnsafeGuaranteedRef { $0.originalAlignment } <= blockAlignment
    }

    /// The number of the layout of `entries` (key and setter, in order), made on first use.
    func number(of entries: [(key: Int32, setter: Unmanaged<OperationSetter>)]) -> Int32 {
        // Every prepared instance asks once, so the hash is a plain FNV-1a over the words rather
        // than `Hashable` over an array (`livery-switch-bench --profile-register-many`).
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for (key, setter) in entries {
            hash = (hash ^ UInt64(UInt32(bitPattern: key))) &* 0x0000_0100_0000_01B3
            hash = (hash ^ UInt64(UInt(bitPattern: setter.toOpaque()))) &* 0x0000_0100_0000_01B3
        }
        for candidate in numbers[hash] ?? [] where Self.same(layouts[Int(candidate)].entries, entries) { return candidate }
        var offset = 0
        var laidOut: [OriginalLayout.Entry] = []
        for (key, setter) in entries {
            let (size, alignment) = setter._withUnsafeGuaranteedRef { ($0.originalSize, $0.originalAlignment) }
            offset = (offset + alignment - 1) / alignment * alignment
            laidOut.append(OriginalLayout.Entry(key: key, setter: setter, offset: Int32(offset)))
            offset += size
        }
        let number = Int32(layouts.count)
        layouts.append(OriginalLayout(entries: laidOut, size: max(offset, 1)))
        numbers[hash, default: []].append(number)
        return number
    }

    private static func same(_ laidOut: [OriginalLayout.Entry],
                             _ entries: [(key: Int32, setter: Unmanaged<OperationSetter>)]) -> Bool {
        guard laidOut.count == entries.count else { return false }
        for (entry, candidate) in zip(laidOut, entries)
        where entry.key != candidate.key || entry.setter.toOpaque() != candidate.setter.toOpaque() {
            return false
        }
        return true
    }
}

/// The memory originals live in: blocks and overflow values, pooled by size in steps of 16 bytes
/// and carved from 64 KiB chunks. Registration allocates one block per component, so a block is
/// a free-list pop rather than an aligned `malloc` (`livery-switch-bench --profile-register`).
/// Sizes over 1 KiB, and alignments over 16, go to the system. A value stored in `SlotStorage`
/// (not a class, so registration retains nothing); its owner calls `releaseAll()` once.
struct OriginalMemory {
    private static let granule = 16
    private static let largestPooled = 1024
    private static let chunkSize = 64 << 10

    /// Free memory per size class, linked through its first word.
    private var freeLists = ContiguousArray<UnsafeMutableRawPointer?>(repeating: nil, count: largestPooled / granule + 1)
    private var chunks: [UnsafeMutableRawPointer] = []
    private var cursor: UnsafeMutableRawPointer?
    private var remaining = 0

    @inline(__always)
    private static func sizeClass(_ size: Int) -> Int {
        (max(size, 1) + granule - 1) / granule
    }

    mutating func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        guard size <= Self.largestPooled, alignment <= Self.granule else {
            return .allocate(byteCount: max(size, 1), alignment: alignment)
        }
        let sizeClass = Self.sizeClass(size)
        if let free = freeLists[sizeClass] {
            freeLists[sizeClass] = free.load(as: UnsafeMutableRawPointer?.self)
            return free
        }
        let bytes = sizeClass * Self.granule
        if remaining < bytes {
            let chunk = UnsafeMutableRawPointer.allocate(byteCount: Self.chunkSize, alignment: Self.granule)
            chunks.append(chunk)
            cursor = chunk
            remaining = Self.chunkSize
        }
        let memory = cursor!
        cursor = memory + bytes
        remaining -= bytes
        return memory
    }

    /// Takes back memory from `allocate` with the same size and alignment.
    mutating func free(_ memory: UnsafeMutableRawPointer, size: Int, alignment: Int) {
        guard size <= Self.largestPooled, alignment <= Self.granule else {
            memory.deallocate()
            return
        }
        let sizeClass = Self.sizeClass(size)
        memory.storeBytes(of: freeLists[sizeClass], as: UnsafeMutableRawPointer?.self)
        freeLists[sizeClass] = memory
    }

    /// Gives every chunk back; nothing allocated from them may be used after.
    mutating func releaseAll() {
        for chunk in chunks { chunk.deallocate() }
        chunks = []
        cursor = nil
        remaining = 0
        freeLists = ContiguousArray(repeating: nil, count: freeLists.count)
    }
}

/// One component's originals: a block laid out by its full-apply plan, and a list for the rest.
struct ComponentOriginals {
    // Fields ordered largest first: 24 bytes, not 32.
    var block: UnsafeMutableRawPointer?
    /// Which of the layout's entries hold an original.
    var present: UInt64 = 0
    /// The block's layout, -1 without a block.
    var layout: Int32 = -1
    /// The newest original outside the block (through `SlotStorage.overflow`), -1: none.
    var overflow: Int32 = -1

    var isEmpty: Bool { present == 0 && overflow < 0 }
}

/// An original outside its component's block, in memory of its own.
struct OverflowOriginal {
    var setter: Unmanaged<OperationSetter>
    /// The interned (operation, state).
    var key: Int32
    var memory: UnsafeMutableRawPointer
    var next: Int32
}

extension Applicator {
    // MARK: Originals
    //
    // App code (getters and setters) runs inside several of these, and may re-enter the
    // applicator: restyle or unstyle the very component being worked on. So slot state is read
    // again after every call into app code, a presence bit is cleared before its original is
    // restored and set only after it is captured, and memory given back during a pass is freed
    // when the outermost pass ends (`releaseOriginalMemory`), never under a closure writing it.
    // A slot's `generation` changes whenever its originals are dropped or replaced, which tells
    // a loop that its component was re-targeted under it.

    /// Allocates the block for a full application of a plan with `layout` (-1: the plan
    /// records nothing in a block); the component must have no originals.
    /// False, allocating nothing, when the component has originals after all.
    @inline(__always)
    func prepareBlock(slot: Int32, layout: Int32) -> Bool {
        guard slots.base[Int(slot)].originals.isEmpty, slots.base[Int(slot)].originals.block == nil else { return false }
        guard layout >= 0 else { return true }
        slots.base[Int(slot)].originals.block = slots.memory.allocate(
            size: slots.layouts.layouts[Int(layout)].size, alignment: OriginalLayouts.blockAlignment)
        slots.base[Int(slot)].originals.layout = layout
        return true
    }

    // A key is looked up in the block first, then on the overflow list: a key of the layout goes
    // on the list if a setter other than the layout's records it. (No path does today: a new
    // binding reverts the component in full first. The lookups stay consistent anyway.)
    func hasOriginal(slot: Int32, key: Int32) -> Bool {
        let originals = slots.base[Int(slot)].originals
        if originals.layout >= 0, let entry = slots.layouts.layouts[Int(originals.layout)].entry(of: key),
           originals.present & (1 << UInt64(entry)) != 0 {
            return true
        }
        var cursor = originals.overflow
        while cursor >= 0 {
            if slots.overflow[Int(cursor)].key == key { return true }
            cursor = slots.overflow[Int(cursor)].next
        }
        return false
    }

    /// Records the property's current value unless one is recorded already for `key`.
    func recordOriginal(slot: Int32, key: Int32, setter: Unmanaged<OperationSetter>, state: ControlState,
                        object: AnyObject) {
        if hasOriginal(slot: slot, key: key) { return }
        let generation = slots.base[Int(slot)].generation
        let originals = slots.base[Int(slot)].originals
        if originals.layout >= 0, let block = originals.block,
           let entry = slots.layouts.layouts[Int(originals.layout)].entry(of: key),
           slots.layouts.layouts[Int(originals.layout)].entries[entry].setter.toOpaque() == setter.toOpaque() {
            let memory = block + Int(slots.layouts.layouts[Int(originals.layout)].entries[entry].offset)
            setter.withGuaranteedSetter { $0.capture(object, state, memory) }
            if slots.base[Int(slot)].generation == generation {
                slots.base[Int(slot)].originals.present |= 1 << UInt64(entry)
            } else {
                setter.withGuaranteedSetter { $0.discard(memory) }
            }
            return
        }
        let (size, alignment) = setter.withGuaranteedSetter { ($0.originalSize, $0.originalAlignment) }
        let memory = slots.memory.allocate(size: size, alignment: alignment)
        setter.withGuaranteedSetter { $0.capture(object, state, memory) }
        guard slots.base[Int(slot)].generation == generation else {
            setter.withGuaranteedSetter { $0.discard(memory) }
            releaseOriginalMemory(memory, size: size, alignment: alignment)
            return
        }
        let record = OverflowOriginal(setter: setter, key: key, memory: memory,
                                      next: slots.base[Int(slot)].originals.overflow)
        let position: Int32
        if let free = slots.freeOverflow.popLast() {
            position = free
            slots.overflow[Int(position)] = record
        } else {
            position = Int32(slots.overflow.count)
            slots.overflow.append(record)
        }
        slots.base[Int(slot)].originals.overflow = position
    }

    /// Marks the block entry a recording step just filled.
    @inline(__always)
    func markRecorded(slot: Int32, entry: UInt8) {
        slots.base[Int(slot)].originals.present |= 1 << UInt64(entry)
    }

    /// Puts the original of `key` back; false when there is none.
    func revert(slot: Int32, key: Int32, object: AnyObject) -> Bool {
        let originals = slots.base[Int(slot)].originals
        if originals.layout >= 0, let block = originals.block,
           let entry = slots.layouts.layouts[Int(originals.layout)].entry(of: key),
           originals.present & (1 << UInt64(entry)) != 0 {
            restoreBlockEntry(entry, slot: slot, block: block, layout: originals.layout, object: object)
            return true
        }
        guard let record = takeOverflow(slot: slot, key: key) else { return false }
        restore(record, on: object)
        return true
    }

    /// Puts back every recorded original, newest first (the order that undoes the writes):
    /// the overflow list, then the block from its last entry. Leaves the component with none.
    func revertAll(slot: Int32, object: AnyObject) -> Int {
        let generation = slots.base[Int(slot)].generation
        var reverted = 0
        while let record = takeOverflow(slot: slot, key: nil) {
            restore(record, on: object)
            reverted += 1
            if slots.base[Int(slot)].generation != generation { return reverted }
        }
        while true {
            let originals = slots.base[Int(slot)].originals
            guard originals.present != 0, let block = originals.block else { break }
            let entry = 63 - originals.present.leadingZeroBitCount
            restoreBlockEntry(entry, slot: slot, block: block, layout: originals.layout, object: object)
            reverted += 1
            if slots.base[Int(slot)].generation != generation { return reverted }
        }
        dropBlock(slot: slot)
        return reverted
    }

    /// Drops every original without writing it back (the component is gone, or was just
    /// reverted).
    func discardOriginals(slot: Int32) {
        while let record = takeOverflow(slot: slot, key: nil) {
            record.setter.withGuaranteedSetter { $0.discard(record.memory) }
            releaseOverflowMemory(record)
        }
        let originals = slots.base[Int(slot)].originals
        if let block = originals.block, originals.present != 0 {
            let layout = slots.layouts.layouts[Int(originals.layout)]
            for (index, entry) in layout.entries.enumerated() where originals.present & (1 << UInt64(index)) != 0 {
                entry.setter.withGuaranteedSetter { setter in
                    if !setter.originalIsTrivial { setter.discard(block + Int(entry.offset)) }
                }
            }
        }
        dropBlock(slot: slot)
    }

    /// Gives memory that held originals back, after the outermost pass if one is running: a
    /// closure of an enclosing pass may still be writing it.
    func releaseOriginalMemory(_ memory: UnsafeMutableRawPointer, size: Int, alignment: Int) {
        if passDepth > 0 {
            retiredMemory.append((memory, size, alignment))
        } else {
            slots.memory.free(memory, size: size, alignment: alignment)
        }
    }

    /// Brackets work that calls app code (see the note above).
    @inline(__always)
    func enterPass() {
        passDepth += 1
    }

    @inline(__always)
    func leavePass() {
        passDepth -= 1
        if passDepth == 0 && !retiredMemory.isEmpty {
            for (memory, size, alignment) in retiredMemory { slots.memory.free(memory, size: size, alignment: alignment) }
            retiredMemory.removeAll()
        }
    }

    // MARK: Originals internals

    private func restoreBlockEntry(_ entry: Int, slot: Int32, block: UnsafeMutableRawPointer, layout: Int32,
                                   object: AnyObject) {
        slots.base[Int(slot)].originals.present &= ~(1 << UInt64(entry))
        let record = slots.layouts.layouts[Int(layout)].entries[entry]
        let state = operationKeys.numbering.keys[Int(record.key)].state
        record.setter.withGuaranteedSetter { $0.restore(object, state, block + Int(record.offset)) }
    }

    private func restore(_ record: OverflowOriginal, on object: AnyObject) {
        let state = operationKeys.numbering.keys[Int(record.key)].state
        record.setter.withGuaranteedSetter { $0.restore(object, state, record.memory) }
        releaseOverflowMemory(record)
    }

    private func releaseOverflowMemory(_ record: OverflowOriginal) {
        let (size, alignment) = record.setter.withGuaranteedSetter { ($0.originalSize, $0.originalAlignment) }
        releaseOriginalMemory(record.memory, size: size, alignment: alignment)
    }

    /// Takes the overflow original of `key` (any, newest first, when nil) off the component's
    /// list.
    private func takeOverflow(slot: Int32, key: Int32?) -> OverflowOriginal? {
        var previous: Int32 = -1
        var cursor = slots.base[Int(slot)].originals.overflow
        while cursor >= 0 {
            let next = slots.overflow[Int(cursor)].next
            if key == nil || slots.overflow[Int(cursor)].key == key {
                if previous >= 0 {
                    slots.overflow[Int(previous)].next = next
                } else {
                    slots.base[Int(slot)].originals.overflow = next
                }
                slots.freeOverflow.append(cursor)
                return slots.overflow[Int(cursor)]
            }
            previous = cursor
            cursor = next
        }
        return nil
    }

    /// Frees the block (its entries must be restored or discarded) and starts a new generation.
    private func dropBlock(slot: Int32) {
        let originals = slots.base[Int(slot)].originals
        if let block = originals.block {
            releaseOriginalMemory(block, size: slots.layouts.layouts[Int(originals.layout)].size,
                                  alignment: OriginalLayouts.blockAlignment)
        }
        slots.base[Int(slot)].originals = ComponentOriginals()
        slots.base[Int(slot)].generation &+= 1
    }
}
