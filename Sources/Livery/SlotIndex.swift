/// Which registry slot holds a component, by the component's address: an open-addressing
/// table with linear probing, hashed with one multiplication.
///
/// Registration looks a component up and inserts it once each; with `Dictionary`, whose
/// `ObjectIdentifier` keys are hashed with SipHash, those two lookups were a tenth of a
/// registration. Addresses need no such hashing: they are unique while the object lives, and a
/// Fibonacci multiply spreads their aligned low bits. Removal shifts the following entries
/// back instead of leaving tombstones, so lookups never slow down as components come and go.
final class SlotIndex {
    /// 0 marks an empty bucket (no object lives at address 0).
    @exclusivity(unchecked) private var keys: ContiguousArray<UInt>
    @exclusivity(unchecked) private var values: ContiguousArray<Int32>
    private var shift: Int
    private(set) var count = 0

    init() {
        keys = ContiguousArray(repeating: 0, count: 64)
        values = ContiguousArray(repeating: -1, count: 64)
        shift = 64 - 6
    }

    @inline(__always)
    private func home(_ key: UInt) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
    }

    @inline(__always)
    private static func key(_ object: ObjectIdentifier) -> UInt { UInt(bitPattern: object) }

    subscript(object: ObjectIdentifier) -> Int32? {
        let key = Self.key(object)
        let mask = keys.count - 1
        var index = home(key)
        while true {
            let stored = keys[index]
            if stored == key { return values[index] }
            if stored == 0 { return nil }
            index = (index + 1) & mask
        }
    }

    /// Adds or replaces the slot of `object`.
    func set(_ slot: Int32, for object: ObjectIdentifier) {
        if (count + 1) * 2 > keys.count { grow() }
        let key = Self.key(object)
        let mask = keys.count - 1
        var index = home(key)
        while true {
            let stored = keys[index]
            if stored == key {
                values[index] = slot
                return
            }
            if stored == 0 {
                keys[index] = key
                values[index] = slot
                count += 1
                return
            }
            index = (index + 1) & mask
        }
    }

    func remove(_ object: ObjectIdentifier) {
        let key = Self.key(object)
        let mask = keys.count - 1
        var hole = home(key)
        while keys[hole] != key {
            if keys[hole] == 0 { return }
            hole = (hole + 1) & mask
        }
        count -= 1
        // Backward shift: move each following entry of the run into the hole if the hole lies
        // between its home bucket and where it sits (cyclically); the run then has no gap.
        var next = (hole + 1) & mask
        while keys[next] != 0 {
            let wanted = home(keys[next])
            let distanceToHole = (hole - wanted) & mask
            let distanceToNext = (next - wanted) & mask
            if distanceToHole < distanceToNext {
                keys[hole] = keys[next]
                values[hole] = values[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        keys[hole] = 0
        values[hole] = -1
    }

    private func grow() {
        let oldKeys = keys
        let oldValues = values
        keys = ContiguousArray(repeating: 0, count: oldKeys.count * 2)
        values = ContiguousArray(repeating: -1, count: oldKeys.count * 2)
        shift -= 1
        count = 0
        let mask = keys.count - 1
        for position in oldKeys.indices where oldKeys[position] != 0 {
            var index = home(oldKeys[position])
            while keys[index] != 0 { index = (index + 1) & mask }
            keys[index] = oldKeys[position]
            values[index] = oldValues[position]
            count += 1
        }
    }
}
