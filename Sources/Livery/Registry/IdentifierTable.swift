/// Identifier strings to dense numbers (and back), as `style(_:as:)` needs once per component.
///
/// A `[String: Int32]` answers by hashing with SipHash over the string's Unicode scalars
/// (String hashing must respect canonical equivalence). Identifiers are nearly always ASCII,
/// where canonical equivalence is byte equality, so an open-addressing table keyed by a cheap
/// hash of the UTF-8 bytes answers first (`livery-switch-bench --profile-register`).
///
/// Invariant: while every identifier is ASCII, that table is the whole answer: two ASCII strings
/// are canonically equal exactly when their bytes are, so a miss is a new identifier. The first
/// non-ASCII identifier fills the dictionary with every name so far, and from then on it is the
/// authority: any two canonically equal spellings ("K" and KELVIN SIGN) get one number.
final class IdentifierTable {
    // Invariant that makes the unchecked accesses safe: every access is on the main actor (the
    // applicator's), a single read or write with no call out in between.
    /// Number -> identifier, as first styled.
    @exclusivity(unchecked) private var names: [String] = []
    /// Every name by number once `dictionaryFilled`; empty before (see above).
    @exclusivity(unchecked) private var numbers: [String: Int32] = [:]
    private var dictionaryFilled = false
    /// The fast table's bucket: part of the hash and the number, in 8 bytes, so that the table
    /// stays small and a lookup touches one cache line; the name is compared in `names` when the
    /// tag matches (`livery-switch-bench`, 10,000 identifiers, preloaded).
    private struct Bucket {
        /// The hash's high half, never 0 in a used bucket (0: empty).
        var tag: UInt32 = 0
        /// Meaningless while `tag` is 0.
        var number: Int32 = 0
    }
    @exclusivity(unchecked) private var buckets: ContiguousArray<Bucket>
    private var fastCount = 0

    init() {
        buckets = ContiguousArray(repeating: Bucket(), count: 64)
    }

    var count: Int { names.count }

    /// The identifier numbered `number`, as first styled.
    func name(of number: IdentifierNumber) -> String { names[number.index] }

    /// Room for `count` more identifiers without rehashing the fast table on the way.
    func reserveCapacity(adding count: Int) {
        names.reserveCapacity(names.count + count)
        if (fastCount + count) * 2 > buckets.count { growFast(toHold: fastCount + count) }
    }

    /// The number of `identifier`, nil when it was never numbered.
    func existingNumber(_ identifier: String) -> IdentifierNumber? {
        let hash = Self.asciiHash(identifier)
        if hash != 0 {
            if let known = fastNumber(identifier, hash: hash) { return IdentifierNumber(rawValue: known) }
            if !dictionaryFilled { return nil }
        }
        fillDictionary()
        return numbers[identifier].map(IdentifierNumber.init(rawValue:))
    }

    /// The number of `identifier`, numbering it on first use.
    func number(_ identifier: String) -> IdentifierNumber {
        IdentifierNumber(rawValue: rawNumber(identifier))
    }

    private func rawNumber(_ identifier: String) -> Int32 {
        let hash = Self.asciiHash(identifier)
        if hash != 0 {
            if let known = fastNumber(identifier, hash: hash) { return known }
            if !dictionaryFilled {
                let number = append(identifier)
                insertFast(hash, number)
                return number
            }
        }
        fillDictionary()
        if let known = numbers[identifier] {
            // Only a spelling equal to the stored name byte for byte goes in the fast table (its
            // comparison is `==`, but the hash is of bytes): another spelling keeps asking the
            // dictionary, which is right, only slower.
            if hash != 0, names[Int(known)].utf8.elementsEqual(identifier.utf8) { insertFast(hash, known) }
            return known
        }
        let number = append(identifier)
        numbers[identifier] = number
        if hash != 0 { insertFast(hash, number) }
        return number
    }

    @inline(__always)
    private func fastNumber(_ identifier: String, hash: UInt64) -> Int32? {
        let mask = buckets.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        let tag = Self.tag(hash)
        while buckets[index].tag != 0 {
            if buckets[index].tag == tag, names[Int(buckets[index].number)] == identifier {
                return buckets[index].number
            }
            index = (index + 1) & mask
        }
        return nil
    }

    private func append(_ identifier: String) -> Int32 {
        names.append(identifier)
        return Int32(names.count - 1)
    }

    /// Makes the dictionary the authority (once): a non-ASCII string may be canonically equal
    /// to an ASCII name, so it must be compared with all of them.
    private func fillDictionary() {
        guard !dictionaryFilled else { return }
        dictionaryFilled = true
        numbers.reserveCapacity(names.count)
        for (number, name) in names.enumerated() { numbers[name] = Int32(number) }
    }

    /// A hash of the UTF-8 bytes of an ASCII string, never 0; 0 for other strings (and for
    /// strings without contiguous UTF-8, which native Swift strings always have).
    @inline(__always)
    static func asciiHash(_ string: String) -> UInt64 {
        string.utf8.withContiguousStorageIfAvailable { bytes -> UInt64 in
            var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
            var high: UInt8 = 0
            for byte in bytes {
                high |= byte
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            guard high < 0x80 else { return 0 }
            hash ^= hash >> 29
            return hash == 0 ? 1 : hash
        } ?? 0
    }

    @inline(__always)
    private static func tag(_ hash: UInt64) -> UInt32 { max(UInt32(truncatingIfNeeded: hash >> 32), 1) }

    private func insertFast(_ hash: UInt64, _ number: Int32) {
        if (fastCount + 1) * 2 > buckets.count { growFast(toHold: fastCount + 1) }
        let mask = buckets.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while buckets[index].tag != 0 { index = (index + 1) & mask }
        buckets[index] = Bucket(tag: Self.tag(hash), number: number)
        fastCount += 1
    }

    /// Rehashes into a table at most half full with `count` entries.
    private func growFast(toHold count: Int) {
        let old = buckets
        var size = old.count * 2
        while count * 2 > size { size *= 2 }
        buckets = ContiguousArray(repeating: Bucket(), count: size)
        fastCount = 0
        for bucket in old where bucket.tag != 0 {
            insertFast(Self.asciiHash(names[Int(bucket.number)]), bucket.number)
        }
    }
}
