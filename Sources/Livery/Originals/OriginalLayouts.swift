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
// Every original is written and read by the setter's typed closures; `OriginalsStore` only
// owns the memory (in `OriginalsStorage`, whose deinit gives it back).

import LiveryModel

/// The shape of a component's block of originals: for each recorded key, the setter that
/// captured it and where its value is.
struct OriginalLayout {
    struct Entry {
        var key: OperationKeyNumber
        /// Unretained. Invariant: the binding table keeps every setter it ever resolved alive
        /// (`BindingTable.replacedSetters`), and layouts are never removed, so the setter outlives
        /// every block laid out with it.
        var setter: Unmanaged<OperationSetter>
        var offset: Int32
    }

    /// At most `OriginalLayouts.maxEntries`, in the order of the plan that records them.
    let entries: [Entry]
    let size: Int

    /// The entry index of `key`, nil when the layout has none.
    @inline(__always)
    func entry(of key: OperationKeyNumber) -> Int? {
        for index in entries.indices where entries[index].key == key { return index }
        return nil
    }
}

/// Every layout an applicator's components use, numbered and shared: identical plans (the same
/// keys and setters in the same order) get one layout whatever theme made them. Layouts are
/// never removed; blocks refer to them by number after their theme is gone, and there are as
/// many as the distinct shapes of instances an app shows.
final class OriginalLayouts {
    /// A block's presence bits are one `UInt64`.
    static let maxEntries = 64
    /// Blocks are allocated with this alignment; a property type that needs more has its
    /// originals on the overflow list.
    static let blockAlignment = 16

    // Invariant that makes the unchecked accesses safe: used on the main actor only, each access
    // a single read or append with no call out in between.
    @exclusivity(unchecked) private(set) var layouts: ContiguousArray<OriginalLayout> = []
    /// Layout numbers by a hash of their entries' keys and setters (equal hashes are compared).
    @exclusivity(unchecked) private var numbers: [UInt64: [LayoutID]] = [:]

    /// Whether a setter's originals can live in a block.
    static func fits(_ setter: Unmanaged<OperationSetter>) -> Bool {
        setter.withGuaranteedSetter { $0.originalAlignment } <= blockAlignment
    }

    /// The number of the layout of `entries` (key and setter, in order), made on first use.
    func number(of entries: [(key: OperationKeyNumber, setter: Unmanaged<OperationSetter>)]) -> LayoutID {
        // Every prepared instance asks once, so the hash is a plain FNV-1a over the words rather
        // than `Hashable` over an array (`livery-switch-bench --profile-register-many`).
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for (key, setter) in entries {
            hash = (hash ^ UInt64(UInt32(bitPattern: key.rawValue))) &* 0x0000_0100_0000_01B3
            hash = (hash ^ UInt64(UInt(bitPattern: setter.toOpaque()))) &* 0x0000_0100_0000_01B3
        }
        for candidate in numbers[hash] ?? [] where Self.same(layouts[candidate.index].entries, entries) {
            return candidate
        }
        var offset = 0
        var laidOut: [OriginalLayout.Entry] = []
        for (key, setter) in entries {
            let (size, alignment) = setter.withGuaranteedSetter { ($0.originalSize, $0.originalAlignment) }
            offset = (offset + alignment - 1) / alignment * alignment
            laidOut.append(OriginalLayout.Entry(key: key, setter: setter, offset: Int32(offset)))
            offset += size
        }
        let number = LayoutID(layouts.count)
        layouts.append(OriginalLayout(entries: laidOut, size: max(offset, 1)))
        numbers[hash, default: []].append(number)
        return number
    }

    private static func same(
        _ laidOut: [OriginalLayout.Entry],
        _ entries: [(key: OperationKeyNumber, setter: Unmanaged<OperationSetter>)]
    ) -> Bool {
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
/// Sizes over 1 KiB, and alignments over 16, go to the system. A value stored in
/// `OriginalsStorage` (not a class, so registration retains nothing); its owner calls
/// `releaseAll()` once.
///
/// Invariant: memory handed out by `allocate` is not handed out again until it comes back
/// through `free` with the same size and alignment; a free block's first word links it into its
/// size class's free list.
struct OriginalMemory {
    private static let granule = 16
    private static let largestPooled = 1024
    private static let chunkSize = 64 << 10

    /// Free memory per size class, linked through its first word.
    private var freeLists = ContiguousArray<UnsafeMutableRawPointer?>(
        repeating: nil, count: largestPooled / granule + 1)
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
