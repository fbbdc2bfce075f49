// The writer's entry point and state: what a compiled file holds, the byte buffer, the file's frame.
import LiveryModel

/// A SHA-256 (or any 32-byte) digest of a theme's source files. LiveryBinary only stores it; the
/// compiler computes it, so the runtime can tell when a compiled file is stale.
public struct SourceDigest: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    /// `bytes` must hold exactly 32 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Format.digestSize else { return nil }
        self.bytes = bytes
    }

    public var description: String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// Everything a compiled file holds: the resolved variants, a digest of each theme's sources and
/// the bytes of every asset file in the catalog.
public struct CompiledThemeContents: Sendable {
    public var theme: ThemeVariants
    /// By theme id, for the theme and its ancestors; a theme without one stores no digest.
    public var sourceDigests: [String: SourceDigest]
    /// Must hold every file of `theme.assets.variants`.
    public var assetBytes: [AssetFileKey: [UInt8]]

    public init(
        theme: ThemeVariants, sourceDigests: [String: SourceDigest] = [:],
        assetBytes: [AssetFileKey: [UInt8]] = [:]
    ) {
        self.theme = theme
        self.sourceDigests = sourceDigests
        self.assetBytes = assetBytes
    }
}

/// Little-endian appends into a growing byte array.
struct ByteBuffer {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u32(_ value: Int) { u32(UInt32(value)) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }
    mutating func f64(_ value: Double) { u64(value.bitPattern) }
    mutating func zeros(_ count: Int) { bytes.append(contentsOf: repeatElement(0, count: count)) }
    mutating func pad(to alignment: Int) { zeros((alignment - bytes.count % alignment) % alignment) }

    mutating func setU32(_ value: UInt32, at offset: Int) {
        withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<offset + 4, with: $0) }
    }
}

/// Turns resolved themes into the compiled format (docs/BinaryFormat.md). Output is a pure
/// function of the input, so compiling twice gives identical bytes.
public enum ThemeWriter {
    public static func encode(_ contents: CompiledThemeContents) throws(BinaryFormatError) -> [UInt8] {
        var state = EncoderState()
        return try state.encode(contents)
    }

    /// Header, section table, then each section at the next 8-byte boundary, then `BLKS`: the
    /// checksum of every `blockSize` bytes from the first section to the end of the last (unless
    /// `sections` brings its own `BLKS`, as hostile-bytes tests do).
    static func assemble(
        _ sections: [(kind: UInt32, required: Bool, bytes: [UInt8])],
        blockSize: Int = Format.blockSize
    ) -> [UInt8] {
        let addsBlocks = !sections.contains { $0.kind == SectionKind.blocks.rawValue }
        let count = sections.count + (addsBlocks ? 1 : 0)
        var file = ByteBuffer()
        file.zeros(Format.headerSize + count * Format.sectionEntrySize)
        var entries = ByteBuffer()
        func place(_ kind: UInt32, _ required: Bool, _ bytes: [UInt8]) {
            file.pad(to: Format.alignment)
            entries.u32(kind)
            entries.u32(required ? Format.sectionRequiredFlag : 0)
            entries.u64(UInt64(file.bytes.count))
            entries.u64(UInt64(bytes.count))
            entries.u32(CRC32.checksum(bytes))
            entries.u32(0)
            file.bytes += bytes
        }
        for (kind, required, bytes) in sections { place(kind, required, bytes) }
        file.pad(to: Format.alignment)
        if addsBlocks {
            place(
                SectionKind.blocks.rawValue, true,
                blockChecksums(
                    file.bytes, from: Format.headerSize + count * Format.sectionEntrySize, blockSize: blockSize))
            file.pad(to: Format.alignment)
        }
        var header = ByteBuffer()
        header.bytes += Format.magic
        header.u16(Format.major)
        header.u16(Format.minor)
        header.u32(Format.headerSize)
        header.u64(UInt64(file.bytes.count))
        header.u32(0)
        header.u32(count)
        header.u64(UInt64(Format.headerSize))
        header.u32(Format.sectionEntrySize)
        header.zeros(Format.headerChecksumOffset - header.bytes.count)
        file.bytes.replaceSubrange(0..<Format.headerChecksumOffset, with: header.bytes)
        file.bytes.replaceSubrange(Format.headerSize..<Format.headerSize + entries.bytes.count, with: entries.bytes)
        file.setU32(headerChecksum(file.bytes), at: Format.headerChecksumOffset)
        return file.bytes
    }

    /// The `BLKS` section for `file[start...]`: block size, block count, a CRC-32 per block.
    static func blockChecksums(_ file: [UInt8], from start: Int, blockSize: Int) -> [UInt8] {
        let covered = max(file.count - start, 0)
        let count = (covered + blockSize - 1) / blockSize
        var section = ByteBuffer()
        section.u32(blockSize)
        section.u32(count)
        file.withUnsafeBytes { raw in
            for block in 0..<count {
                let lower = start + block * blockSize
                section.u32(
                    CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[lower..<min(lower + blockSize, file.count)])))
            }
        }
        return section.bytes
    }

    static func headerChecksum(_ file: [UInt8]) -> UInt32 {
        file.withUnsafeBytes { raw in
            let count = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 28, as: UInt32.self)))
            let table = Int(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 32, as: UInt64.self)))
            let head = CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<Format.headerChecksumOffset]))
            return CRC32.update(
                head,
                UnsafeRawBufferPointer(
                    rebasing: raw[table..<table + count * Format.sectionEntrySize]))
        }
    }
}

struct EncoderState {
    var strings: [String] = []
    /// Keyed by exact bytes: Swift's `==` treats canonically equivalent strings ("é" and "e" + U+0301)
    /// as equal, so one would be stored for the other and an id would no longer be found by the
    /// hash of its own bytes (found by the FuzzRoundTrip fuzzer, docs/Security.md).
    var stringIndex: [ExactString: UInt32] = [:]
    var instances = ByteBuffer()
    var instanceCount = 0
    /// Records are shared by every (id, variant) that resolves to the same component and list.
    var instanceIndex: [RecordKey: UInt32] = [:]
    var operations = ByteBuffer()
    var operationCount = 0
    /// Keyed by exact bytes too: two operations whose strings differ only in normalization, or
    /// whose numbers differ only in the sign of a zero, would otherwise share one record, and the
    /// second would read back with the first one's bytes.
    var operationIndex: [ExactOperation: UInt32] = [:]
    /// The operations interned, by the storage of their params: a resolution reuses the params an
    /// operation resolved to in other variants, and the variants stay alive while they are
    /// encoded, so the storage's address names one list; the name and state are compared
    /// (bench-brands.py, build: hashing every param of every operation of each new record).
    var operationsOfParams: [ParamsStorage: [(name: String, state: ControlState, index: UInt32)]] = [:]

    struct ParamsStorage: Hashable {
        var address: UInt
        var count: Int
    }
    /// Operation numbers: one full list per distinct list that is not stored as a patch.
    var operationLists: [UInt32] = []
    var operationListIndex: [[UInt32]: UInt32] = [:]
    /// `(position, operation)` pairs, in record order (record r's patches follow record r-1's).
    var patches: [UInt32] = []
    /// Per handle, the full lists its earlier records use: the candidate bases of its next patch.
    var baseLists: [[(first: Int, count: Int)]] = []
    /// Per record, its list when it has no patches (a full list, so a possible base).
    var recordLists: [(first: Int, count: Int)?] = []
    /// The record of each (handle, component, operation storage) recorded: variants that resolved an
    /// instance once share its operations' storage, and the variants stay alive while they are
    /// encoded, so the storage's address names one list (bench-brands.py, build).
    var recordOfStorage: [StorageKey: UInt32] = [:]

    struct StorageKey: Hashable {
        var handle: Int
        var component: String
        var address: UInt
        var count: Int
    }
    /// Top-level params in operation order; `valueSection` places array elements after them.
    var values: [PendingValue] = []
    var cachedImages: Set<ExactString> = []

    struct RecordKey: Hashable {
        var component: UInt32
        var operations: [UInt32]
    }

    /// A value slot before the final layout: arrays know their elements, placed after every param.
    struct PendingValue {
        var name: UInt32
        var value: Value
    }

    /// The variants the file stores: each canonical trait set's in its own slot, instances sorted by id.
    struct StoredVariants {
        var addressing: VariantAddressing
        /// Per slot, the stored variant (`Format.none` for a trait set the theme does not store).
        var slots: [UInt32]
        var instances: [[ResolvedInstance]]
    }

    /// Every section, each by its own function, in the order that interns their strings.
    mutating func encode(_ contents: CompiledThemeContents) throws(BinaryFormatError) -> [UInt8] {
        let theme = contents.theme
        let stored = try Self.storedVariants(theme)

        // Handles: every distinct id, sorted.
        var ids = Array(Set(stored.instances.joined().map(\.id))).sorted()
        ids = ids.reduce(into: []) { result, id in if result.last != id { result.append(id) } }
        var handleOf: [String: Int] = [:]
        for (handle, id) in ids.enumerated() { handleOf[id] = handle }
        baseLists = Array(repeating: [], count: ids.count)

        // Chain first so the theme's own strings come early in the pool.
        let chainSection = chainSection(theme.ancestors + [theme.info], digests: contents.sourceDigests)
        let idSection = try idSection(ids)
        let variantSection = try variantSection(stored, ids: ids, handles: handleOf)
        let valueSection = try valueSection()
        let (assetSection, dataSection) = try assetSections(
            theme.assets, bytes: contents.assetBytes, dimensions: theme.dimensions)

        // Personal choices, only for a theme with overridable constants (an optional section).
        var variantIndex: [TraitSet: Int] = [:]
        for traits in theme.axes.traitSets where theme.variants[traits] != nil {
            variantIndex[traits] = Int(stored.slots[stored.addressing.slot(traits)])
        }
        let choiceSection =
            theme.choices.isEmpty
            ? nil
            : try choiceSection(
                theme.choices, variants: variantIndex, variantCount: stored.instances.count, handles: handleOf,
                operationCount: { variant, handle in
                    stored.instances[variant].first { $0.id == ids[handle] }?.operations.count
                })

        // The string pool last: every section above has interned its strings by now.
        let stringSection = try stringSection()

        let sections: [(SectionKind, [UInt8])] = [
            (.strings, stringSection), (.chain, chainSection), (.ids, idSection),
            (.variants, variantSection), (.instances, instanceSection()),
            (.operationLists, listSection()), (.listPatches, patchSection()),
            (.operations, operationSection()), (.values, valueSection),
            (.assets, assetSection), (.data, dataSection),
        ]
        return ThemeWriter.assemble(
            sections.map { ($0.0.rawValue, true, $0.1) }
                + (choiceSection.map { [(SectionKind.choices.rawValue, false, $0)] } ?? []))
    }
}
