/// Everything that can be wrong with a compiled theme file, or with writing one. One enum so the
/// CLI and the runtime report a bad file the same way: what is wrong and, where it means
/// something, the byte offset.
public enum BinaryFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Opening, sizing, mapping or writing the file failed.
    case io(path: String, message: String)
    /// Fewer bytes than the header says (or than a header needs).
    case truncated(expected: UInt64, actual: UInt64)
    /// The file is longer than the header says: probably two writes interleaved.
    case trailingBytes(expected: UInt64, actual: UInt64)
    case badMagic
    /// Another major version: a future one's layout is unknown to this reader, an older one's is
    /// no longer read (recompile the theme).
    case unsupportedVersion(major: UInt16, minor: UInt16)
    case headerChecksumMismatch(stored: UInt32, computed: UInt32)
    /// A required flag this reader does not know.
    case unsupportedFlags(UInt32)
    case unknownRequiredSection(kind: String, offset: Int)
    case missingSection(kind: String)
    case duplicateSection(kind: String, offset: Int)
    case sectionChecksumMismatch(kind: String, offset: Int)
    /// The bytes `offset ..< offset + length` (one block of `BLKS`) do not match their
    /// checksum: found when a read first needs them, before any value from them is used.
    case blockChecksumMismatch(offset: Int, length: Int)
    /// A size, count or depth above the reader's configured limit.
    case limitExceeded(what: String, value: UInt64, limit: UInt64)
    /// Any other structural problem, at the offset of the offending field.
    case malformed(offset: Int, reason: String)
    /// The model handed to the writer cannot be stored (see the reason).
    case unencodable(String)

    public var description: String {
        switch self {
        case .io(let path, let message): return "\(path): \(message)"
        case .truncated(let expected, let actual):
            return "file is truncated: \(actual) bytes, expected \(expected)"
        case .trailingBytes(let expected, let actual):
            return "file has trailing bytes: \(actual) bytes, header says \(expected)"
        case .badMagic: return "not a compiled Livery theme (bad magic at offset 0)"
        case .unsupportedVersion(let major, let minor):
            if major < Format.major {
                return
                    "format version \(major).\(minor) is older than this reader (\(Format.major).\(Format.minor)) and no longer read; recompile the theme"
            }
            return
                "format version \(major).\(minor) is newer than this reader (\(Format.major).\(Format.minor)); recompile the theme or update Livery"
        case .headerChecksumMismatch(let stored, let computed):
            return
                "header checksum mismatch at offset \(Format.headerChecksumOffset): stored \(hex(stored)), computed \(hex(computed))"
        case .unsupportedFlags(let flags): return "unsupported required flags \(hex(flags)) at offset 24"
        case .unknownRequiredSection(let kind, let offset):
            return "unknown required section '\(kind)' (section table entry at offset \(offset))"
        case .missingSection(let kind): return "missing section '\(kind)'"
        case .duplicateSection(let kind, let offset):
            return "duplicate section '\(kind)' (section table entry at offset \(offset))"
        case .sectionChecksumMismatch(let kind, let offset):
            return "checksum mismatch in section '\(kind)' at offset \(offset)"
        case .blockChecksumMismatch(let offset, let length):
            return
                "checksum mismatch in the block of bytes \(offset)..<\(offset + length): the file is corrupt; recompile or reinstall the theme"
        case .limitExceeded(let what, let value, let limit):
            return "\(what) is \(value), above the limit of \(limit)"
        case .malformed(let offset, let reason): return "offset \(offset): \(reason)"
        case .unencodable(let reason): return "cannot compile: \(reason)"
        }
    }

    /// The byte offset the error is about, where it has one.
    public var offset: Int? {
        switch self {
        case .malformed(let offset, _), .unknownRequiredSection(_, let offset), .duplicateSection(_, let offset),
            .sectionChecksumMismatch(_, let offset), .blockChecksumMismatch(let offset, _):
            return offset
        case .badMagic: return 0
        case .headerChecksumMismatch: return Format.headerChecksumOffset
        case .unsupportedFlags: return 24
        default: return nil
        }
    }
}

private func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }

/// Caps the verifier enforces before anything trusts a file. The defaults are far above any real
/// theme and far below what would exhaust a phone's memory.
public struct VerificationLimits: Hashable, Sendable {
    public var maxFileSize: UInt64 = 1 << 30
    public var maxSections = 64
    public var maxStrings = 1 << 24
    public var maxInstances = 1 << 22
    /// Longest run of buckets a lookup may probe; a file needing more is rejected.
    public var maxProbeLength = 32
    /// Nesting of arrays inside arrays.
    public var maxArrayDepth = 16
    public var maxChainLength = 64
    public var maxAssets = 1 << 20
    /// Materialising the whole model (or one instance) stops past this many operations and
    /// values: a hostile file can share records to make a small file expand enormously. The budget
    /// actually used is `materializationBudget(fileSize:)`: proportional to the file, at most this.
    public var maxMaterializedValues = 1 << 24
    /// Operations and values a file may expand to per byte of file. Real themes expand to less
    /// than one per byte; 64 leaves a wide margin and bounds what a small hostile file can ask for.
    public var maxMaterializedValuesPerByte = 64
    /// The budget for a file of any size (small files get at least this much).
    public var minMaterializedValues = 1 << 16

    /// `min(maxMaterializedValues, max(minMaterializedValues, fileSize * maxMaterializedValuesPerByte))`.
    public func materializationBudget(fileSize: Int) -> Int {
        let (proportional, overflow) = max(fileSize, 0).multipliedReportingOverflow(
            by: max(maxMaterializedValuesPerByte, 0))
        return min(maxMaterializedValues, max(minMaterializedValues, overflow ? Int.max : proportional))
    }

    public init() {}
}
