/// Which registry slot holds a component, by the component's address: an open-addressing
/// table with linear probing, hashed with one multiplication.
///
/// Registration looks a component up and inserts it once each, so the hash must be cheap:
/// `Dictionary` hashes `ObjectIdentifier` keys with SipHash. Addresses need no such hashing:
/// they are unique while the object lives, and a
/// Fibonacci multiply spreads their aligned low bits. Removal shifts the following entries
/// back instead of leaving tombstones, so lookups never slow down as components come and go.
///
/// The buckets are one manually managed buffer, so a write pays no uniqueness check
/// (`livery-switch-bench --profile-register-many`). Invariant that makes the raw buffer safe:
/// `buckets` always holds `capacity` initialised buckets (a power of two), at most half used.
final class SlotIndex {
    private struct Bucket {
        /// 0 marks an empty bucket (no object lives at address 0); its slot is then meaningless.
        var key: UInt
        var slot: ComponentSlot
    }

    private var buckets: UnsafeMutablePointer<Bucket>
    private var capacity: Int
    private var shift: Int
    private(set) var count = 0

    init() {
        capacity = 64
        shift = 64 - 6
        buckets = .allocate(capacity: capacity)
        buckets.initialize(repeating: Bucket(key: 0, slot: ComponentSlot(rawValue: 0)), count: capacity)
    }

    deinit {
        buckets.deallocate()
    }

    @inline(__always)
    private func home(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
    }

    @inline(__always)
    private static func key(_ object: ObjectIdentifier) -> UInt { UInt(bitPattern: object) }

    subscript(object: ObjectIdentifier) -> ComponentSlot? {
        let key = Self.key(object)
        let mask = capacity - 1
        var index = home(key)
        while true {
            let stored = buckets[index].key
            if stored == key { return buckets[index].slot }
            if stored == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Adds or replaces the slot of `object`.
    func set(_ slot: ComponentSlot, for object: ObjectIdentifier) {
        if (count + 1) * 2 > capacity { grow() }
        let key = Self.key(object)
        let mask = capacity - 1
        var index = home(key)
        while true {
            let stored = buckets[index].key
            if stored == key {
                buckets[index].slot = slot
                return
            }
            if stored == 0 {
                buckets[index] = Bucket(key: key, slot: slot)
                count += 1
                return
            }
            index = (index + 1) & mask
        }
    }

    func remove(_ object: ObjectIdentifier) {
        let key = Self.key(object)
        let mask = capacity - 1
        var hole = home(key)
        while buckets[hole].key != key {
            if buckets[hole].key == 0 { return }
            hole = (hole + 1) & mask
        }
        count -= 1
        // Backward shift: move each following entry of the run into the hole if the hole lies
        // between its home bucket and where it sits (cyclically); the run then has no gap.
        var next = (hole + 1) & mask
        while buckets[next].key != 0 {
            let wanted = home(buckets[next].key)
            let distanceToHole = (hole - wanted) & mask
            let distanceToNext = (next - wanted) & mask
            if distanceToHole < distanceToNext {
                buckets[hole] = buckets[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        buckets[hole] = Bucket(key: 0, slot: ComponentSlot(rawValue: 0))
    }

    private func grow() {
        let old = buckets
        let oldCapacity = capacity
        capacity *= 2
        shift -= 1
        buckets = .allocate(capacity: capacity)
        buckets.initialize(repeating: Bucket(key: 0, slot: ComponentSlot(rawValue: 0)), count: capacity)
        let mask = capacity - 1
        for position in 0..<oldCapacity where old[position].key != 0 {
            var index = home(old[position].key)
            while buckets[index].key != 0 { index = (index + 1) & mask }
            buckets[index] = old[position]
        }
        old.deallocate()
    }
}
