import Foundation
import Testing
@testable import LiveryBinary
import LiveryModel

/// A compiled file kept in the repository: a format change that breaks reading it, or that
/// changes what the writer produces, fails here, so it has to be a deliberate version bump.
/// Regenerate after such a bump with `LIVERY_UPDATE_GOLDEN=1 swift test --filter GoldenFileTests`.
@Suite struct GoldenFileTests {
    static let path: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(2)
        return components.joined(separator: "/") + "/Fixtures/Compiled/sample-1.0.livery"
    }()

    @Test func theGoldenFileStillReadsAsTheSampleModel() throws {
        if ProcessInfo.processInfo.environment["LIVERY_UPDATE_GOLDEN"] == "1" {
            try Data(try ThemeWriter.encode(SampleThemes.contents)).write(to: URL(fileURLWithPath: Self.path))
        }
        let theme = try CompiledTheme(contentsOf: Self.path)
        try theme.verifyContents()
        #expect(theme.formatVersion == (1, 0))
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
        #expect(Array(golden[8..<16]) == [1, 0, 0, 0, 64, 0, 0, 0])            // 1.0, header size 64
        let size = UInt64(golden.count)
        #expect(Array(golden[16..<24]) == (0..<8).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) })
        #expect(Array(golden[24..<32]) == [0, 0, 0, 0, 10, 0, 0, 0])           // flags 0, 10 sections
        #expect(Array(golden[32..<48]) == [64, 0, 0, 0, 0, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0])
        #expect(Array(golden[64..<72]) == Array("STRS".utf8) + [1, 0, 0, 0])   // first entry, required
        #expect(golden.count % 8 == 0)
    }
}
