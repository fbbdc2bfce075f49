import Foundation
import Testing

/// Replays every input the fuzzers once crashed on (`Tests/Fixtures/Regressions/<target>/`, minimised)
/// through the fuzz targets' own entry points: `Fuzz/*Entry.swift` in this folder are links to
/// `Fuzz/Sources/<target>/<target>Entry.swift`, the code libFuzzer runs. A regression traps, as it
/// did under the fuzzer, so it cannot pass unnoticed. See docs/Security.md, "Fuzzing".
@Suite struct FuzzRegressionTests {
    static let root: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Regressions").standardizedFileURL.path

    static func inputs(_ target: String) -> [String] {
        let folder = root + "/" + target
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { folder + "/" + $0 }
    }

    static func replay(_ path: String, through entry: (UnsafeBufferPointer<UInt8>) -> Void) throws {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes.withUnsafeBufferPointer { entry($0) }
    }

    @Test(arguments: inputs("FuzzXML"))
    func xmlRegression(_ path: String) throws {
        try Self.replay(path, through: FuzzXMLEntry.run)
    }

    @Test(arguments: inputs("FuzzCompiled"))
    func compiledRegression(_ path: String) throws {
        try Self.replay(path, through: FuzzCompiledEntry.run)
    }

    @Test(arguments: inputs("FuzzRoundTrip"))
    func roundTripRegression(_ path: String) throws {
        try Self.replay(path, through: FuzzRoundTripEntry.run)
    }

    /// The seeds the fuzzers start from go through the same entries, so the replay machinery is
    /// exercised even while the regression folders are empty.
    @Test func seedsPassThroughEveryEntry() throws {
        let themes = URL(fileURLWithPath: Self.root).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Themes/Dark.theme").path
        for name in ["Info.xml", "Palette.xml", "Classes.xml"] {
            try Self.replay(themes + "/" + name, through: FuzzXMLEntry.run)
        }
        let golden = URL(fileURLWithPath: Self.root).deletingLastPathComponent().appendingPathComponent(
            "Compiled/sample-4.0.livery"
        ).path
        try Self.replay(golden, through: FuzzCompiledEntry.run)
        for length in [0, 1, 64, 512, 4096] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            bytes.withUnsafeBufferPointer { FuzzRoundTripEntry.run($0) }
        }
        #expect(Self.inputs("FuzzXML").count >= 1)
    }
}
