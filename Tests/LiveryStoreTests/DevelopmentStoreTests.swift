import Foundation
import LiveryBinary
import LiveryCompiler
import LiveryStoreDevelopment
import LiveryXML
import Testing

@testable import LiveryStore

/// `LiveryStoreDevelopment`: themes installed from their sources (`SourceThemeContentHandler`),
/// compiled on the machine; what tools and development builds do, never an app.
@Suite(.serialized) struct DevelopmentStoreTests {
    private func sourceInstaller(_ fixture: Fixture) throws -> ProductInstaller {
        try ProductInstaller(
            installedFolder: fixture.installed, bundledSearchPaths: [Repository.themes],
            handlers: ContentHandlers([SourceThemeContentHandler()]))
    }

    @Test func aSourcePackageInstallsAsAFolderWithItsCompiledFileBeside() async throws {
        let fixture = try Fixture()
        let installer = try sourceInstaller(fixture)
        let outcome = try installer.install(packageAt: fixture.pack(fixture.makeTheme(id: "com.acme.ocean")))
        #expect(outcome.product.path.hasSuffix("/com.acme.ocean.purchasedTheme"))
        #expect(FileManager.default.fileExists(atPath: fixture.installed + "/com.acme.ocean.purchasedTheme/Info.xml"))
        let compiled = try CompiledTheme(contentsOf: fixture.installed + "/com.acme.ocean.livery")
        #expect(compiled.chain.map(\.info.id) == ["com.livery.base", "com.acme.ocean"])
        #expect(fixture.workFolderIsClean())
    }

    /// Updating a parent compiles its installed children again in the same transaction: no
    /// child is left with a compiled file of the old parent (which the app would find stale).
    @Test func updatingAParentRecompilesItsChildren() async throws {
        let fixture = try Fixture()
        let installer = try sourceInstaller(fixture)
        _ = try installer.install(packageAt: fixture.pack(fixture.makeTheme(id: "com.acme.sea", parent: nil)))
        _ = try installer.install(
            packageAt: fixture.pack(fixture.makeTheme(id: "com.acme.wave", parent: "com.acme.sea", brand: "#223344")))
        _ = try installer.install(
            packageAt: fixture.pack(fixture.makeTheme(id: "com.acme.ripple", parent: "com.acme.wave", brand: "#334455"))
        )
        let outcome = try installer.install(
            packageAt: fixture.pack(
                fixture.makeTheme(id: "com.acme.sea", version: "1.1.0", parent: nil, brand: "#445566")))
        #expect(outcome.replacedVersion == "1.0.0")
        #expect(installer.parked().isEmpty)
        let workspace = ThemeWorkspace(
            searchPaths: [fixture.installed, Repository.themes], themeExtensions: ["theme", "purchasedTheme"])
        for id in ["com.acme.sea", "com.acme.wave", "com.acme.ripple"] {
            let compiled = try CompiledTheme(
                bytes: Array(Data(contentsOf: URL(fileURLWithPath: fixture.installed + "/\(id).livery"))))
            let staleness = ThemeCompiler.staleness(
                of: compiled, themeAt: fixture.installed + "/\(id).purchasedTheme", workspace: workspace)
            #expect(staleness == nil, "\(id): \(staleness ?? "")")
            #expect(compiled.chain.first?.info.version == "1.1.0", "\(id) is compiled against the new parent")
        }
        #expect(fixture.workFolderIsClean())
    }

    /// What `livery pack` writes: the sources under `content/`, the compiled file under
    /// `compiled/` with the chain it was made from, reproducibly.
    @Test func aPackageCarriesItsSourcesAndTheCompiledFile() async throws {
        let fixture = try Fixture()
        let folder = try fixture.makeTheme(id: "com.acme.ocean")
        let path = try fixture.pack(folder)
        let archive = try PackageArchive(path: path)
        let manifest = archive.manifest
        #expect(manifest.contentFiles.map(\.path).sorted() == ["Info.xml", "Palette.xml"])
        let compiled = try #require(manifest.compiled?.first)
        #expect(manifest.compiled?.count == 1)
        #expect(compiled.path == "compiled/v\(CompiledTheme.readableFormatVersion).livery")
        #expect(compiled.formatVersion == CompiledTheme.readableFormatVersion)
        let bytes = try archive.data(of: compiled.path)
        #expect(Int64(bytes.count) == compiled.size && Hashing.sha256(bytes) == compiled.sha256)
        let theme = try CompiledTheme(bytes: Array(bytes))
        try theme.verifyContents()
        #expect(compiled.sources.map(\.id) == ["com.livery.base", "com.acme.ocean"])
        #expect(compiled.sources == ThemeContentHandler.sources(of: theme))
        #expect(compiled.sources.allSatisfy { $0.sourceDigest.count == 64 })
        // The same theme packs to the same bytes.
        let again = try fixture.pack(folder, name: "again.liverypkg")
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: again)) == Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
