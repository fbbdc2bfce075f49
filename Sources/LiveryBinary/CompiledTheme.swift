// The compiled theme: loading and verifying a file, its facts, its strings and its parent chain.
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
}
