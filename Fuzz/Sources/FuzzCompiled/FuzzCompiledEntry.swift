// The whole of fuzz target (2), FuzzCompiled, as a function: Fuzz/Sources/FuzzCompiled/main.swift calls
// it for libFuzzer and Tests/LiveryBinaryTests/FuzzRegressionTests.swift replays
// Tests/Fixtures/Regressions/FuzzCompiled through it (this file is linked there).
//
// bytes as a compiled theme file. Whatever the bytes, `CompiledTheme(bytes:)`
// must throw a `BinaryFormatError` or accept, and after it accepts, no accessor may trap.
import LiveryBinary
import LiveryModel

enum FuzzCompiledEntry {
    /// Every trait set (48) and a few scales: what an app could ask.
    static let allTraitSets: [TraitSet] = {
        var sets: [TraitSet] = []
        for idiom in [nil] + Idiom.allCases.map(Optional.some) {
            for appearance in [nil] + Appearance.allCases.map(Optional.some) {
                for contrast in [nil] + Contrast.allCases.map(Optional.some) {
                    sets.append(TraitSet(idiom: idiom, appearance: appearance, contrast: contrast))
                }
            }
        }
        return sets
    }()

    /// Small caps so a hostile file cannot make one input take seconds (the defaults are for apps).
    static let limits: VerificationLimits = {
        var limits = VerificationLimits()
        limits.maxMaterializedValues = 1 << 16
        return limits
    }()

    /// CRC-32 (IEEE, reflected, as in zlib and the format's header checksum).
    static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ parts: ArraySlice<UInt8>...) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for part in parts {
            for byte in part { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// Most mutations would die at the header checksum, which tests cover exhaustively; re-sealing
    /// it lets the fuzzer reach every check behind it. An input with the top bit of byte 44 (reserved,
    /// ignored by readers) set is left as it is, so the checksum check itself is fuzzed too.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= 64, bytes[44] & 0x80 == 0 else { return bytes }
        var bytes = bytes
        func load<T: FixedWidthInteger>(_ offset: Int, as: T.Type) -> T {
            var value: T = 0
            for index in (0..<MemoryLayout<T>.size).reversed() { value = value << 8 | T(bytes[offset + index]) }
            return value
        }
        let count = UInt64(load(28, as: UInt32.self))
        let table = load(32, as: UInt64.self)
        let end = table.addingReportingOverflow(count * 32)
        guard !end.overflow, end.partialValue <= UInt64(bytes.count), table <= UInt64(bytes.count) else { return bytes }
        let checksum = crc32(bytes[0..<60], bytes[Int(table)..<Int(end.partialValue)])
        for index in 0..<4 { bytes[60 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt32(index))) }
        return bytes
    }

    static func run(_ buffer: UnsafeBufferPointer<UInt8>) {
        let bytes = resealed(Array(buffer))
        guard let theme = try? CompiledTheme(bytes: bytes, limits: limits) else { return }
        // File facts
        _ = (
            theme.formatVersion, theme.fileSize, theme.flags, theme.sections, theme.stringCount,
            theme.instanceRecordCount, theme.operationRecordCount, theme.operationListLength,
            theme.valueSlotCount, theme.idCount, theme.variantCount, theme.maxProbeLength, theme.bucketCount
        )
        // Chain, traits
        let chain = theme.chain
        FuzzCheck.require(!chain.isEmpty, "a verified file has a chain")
        _ = (theme.info, theme.sourceDigest, theme.axes, theme.variantTraits)
        // Every handle, in every trait set; lookups by id round-trip to the same handle or miss.
        let handles = (0..<min(theme.idCount, 4096)).map { InstanceHandle(rawValue: UInt32($0)) }
        var ids: [String] = []
        for handle in handles {
            if let id = theme.id(of: handle) { ids.append(id) }
        }
        _ = theme.id(of: InstanceHandle(rawValue: UInt32.max))
        for traits in allTraitSets {
            guard let variant = theme.variant(for: traits) else { continue }
            for handle in handles.prefix(32) { _ = try? theme.instance(handle, in: variant) }
            _ = try? theme.instance(InstanceHandle(rawValue: UInt32(theme.idCount)), in: variant)
        }
        for id in ids.prefix(64) + ["", "button_send", "\u{0}", String(repeating: "x", count: 300)] {
            _ = theme.handle(for: id)
            _ = try? theme.checkedHandle(for: id)
            _ = try? theme.instance(id, for: .none)
            _ = try? theme.operations(of: id, for: TraitSet(idiom: .ipad, appearance: .dark, contrast: .highcontrast))
        }
        // Assets
        for asset in theme.assets.prefix(256) { _ = theme.bytes(of: asset) }
        let catalog = theme.assetCatalog
        _ = catalog.variants.count
        // Whole model, and the on-demand checks
        if let model = try? theme.materialize() {
            _ = CanonicalJSON.dump(model.resolved(for: .none), scale: 2)
        }
        _ = try? theme.verifyMetadata()
        _ = try? theme.verifyBlocks()
        _ = try? theme.verifyChecksums()
        _ = try? theme.verifyContents()
        return
    }
}
