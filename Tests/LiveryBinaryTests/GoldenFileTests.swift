import Foundation
import LiveryModel
import Testing

@testable import LiveryBinary

/// A compiled file kept in the repository: a format change that breaks reading it, or that
/// changes what the writer produces, fails here, so it has to be a deliberate version bump.
/// Regenerate after such a bump with `LIVERY_UPDATE_GOLDEN=1 swift test --filter GoldenFileTests`
/// (after pointing `path` at a new `sample-MAJOR.MINOR.livery`; the old one stays, to prove that
/// files of the old version are refused cleanly).
@Suite struct GoldenFileTests {
    static let folder: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(2)
        return components.joined(separator: "/") + "/Fixtures/Compiled/"
    }()
    static let path = folder + "sample-5.0.livery"
    /// Written by format 1.0 from the same model (its records carried an id and it had no `PTCH`).
    static let version1Path = folder + "sample-1.0.livery"
    /// Written by format 2.0 from the same model (it had no `BLKS`).
    static let version2Path = folder + "sample-2.0.livery"
    /// Written by format 3.0 from the same model, less the typography (its value slots were 40
    /// bytes, with no room for a font's letter spacing and line height).
    static let version3Path = folder + "sample-3.0.livery"
    /// Written by format 4.0 from the same model (four fixed trait dimensions, no record of them).
    static let version4Path = folder + "sample-4.0.livery"

    @Test func theGoldenFileStillReadsAsTheSampleModel() throws {
        if ProcessInfo.processInfo.environment["LIVERY_UPDATE_GOLDEN"] == "1" {
            try Data(try ThemeWriter.encode(SampleThemes.contents)).write(to: URL(fileURLWithPath: Self.path))
        }
        let theme = try CompiledTheme(contentsOf: Self.path)
        try theme.verifyContents()
        #expect(theme.formatVersion == (5, 0))
        #expect(theme.listPatchCount > 0)  // the golden file exercises patched lists
        #expect(try theme.materialize() == SampleThemes.theme)
        #expect(theme.sourceDigest == SampleThemes.contents.sourceDigests["com.acme.dark"])
    }

    @Test func theWriterStillProducesTheGoldenBytes() throws {
        let golden = try #require(FileManager.default.contents(atPath: Self.path))
        let current = try ThemeWriter.encode(SampleThemes.contents)
        let firstDifference = zip(golden, current).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(
            [UInt8](golden) == current,
            "first difference at byte \(firstDifference ?? min(golden.count, current.count))")
    }

    /// The header, byte for byte, as docs/BinaryFormat.md describes it.
    @Test func theHeaderIsLaidOutAsDocumented() throws {
        let golden = [UInt8](try #require(FileManager.default.contents(atPath: Self.path)))
        #expect(Array(golden[0..<8]) == [0x89, 0x4C, 0x56, 0x52, 0x59, 0x0D, 0x0A, 0x1A])
        #expect(Array(golden[8..<16]) == [5, 0, 0, 0, 64, 0, 0, 0])  // 5.0, header size 64
        let size = UInt64(golden.count)
        #expect(Array(golden[16..<24]) == (0..<8).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        #expect(Array(golden[24..<32]) == [0, 0, 0, 0, 13, 0, 0, 0])  // flags 0, 13 sections (CHOI included)
        #expect(Array(golden[32..<48]) == [64, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(golden[64..<72]) == Array("STRS".utf8) + [1, 0, 0, 0])  // first entry, required
        #expect(golden.count % 8 == 0)
        let theme = try CompiledTheme(bytes: golden)
        let kinds = theme.sections.map(\.kind)
        #expect(
            kinds == [
                "STRS", "CHAN", "IDTB", "VARS", "INST", "OPLS", "PTCH", "OPER", "PARM", "ASSE", "DATA", "CHOI", "BLKS",
            ])
        #expect(theme.sections.map(\.required) == Array(repeating: true, count: 11) + [false, true])
        // BLKS: block size 512, then a CRC-32 per 512 bytes from the first section to BLKS.
        let blocks = try #require(theme.sections.last)
        let first = theme.sections[0].offset
        let count = (blocks.offset - first + 511) / 512
        #expect(
            Array(golden[blocks.offset..<blocks.offset + 8]) == [0, 2, 0, 0]
                + (0..<4).map { UInt8(truncatingIfNeeded: count >> (8 * $0)) })
        #expect(blocks.length == 8 + 4 * count)
        for block in 0..<count {
            let lower = first + block * 512
            let stored = golden[blocks.offset + 8 + 4 * block..<blocks.offset + 12 + 4 * block]
                .enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
            #expect(stored == CRC32.checksum(Array(golden[lower..<min(lower + 512, blocks.offset)])), "block \(block)")
        }
    }

    /// The table-driven CRC-32 matches the standard check value ("123456789" -> CBF43926) and a
    /// bit-at-a-time reference on lengths around the 8-byte steps.
    @Test func crc32MatchesTheStandard() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        func reference(_ bytes: [UInt8]) -> UInt32 {
            var value: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                value ^= UInt32(byte)
                for _ in 0..<8 { value = value & 1 != 0 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
            }
            return ~value
        }
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(CRC32.checksum(bytes) == reference(bytes), "length \(length)")
        }
    }

    /// A file of the previous major version is refused with the version error, never misread.
    @Test func aVersion1FileIsRefusedAsOlder() throws {
        let old = [UInt8](try #require(FileManager.default.contents(atPath: Self.version1Path)))
        #expect(Array(old[8..<12]) == [1, 0, 0, 0])
        let error = #expect(throws: BinaryFormatError.self) { try CompiledTheme(bytes: old) }
        #expect(error == .unsupportedVersion(major: 1, minor: 0))
        #expect(
            error?.description
                == "format version 1.0 is older than this reader (5.0) and no longer read; recompile the theme")
        #expect(throws: BinaryFormatError.unsupportedVersion(major: 1, minor: 0)) {
            try CompiledTheme(contentsOf: Self.version1Path)
        }
    }

    /// A 2.0 file (no block checksums) is refused with "recompile", never read without them.
    @Test func aVersion2FileIsRefusedAsOlder() throws {
        let old = [UInt8](try #require(FileManager.default.contents(atPath: Self.version2Path)))
        #expect(Array(old[8..<12]) == [2, 0, 0, 0])
        let error = #expect(throws: BinaryFormatError.self) { try CompiledTheme(bytes: old) }
        #expect(error == .unsupportedVersion(major: 2, minor: 0))
        #expect(error?.description.hasSuffix("recompile the theme") == true)
    }

    /// A 4.0 file (variants addressed by four fixed dimensions) is refused with today's message.
    @Test func aVersion4FileIsRefusedAsOlder() throws {
        let old = [UInt8](try #require(FileManager.default.contents(atPath: Self.version4Path)))
        #expect(Array(old[8..<12]) == [4, 0, 0, 0])
        let error = #expect(throws: BinaryFormatError.self) { try CompiledTheme(bytes: old) }
        #expect(error == .unsupportedVersion(major: 4, minor: 0))
        #expect(
            error?.description
                == "format version 4.0 is older than this reader (5.0) and no longer read; recompile the theme")
    }

    /// A 3.0 file (40-byte value slots, fonts without typography) is refused with "recompile".
    @Test func aVersion3FileIsRefusedAsOlder() throws {
        let old = [UInt8](try #require(FileManager.default.contents(atPath: Self.version3Path)))
        #expect(Array(old[8..<12]) == [3, 0, 0, 0])
        let error = #expect(throws: BinaryFormatError.self) { try CompiledTheme(bytes: old) }
        #expect(error == .unsupportedVersion(major: 3, minor: 0))
        #expect(
            error?.description
                == "format version 3.0 is older than this reader (5.0) and no longer read; recompile the theme")
    }

    /// The font slot as docs/BinaryFormat.md lays it out: typography flags at 15, letter
    /// spacing at 32, line height at 40, each 0 when not given.
    @Test func aFontSlotCarriesItsTypography() throws {
        let font = Font(family: "Inter", size: 17, weight: .semibold, letterSpacing: -0.4, lineHeight: 1.25)
        let zero = Font(family: "System", size: nil, letterSpacing: 0)
        let theme = ThemeVariants(
            info: SampleThemes.base, ancestors: [], axes: TraitAxes(),
            variants: [
                TraitSet(): [
                    ResolvedInstance(
                        id: "a", component: "uilabel",
                        operations: [
                            ResolvedOperation(name: "font", params: [Param(name: "font", value: .font(font))]),
                            ResolvedOperation(name: "other", params: [Param(name: "font", value: .font(zero))]),
                        ])
                ]
            ], assets: AssetCatalog(searchOrder: ["com.acme.base"], variants: []))
        let bytes = try ThemeWriter.encode(CompiledThemeContents(theme: theme))
        let compiled = try CompiledTheme(bytes: bytes)
        let values = try #require(compiled.sections.first { $0.kind == "PARM" })
        func f64(_ at: Int) -> Double {
            Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) })
        }
        let first = values.offset + 8, second = first + 48
        #expect(bytes[first + 15] == 3)
        #expect(f64(first + 32) == -0.4 && f64(first + 40) == 1.25)
        #expect(bytes[second + 15] == 1, "a letter spacing of 0 is given, not absent")
        #expect(f64(second + 32) == 0 && f64(second + 40) == 0)
        #expect(try compiled.materialize() == theme)
    }
}
