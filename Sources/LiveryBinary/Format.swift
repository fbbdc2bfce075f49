// The compiled theme format's constants and the two tiny algorithms it names (CRC-32, FNV-1a).
// docs/BinaryFormat.md describes every byte; keep the two in step.
import LiveryModel

/// The layout constants of format version 5. Changing any of them is a major version bump.
/// (1.0 gave every instance record an id handle and had no `PTCH` section; 2.0 had no `BLKS`
/// section; 3.0 had 40-byte value slots, too small for a font's letter spacing and line height;
/// 4.0 addressed variants by four fixed trait dimensions and recorded none: 5.0 readers refuse
/// all four.)
enum Format {
    /// `\x89 L V R Y \r \n \x1A`: the high byte and the line endings catch text-mode transfers.
    static let magic: [UInt8] = [0x89, 0x4C, 0x56, 0x52, 0x59, 0x0D, 0x0A, 0x1A]
    static let major: UInt16 = 5
    static let minor: UInt16 = 0
    static let headerSize = 64
    static let sectionEntrySize = 32
    /// Where the header checksum lives; it covers the bytes before it plus the section table.
    static let headerChecksumOffset = 60
    /// Flags 0-15 must be understood by a reader; 16-31 may be ignored. None are defined in 5.0.
    static let requiredFlagsMask: UInt32 = 0x0000_FFFF
    static let sectionRequiredFlag: UInt32 = 1
    /// "No string" / "no variant" in u32 index fields.
    static let none: UInt32 = 0xFFFF_FFFF
    static let chainEntrySize = 56
    static let digestSize = 32
    static let instanceRecordSize = 16
    /// A list patch: u32 position in the base list, u32 operation.
    static let patchEntrySize = 8
    static let operationRecordSize = 16
    static let valueSlotSize = 48
    static let assetRecordSize = 48
    /// `VARS` starts with u8 dimension count, 3 zero bytes, u32 variant count; then one 8-byte
    /// record per dimension (u32 name, u16 mask of the values mentioned, u8 value count, u8 0),
    /// then every dimension's values (u32 strings), then the slots (`VariantAddressing`).
    static let variantsFixedSize = 8
    static let dimensionRecordSize = 8
    /// An asset record holds one qualifier byte per recorded dimension in this many bytes.
    static let assetQualifierBytes = 13
    static let idTableHeaderSize = 16
    /// Bytes per checksummed block (`BLKS`) the writer uses: a lookup checks the blocks it
    /// reads, so a smaller block wastes less checking on bytes it does not need, for a table of
    /// 4 bytes per block.
    static let blockSize = 512
    /// The block sizes a reader accepts: powers of two in this range.
    static let blockSizes = 64...65_536
    static let blocksHeaderSize = 8
    static let alignment = 8
}

/// The sections of a version 5 file, by their four-character kind, in the order the writer
/// writes them (`BLKS` must be last: its checksums cover every section before it).
enum SectionKind: UInt32, CaseIterable {
    case strings = 0x5352_5453  // "STRS"
    case chain = 0x4E41_4843  // "CHAN"
    case ids = 0x4254_4449  // "IDTB"
    case variants = 0x5352_4156  // "VARS"
    case instances = 0x5453_4E49  // "INST"
    case operationLists = 0x534C_504F  // "OPLS"
    case listPatches = 0x4843_5450  // "PTCH"
    case operations = 0x5245_504F  // "OPER"
    case values = 0x4D52_4150  // "PARM"
    case assets = 0x4553_5341  // "ASSE"
    case data = 0x4154_4144  // "DATA"
    /// Optional: what the theme's personal choices change (`Choices.swift`).
    case choices = 0x494F_4843  // "CHOI"
    case blocks = 0x534B_4C42  // "BLKS"

    var index: Int { SectionKind.allCases.firstIndex(of: self)! }

    /// Every 5.0 file has the section (all but `CHOI`, written only for a theme with overridable
    /// constants).
    var isRequired: Bool { self != .choices }
}

/// Four-character kinds print as text (`STRS`), anything unprintable as hex.
func sectionKindName(_ raw: UInt32) -> String {
    let bytes = (0..<4).map { UInt8(truncatingIfNeeded: raw >> (8 * UInt32($0))) }
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
        return String(decoding: bytes, as: UTF8.self)
    }
    return "0x" + String(raw, radix: 16, uppercase: true)
}

/// The tag byte of a value slot.
/// Each tag is written down: the codes are the file format, not the order of the cases.
enum ValueTag: UInt8, CaseIterable {
    case float = 1
    case integer = 2
    case bool = 3
    case string = 4
    case color = 5
    case point = 6
    case size = 7
    case rect = 8
    case insets = 9
    case font = 10
    case image = 11
    case enumeration = 12
    case array = 13
}

/// How a file addresses its variants: the trait dimensions it records (`VARS`), the values of
/// each that the theme mentions, and one slot per canonical trait set, numbered in mixed radix
/// with the first dimension varying slowest; a dimension's digit is 0 for no value, else the rank
/// of the value among those mentioned plus one. So a file holds exactly `axes.traitSets.count`
/// slots, whatever the dimensions in force.
struct VariantAddressing: Sendable {
    let dimensions: TraitDimensions
    let axes: TraitAxes
    /// Per recorded dimension, how many slots one step of its digit skips.
    let strides: [Int]
    let slotCount: Int

    /// nil when the slots would not fit in `limit`.
    init?(dimensions: TraitDimensions, axes: TraitAxes, limit: Int = Int(UInt32.max)) {
        var strides = [Int](repeating: 0, count: dimensions.all.count)
        var stride = 1
        for dimension in dimensions.all.indices.reversed() {
            strides[dimension] = stride
            let (product, overflow) = stride.multipliedReportingOverflow(
                by: axes.mask(of: dimension).nonzeroBitCount + 1)
            guard !overflow, product <= limit else { return nil }
            stride = product
        }
        self.dimensions = dimensions
        self.axes = axes
        self.strides = strides
        self.slotCount = stride
    }

    /// The slot of the variant an app running with `traits` uses: values the theme never
    /// mentions, and dimensions the file does not record, are dropped (as `TraitAxes.canonical`).
    func slot(_ traits: TraitSet) -> Int {
        var slot = 0
        for dimension in strides.indices {
            guard let value = traits[dimension] else { continue }
            let mask = axes.mask(of: dimension)
            guard value < 16, mask & 1 << value != 0 else { continue }
            slot += strides[dimension] * ((mask & (1 << value &- 1)).nonzeroBitCount + 1)
        }
        return slot
    }

    /// The canonical trait set of a slot.
    func traits(slot: Int) -> TraitSet {
        var traits = TraitSet()
        for dimension in strides.indices {
            let mask = axes.mask(of: dimension)
            let digit = slot / strides[dimension] % (mask.nonzeroBitCount + 1)
            guard digit > 0 else { continue }
            traits[dimension] = axes.values(of: dimension)[digit - 1]
        }
        return traits
    }
}

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320): the checksum zlib and PNG use, so
/// any tool can check a compiled file.
enum CRC32 {
    /// Eight tables of 256 ("slicing by 8"): table k gives the CRC of a byte followed by k zero
    /// bytes, so eight bytes are folded in per step instead of one.
    static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 != 0 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
            table[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = table[(slice - 1) * 256 + index]
                table[slice * 256 + index] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()

    static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var value = ~crc
        guard var pointer = bytes.baseAddress else { return crc }
        var remaining = bytes.count
        table.withUnsafeBufferPointer { table in
            while remaining >= 8 {
                let low = UInt32(littleEndian: pointer.loadUnaligned(as: UInt32.self)) ^ value
                let high = UInt32(littleEndian: (pointer + 4).loadUnaligned(as: UInt32.self))
                value =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                pointer += 8
                remaining -= 8
            }
            while remaining > 0 {
                value = table[Int((value ^ UInt32(pointer.load(as: UInt8.self))) & 0xFF)] ^ (value >> 8)
                pointer += 1
                remaining -= 1
            }
        }
        return ~value
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 { update(0, bytes) }
    static func checksum(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { update(0, $0) } }
}

/// FNV-1a, 64 bit, over the UTF-8 bytes of an id: tiny, no seed, identical in every reader.
enum IDHash {
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    static func hash(_ string: String) -> UInt64 {
        var string = string
        return string.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }
}
