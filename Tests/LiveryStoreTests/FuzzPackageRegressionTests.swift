import Foundation
import LiveryStore
import LiveryStoreDevelopment
import LiveryXML
import Testing

/// Replays every input FuzzPackage once failed on (`Tests/Fixtures/Regressions/FuzzPackage/`,
/// minimised) through the fuzz target's own entry point: `Fuzz/FuzzPackageEntry.swift` here links to
/// `Fuzz/Sources/FuzzPackage/FuzzPackageEntry.swift`, the code libFuzzer runs. A regression traps,
/// as it did under the fuzzer. The seeds go through it too (a packed theme that installs, the
/// entry-list form, and a few hostile zips), so the entry's own checks are exercised.
@Suite struct FuzzPackageRegressionTests {
    static let regressions: String = Repository.root + "/Tests/Fixtures/Regressions/FuzzPackage"

    static func inputs() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: regressions)) ?? [])
            .filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { regressions + "/" + $0 }
    }

    @discardableResult
    static func replay(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { FuzzPackageEntry.run($0) }
    }

    /// One test, in order: the entry's temporary folder is per process.
    @Test func regressionsAndSeedsPassThroughTheEntry() throws {
        defer { FuzzPackageEntry.cleanUp() }
        for path in Self.inputs() {
            Self.replay([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        }
        // The entry-list form of Light (installs: Base is installed in every input's folder).
        #expect(Self.replay(FuzzPackageEntry.warmUpInput()) == "installed com.livery.light")
        // A package `livery pack` would write, for each sample theme (Dark is refused: it is bundled).
        let folder = NSTemporaryDirectory() + "livery-fuzz-seeds-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let outcomes = [
            "Base": "updated com.livery.base", "Light": "installed com.livery.light",
            "Dark": "a bundled theme already has the id", "HighContrast": "installed com.livery.highcontrast",
        ]
        for (theme, outcome) in outcomes.sorted(by: { $0.key < $1.key }) {
            let output = folder + "/\(theme).liverypkg"
            let packed = PackageBuilder.pack(
                themeAt: Repository.themes + "/\(theme).theme",
                workspace: ThemeWorkspace(searchPaths: [Repository.themes]), output: output)
            #expect(packed.value != nil, "\(packed.diagnostics.map(\.description))")
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: output)))
            let result = Self.replay(bytes)
            #expect(result.contains(outcome), "\(theme): \(result)")
            // Truncated, and with bytes flipped in the middle (a CRC or digest must catch it).
            #expect(Self.replay(Array(bytes.prefix(bytes.count / 2))).contains("not a zip archive"))
            var flipped = bytes
            for index in stride(from: 40, to: flipped.count, by: 97) { flipped[index] ^= 0x5A }
            #expect(!Self.replay(flipped).contains("installed"))
        }
        // Entry-list forms of hostile names: each must be refused with nothing written outside.
        let light = FuzzPackageEntry.warmUpInput()
        for hostile in [
            "content/../../escape.xml", "/tmp/absolute.xml", "content/a\\b.xml", "@content/link.xml", "content//x.xml",
            "content/INFO.xml", "content/Info.xml/inside.xml", "store/../content/x.xml",
        ] {
            let result = Self.replay(light + [0x1E] + Array("\(hostile)\n<theme/>".utf8))
            #expect(result.hasPrefix("invalid") || result.contains("package"), "\(hostile): \(result)")
            #expect(!result.contains("installed"), "\(hostile): \(result)")
        }
        Self.replay(Array("LIVERYFUZZ\n".utf8))
        Self.replay([])
    }
}
