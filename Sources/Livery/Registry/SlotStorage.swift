/// The per-component memory, one slot per component in one manually managed buffer: an apply
/// pass reads a slot's component, links and originals in place, without copying the slot (an
/// `Array` of structs would copy, and pay exclusivity checks, on every access), and registering
/// a component writes one slot (`livery-switch-bench --profile-register`).
///
/// Invariant: a slot's fields are partitioned between two owners, and each touches only its
/// own. `ComponentRegistry` owns `held`, `objectID`, `group`, the links and `accepted`, and
/// decides which slots exist; `OriginalsStore` owns `originals`, which the registry only
/// initialises (a new slot has none) and never reads.
final class SlotStorage {
    /// One slot: the registry's part and the store's, side by side in 64 bytes.
    struct Slot {
        var membership = Membership()
        /// `OriginalsStore`'s.
        var originals = ComponentOriginals()
    }

    /// `ComponentRegistry`'s part of a slot. Group and links are compact numbers, `none` when
    /// absent; `ComponentRegistry` turns them into typed values.
    struct Membership {
        // Fields ordered largest first, so that they take 32 bytes and a slot 64.
        /// Holds no object when the slot is free.
        var held = HeldComponent()
        var objectID: ObjectIdentifier?
        var group: Int32 = SlotStorage.none
        var previous: Int32 = SlotStorage.none
        var next: Int32 = SlotStorage.none
        var accepted = false
    }

    /// The stored value of a missing group or link.
    static let none: Int32 = -1

    // Invariant that makes the unchecked access safe: `base` is written only by `append` and
    // `grow`, never while another access to it is under way (callers read it, index, and
    // finish before calling out).
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<Slot>
    /// Where a slot's `originals` sit within it.
    private static let originalsOffset = MemoryLayout<Slot>.offset(of: \.originals)!
    private(set) var count = 0
    private(set) var capacity = 64

    init() {
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// The registry's part of slot `index` (`index < count`), in place: valid until the next
    /// `append` or `grow`.
    @inline(__always)
    func membership(_ index: Int) -> UnsafeMutablePointer<Membership> {
        UnsafeMutableRawPointer(base + index).assumingMemoryBound(to: Membership.self)
    }

    /// The store's part of slot `index` (`index < count`), in place: valid until the next
    /// `append` or `grow`. `OriginalsStore` reaches it through `SlotOriginals` only.
    @inline(__always)
    fileprivate func originals(_ index: Int) -> UnsafeMutablePointer<ComponentOriginals> {
        (UnsafeMutableRawPointer(base + index) + Self.originalsOffset).assumingMemoryBound(to: ComponentOriginals.self)
    }

    /// Appends a free slot and returns it; amortised O(1).
    func append() -> ComponentSlot {
        if count == capacity { grow(toHold: 0) }
        (base + count).initialize(to: Slot())
        count += 1
        return ComponentSlot(count - 1)
    }

    /// Doubles the capacity, or more to hold `minimum` slots, moving the slots.
    func grow(toHold minimum: Int) {
        let newCapacity = max(capacity * 2, minimum)
        let grown = UnsafeMutablePointer<Slot>.allocate(capacity: newCapacity)
        if _isBitwiseTakable(Slot.self) {
            // `_isBitwiseTakable` is true exactly when a value may be moved by copying its bytes
            // (without Objective-C, a native weak reference points to the object's side table,
            // not to itself); then the whole table moves in one copy
            // (`livery-switch-bench --profile-register-many`).
            UnsafeMutableRawPointer(grown).copyMemory(from: base, byteCount: count * MemoryLayout<Slot>.stride)
        } else {
            grown.moveInitialize(from: base, count: count)
        }
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}

/// What `OriginalsStore` may reach of the slots: each one's `originals`, nothing of the
/// registry's part.
struct SlotOriginals {
    private let storage: SlotStorage

    init(_ storage: SlotStorage) {
        self.storage = storage
    }

    /// How many slots exist (the registry decides).
    var count: Int { storage.count }

    /// The originals of slot `index`, in place (see `SlotStorage.originals`).
    @inline(__always)
    subscript(index: Int) -> UnsafeMutablePointer<ComponentOriginals> { storage.originals(index) }
}
