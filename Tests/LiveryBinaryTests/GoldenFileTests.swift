import Foundation
import Testing
@testable import LiveryBinary
import LiveryModel

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
    static let path = folder + "sample-2.0.livery"
    /// Written by format 1.0 from the same model (its records carried an id and it had no `PTCH`).
    static let version1Path = folder + "sample-1.0.livery"

    @Test func theGoldenFileStillReadsAsTheSampleModel() throws {
        if ProcessInfo.processInfo.environment["LIVERY_UPDATE_GOLDEN"] == "1" {
            try Data(try ThemeWriter.encode(SampleThemes.contents)).write(to: URL(fileURLWithPath: Self.path))
        }
        let theme = try CompiledTheme(contentsOf: Self.path)
        try theme.verifyContents()
        #expect(theme.formatVersion == (2, 0))
        #expect(theme.listPatchCount > 0) // the golden file exercises patched lists
        #expect(try theme.materialize() == SampleThemes.theme)
        #expect(theme.sourceDigest == SampleThemes.contents.sourceDigests["com.acme.dark"])
    }

    @Test func theWriterStillProducesTheGoldenBytes() throws {
        let golden = try #require(FileManager.default.contents(atPath: Self.path))
        let current = try ThemeWriter.encode(SampleThemes.contents)
        let firstDifference = zip(golden, current).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect([UInt8](golden) == current, "first difference at byte \(firstDifference ?? min(golden.count, current.count))")
    }

    /// The header, byte for byte, as docs/BinaryFormat.md describes it.
    @Test func theHeaderIsLaidOutAsDocumented() throws {
        let golden = [UInt8](try #require(FileManager.default.contents(atPath: Self.path)))
        #expect(Array(golden[0..<8]) == [0x89, 0x4C, 0x56, 0x52, 0x59, 0x0D, 0x0A, 0x1A])
        #expect(Array(golden[8..<16]) == [2, 0, 0, 0, 64, 0, 0, 0])            // 2.0, header size 64
        let size = UInt64(golden.count)
        #expect(Array(golden[16..<24]) == (0..<8).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        #expect(Array(golden[24..<32]) == [0, 0, 0, 0, 11, 0, 0, 0])           // flags 0, 11 sections
        #expect(Array(golden[32..<48]) == [64, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(golden[64..<72]) == Array("STRS".utf8) + [1, 0, 0, 0])   // first entry, required
        #expect(golden.count % 8 == 0)
        let kinds = try CompiledTheme(bytes: golden).sections.map(\.kind)
        #expect(kinds == ["STRS", "CHAN", "IDTB", "VARS", "INST", "OPLS", "PTCH", "OPER", "PARM", "ASSE", "DATA"])
    }

    /// A file of the previous major version is refused with the version error, never misread.
    @Test func aVersion1FileIsRefusedAsOlder() throws {
        let old = [UInt8](try #require(FileManager.default.contents(atPath: Self.version1Path)))
        #expect(Array(old[8..<12]) == [1, 0, 0, 0])
        let error = #expect(throws: BinaryFormatError.self) { try CompiledTheme(bytes: old) }
        #expect(error == .unsupportedVersion(major: 1, minor: 0))
        #expect(error?.description == "format version 1.0 is older than this reader (2.0) and no longer read; recompile the theme")
        #expect(throws: BinaryFormatError.unsupportedVersion(major: 1, minor: 0)) {
            try CompiledTheme(contentsOf: Self.version1Path)
        }
    }
}
