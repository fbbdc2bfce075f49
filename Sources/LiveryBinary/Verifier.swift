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

    static func strings(_ raw: RawBytes, limits: VerificationLimits, into layout: inout Layout)
        throws(BinaryFormatError)
    {
        let (offset, length) = section(layout, .strings)
        try minimumLength(.strings, offset: offset, length: length, 12)
        let count = raw.int(offset)
        let byteLength = raw.int(offset + 4)
        try limit("string count", count, limits.maxStrings)
        try expectLength(.strings, offset: offset, length: length, 8 + 4 * (UInt64(count) + 1) + UInt64(byteLength))
        layout.stringCount = count
        layout.stringOffsets = offset + 8
        layout.stringBytes = offset + 8 + 4 * (count + 1)
        layout.stringByteLength = byteLength
        guard raw.u32(layout.stringOffsets) == 0 else {
            throw fail(layout.stringOffsets, "the first string does not start at 0")
        }
        var previous: UInt32 = 0
        for index in 0..<count {
            let end = raw.u32(layout.stringOffsets + 4 * (index + 1))
            guard end >= previous else {
                throw fail(layout.stringOffsets + 4 * (index + 1), "string \(index) ends before it starts")
            }
            previous = end
        }
        guard Int(previous) == byteLength else {
            throw fail(
                layout.stringOffsets + 4 * count,
                "the last string ends at \(previous), the pool holds \(byteLength) bytes")
        }
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

    static func chain(_ raw: RawBytes, limits: VerificationLimits, into layout: inout Layout) throws(BinaryFormatError)
    {
        let (offset, length) = section(layout, .chain)
        try minimumLength(.chain, offset: offset, length: length, 8)
        let count = raw.int(offset)
        guard count >= 1 else { throw fail(offset, "the parent chain is empty") }
        try limit("parent chain length", count, limits.maxChainLength)
        try expectLength(.chain, offset: offset, length: length, 8 + UInt64(count) * UInt64(Format.chainEntrySize))
        layout.chainCount = count
        layout.chainEntries = offset + 8
        for index in 0..<count {
            let entry = layout.chainEntries + index * Format.chainEntrySize
            for field in 0..<3 { try stringIndex(raw, entry + 4 * field, layout) }
            try stringIndex(raw, entry + 12, layout, optional: true)
            try stringIndex(raw, entry + 16, layout, optional: true)
            guard raw.u32(entry + 20) <= 1 else { throw fail(entry + 20, "unknown digest kind \(raw.u32(entry + 20))") }
        }
    }

    static func idTable(_ raw: RawBytes, limits: VerificationLimits, into layout: inout Layout)
        throws(BinaryFormatError)
    {
        let (offset, length) = section(layout, .ids)
        try minimumLength(.ids, offset: offset, length: length, Format.idTableHeaderSize)
        let count = raw.int(offset)
        let buckets = raw.int(offset + 4)
        let probe = raw.int(offset + 8)
        try limit("instance id count", count, limits.maxInstances)
        guard buckets >= 1, buckets & (buckets - 1) == 0, buckets >= count else {
            throw fail(offset + 4, "bucket count \(buckets) is not a power of two at least the id count \(count)")
        }
        guard probe >= 1, probe <= buckets else {
            throw fail(offset + 8, "probe length \(probe) is not in 1...\(buckets)")
        }
        try limit("hash table probe length", probe, limits.maxProbeLength)
        try expectLength(
            .ids, offset: offset, length: length,
            UInt64(Format.idTableHeaderSize) + 4 * UInt64(count) + 4 * UInt64(buckets))
        layout.idCount = count
        layout.idStrings = offset + Format.idTableHeaderSize
        layout.bucketCount = buckets
        layout.buckets = layout.idStrings + 4 * count
        layout.maxProbe = probe
        for handle in 0..<count { try stringIndex(raw, layout.idStrings + 4 * handle, layout) }
        if raw.maxU32(layout.buckets, buckets) > count,
            let bucket = (0..<buckets).first(where: { raw.int(layout.buckets + 4 * $0) > count })
        {
            throw fail(
                layout.buckets + 4 * bucket,
                "bucket holds handle \(raw.u32(layout.buckets + 4 * bucket) &- 1), there are \(count) ids")
        }
    }

    /// The record counts of the instance, operation and value sections, checked against their lengths.
    static func counts(_ raw: RawBytes, limits: VerificationLimits, into layout: inout Layout) throws(BinaryFormatError)
    {
        func records(_ kind: SectionKind, size: Int) throws(BinaryFormatError) -> (count: Int, start: Int) {
            let (offset, length) = section(layout, kind)
            try minimumLength(kind, offset: offset, length: length, 8)
            let count = raw.int(offset)
            try expectLength(kind, offset: offset, length: length, 8 + UInt64(count) * UInt64(size))
            return (count, offset + 8)
        }
        (layout.instanceCount, layout.instanceRecords) = try records(.instances, size: Format.instanceRecordSize)
        try limit("instance record count", layout.instanceCount, limits.maxInstances)
        (layout.operationListLength, layout.operationLists) = try records(.operationLists, size: 4)
        (layout.patchCount, layout.patches) = try records(.listPatches, size: Format.patchEntrySize)
        (layout.operationCount, layout.operationRecords) = try records(.operations, size: Format.operationRecordSize)
        (layout.valueCount, layout.valueSlots) = try records(.values, size: Format.valueSlotSize)
    }

    static func variants(_ raw: RawBytes, into layout: inout Layout) throws(BinaryFormatError) {
        let (offset, length) = section(layout, .variants)
        try minimumLength(.variants, offset: offset, length: length, Format.variantsFixedSize)
        let dimensionCount = Int(raw.u8(offset))
        let standard = TraitDimensions.standard.all
        guard dimensionCount >= standard.count, dimensionCount <= TraitSet.capacity else {
            throw fail(offset, "dimension count \(dimensionCount) is not in \(standard.count)...\(TraitSet.capacity)")
        }
        guard raw.u8(offset + 1) == 0, raw.u8(offset + 2) == 0, raw.u8(offset + 3) == 0 else {
            throw fail(offset + 1, "reserved bytes after the dimension count are not zero")
        }
        let records = offset + Format.variantsFixedSize
        try minimumLength(
            .variants, offset: offset, length: length,
            Format.variantsFixedSize + dimensionCount * Format.dimensionRecordSize)
        let valueCount = (0..<dimensionCount).reduce(0) {
            $0 + Int(raw.u8(records + $1 * Format.dimensionRecordSize + 6))
        }
        let valueStart = records + dimensionCount * Format.dimensionRecordSize
        try minimumLength(.variants, offset: offset, length: length, valueStart - offset + 4 * valueCount)

        // The record: the standard dimensions first, each with the reader's values or a prefix of
        // them (values are only ever appended); then the app's, which must form a valid table.
        func string(_ field: Int) throws(BinaryFormatError) -> String {
            try stringIndex(raw, field, layout)
            let index = Int(raw.u32(field))
            let start = raw.int(layout.stringOffsets + 4 * index)
            let end = raw.int(layout.stringOffsets + 4 * index + 4)
            return String(decoding: raw.buffer(layout.stringBytes + start, end - start), as: UTF8.self)
        }
        var declared: [TraitDimension] = []
        var axes = TraitAxes()
        var valueField = valueStart
        for index in 0..<dimensionCount {
            let record = records + index * Format.dimensionRecordSize
            let name = try string(record)
            let mask = raw.u16(record + 4)
            let count = Int(raw.u8(record + 6))
            guard raw.u8(record + 7) == 0 else { throw fail(record + 7, "reserved byte of a dimension is not zero") }
            var values: [String] = []
            for _ in 0..<count {
                values.append(try string(valueField))
                valueField += 4
            }
            guard count >= 1, count <= TraitDimensions.maximumValues, mask >> count == 0 else {
                throw fail(record + 4, "dimension '\(name)' has \(count) values and mentions \(mask)")
            }
            if index < standard.count {
                guard name == standard[index].name, values.count <= standard[index].values.count,
                    values.elementsEqual(standard[index].values.prefix(values.count))
                else {
                    throw fail(
                        record,
                        "dimension \(index) is '\(name)' (\(values.joined(separator: " "))), not the standard '\(standard[index].name)'"
                    )
                }
            } else {
                declared.append(TraitDimension(name: name, values: values))
            }
            for value in 0..<count where mask & 1 << value != 0 { axes.insert(value, of: index) }
        }
        let dimensions: TraitDimensions
        do {
            dimensions = try TraitDimensions(appDefined: declared)
        } catch {
            throw fail(records, "the recorded dimensions are invalid: \(error)")
        }
        let slotsStart = valueStart + 4 * valueCount
        let sectionEnd = offset + length
        guard
            let addressing = VariantAddressing(dimensions: dimensions, axes: axes, limit: (sectionEnd - slotsStart) / 4)
        else {
            throw fail(records, "the recorded dimensions need more variant slots than the section holds")
        }
        let headerSize = slotsStart - offset + 4 * addressing.slotCount
        let count = raw.int(offset + 4)
        guard count >= 1, count <= addressing.slotCount else {
            throw fail(offset + 4, "variant count \(count) is not in 1...\(addressing.slotCount)")
        }
        try expectLength(
            .variants, offset: offset, length: length,
            UInt64(headerSize) + 4 * UInt64(count) * UInt64(layout.idCount))
        layout.addressing = addressing
        layout.variantCount = count
        layout.variantSlots = slotsStart
        layout.variantRows = offset + headerSize
        for slot in 0..<addressing.slotCount {
            let field = layout.variantSlots + 4 * slot
            let variant = raw.u32(field)
            guard variant != Format.none else { continue }
            guard Int(variant) < count else { throw fail(field, "variant slot names variant \(variant) of \(count)") }
        }
        let entries = count * layout.idCount
        if raw.maxU32(layout.variantRows, entries) > layout.instanceCount,
            let entry = (0..<entries).first(where: { raw.int(layout.variantRows + 4 * $0) > layout.instanceCount })
        {
            throw fail(
                layout.variantRows + 4 * entry,
                "variant entry names instance record \(raw.u32(layout.variantRows + 4 * entry) &- 1) of \(layout.instanceCount)"
            )
        }
    }

    /// Records: a component, a range of `OPLS`, and the end of their patches in `PTCH`. Patches
    /// tile `PTCH` in record order (each record's start where the previous one's ended), so each
    /// patch entry is checked exactly once, against its own record: positions strictly increasing
    /// and inside the list. Records point only into `OPLS` and `PTCH`, never at each other, so
    /// there is nothing to loop.
    static func instances(_ raw: RawBytes, layout: Layout) throws(BinaryFormatError) {
        var patch = 0
        for index in 0..<layout.instanceCount {
            let record = layout.instanceRecords + index * Format.instanceRecordSize
            try stringIndex(raw, record, layout)
            let count = raw.int(record + 8)
            guard UInt64(raw.u32(record + 4)) + UInt64(count) <= UInt64(layout.operationListLength) else {
                throw fail(
                    record + 4,
                    "operation list \(raw.u32(record + 4)) + \(count) runs past the \(layout.operationListLength) entries"
                )
            }
            let end = raw.int(record + 12)
            guard end >= patch, end <= layout.patchCount else {
                throw fail(record + 12, "patches end at \(end), expected \(patch)...\(layout.patchCount)")
            }
            var next = 0
            while patch < end {
                let entry = layout.patches + patch * Format.patchEntrySize
                let position = raw.int(entry)
                guard position >= next, position < count else {
                    throw fail(
                        entry,
                        "patch position \(position) is not in \(next)..<\(count) (positions increase, inside the list)")
                }
                next = position + 1
                patch += 1
            }
        }
        guard patch == layout.patchCount else {
            throw fail(
                layout.patches + patch * Format.patchEntrySize,
                "\(layout.patchCount - patch) patches belong to no record")
        }
        for patch in 0..<layout.patchCount {
            let field = layout.patches + patch * Format.patchEntrySize + 4
            guard raw.int(field) < layout.operationCount else {
                throw fail(field, "patch names operation \(raw.u32(field)) of \(layout.operationCount)")
            }
        }
        let lists = layout.operationListLength
        if lists > 0, raw.maxU32(layout.operationLists, lists) >= layout.operationCount,
            let index = (0..<lists).first(where: { raw.int(layout.operationLists + 4 * $0) >= layout.operationCount })
        {
            throw fail(
                layout.operationLists + 4 * index,
                "operation list names operation \(raw.u32(layout.operationLists + 4 * index)) of \(layout.operationCount)"
            )
        }
    }

    /// Operations' params tile the first value slots in order; arrays' elements tile the rest in
    /// slot order, always after the array itself, with a depth that shrinks: so values form a
    /// forest, materialising one costs at most its share of the file, and recursion is bounded.
    static func operationsAndValues(_ raw: RawBytes, limits: VerificationLimits, layout: Layout)
        throws(BinaryFormatError)
    {
        var cursor = 0
        for index in 0..<layout.operationCount {
            let record = layout.operationRecords + index * Format.operationRecordSize
            try stringIndex(raw, record, layout)
            try stringIndex(raw, record + 4, layout)
            guard raw.int(record + 8) == cursor else {
                throw fail(record + 8, "operation params start at \(raw.u32(record + 8)), expected \(cursor)")
            }
            cursor += raw.int(record + 12)
            guard cursor <= layout.valueCount else {
                throw fail(record + 12, "operation params run past the \(layout.valueCount) values")
            }
        }
        var elements = cursor
        for index in 0..<layout.valueCount {
            let slot = layout.valueSlots + index * Format.valueSlotSize
            switch try valueSlot(raw, slot, layout: layout) {
            case .float, .integer, .bool, .string, .enumeration, .point, .size, .color, .rect, .insets, .font, .image:
                break
            case .array:
                let first = raw.int(slot + 8)
                let count = raw.int(slot + 12)
                let depth = raw.int(slot + 16)
                guard first == elements, first > index else {
                    throw fail(slot + 8, "array elements start at \(first), expected \(elements)")
                }
                elements += count
                guard elements <= layout.valueCount else {
                    throw fail(slot + 12, "array elements run past the \(layout.valueCount) values")
                }
                guard depth >= 1 else { throw fail(slot + 16, "array depth is 0") }
                try limit("array nesting depth", depth, limits.maxArrayDepth)
                for element in first..<first + count {
                    let child = layout.valueSlots + element * Format.valueSlotSize
                    if raw.u8(child + 4) == ValueTag.array.rawValue, raw.int(child + 16) >= depth {
                        throw fail(child + 16, "nested array is as deep as the array holding it")
                    }
                }
            }
        }
        guard elements == layout.valueCount else {
            throw fail(layout.valueSlots, "\(layout.valueCount - elements) value slots belong to no operation or array")
        }
    }

    /// Checks one value slot at `slot` (its name, tag, flags, numbers and strings) and returns its
    /// tag; an array's elements are the caller's to check.
    @inline(__always)
    static func valueSlot(_ raw: RawBytes, _ slot: Int, layout: Layout) throws(BinaryFormatError) -> ValueTag {
        try stringIndex(raw, slot, layout, optional: true)
        let small = raw.u8(slot + 5)
        func finite(_ count: Int) throws(BinaryFormatError) {
            for component in 0..<count where !raw.f64(slot + 8 + 8 * component).isFinite {
                throw fail(slot + 8 + 8 * component, "value holds a non-finite number")
            }
        }
        func flag() throws(BinaryFormatError) {
            guard small <= 1 else { throw fail(slot + 5, "flag byte is \(small), expected 0 or 1") }
        }
        guard let tag = ValueTag(rawValue: raw.u8(slot + 4)) else {
            throw fail(slot + 4, "unknown value tag \(raw.u8(slot + 4))")
        }
        switch tag {
        case .float: try finite(1)
        case .integer: break
        case .bool: try flag()
        case .string, .enumeration: try stringIndex(raw, slot + 8, layout)
        case .point, .size: try finite(2)
        case .color, .rect, .insets: try finite(4)
        case .font:
            try stringIndex(raw, slot + 8, layout)
            guard DiskCodes.fontWeights.value(Int(raw.u8(slot + 12))) != nil else {
                throw fail(slot + 12, "unknown font weight \(raw.u8(slot + 12))")
            }
            try flag()
            if small == 1, !raw.f64(slot + 16).isFinite { throw fail(slot + 16, "font size is not finite") }
            guard raw.u8(slot + 13) == 0 || DiskCodes.fontScalings.value(Int(raw.u8(slot + 13))) != nil else {
                throw fail(slot + 13, "unknown font scaling \(raw.u8(slot + 13))")
            }
            guard raw.u8(slot + 14) <= 1 else { throw fail(slot + 14, "max-size flag is \(raw.u8(slot + 14))") }
            if raw.u8(slot + 14) == 1, !(raw.f64(slot + 24).isFinite && raw.f64(slot + 24) > 0) {
                throw fail(slot + 24, "font max-size is not a finite number above 0")
            }
            guard raw.u8(slot + 15) <= 3 else { throw fail(slot + 15, "typography flags are \(raw.u8(slot + 15))") }
            if raw.u8(slot + 15) & 1 != 0, !raw.f64(slot + 32).isFinite {
                throw fail(slot + 32, "font letter spacing is not finite")
            }
            if raw.u8(slot + 15) & 2 != 0, !(raw.f64(slot + 40).isFinite && raw.f64(slot + 40) >= 0) {
                throw fail(slot + 40, "font line height is not a finite number of at least 0")
            }
        case .image:
            try stringIndex(raw, slot + 8, layout)
            try flag()
        case .array:
            break
        }
        return tag
    }

    static func assets(_ raw: RawBytes, limits: VerificationLimits, into layout: inout Layout) throws(BinaryFormatError)
    {
        let (data, dataLength) = section(layout, .data)
        layout.dataOffset = data
        layout.dataLength = dataLength
        let (offset, length) = section(layout, .assets)
        try minimumLength(.assets, offset: offset, length: length, 8)
        let orderCount = raw.int(offset)
        let count = raw.int(offset + 4)
        try limit("asset search order length", orderCount, limits.maxChainLength)
        try limit("asset count", count, limits.maxAssets)
        let recordsStart = 8 + (4 * orderCount + 7) / 8 * 8
        try expectLength(
            .assets, offset: offset, length: length,
            UInt64(recordsStart) + UInt64(count) * UInt64(Format.assetRecordSize))
        layout.searchOrderCount = orderCount
        layout.searchOrder = offset + 8
        layout.assetCount = count
        layout.assetRecords = offset + recordsStart
        for index in 0..<orderCount { try stringIndex(raw, layout.searchOrder + 4 * index, layout) }
        for index in 0..<count {
            let record = layout.assetRecords + index * Format.assetRecordSize
            for field in 0..<3 { try stringIndex(raw, record + 4 * field, layout) }
            let dimensions = layout.addressing.dimensions.all
            for dimension in 0..<Format.assetQualifierBytes {
                let code = Int(raw.u8(record + 16 + dimension))
                guard code == 0 || (dimension < dimensions.count && code <= dimensions[dimension].values.count) else {
                    throw fail(
                        record + 16 + dimension, "asset qualifier names an unknown value of dimension \(dimension)")
                }
            }
            let flags = record + 16 + Format.assetQualifierBytes
            guard raw.u8(flags) <= 1 else { throw fail(flags, "cache flag is \(raw.u8(flags))") }
            guard raw.u8(flags + 1) == 0, raw.u8(flags + 2) == 0 else {
                throw fail(flags + 1, "reserved bytes are not zero")
            }
            let start = raw.u64(record + 32)
            let size = raw.u64(record + 40)
            guard start % UInt64(Format.alignment) == 0 else {
                throw fail(record + 32, "asset data offset \(start) is not a multiple of 8")
            }
            guard start <= UInt64(dataLength), size <= UInt64(dataLength) - start else {
                throw fail(
                    record + 32,
                    "asset data (offset \(start), length \(size)) runs past the \(dataLength)-byte data section")
            }
        }
    }
}
