import Foundation
import LiveryBinary
import LiveryModel
import LiveryXML
import Testing

@testable import LiveryCompiler

enum Repository {
    static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()

    static func sampleThemes() -> [String] {
        ThemeWorkspace().themeFolders(in: root + "/Themes")
    }

    /// Themes under Tests/Fixtures that load (warnings only): compiled, they must agree too.
    static func loadableFixtures() -> [String] {
        let base = root + "/Tests/Fixtures/Warnings"
        let workspace = ThemeWorkspace()
        return
            ((try? FileManager.default.contentsOfDirectory(atPath: base))?.sorted().flatMap {
                workspace.themeFolders(in: base + "/" + $0)
            } ?? []) + workspace.themeFolders(in: root + "/Tests/Fixtures/Accessibility")
    }

    static func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "livery-compiler-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

@Suite struct CompilerTests {
    @Test func sha256MatchesKnownVectors() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex(SHA256.hash([UInt8](repeating: 0x61, count: 1000)))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    /// The proof: for every sample theme and loadable fixture, every trait set an app
    /// could run with and scales 1-3, the dump of the folder equals the dump of the compiled file;
    /// and the model read back equals the model compiled.
    @Test(arguments: Repository.sampleThemes() + Repository.loadableFixtures())
    func folderAndCompiledFileDumpIdentically(theme path: String) throws {
        let workspace = ThemeWorkspace(searchPaths: [Repository.root + "/Themes"])
        let compiled = ThemeCompiler.compile(themeAt: path, workspace: workspace)
        let bytes = try #require(compiled.value, "\(compiled.diagnostics)")
        let file = try CompiledTheme(bytes: bytes)
        try file.verifyContents()
        let readBack = try file.materialize()
        #expect(readBack == workspace.variants(ofThemeAt: path).value)
        for traits in TraitAxes.all.traitSets {
            let folder = try #require(workspace.resolve(themeAt: path, traits: traits).value)
            for scale in 1...3 {
                #expect(
                    CanonicalJSON.dump(readBack.resolved(for: traits), scale: scale)
                        == CanonicalJSON.dump(folder, scale: scale), "\(path) \(traits) @\(scale)x")
            }
            // Format 1.1: fonts as applied at a text scale (max-size, scaling) agree too.
            for textScale in [0.5, 1.5, 2, 3, 4] {
                #expect(
                    CanonicalJSON.dump(readBack.resolved(for: traits), textScale: textScale)
                        == CanonicalJSON.dump(folder, textScale: textScale), "\(path) \(traits) text scale \(textScale)"
                )
            }
            for instance in folder.instances {
                #expect(try file.operations(of: instance.id, for: traits) == instance.operations)
            }
        }
        #expect(ThemeCompiler.staleness(of: file, themeAt: path, workspace: workspace) == nil)
        #expect(file.chain.allSatisfy { $0.sourceDigest != nil })
    }

    /// Assets excluded, the compiled file is smaller than the XML it was compiled from (the
    /// theme's and its ancestors' configuration files), though it holds every trait variant.
    @Test(arguments: Repository.sampleThemes())
    func compiledFilesAreSmallerThanTheirXML(theme path: String) throws {
        let workspace = ThemeWorkspace()
        let bytes = try #require(ThemeCompiler.compile(themeAt: path, workspace: workspace).value)
        let assets = try CompiledTheme(bytes: bytes).assets.reduce(0) { $0 + $1.length }
        var xml = 0
        for folder in try #require(workspace.chain(ofThemeAt: path).value) {
            for file in folder.sourceFiles where file.hasSuffix(".xml") {
                xml += try #require(FileManager.default.contents(atPath: folder.path + "/" + file)).count
            }
        }
        let choices = try CompiledTheme(bytes: bytes).sections.filter { $0.kind == "CHOI" }.reduce(0) { $0 + $1.length }
        print("\(path): compiled \(bytes.count - assets) bytes without assets (CHOI \(choices)), XML \(xml) bytes")
        #expect(bytes.count - assets < xml)
    }

    @Test func aChangedSourceMakesTheCompiledFileStale() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in ["Base.theme", "Dark.theme"] {
            try FileManager.default.copyItem(atPath: Repository.root + "/Themes/" + name, toPath: folder + "/" + name)
        }
        let dark = folder + "/Dark.theme"
        let bytes = try #require(ThemeCompiler.compile(themeAt: dark, workspace: ThemeWorkspace()).value)
        let file = try CompiledTheme(bytes: bytes)
        #expect(file.chain.map(\.info.id) == ["com.livery.base", "com.livery.dark"])
        #expect(ThemeCompiler.staleness(of: file, themeAt: dark, workspace: ThemeWorkspace()) == nil)

        // touching the parent's source (not the theme's) is enough to make the child stale
        let constants = folder + "/Base.theme/Constants.xml"
        let text = try String(contentsOfFile: constants, encoding: .utf8)
        try (text + "<!-- edited -->\n").write(toFile: constants, atomically: true, encoding: .utf8)
        let reason = ThemeCompiler.staleness(of: file, themeAt: dark, workspace: ThemeWorkspace())
        #expect(reason?.contains("com.livery.base") == true)
    }

    @Test func compilingAnInvalidThemeGivesDiagnosticsAndNoBytes() {
        let path = Repository.root + "/Tests/Fixtures/Invalid/asset-missing"
        let theme = ThemeWorkspace().themeFolders(in: path).first ?? path
        let result = ThemeCompiler.compile(themeAt: theme, workspace: ThemeWorkspace())
        #expect(result.value == nil)
        #expect(result.diagnostics.hasErrors)
    }

    @Test func atomicWritesReplaceWholeFilesAndLeaveNoTemporaries() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.livery"
        try ThemeCompiler.writeAtomically([1, 2, 3], to: path)
        let mapped = try? CompiledTheme(contentsOf: path)  // not a theme: rejected, but mapping is fine
        #expect(mapped == nil)
        try ThemeCompiler.writeAtomically(Array(repeating: 7, count: 100_000), to: path)
        #expect(FileManager.default.contents(atPath: path) == Data(repeating: 7, count: 100_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.livery"])
        #expect(throws: (any Error).self) { try ThemeCompiler.writeAtomically([1], to: folder + "/missing/out.livery") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.livery"])
    }

    @Test func writesWithoutFlushingAreAtomicToo() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/out.livery"
        try ThemeCompiler.writeAtomically([1, 2, 3], to: path, durably: false)
        try ThemeCompiler.writeAtomically(Array(repeating: 9, count: 50_000), to: path, durably: false)
        #expect(FileManager.default.contents(atPath: path) == Data(repeating: 9, count: 50_000))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.livery"])
        #expect(throws: (any Error).self) {
            try ThemeCompiler.writeAtomically([1], to: folder + "/missing/out.livery", durably: false)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.livery"])
    }

    @Test func syntheticThemesAreValidAndRoundTrip() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try SyntheticTheme.write(instances: 40, into: folder)
        let workspace = ThemeWorkspace()
        #expect(workspace.validate(paths: [path]).filter { $0.severity == .error } == [])
        let bytes = try #require(ThemeCompiler.compile(themeAt: path, workspace: workspace).value)
        let readBack = try CompiledTheme(bytes: bytes).materialize()
        #expect(readBack == workspace.variants(ofThemeAt: path).value)
        #expect(readBack.variants.values.allSatisfy { $0.count == 40 })
    }

    /// The front end checks asset sizes when it lists a theme's files; the compiler reads them
    /// again later, so it applies the same cap (and does not follow a link put there meanwhile).
    @Test func theCompilerCapsAssetsItReadsAgain() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try SyntheticTheme.write(instances: 40, into: folder)
        var limits = FrontEndLimits()
        limits.maxAssetBytes = 1_000
        let asset = path + "/assets/icon.png"

        let grown = ThemeWorkspace(limits: limits)
        #expect(grown.variants(ofThemeAt: path).value != nil)  // read and cached with an 8-byte asset
        try Data(repeating: 0x89, count: 5_000).write(to: URL(fileURLWithPath: asset))
        let refused = ThemeCompiler.compile(themeAt: path, workspace: grown)
        #expect(refused.value == nil)
        #expect(
            refused.diagnostics.contains { $0.code == .limitExceeded && $0.location?.file == asset },
            "\(refused.diagnostics.map(\.description))")

        let linked = ThemeWorkspace(limits: limits)
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: URL(fileURLWithPath: asset))
        #expect(linked.variants(ofThemeAt: path).value != nil)
        try FileManager.default.removeItem(atPath: asset)
        try FileManager.default.createSymbolicLink(atPath: asset, withDestinationPath: "/etc/hostname")
        let unread = ThemeCompiler.compile(themeAt: path, workspace: linked)
        #expect(unread.value == nil)
        #expect(
            unread.diagnostics.contains { $0.code == .compileUnreadable && $0.location?.file == asset },
            "\(unread.diagnostics.map(\.description))")

        // Within the cap, the asset is compiled as before.
        try FileManager.default.removeItem(atPath: asset)
        try Data(repeating: 1, count: 1_000).write(to: URL(fileURLWithPath: asset))
        let fine = ThemeCompiler.compile(themeAt: path, workspace: ThemeWorkspace(limits: limits))
        let bytes = try #require(fine.value, "\(fine.diagnostics.map(\.description))")
        let theme = try CompiledTheme(bytes: bytes)
        #expect(theme.assets.compactMap { theme.bytes(of: $0) } == [[UInt8](repeating: 1, count: 1_000)])
    }

    /// Real themes expand far less than the materialisation budget allows per byte of file
    /// (`VerificationLimits.maxMaterializedValuesPerByte`).
    @Test func realThemesStayFarBelowTheMaterialisationBudget() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let synthetic = try SyntheticTheme.write(instances: 2_000, into: folder)
        for path in Repository.sampleThemes() + [synthetic] {
            let workspace = ThemeWorkspace(searchPaths: [Repository.root + "/Themes"])
            let bytes = try #require(ThemeCompiler.compile(themeAt: path, workspace: workspace).value)
            let theme = try CompiledTheme(bytes: bytes)
            let model = try theme.materialize()
            // Counted per variant, so shared records count every time: an upper bound.
            func count(_ value: Value) -> Int {
                if case .array(let items) = value { return 1 + items.reduce(0) { $0 + count($1) } }
                return 1
            }
            let built = model.variants.values.joined().reduce(0) { total, instance in
                total + 1 + instance.operations.reduce(0) { $0 + 1 + $1.params.reduce(0) { $0 + count($1.value) } }
            }
            let perByte = Double(built) / Double(bytes.count)
            #expect(perByte < 1, "\(path): \(built) values from \(bytes.count) bytes")
            #expect(theme.materializationBudget >= 16 * built)
        }
    }
}
