// The compiled theme format's constants and the two tiny algorithms it names (CRC-32, FNV-1a).
// docs/BinaryFormat.md describes every byte; keep the two in step.
import LiveryModel

/// The layout constants of format version 4. Changing any of them is a major version bump.
/// (1.0 gave every instance record an id handle and had no `PTCH` section; 2.0 had no `BLKS`
/// section; 3.0 had 40-byte value slots, too small for a font's letter spacing and line height:
/// 4.0 readers refuse all three.)
enum Format {
    /// `\x89 L V R Y \r \n \x1A`: the high byte and the line endings catch text-mode transfers.
    static let magic: [UInt8] = [0x89, 0x4C, 0x56, 0x52, 0x59, 0x0D, 0x0A, 0x1A]
    static let major: UInt16 = 4
    static let minor: UInt16 = 0
    static let headerSize = 64
    static let sectionEntrySize = 32
    /// Where the header checksum lives; it covers the bytes before it plus the section table.
    static let headerChecksumOffset = 60
    /// Flags 0-15 must be understood by a reader; 16-31 may be ignored. None are defined in 4.0.
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
    static let assetRecordSize = 40
    /// 8 idiom codes (none + 7) x 3 appearance codes x 2 contrast codes: one block of slots,
    /// derived from the code tables (`Codes.swift`) so the two cannot disagree; a test holds it
    /// at 48, since a new trait value changes the layout of every file.
    static let variantSlotCount = TraitCodes.idiomCodes * TraitCodes.appearanceCodes * TraitCodes.contrastCodes
    /// A theme that distinguishes text size (`~largetext`, format 1.1) stores one block of slots
    /// per text-size code; one that does not stores one block, laid out as before 1.1.
    static func variantSlotCount(textSizeMask: UInt8) -> Int {
        variantSlotCount * (textSizeMask == 0 ? 1 : TraitCodes.textSizeCodes)
    }
    static func variantsHeaderSize(textSizeMask: UInt8) -> Int { 8 + 4 * variantSlotCount(textSizeMask: textSizeMask) }
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

/// The sections of a version 4 file, by their four-character kind, in the order the writer
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
    case blocks = 0x534B_4C42  // "BLKS"

    var index: Int { SectionKind.allCases.firstIndex(of: self)! }
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

/// Trait values as small codes (`Codes.swift`): 0 is "no value in this dimension".
enum TraitCodes {
    static func code(_ idiom: Idiom?) -> Int { Int(idiom?.diskCode ?? 0) }
    static func code(_ appearance: Appearance?) -> Int { Int(appearance?.diskCode ?? 0) }
    static func code(_ contrast: Contrast?) -> Int { Int(contrast?.diskCode ?? 0) }
    static func code(_ textSize: TextSize?) -> Int { Int(textSize?.diskCode ?? 0) }

    static func idiom(_ code: Int) -> Idiom? { DiskCodes.idioms.value(code) }
    static func appearance(_ code: Int) -> Appearance? { DiskCodes.appearances.value(code) }
    static func contrast(_ code: Int) -> Contrast? { DiskCodes.contrasts.value(code) }
    static func textSize(_ code: Int) -> TextSize? { DiskCodes.textSizes.value(code) }

    static let idiomCodes = DiskCodes.idioms.codeCount
    static let appearanceCodes = DiskCodes.appearances.codeCount
    static let contrastCodes = DiskCodes.contrasts.codeCount
    static let textSizeCodes = DiskCodes.textSizes.codeCount

    /// The text-size code picks a block of `Format.variantSlotCount` slots, so a trait set without
    /// text size has the slot it had before format 1.1.
    static func slot(_ traits: TraitSet) -> Int {
        slot(
            idiom: code(traits.idiom), appearance: code(traits.appearance), contrast: code(traits.contrast),
            textSize: code(traits.textSize))
    }

    static func slot(idiom: Int, appearance: Int, contrast: Int, textSize: Int) -> Int {
        textSize * Format.variantSlotCount + (idiom * appearanceCodes + appearance) * contrastCodes + contrast
    }

    static func traits(slot: Int) -> TraitSet {
        let inBlock = slot % Format.variantSlotCount
        return TraitSet(
            idiom: idiom(inBlock / (appearanceCodes * contrastCodes)),
            appearance: appearance(inBlock / contrastCodes % appearanceCodes),
            contrast: contrast(inBlock % contrastCodes),
            textSize: textSize(slot / Format.variantSlotCount))
    }

    static func masks(_ axes: TraitAxes) -> (UInt8, UInt8, UInt8, UInt8) {
        func mask<Value>(_ values: Set<Value>, _ code: (Value) -> UInt8) -> UInt8 {
            values.reduce(0) { $0 | 1 << (code($1) - 1) }
        }
        return (
            mask(axes.idioms, \.diskCode), mask(axes.appearances, \.diskCode), mask(axes.contrasts, \.diskCode),
            mask(axes.textSizes, \.diskCode)
        )
    }

    static func axes(idioms: UInt8, appearances: UInt8, contrasts: UInt8, textSizes: UInt8) -> TraitAxes {
        func values<Value>(_ mask: UInt8, _ table: DiskCodeTable<Value>) -> Set<Value> {
            Set((1..<table.codeCount).filter { mask & 1 << ($0 - 1) != 0 }.compactMap(table.value))
        }
        return TraitAxes(
            idioms: values(idioms, DiskCodes.idioms), appearances: values(appearances, DiskCodes.appearances),
            contrasts: values(contrasts, DiskCodes.contrasts), textSizes: values(textSizes, DiskCodes.textSizes))
    }

    static let idiomMaskBits = DiskCodes.idioms.maskBits
    static let appearanceMaskBits = DiskCodes.appearances.maskBits
    static let contrastMaskBits = DiskCodes.contrasts.maskBits
    static let textSizeMaskBits = DiskCodes.textSizes.maskBits
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
