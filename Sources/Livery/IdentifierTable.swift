/// Identifier strings to dense numbers (and back), as `style(_:as:)` needs once per component.
///
/// A `[String: Int32]` answers by hashing with SipHash over the string's Unicode scalars
/// (String hashing must respect canonical equivalence): about 390 instructions a lookup, 13% of
/// a registration (callgrind, `livery-chat-demo --profile-register`). Identifiers are nearly
/// always ASCII, where canonical equivalence is byte equality, so an open-addressing table keyed
/// by a cheap hash of the UTF-8 bytes answers first, in about 60. The dictionary stays the
/// authority: every string misses the fast table once and is numbered there, so non-ASCII
/// identifiers, and any two canonically equal spellings, get one number exactly as before.
final class IdentifierTable {
    /// Number -> identifier, as first styled.
    @exclusivity(unchecked) private(set) var names: [String] = []
    @exclusivity(unchecked) private var numbers: [String: Int32] = [:]
    /// The fast table: hash (0: empty bucket) and the number of an ASCII identifier.
    @exclusivity(unchecked) private var hashes: ContiguousArray<UInt64>
    @exclusivity(unchecked) private var fastNumbers: ContiguousArray<Int32>
    private var fastCount = 0

    init() {
        hashes = ContiguousArray(repeating: 0, count: 64)
        fastNumbers = ContiguousArray(repeating: -1, count: 64)
    }

    /// The number of `identifier`, nil when it was never numbered.
    func existingNumber(_ identifier: String) -> Int32? {
        numbers[identifier]
    }

    /// The number of `identifier`, numbering it on first use.
    func number(_ identifier: String) -> Int32 {
        let hash = Self.asciiHash(identifier)
        if hash != 0 {
            let mask = hashes.count - 1
            var index = Int(truncatingIfNeeded: hash) & mask
            while hashes[index] != 0 {
                if hashes[index] == hash, names[Int(fastNumbers[index])] == identifier { return fastNumbers[index] }
                index = (index + 1) & mask
            }
        }
        if let known = numbers[identifier] {
            // Only a spelling equal to the stored name byte for byte goes in the fast table (its
            // comparison is `==`, but the hash is of bytes): another spelling keeps asking the
            // dictionary, which is right, only slower.
            if hash != 0, names[Int(known)].utf8.elementsEqual(identifier.utf8) { insertFast(hash, known) }
            return known
        }
        let number = Int32(names.count)
        names.append(identifier)
        numbers[identifier] = number
        if hash != 0 { insertFast(hash, number) }
        return number
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

    private func insertFast(_ hash: UInt64, _ number: Int32) {
        if (fastCount + 1) * 2 > hashes.count { growFast() }
        let mask = hashes.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while hashes[index] != 0 { index = (index + 1) & mask }
        hashes[index] = hash
        fastNumbers[index] = number
        fastCount += 1
    }

    private func growFast() {
        let oldHashes = hashes
        let oldNumbers = fastNumbers
        hashes = ContiguousArray(repeating: 0, count: oldHashes.count * 2)
        fastNumbers = ContiguousArray(repeating: -1, count: oldHashes.count * 2)
        fastCount = 0
        for index in oldHashes.indices where oldHashes[index] != 0 { insertFast(oldHashes[index], oldNumbers[index]) }
    }
}
