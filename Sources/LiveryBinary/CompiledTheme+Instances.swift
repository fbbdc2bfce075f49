// Building resolved instances from the records: one by handle or id, or the whole model.
import LiveryModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension CompiledTheme {
    // MARK: - Lookup

    /// The handle of `id`, or nil when no variant defines it. One hash and at most
    /// `maxProbeLength` comparisons.
    public func handle(for id: String) -> InstanceHandle? {
        var id = id
        return id.withUTF8 { query -> InstanceHandle? in
            let key = UnsafeRawBufferPointer(query)
            let mask = layout.bucketCount - 1
            var position = Int(truncatingIfNeeded: IDHash.hash(key)) & mask
            for _ in 0..<layout.maxProbe {
                let entry = raw.int(layout.buckets + 4 * position)
                if entry == 0 { return nil }
                let handle = entry - 1
                let candidate = stringBuffer(raw.u32(layout.idStrings + 4 * handle))
                if candidate.count == key.count,
                    key.count == 0 || memcmp(candidate.baseAddress!, key.baseAddress!, key.count) == 0
                {
                    return InstanceHandle(rawValue: UInt32(handle))
                }
                position = (position + 1) & mask
            }
            return nil
        }
    }

    /// `handle(for:)` with the blocks it reads checked: a flipped bit in the id table or an id
    /// throws instead of answering for the wrong id.
    public func checkedHandle(for id: String) throws(BinaryFormatError) -> InstanceHandle? {
        try blocks.withLock { () throws(BinaryFormatError) -> InstanceHandle? in
            var id = id
            let mask = layout.bucketCount - 1
            let hash = id.withUTF8 { IDHash.hash(UnsafeRawBufferPointer($0)) }
            var position = Int(truncatingIfNeeded: hash) & mask
            for _ in 0..<layout.maxProbe {
                try blocks.check(layout.buckets + 4 * position, 4)
                let entry = raw.int(layout.buckets + 4 * position)
                if entry == 0 { return nil }
                try blocks.check(layout.idStrings + 4 * (entry - 1), 4)
                let candidate = raw.u32(layout.idStrings + 4 * (entry - 1))
                try checkString(candidate)
                let bytes = stringBuffer(candidate)
                if bytes.count == id.utf8.count, bytes.elementsEqual(id.utf8) {
                    return InstanceHandle(rawValue: UInt32(entry - 1))
                }
                position = (position + 1) & mask
            }
            return nil
        }
    }

    /// The id a handle stands for.
    public func id(of handle: InstanceHandle) -> String? {
        guard Int(handle.rawValue) < layout.idCount else { return nil }
        return string(raw.u32(layout.idStrings + 4 * Int(handle.rawValue)))
    }

    /// The stored variant an app running with `traits` uses (values the theme never mentions are
    /// dropped first, as `TraitAxes.canonical` does).
    public func variant(for traits: TraitSet) -> VariantHandle? {
        let variant = raw.u32(layout.variantSlots + 4 * layout.addressing.slot(traits))
        return variant == Format.none ? nil : VariantHandle(rawValue: variant)
    }

    /// The instance record a handle resolves to in a variant, if the variant defines it.
    func recordIndex(_ handle: InstanceHandle, _ variant: VariantHandle) throws(BinaryFormatError) -> Int? {
        guard Int(handle.rawValue) < layout.idCount, Int(variant.rawValue) < layout.variantCount else { return nil }
        let field = layout.variantRows + 4 * (Int(variant.rawValue) * layout.idCount + Int(handle.rawValue))
        try blocks.check(field, 4)
        let entry = raw.int(field)
        return entry == 0 ? nil : entry - 1
    }

    /// The number of the record an instance has in a variant, nil where the variant does not
    /// define it. Records carry no id, so an instance given one record in two variants reads
    /// back the same in both.
    public func record(of handle: InstanceHandle, in variant: VariantHandle) throws(BinaryFormatError) -> Int? {
        try blocks.withLock { () throws(BinaryFormatError) -> Int? in try recordIndex(handle, variant) }
    }

    /// The fastest path: an instance by handle in a variant, built from its records alone, every
    /// block they are read from checked first (`BLKS`): nil when the variant does not define it
    /// (or building it would pass `materializationBudget`), `blockChecksumMismatch` when the
    /// bytes it needs are corrupt.
    public func instance(_ handle: InstanceHandle, in variant: VariantHandle) throws(BinaryFormatError)
        -> ResolvedInstance?
    {
        try blocks.withLock { () throws(BinaryFormatError) -> ResolvedInstance? in
            guard let record = try recordIndex(handle, variant), Int(handle.rawValue) < layout.idCount else {
                return nil
            }
            let field = layout.idStrings + 4 * Int(handle.rawValue)
            try blocks.check(field, 4)
            let id = try checkedString(raw.u32(field))
            var budget = materializationBudget
            return try instance(record: record, id: id, budget: &budget)
        }
    }

    /// The effective operations of `id` for an app running with `traits`, without building
    /// anything else; nil when the instance does not exist for those traits.
    public func operations(of id: String, for traits: TraitSet) throws(BinaryFormatError) -> [ResolvedOperation]? {
        try instance(id, for: traits)?.operations
    }

    public func instance(_ id: String, for traits: TraitSet) throws(BinaryFormatError) -> ResolvedInstance? {
        guard let handle = try checkedHandle(for: id), let variant = variant(for: traits) else { return nil }
        return try instance(handle, in: variant)
    }

    /// Builds one record (records carry no id: every id resolving the same way shares one).
    /// Records, lists, operations and values can be shared, so a hostile file could expand
    /// enormously: `budget` counts what is built and nil means it ran out. Inside `blocks.withLock`.
    func instance(record index: Int, id: String, budget: inout Int) throws(BinaryFormatError) -> ResolvedInstance? {
        let record = layout.instanceRecords + index * Format.instanceRecordSize
        // The previous record's patch end too: it is where this record's patches start.
        try blocks.check(
            index == 0 ? record : record - Format.instanceRecordSize,
            index == 0 ? Format.instanceRecordSize : 2 * Format.instanceRecordSize)
        let first = raw.int(record + 4)
        let count = raw.int(record + 8)
        // The record's patches run from the previous record's end to its own (verified: in
        // increasing positions, each below `count`).
        var patch = index == 0 ? 0 : raw.int(record - Format.instanceRecordSize + 12)
        let patchEnd = raw.int(record + 12)
        budget -= 1 + count
        guard budget >= 0 else { return nil }
        try blocks.check(layout.operationLists + 4 * first, 4 * count)
        try blocks.check(layout.patches + Format.patchEntrySize * patch, Format.patchEntrySize * (patchEnd - patch))
        var operations: [ResolvedOperation] = []
        operations.reserveCapacity(count)
        for position in 0..<count {
            var number = raw.int(layout.operationLists + 4 * (first + position))
            if patch < patchEnd, raw.int(layout.patches + Format.patchEntrySize * patch) == position {
                number = raw.int(layout.patches + Format.patchEntrySize * patch + 4)
                patch += 1
            }
            guard let operation = try operation(number, budget: &budget) else { return nil }
            operations.append(operation)
        }
        return ResolvedInstance(id: id, component: try checkedString(raw.u32(record)), operations: operations)
    }

    func operation(_ index: Int, budget: inout Int) throws(BinaryFormatError) -> ResolvedOperation? {
        let record = layout.operationRecords + index * Format.operationRecordSize
        try blocks.check(record, Format.operationRecordSize)
        let first = raw.int(record + 8)
        let count = raw.int(record + 12)
        try blocks.check(slot(first), count * Format.valueSlotSize)
        var params: [Param] = []
        params.reserveCapacity(count)
        for slot in first..<first + count {
            guard let value = try value(slot, budget: &budget) else { return nil }
            params.append(Param(name: try checkedString(raw.u32(self.slot(slot))), value: value))
        }
        return ResolvedOperation(
            name: try checkedString(raw.u32(record)),
            state: ControlState(rawValue: try checkedString(raw.u32(record + 4))), params: params)
    }

    @inline(__always) func slot(_ index: Int) -> Int { layout.valueSlots + index * Format.valueSlotSize }

    /// Recursion is bounded by the verified array depth. The slot's block is checked by the
    /// caller (an operation checks its params, an array its elements).
    func value(_ index: Int, budget: inout Int) throws(BinaryFormatError) -> Value? {
        try value(atSlot: slot(index), budget: &budget)
    }

    /// The value in the slot at byte offset `slot` (of `PARM`, or a literal of `CHOI`).
    func value(atSlot slot: Int, budget: inout Int) throws(BinaryFormatError) -> Value? {
        budget -= 1
        guard budget >= 0 else { return nil }
        let small = raw.u8(slot + 5)
        switch ValueTag(rawValue: raw.u8(slot + 4)) ?? .integer {
        case .float: return .float(raw.f64(slot + 8))
        case .integer: return .integer(Int64(bitPattern: raw.u64(slot + 8)))
        case .bool: return .bool(small == 1)
        case .string: return .string(try checkedString(raw.u32(slot + 8)))
        case .enumeration: return .enumeration(try checkedString(raw.u32(slot + 8)))
        case .color:
            return .color(
                Color(
                    red: raw.f64(slot + 8), green: raw.f64(slot + 16), blue: raw.f64(slot + 24),
                    alpha: raw.f64(slot + 32)))
        case .point: return .point(Point(x: raw.f64(slot + 8), y: raw.f64(slot + 16)))
        case .size: return .size(Size(width: raw.f64(slot + 8), height: raw.f64(slot + 16)))
        case .rect:
            return .rect(
                Rect(
                    x: raw.f64(slot + 8), y: raw.f64(slot + 16), width: raw.f64(slot + 24),
                    height: raw.f64(slot + 32)))
        case .insets:
            return .insets(
                Insets(
                    top: raw.f64(slot + 8), left: raw.f64(slot + 16), bottom: raw.f64(slot + 24),
                    right: raw.f64(slot + 32)))
        case .font:
            let weight = DiskCodes.fontWeights.value(Int(raw.u8(slot + 12)))
            let scaling = DiskCodes.fontScalings.value(Int(raw.u8(slot + 13)))
            return .font(
                Font(
                    family: try checkedString(raw.u32(slot + 8)), size: small == 1 ? raw.f64(slot + 16) : nil,
                    weight: weight ?? .regular,
                    maxSize: raw.u8(slot + 14) == 1 ? raw.f64(slot + 24) : nil,
                    scaling: scaling,
                    letterSpacing: raw.u8(slot + 15) & 1 != 0 ? raw.f64(slot + 32) : nil,
                    lineHeight: raw.u8(slot + 15) & 2 != 0 ? raw.f64(slot + 40) : nil))
        case .image: return .image(ImageReference(name: try checkedString(raw.u32(slot + 8)), cache: small == 1))
        case .array:
            let first = raw.int(slot + 8)
            let count = raw.int(slot + 12)
            try blocks.check(self.slot(first), count * Format.valueSlotSize)
            var items: [Value] = []
            for element in first..<first + count {
                guard let item = try value(element, budget: &budget) else { return nil }
                items.append(item)
            }
            return .array(items)
        }
    }

    // MARK: - The whole model

    /// Operations and values `materialize()` (or one instance lookup) may build from this file:
    /// `limits.materializationBudget(fileSize:)`, proportional to the file's size.
    public var materializationBudget: Int { limits.materializationBudget(fileSize: fileSize) }

    /// The full resolved model, as the XML front end builds it (what `dump` and tests compare).
    /// Throws only when record sharing would expand past `materializationBudget` operations and values.
    public func materialize() throws(BinaryFormatError) -> ThemeVariants {
        // Every block is read below: check them in one pass first.
        try verifyBlocks()
        let chain = self.chain
        var cache: [Int: ResolvedInstance] = [:]
        let limit = materializationBudget
        var budget = limit
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        try blocks.withLock { () throws(BinaryFormatError) in
            for slot in 0..<layout.addressing.slotCount {
                let variant = raw.u32(layout.variantSlots + 4 * slot)
                guard variant != Format.none else { continue }
                var instances: [ResolvedInstance] = []
                for handle in 0..<layout.idCount {
                    guard
                        let record = try recordIndex(
                            InstanceHandle(rawValue: UInt32(handle)), VariantHandle(rawValue: variant))
                    else { continue }
                    let id = string(raw.u32(layout.idStrings + 4 * handle))
                    if var known = cache[record] {
                        known.id = id
                        instances.append(known)
                        continue
                    }
                    guard let built = try instance(record: record, id: id, budget: &budget) else {
                        throw .limitExceeded(
                            what: "materialised values", value: UInt64(limit) + 1, limit: UInt64(limit))
                    }
                    cache[record] = built
                    instances.append(built)
                }
                variants[layout.addressing.traits(slot: slot)] = instances
            }
        }
        var variantTraits: [Int: [TraitSet]] = [:]
        for slot in 0..<layout.addressing.slotCount {
            let variant = raw.u32(layout.variantSlots + 4 * slot)
            if variant != Format.none {
                variantTraits[Int(variant), default: []].append(layout.addressing.traits(slot: slot))
            }
        }
        let choices = try blocks.withLock { () throws(BinaryFormatError) -> ChoiceTable in
            try choiceTable(variantTraits: variantTraits, budget: &budget)
        }
        return ThemeVariants(
            info: chain.last!.info, ancestors: chain.dropLast().map(\.info), axes: axes,
            variants: variants, assets: assetCatalog, dimensions: dimensions, choices: choices)
    }
}
