import LiveryModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The number of an instance id inside one compiled file: look it up once by string, then use it
/// for every trait set (ids are sorted, so handles also order instances by id).
public struct InstanceHandle: Hashable, Sendable, Comparable {
    public var rawValue: UInt32
    /// Handles run from 0 to `idCount - 1`; out-of-range handles simply find nothing.
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One resolved variant of the theme (a canonical trait set) inside one compiled file.
public struct VariantHandle: Hashable, Sendable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
}

/// A theme of the parent chain as the compiled file records it.
public struct ChainEntry: Hashable, Sendable {
    public var info: ThemeInfo
    /// The digest of this theme's sources when it was compiled (nil if the compiler gave none).
    public var sourceDigest: SourceDigest?
}

/// An asset file inside the compiled file.
public struct CompiledAsset: Hashable, Sendable {
    public var variant: AssetVariant
    /// Some image reference to this asset name asks the engine to keep the decoded image.
    public var cache: Bool
    /// Where the bytes are, relative to the start of the file (8-byte aligned).
    public var offset: Int
    public var length: Int
}

/// A compiled theme, memory-mapped read-only (or, when small, read into memory) and verified,
/// its bytes kept for its lifetime.
/// Every accessor is safe whatever the file held: `init` rejects anything the accessors could not
/// read. Immutable, hence `Sendable`.
public final class CompiledTheme: @unchecked Sendable {
    let raw: RawBytes
    let layout: Layout
    private let release: Release
    /// Which blocks reads have checked; what makes every value read from here trustworthy.
    let blocks: BlockChecks
    public let limits: VerificationLimits
    /// The file it was mapped from (nil for bytes verified in memory), for messages.
    public let path: String?

    /// How the bytes were obtained, hence how they are given back.
    private enum Release {
        case unmap(UnsafeMutableRawPointer, Int)
        case deallocate(UnsafeMutableRawPointer)

        func free() {
            switch self {
            case .unmap(let pointer, let size): munmap(pointer, size)
            case .deallocate(let pointer): pointer.deallocate()
            }
        }
    }

    /// Maps (or, when small, reads) and verifies the file at `path`. Replace compiled files by
    /// renaming a new file over them (as `livery compile` does), never by rewriting in place: a
    /// mapped file that shrinks under a reader is beyond any verifier.
    public init(contentsOf path: String, limits: VerificationLimits = VerificationLimits()) throws(BinaryFormatError) {
        let file = try Self.load(path, limits: limits, populate: true)
        let raw = RawBytes(base: UnsafeRawPointer(file.pointer), count: file.size)
        do {
            self.layout = try Verifier.verify(raw, limits: limits)
        } catch {
            file.release.free()
            throw error
        }
        self.raw = raw
        self.release = file.release
        self.limits = limits
        self.path = path
        blocks = BlockChecks(raw: raw, layout: layout)
    }

    /// The theme's facts (its own entry of the parent chain) read from the file at `path`
    /// without verifying or reading anything else: the header, the section table, the string
    /// offsets and the chain are verified, and the blocks the facts are read from are checked.
    ///
    /// What discovery needs of every compiled file in a search path: an app launches one theme,
    /// and verifying every other file in full at launch cost time in proportion to themes it
    /// does not show (a launch of the sample themes opened five).
    public static func info(contentsOf path: String, limits: VerificationLimits = VerificationLimits())
        throws(BinaryFormatError) -> ThemeInfo
    {
        let file = try load(path, limits: limits, populate: false)
        defer { file.release.free() }
        let raw = RawBytes(base: UnsafeRawPointer(file.pointer), count: file.size)
        var layout = Layout()
        try Verifier.header(raw, limits: limits, into: &layout)
        try Verifier.sectionTable(raw, limits: limits, into: &layout)
        try Verifier.strings(raw, limits: limits, into: &layout)
        try Verifier.chain(raw, limits: limits, into: &layout)
        try Verifier.blocks(raw, into: &layout)
        let blocks = BlockChecks(raw: raw, layout: layout)
        return try blocks.withLock { () throws(BinaryFormatError) -> ThemeInfo in
            let entry = layout.chainEntries + (layout.chainCount - 1) * Format.chainEntrySize
            try blocks.check(entry, Format.chainEntrySize)
            return try chainInfo(at: entry, in: raw) { (index: UInt32) throws(BinaryFormatError) -> String in
                try checkString(index, in: raw, layout, blocks)
                return string(index, in: raw, layout)
            }
        }
    }

    /// Files up to this size are read into memory instead of mapped. A launch opens several
    /// small files (discovery reads every compiled file's facts, then the theme shown is
    /// loaded): for them one `read` costs less than `mmap`, its page faults and `munmap`
    /// (docs/Performance.md). Larger files are mapped, so that what is never read never costs.
    public static let readThreshold = 64 * 1024

    /// Opens the file at `path` after checking it is a regular file of a size the limits allow,
    /// and reads it into memory (small files) or maps it read-only. `populate` reads a whole
    /// mapping in at once (on Linux), for a caller that is about to verify all of it.
    private static func load(
        _ path: String, limits: VerificationLimits,
        populate: Bool
    ) throws(BinaryFormatError) -> (pointer: UnsafeMutableRawPointer, size: Int, release: Release) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, message: Self.errorText()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io(path: path, message: Self.errorText()) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .io(path: path, message: "not a regular file") }
        let size = Int(status.st_size)
        guard UInt64(size) <= limits.maxFileSize else {
            throw .limitExceeded(what: "file size", value: UInt64(size), limit: limits.maxFileSize)
        }
        guard size >= Format.headerSize else {
            throw .truncated(expected: UInt64(Format.headerSize), actual: UInt64(size))
        }
        if size <= readThreshold {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            var done = 0
            while done < size {
                let count = read(descriptor, memory + done, size - done)
                if count > 0 {
                    done += count
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    let message = count < 0 ? Self.errorText() : "the file shrank while it was read"
                    memory.deallocate()
                    throw .io(path: path, message: message)
                }
            }
            return (memory, size, .deallocate(memory))
        }
        guard let mapped = mmap(nil, size, PROT_READ, populate ? Self.mapFlags : MAP_PRIVATE, descriptor, 0),
            mapped != MAP_FAILED
        else {
            throw .io(path: path, message: "cannot map: \(Self.errorText())")
        }
        return (mapped, size, .unmap(mapped, size))
    }

    /// Verifies a copy of `bytes` (tests, and files that arrive over the network).
    public init(bytes: [UInt8], limits: VerificationLimits = VerificationLimits()) throws(BinaryFormatError) {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress, !source.isEmpty { memory.copyMemory(from: base, byteCount: source.count) }
        }
        let raw = RawBytes(base: UnsafeRawPointer(memory), count: bytes.count)
        do {
            self.layout = try Verifier.verify(raw, limits: limits)
        } catch {
            memory.deallocate()
            throw error
        }
        self.raw = raw
        self.release = .deallocate(memory)
        self.limits = limits
        self.path = nil
        blocks = BlockChecks(raw: raw, layout: layout)
    }

    deinit {
        release.free()
    }

    /// The verifier reads every record page anyway: on Linux, populating the mapping in one call
    /// is cheaper than taking a page fault per page.
    #if os(Linux)
        private static let mapFlags = MAP_PRIVATE | MAP_POPULATE
    #else
        private static let mapFlags = MAP_PRIVATE
    #endif

    private static func errorText() -> String { String(cString: strerror(errno)) }

    // MARK: - File facts (for `livery inspect`)

    public var formatVersion: (major: UInt16, minor: UInt16) { (layout.major, layout.minor) }
    /// Whether the bytes are a mapping of the file (files over `readThreshold`), rather than a
    /// copy read into memory (smaller files, and bytes verified in memory).
    public var isMapped: Bool {
        if case .unmap = release { return true }
        return false
    }
    public var fileSize: Int { layout.fileSize }
    public var flags: UInt32 { layout.flags }
    public var sections: [SectionInfo] { layout.sections }
    public var stringCount: Int { layout.stringCount }
    public var instanceRecordCount: Int { layout.instanceCount }
    public var operationRecordCount: Int { layout.operationCount }
    public var operationListLength: Int { layout.operationListLength }
    /// Entries of `PTCH`: operations that replace one position of a shared list.
    public var listPatchCount: Int { layout.patchCount }
    public var valueSlotCount: Int { layout.valueCount }
    public var idCount: Int { layout.idCount }
    public var variantCount: Int { layout.variantCount }
    public var maxProbeLength: Int { layout.maxProbe }
    public var bucketCount: Int { layout.bucketCount }
    /// Bytes per checksummed block (`BLKS`), and how many blocks there are.
    public var blockSize: Int { blocks.blockSize }
    public var blockCount: Int { blocks.blockCount }
    /// Blocks whose checksum reads have checked so far: what a lookup has cost in checking.
    public var checkedBlockCount: Int { blocks.checkedCount }

    // MARK: - Strings

    func string(_ index: UInt32) -> String { Self.string(index, in: raw, layout) }

    /// String `index` of a file whose string offsets are verified; "" when out of range.
    @inline(__always)
    private static func string(_ index: UInt32, in raw: RawBytes, _ layout: Layout) -> String {
        guard Int(index) < layout.stringCount else { return "" }
        let start = raw.int(layout.stringOffsets + 4 * Int(index))
        let end = raw.int(layout.stringOffsets + 4 * Int(index) + 4)
        return String(decoding: raw.buffer(layout.stringBytes + start, end - start), as: UTF8.self)
    }

    /// `string(index)` after checking the blocks it is read from (inside `blocks.withLock`).
    func checkedString(_ index: UInt32) throws(BinaryFormatError) -> String {
        try checkString(index)
        return string(index)
    }

    /// Checks the blocks of string `index`: its end offsets and its bytes.
    func checkString(_ index: UInt32) throws(BinaryFormatError) { try Self.checkString(index, in: raw, layout, blocks) }

    @inline(__always)
    private static func checkString(
        _ index: UInt32, in raw: RawBytes, _ layout: Layout,
        _ blocks: BlockChecks
    ) throws(BinaryFormatError) {
        guard Int(index) < layout.stringCount else { return }
        let entry = layout.stringOffsets + 4 * Int(index)
        try blocks.check(entry, 8)
        let start = raw.int(entry)
        try blocks.check(layout.stringBytes + start, raw.int(entry + 4) - start)
    }

    func stringBuffer(_ index: UInt32) -> UnsafeRawBufferPointer {
        let start = raw.int(layout.stringOffsets + 4 * Int(index))
        let end = raw.int(layout.stringOffsets + 4 * Int(index) + 4)
        return raw.buffer(layout.stringBytes + start, end - start)
    }

    // MARK: - Theme facts

    /// Root first, the theme itself last.
    public var chain: [ChainEntry] {
        (0..<layout.chainCount).map { index in
            let entry = layout.chainEntries + index * Format.chainEntrySize
            let info = Self.chainInfo(at: entry, in: raw) { string($0) }
            let digest =
                raw.u32(entry + 20) == 1
                ? SourceDigest(bytes: Array(raw.buffer(entry + 24, Format.digestSize))) : nil
            return ChainEntry(info: info, sourceDigest: digest)
        }
    }

    public var info: ThemeInfo { chain.last!.info }

    /// The facts of the chain entry at `entry`, its strings read by `string`.
    private static func chainInfo<E: Error>(
        at entry: Int, in raw: RawBytes,
        _ string: (UInt32) throws(E) -> String
    ) throws(E) -> ThemeInfo {
        func optional(_ field: Int) throws(E) -> String? {
            raw.u32(entry + field) == Format.none ? nil : try string(raw.u32(entry + field))
        }
        return ThemeInfo(
            id: try string(raw.u32(entry)), name: try string(raw.u32(entry + 4)),
            version: try string(raw.u32(entry + 8)), parent: try optional(12), description: try optional(16))
    }
    /// The digest of the theme's own sources: compare with the folder's to tell a stale file.
    public var sourceDigest: SourceDigest? { chain.last!.sourceDigest }

    public var axes: TraitAxes { layout.addressing.axes }

    /// The trait dimensions the file was compiled with: the standard ones and the app's own.
    public var dimensions: TraitDimensions { layout.addressing.dimensions }

    /// The canonical trait sets stored, in slot order (the generic one first).
    public var variantTraits: [TraitSet] {
        (0..<layout.addressing.slotCount).compactMap { slot in
            raw.u32(layout.variantSlots + 4 * slot) == Format.none ? nil : layout.addressing.traits(slot: slot)
        }
    }

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

    // MARK: - Assets

    public var assets: [CompiledAsset] {
        (0..<layout.assetCount).map { index in
            let record = layout.assetRecords + index * Format.assetRecordSize
            var qualifiers = TraitSet()
            for dimension in 0..<Format.assetQualifierBytes {
                let code = Int(raw.u8(record + 16 + dimension))
                if code != 0 { qualifiers[dimension] = code - 1 }
            }
            let variant = AssetVariant(
                name: string(raw.u32(record)), themeID: string(raw.u32(record + 4)),
                file: string(raw.u32(record + 8)), qualifiers: qualifiers,
                scale: raw.int(record + 12))
            return CompiledAsset(
                variant: variant, cache: raw.u8(record + 16 + Format.assetQualifierBytes) == 1,
                offset: layout.dataOffset + Int(raw.u64(record + 32)),
                length: Int(raw.u64(record + 40)))
        }
    }

    public var assetCatalog: AssetCatalog {
        AssetCatalog(
            searchOrder: (0..<layout.searchOrderCount).map { string(raw.u32(layout.searchOrder + 4 * $0)) },
            variants: assets.map(\.variant))
    }

    /// Lends the mapped bytes of an asset: no copy, valid only inside `body`. Nil when the
    /// asset is not in the file or its bytes fail their block checksums.
    public func withBytes<R>(of asset: CompiledAsset, _ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R? {
        guard asset.offset >= layout.dataOffset, asset.length >= 0,
            asset.offset + asset.length <= layout.dataOffset + layout.dataLength
        else { return nil }
        do {
            try blocks.withLock { () throws(BinaryFormatError) in try blocks.check(asset.offset, asset.length) }
        } catch {
            return nil
        }
        return try body(raw.buffer(asset.offset, asset.length))
    }

    public func bytes(of asset: CompiledAsset) -> [UInt8]? { withBytes(of: asset) { Array($0) } }

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

    // MARK: - Integrity

    /// Checks every section's CRC-32 (the section table's checksums). A pass over the whole
    /// file: `livery inspect` and `compile --verify` run it; the runtime relies on the blocks.
    public func verifyChecksums() throws(BinaryFormatError) {
        for section in layout.sections
        where CRC32.checksum(raw.buffer(section.offset, section.length)) != section.checksum {
            throw .sectionChecksumMismatch(kind: section.kind, offset: section.offset)
        }
    }

    /// Checks every block of `BLKS` not checked yet (a pass over the file the first time).
    public func verifyBlocks() throws(BinaryFormatError) {
        try blocks.checkAll()
    }

    /// Checks the blocks of what discovery and images read besides instances: the parent chain,
    /// the variant table, the asset directory and their strings. Small, whatever the theme's size.
    public func verifyMetadata() throws(BinaryFormatError) {
        try blocks.withLock { () throws(BinaryFormatError) in
            let (chainStart, chainLength) = Verifier.section(layout, .chain)
            try blocks.check(chainStart, chainLength)
            let (variantStart, _) = Verifier.section(layout, .variants)
            try blocks.check(variantStart, layout.variantRows - variantStart)
            let (assetStart, assetLength) = Verifier.section(layout, .assets)
            try blocks.check(assetStart, assetLength)
            for index in 0..<layout.chainCount {
                let entry = layout.chainEntries + index * Format.chainEntrySize
                for field in 0..<5 where raw.u32(entry + 4 * field) != Format.none {
                    _ = try checkedString(raw.u32(entry + 4 * field))
                }
            }
            for index in 0..<layout.searchOrderCount { _ = try checkedString(raw.u32(layout.searchOrder + 4 * index)) }
            for index in 0..<layout.assetCount {
                let record = layout.assetRecords + index * Format.assetRecordSize
                for field in 0..<3 { _ = try checkedString(raw.u32(record + 4 * field)) }
            }
        }
    }

    /// Checksums plus what checksums cannot vouch for in a hand-made file: strings are UTF-8,
    /// and every id is found by its own hash within the probe limit (and only once).
    public func verifyContents() throws(BinaryFormatError) {
        try verifyChecksums()
        try verifyBlocks()
        for index in 0..<layout.stringCount where !Self.isValidUTF8(stringBuffer(UInt32(index))) {
            throw .malformed(offset: layout.stringOffsets + 4 * index, reason: "string \(index) is not valid UTF-8")
        }
        for handle in 0..<layout.idCount {
            let field = layout.idStrings + 4 * handle
            let id = string(raw.u32(field))
            guard self.handle(for: id)?.rawValue == UInt32(handle) else {
                throw .malformed(offset: field, reason: "id '\(id)' is not found by its hash (or appears twice)")
            }
        }
    }

    static func isValidUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
