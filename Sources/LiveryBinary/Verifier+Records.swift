// Verifying the records: instances and their patches, operations, value slots and assets.
import LiveryModel

extension Verifier {
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
