// The verifier's frame: raw loads, the layout it finds, and the checks of header, section table and blocks.
import LiveryModel

/// Little-endian loads at absolute offsets. Only the verifier calls these on unchecked offsets,
/// and only after checking them; the reader calls them on offsets the verifier accepted.
struct RawBytes {
    let base: UnsafeRawPointer
    let count: Int

    @inline(__always) func u8(_ offset: Int) -> UInt8 { base.load(fromByteOffset: offset, as: UInt8.self) }
    @inline(__always) func u16(_ offset: Int) -> UInt16 {
        UInt16(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt16.self))
    }
    @inline(__always) func u32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
    @inline(__always) func int(_ offset: Int) -> Int { Int(u32(offset)) }
    @inline(__always) func u64(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    @inline(__always) func f64(_ offset: Int) -> Double { Double(bitPattern: u64(offset)) }
    /// The largest of `count` u32s: a tight loop the compiler vectorises, so the verifier checks
    /// big index arrays in one sweep and looks for the culprit only when there is one.
    func maxU32(_ offset: Int, _ count: Int) -> UInt32 {
        var largest: UInt32 = 0
        let start = base + offset
        for index in 0..<count {
            largest = max(
                largest, UInt32(littleEndian: start.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self)))
        }
        return largest
    }

    func buffer(_ offset: Int, _ length: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: base + offset, count: length)
    }
}

/// One entry of the section table, as `livery inspect` shows it.
public struct SectionInfo: Hashable, Sendable {
    /// Four characters, e.g. `STRS`.
    public var kind: String
    public var rawKind: UInt32
    public var required: Bool
    public var offset: Int
    public var length: Int
    public var checksum: UInt32
    /// Whether this reader knows the section (unknown optional sections are skipped).
    public var known: Bool
}

/// Where everything is, once the verifier has accepted a file. Absolute byte offsets; the counts
/// are the ones every index was checked against. Fixed size whatever the file (bar the section
/// list, which the limits cap).
struct Layout {
    var fileSize = 0
    var major: UInt16 = 0
    var minor: UInt16 = 0
    var flags: UInt32 = 0
    var sections: [SectionInfo] = []

    var stringCount = 0
    var stringOffsets = 0
    var stringBytes = 0
    var stringByteLength = 0

    var chainCount = 0
    var chainEntries = 0

    var idCount = 0
    var idStrings = 0
    var bucketCount = 0
    var buckets = 0
    var maxProbe = 0

    /// The dimensions the file records and how its variant slots are numbered (`VARS`).
    var addressing = VariantAddressing(dimensions: .standard, axes: TraitAxes())!
    var variantCount = 0
    var variantSlots = 0
    var variantRows = 0

    var instanceCount = 0
    var instanceRecords = 0
    var operationListLength = 0
    var operationLists = 0
    var patchCount = 0
    var patches = 0
    var operationCount = 0
    var operationRecords = 0
    var valueCount = 0
    var valueSlots = 0

    var searchOrderCount = 0
    var searchOrder = 0
    var assetCount = 0
    var assetRecords = 0
    var dataOffset = 0
    var dataLength = 0

    /// `BLKS`: block `b` is the bytes `blockStart + b << blockShift` up to `blockSize` of them,
    /// before `blockEnd`; its CRC-32 is the u32 at `blockChecksums + 4 * b`.
    var blockShift = 0
    var blockCount = 0
    var blockStart = 0
    var blockEnd = 0
    var blockChecksums = 0

    /// `CHOI` (optional): what the personal choices change; `choiceConstantCount` is 0 without it.
    var choices = ChoiceLayout()
}

/// The load-time check: one linear pass over the file, no allocation that grows with it. After it
/// returns, every offset, count, index, enum tag and float the reader will touch is known good.
/// Content integrity (checksums, UTF-8, hash placement) is `CompiledTheme.verifyContents()`.
enum Verifier {
    static func verify(_ raw: RawBytes, limits: VerificationLimits) throws(BinaryFormatError) -> Layout {
        var layout = Layout()
        try header(raw, limits: limits, into: &layout)
        try sectionTable(raw, limits: limits, into: &layout)
        try strings(raw, limits: limits, into: &layout)
        try chain(raw, limits: limits, into: &layout)
        try idTable(raw, limits: limits, into: &layout)
        try counts(raw, limits: limits, into: &layout)
        try variants(raw, into: &layout)
        try instances(raw, layout: layout)
        try operationsAndValues(raw, limits: limits, layout: layout)
        try assets(raw, limits: limits, into: &layout)
        try choices(raw, limits: limits, into: &layout)
        try blocks(raw, into: &layout)
        return layout
    }

    /// `BLKS` is the last section; its blocks tile the bytes from the first section to it.
    /// Only its shape is checked here: each block's checksum is checked when a read first
    /// needs the block (`BlockChecks`).
    static func blocks(_ raw: RawBytes, into layout: inout Layout) throws(BinaryFormatError) {
        let (offset, length) = section(layout, .blocks)
        guard layout.sections.last?.rawKind == SectionKind.blocks.rawValue else {
            throw fail(offset, "section 'BLKS' must be the last section")
        }
        try minimumLength(.blocks, offset: offset, length: length, Format.blocksHeaderSize)
        let size = raw.int(offset)
        guard Format.blockSizes.contains(size), size & (size - 1) == 0 else {
            throw fail(offset, "block size \(size) is not a power of two in \(Format.blockSizes)")
        }
        let start = layout.sections.first!.offset
        let covered = offset - start
        let count = (covered + size - 1) / size
        guard raw.int(offset + 4) == count else {
            throw fail(
                offset + 4,
                "the blocks section counts \(raw.int(offset + 4)) blocks, the \(covered) bytes before it need \(count)")
        }
        try expectLength(.blocks, offset: offset, length: length, UInt64(Format.blocksHeaderSize + 4 * count))
        layout.blockShift = size.trailingZeroBitCount
        layout.blockCount = count
        layout.blockStart = start
        layout.blockEnd = offset
        layout.blockChecksums = offset + Format.blocksHeaderSize
    }

    static func fail(_ offset: Int, _ reason: String) -> BinaryFormatError {
        .malformed(offset: offset, reason: reason)
    }

    static func header(_ raw: RawBytes, limits: VerificationLimits, into layout: inout Layout) throws(BinaryFormatError)
    {
        guard raw.count >= Format.headerSize else {
            throw .truncated(expected: UInt64(Format.headerSize), actual: UInt64(raw.count))
        }
        for (index, byte) in Format.magic.enumerated() where raw.u8(index) != byte { throw .badMagic }
        layout.major = raw.u16(8)
        layout.minor = raw.u16(10)
        guard layout.major == Format.major else {
            throw .unsupportedVersion(major: layout.major, minor: layout.minor)
        }
        guard raw.u32(12) == UInt32(Format.headerSize) else {
            throw fail(12, "header size is \(raw.u32(12)), expected 64")
        }
        let sectionCount = raw.int(28)
        guard sectionCount >= 1 else { throw fail(28, "the section table is empty") }
        guard sectionCount <= limits.maxSections else {
            throw .limitExceeded(what: "section count", value: UInt64(sectionCount), limit: UInt64(limits.maxSections))
        }
        guard raw.u32(40) == UInt32(Format.sectionEntrySize) else {
            throw fail(40, "section entry size is \(raw.u32(40)), expected 32")
        }
        let tableOffset = raw.u64(32)
        guard tableOffset >= UInt64(Format.headerSize), tableOffset % UInt64(Format.alignment) == 0,
            tableOffset <= UInt64(Int32.max)
        else {
            throw fail(32, "section table offset \(tableOffset) is not an aligned offset after the header")
        }
        let tableEnd = Int(tableOffset) + sectionCount * Format.sectionEntrySize
        guard tableEnd <= raw.count else { throw .truncated(expected: UInt64(tableEnd), actual: UInt64(raw.count)) }
        let stored = raw.u32(Format.headerChecksumOffset)
        let computed = headerChecksum(raw, tableOffset: Int(tableOffset), sectionCount: sectionCount)
        guard stored == computed else { throw .headerChecksumMismatch(stored: stored, computed: computed) }
        let fileSize = raw.u64(16)
        guard fileSize <= limits.maxFileSize else {
            throw .limitExceeded(what: "file size", value: fileSize, limit: limits.maxFileSize)
        }
        if fileSize > UInt64(raw.count) { throw .truncated(expected: fileSize, actual: UInt64(raw.count)) }
        if fileSize < UInt64(raw.count) { throw .trailingBytes(expected: fileSize, actual: UInt64(raw.count)) }
        layout.fileSize = raw.count
        layout.flags = raw.u32(24)
        guard layout.flags & Format.requiredFlagsMask == 0 else {
            throw .unsupportedFlags(layout.flags & Format.requiredFlagsMask)
        }
    }

    /// CRC-32 of the header's first 60 bytes, continued over the section table, so a flipped bit
    /// anywhere in either is caught before any offset is believed.
    static func headerChecksum(_ raw: RawBytes, tableOffset: Int, sectionCount: Int) -> UInt32 {
        let head = CRC32.checksum(raw.buffer(0, Format.headerChecksumOffset))
        return CRC32.update(head, raw.buffer(tableOffset, sectionCount * Format.sectionEntrySize))
    }

    static func sectionTable(_ raw: RawBytes, limits: VerificationLimits, into layout: inout Layout)
        throws(BinaryFormatError)
    {
        let count = raw.int(28)
        let table = Int(raw.u64(32))
        let fileSize = UInt64(layout.fileSize)
        var previousEnd = UInt64(table + count * Format.sectionEntrySize)
        var found = [Int](repeating: -1, count: SectionKind.allCases.count)
        for index in 0..<count {
            let entry = table + index * Format.sectionEntrySize
            let rawKind = raw.u32(entry)
            let required = raw.u32(entry + 4) & Format.sectionRequiredFlag != 0
            let offset = raw.u64(entry + 8)
            let length = raw.u64(entry + 16)
            let name = sectionKindName(rawKind)
            guard offset % UInt64(Format.alignment) == 0 else {
                throw fail(entry + 8, "section '\(name)' offset \(offset) is not a multiple of 8")
            }
            guard offset <= fileSize, length <= fileSize - offset else {
                throw fail(
                    entry + 16,
                    "section '\(name)' (offset \(offset), length \(length)) runs past the end of the \(fileSize)-byte file"
                )
            }
            guard offset >= previousEnd else {
                throw fail(
                    entry + 8,
                    "section '\(name)' at offset \(offset) overlaps the header, the section table or the previous section (sections must be in increasing order)"
                )
            }
            previousEnd = offset + length
            for earlier in 0..<index where raw.u32(table + earlier * Format.sectionEntrySize) == rawKind {
                throw .duplicateSection(kind: name, offset: entry)
            }
            let kind = SectionKind(rawValue: rawKind)
            if kind == nil && required { throw .unknownRequiredSection(kind: name, offset: entry) }
            if let kind { found[kind.index] = index }
            layout.sections.append(
                SectionInfo(
                    kind: name, rawKind: rawKind, required: required, offset: Int(offset),
                    length: Int(length), checksum: raw.u32(entry + 24), known: kind != nil))
        }
        for kind in SectionKind.allCases where found[kind.index] < 0 && kind.isRequired {
            throw .missingSection(kind: sectionKindName(kind.rawValue))
        }
    }

    static func section(_ layout: Layout, _ kind: SectionKind) -> (offset: Int, length: Int) {
        let info = layout.sections.first { $0.rawKind == kind.rawValue }!
        return (info.offset, info.length)
    }

    /// A section whose length must be exactly what its counts imply.
    static func expectLength(_ kind: SectionKind, offset: Int, length: Int, _ expected: UInt64)
        throws(BinaryFormatError)
    {
        guard UInt64(length) == expected else {
            throw fail(
                offset, "section '\(sectionKindName(kind.rawValue))' is \(length) bytes, its counts need \(expected)")
        }
    }

    static func minimumLength(_ kind: SectionKind, offset: Int, length: Int, _ minimum: Int) throws(BinaryFormatError) {
        guard length >= minimum else {
            throw fail(
                offset,
                "section '\(sectionKindName(kind.rawValue))' is \(length) bytes, shorter than its \(minimum)-byte header"
            )
        }
    }

    static func limit(_ what: String, _ value: Int, _ limit: Int) throws(BinaryFormatError) {
        guard value <= limit else { throw .limitExceeded(what: what, value: UInt64(value), limit: UInt64(limit)) }
    }

    static func stringIndex(_ raw: RawBytes, _ offset: Int, _ layout: Layout, optional: Bool = false)
        throws(BinaryFormatError)
    {
        let index = raw.u32(offset)
        if optional && index == Format.none { return }
        guard Int(index) < layout.stringCount else {
            throw fail(offset, "string index \(index) is out of range (\(layout.stringCount) strings)")
        }
    }
}
