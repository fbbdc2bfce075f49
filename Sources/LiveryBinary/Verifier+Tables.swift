// Verifying the tables lookups start from: strings, the parent chain, the id hash table and the variants.
import LiveryModel

extension Verifier {
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
        let (dimensions, axes) = try recordedDimensions(
            raw, records: records, count: dimensionCount, values: valueStart, layout: layout)
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

    /// The dimension records of `VARS` at `records` and their values from `valueStart`.
    private static func recordedDimensions(
        _ raw: RawBytes, records: Int, count dimensionCount: Int, values valueStart: Int, layout: Layout
    ) throws(BinaryFormatError) -> (TraitDimensions, TraitAxes) {
        let standard = TraitDimensions.standard.all
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
        return (dimensions, axes)
    }
}
