import Foundation
import Livery
import LiveryBinary
import LiveryCompiler
import LiveryXML
import Testing

@testable import LiveryStore

/// The parent rule (docs/Packages.md): a compiled child is shown only on top of exactly the
/// parent chain it was compiled from. The store installs the compiled file made from the app's
/// copy of the parent, refuses a package that has none, and parks an installed child when the
/// app's parent changes under it.
@Suite(.serialized) struct ParentRuleTests {
    /// Compiles the theme at `folder` against the themes in `searchPaths` into `output`.
    static func compile(_ folder: String, against searchPaths: [String], to output: String) throws {
        let result = ThemeCompiler.compile(themeAt: folder, workspace: ThemeWorkspace(searchPaths: searchPaths))
        let bytes = try #require(result.value, "\(result.diagnostics)")
        try ThemeCompiler.writeAtomically(bytes, to: output)
    }

    static func parent(of folder: String) -> String { (folder as NSString).deletingLastPathComponent }

    @Test @MainActor func anAppUpdateThatChangesABundledParentParksItsChildUntilOneFitsIt() async throws {
        let fixture = try Fixture()
        // The app bundles the sample themes and sea 1.0.0, compiled.
        let bundled = fixture.root + "/bundled"
        try FileManager.default.copyItem(atPath: Repository.compiledThemes, toPath: bundled)
        let sea1 = try fixture.makeTheme(id: "com.acme.sea", parent: nil)
        try Self.compile(sea1, against: [Self.parent(of: sea1)], to: bundled + "/Sea.livery")
        // The store publishes wave 1.0.0, compiled against sea 1.0.0.
        try fixture.pack(fixture.makeTheme(id: "com.acme.wave", parent: "com.acme.sea"))
        let manager = ThemeManager.development(
            configuration: LiveryConfiguration(
                defaultThemeID: "com.livery.light", searchPaths: [bundled, fixture.installed],
                themeExtensions: ["theme", "purchasedTheme"]))

        try await TestServer.withServer(folder: fixture.packages) { base in
            _ = try fixture.catalog(baseURL: base)
            func open() async throws -> ThemeStore {
                try await ThemeStore(
                    installedFolder: fixture.installed, catalogURL: base + "/catalog.json",
                    trust: .unsignedForDevelopment, manager: manager, bundledSearchPaths: [bundled])
            }
            let store = try await open()
            let v1 = try #require(try await store.refreshCatalog().product(id: "com.acme.wave"))
            #expect(await store.install(v1).result() == .finished)
            #expect(await MainActor.run { manager.themes["com.acme.wave"] } != nil)

            // The app is updated: its sea is now 1.1.0. At the next start the child is parked
            // before the manager can show it.
            let sea2 = try fixture.makeTheme(id: "com.acme.sea", version: "1.1.0", parent: nil, brand: "#445566")
            try Self.compile(sea2, against: [Self.parent(of: sea2)], to: bundled + "/Sea.livery")
            let reopened = try await open()
            #expect(
                reopened.recoveryActions.contains {
                    $0.hasPrefix("parked com.acme.wave 1.0.0: it is compiled against com.acme.sea 1.0.0 (sources ")
                        && $0.contains("the app now has com.acme.sea 1.1.0 (sources ")
                }, "\(reopened.recoveryActions)")
            await MainActor.run { manager.reloadThemes() }
            #expect(await MainActor.run { manager.themes["com.acme.wave"] } == nil)
            #expect(!FileManager.default.fileExists(atPath: fixture.installed + "/com.acme.wave.livery"))
            let parkedState = await reopened.state(of: v1)
            #expect(parkedState.installedVersion == nil && parkedState.parkedVersion == "1.0.0")

            // The catalog's 1.0.0 is compiled against sea 1.0.0 only: refused before the download.
            guard case .failed(.missingDependency(let message)) = await reopened.install(v1).result() else {
                Issue.record("wave 1.0.0 was not refused")
                return
            }
            #expect(message.contains("is compiled against com.acme.sea 1.0.0"), "\(message)")
            #expect(message.contains("the app has com.acme.sea 1.1.0"), "\(message)")

            // The store publishes 1.0.1 compiled against both sea versions.
            let wave2 = try fixture.makeTheme(id: "com.acme.wave", version: "1.0.1", parent: "com.acme.sea")
            let forSea1 = fixture.root + "/wave-for-sea-1.0.0.livery"
            try Self.compile(wave2, against: [Self.parent(of: sea1)], to: forSea1)
            try fixture.pack(wave2, alsoCompiled: [forSea1])
            _ = try fixture.catalog(baseURL: base)
            let v2 = try #require(try await reopened.refreshCatalog().product(id: "com.acme.wave"))
            #expect(v2.compiled?.map { $0.parents.map(\.version) } == [["1.1.0"], ["1.0.0"]])
            #expect(await reopened.install(v2).result() == .finished)
            let installed = try CompiledTheme(contentsOf: fixture.installed + "/com.acme.wave.livery")
            #expect(installed.chain.map(\.info.version) == ["1.1.0", "1.0.1"])
            #expect(reopened.installer.parked().isEmpty)
            let state = await reopened.state(of: v2)
            #expect(state.installedVersion == "1.0.1" && state.parkedVersion == nil)
            #expect(await MainActor.run { manager.activate(themeID: "com.acme.wave") })

            // An app still on sea 1.0.0 is given the other file of the same package.
            let oldApp = fixture.root + "/old-app"
            try FileManager.default.createDirectory(atPath: oldApp, withIntermediateDirectories: true)
            try Self.compile(sea1, against: [Self.parent(of: sea1)], to: oldApp + "/Sea.livery")
            let chosen = try ThemeContentHandler().select(
                from: v2.compiled, product: "wave", parent: v2.parent,
                context: InstallContext(
                    installedFolder: fixture.root + "/nothing", bundledSearchPaths: [oldApp], installed: []))
            #expect(chosen.parents.map(\.version) == ["1.0.0"])
            #expect(chosen.path != v2.compiled?.first?.path)
        }
        #expect(fixture.workFolderIsClean())
    }

    /// A store that does not know the app's themes (no manager, no bundled paths: `livery list`)
    /// cannot tell a changed parent from an unknown one, and parks nothing; one that does, parks.
    @Test func onlyAStoreThatKnowsTheAppsThemesParks() async throws {
        let fixture = try Fixture()
        let store = try await fixture.makeStore(manager: nil)
        try await store.installPackage(at: fixture.pack(fixture.makeTheme(id: "com.acme.ocean")))
        let blind = try await ThemeStore(installedFolder: fixture.installed)
        #expect(blind.recoveryActions.isEmpty)
        #expect(blind.installer.installed().map(\.id) == ["com.acme.ocean"])
        // Told of a folder without Base, the store parks the child of a parent the app lacks.
        let empty = fixture.root + "/no-themes"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let told = try await ThemeStore(installedFolder: fixture.installed, bundledSearchPaths: [empty])
        #expect(
            told.recoveryActions == [
                "parked com.acme.ocean 1.0.0: its parent 'com.livery.base' is no longer in the app"
            ])
        #expect(told.installer.installed().isEmpty)
    }

    /// Same parent id and version, other sources (a parent edited without a version bump): the
    /// digests tell them apart, and the child is refused.
    @Test func aChildCompiledAgainstAnotherCopyOfItsParentIsRefused() async throws {
        let fixture = try Fixture()
        let installer = try ProductInstaller(
            installedFolder: fixture.installed, bundledSearchPaths: [Repository.compiledThemes])
        _ = try installer.install(packageAt: fixture.pack(fixture.makeTheme(id: "com.acme.sea", parent: nil)))
        try fixture.makeTheme(id: "com.acme.sea", parent: nil, brand: "#ABCDEF")  // edited, same version
        let wave = try fixture.pack(fixture.makeTheme(id: "com.acme.wave", parent: "com.acme.sea"))
        let before = try fixture.snapshot()
        #expect {
            _ = try installer.install(packageAt: wave)
        } throws: { error in
            guard case .missingDependency(let message) = error as? StoreError else { return false }
            let installedDigest = try! CompiledTheme(contentsOf: fixture.installed + "/com.acme.sea.livery")
                .sourceDigest!.description.prefix(8)
            return message.contains("'com.acme.wave' 1.0.0 is compiled against com.acme.sea 1.0.0 (sources ")
                && message.contains("the app has com.acme.sea 1.0.0 (sources \(installedDigest))")
        }
        #expect(try fixture.snapshot() == before)
        #expect(fixture.workFolderIsClean())
    }

    /// A package with compiled files of two format versions: the catalog lists both, and the
    /// store installs the one this app reads.
    @Test func theStoreInstallsTheFormatVersionTheAppReads() async throws {
        let fixture = try Fixture()
        let reads = CompiledTheme.readableFormatVersion
        let folder = try fixture.makeTheme(id: "com.acme.ocean")
        // What a newer Livery would write (here: this one's bytes, the header saying so).
        let newer = fixture.root + "/ocean-newer.livery"
        try ParentRuleTests.compile(folder, against: [Repository.themes], to: newer)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: newer)))
        bytes[8] = UInt8(reads + 1)
        try Data(bytes).write(to: URL(fileURLWithPath: newer))
        try fixture.pack(folder, alsoCompiled: [newer])
        try await TestServer.withServer(folder: fixture.packages) { base in
            _ = try fixture.catalog(baseURL: base)
            let store = try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json")
            let product = try #require(try await store.refreshCatalog().product(id: "com.acme.ocean"))
            #expect(product.compiled?.map(\.formatVersion) == [reads, reads + 1])
            #expect(product.compiled?.map(\.path) == ["compiled/v\(reads).livery", "compiled/v\(reads + 1).livery"])
            #expect(await store.install(product).result() == .finished)
        }
        let installed = try CompiledTheme(contentsOf: fixture.installed + "/com.acme.ocean.livery")
        #expect(installed.formatVersion.major == UInt16(reads))
    }
}
