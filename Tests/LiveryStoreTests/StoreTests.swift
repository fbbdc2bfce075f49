import Foundation
import Livery
import LiveryBinary
import Testing

@testable import LiveryStore

/// The whole path against a real HTTP server on loopback.
@Suite(.serialized) struct StoreEndToEndTests {
    @Test @MainActor func packCatalogServeDownloadInstallSwitch() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        let manager = fixture.makeManager()
        #expect(manager.themes["com.acme.ocean"] == nil)
        let changes = ChangeLog()
        changes.observation = manager.observe { change in changes.append(change) }

        try await TestServer.withServer(folder: fixture.packages) { base in
            let catalog = try fixture.catalog(baseURL: base)
            let product = try #require(catalog.product(id: "com.acme.ocean"))
            #expect(product.packageURL == base + "/com.acme.ocean-1.0.0.liverypkg")
            #expect(product.parent?.id == "com.livery.base")

            let store = try await fixture.makeStore(manager: manager, catalogURL: base + "/catalog.json")
            let fetched = try await store.refreshCatalog()
            #expect(fetched == catalog)
            let details = try await store.details(for: product)
            #expect(details.description == "A test theme.")

            var state = await store.state(of: product)
            #expect(
                state.isFree && state.isPurchased && !state.isInstalled && !state.isInUse && !state.isUpdateAvailable)

            let task = await store.install(product)
            let again = await store.install(product)
            #expect(task === again, "a second request for the same product joins the first")
            var seen: [ProductTaskState] = []
            for await state in task.states() { seen.append(state) }
            #expect(seen.last == .finished, "\(seen)")
            #expect(seen.contains(.downloaded))
            #expect(
                seen.contains {
                    if case .downloading(let received, _) = $0 { received == product.packageSize } else { false }
                })

            state = await store.state(of: product)
            #expect(state.installedVersion == "1.0.0" && !state.isDownloading)
        }
        // The manager saw the theme at once, and it switches.
        #expect(manager.themes["com.acme.ocean"] != nil)
        #expect(changes.reloads >= 1)
        #expect(manager.activate(themeID: "com.acme.ocean"))
        #expect(manager.currentTheme?.info.id == "com.acme.ocean")
        #expect(manager.currentTheme?.instances.isEmpty == false)
        // Installed as <id>.livery alone: the package's compiled file, byte for byte, no sources.
        let installed = fixture.installed
        #expect(try fixture.snapshot().keys.sorted() == ["com.acme.ocean.livery"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: installed + "/com.acme.ocean.livery"))
        let listed = try #require(fixture.catalogProduct("com.acme.ocean")?.compiled?.first)
        #expect(listed.formatVersion == CompiledTheme.readableFormatVersion)
        #expect(Int64(bytes.count) == listed.size && Hashing.sha256(bytes) == listed.sha256)
        let compiled = try CompiledTheme(bytes: Array(bytes))
        try compiled.verifyContents()
        #expect(compiled.chain.map(\.info.id) == ["com.livery.base", "com.acme.ocean"])
        #expect(listed.sources == ThemeContentHandler.sources(of: compiled))
        #expect(fixture.workFolderIsClean())
    }

    @Test @MainActor func updateWhileInUseSwitchesLive() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean", version: "1.0.0", brand: "#0077BE"))
        let manager = fixture.makeManager()
        try await TestServer.withServer(folder: fixture.packages) { base in
            let store = try await fixture.makeStore(manager: manager, catalogURL: base + "/catalog.json")
            _ = try fixture.catalog(baseURL: base)
            let v1 = try #require(try await store.refreshCatalog().product(id: "com.acme.ocean"))
            #expect(await store.install(v1).result() == .finished)
            try await MainActor.run { try #require(manager.activate(themeID: "com.acme.ocean")) }
            let before = await MainActor.run { manager.currentTheme }
            let changes = await MainActor.run { () -> ChangeLog in
                let log = ChangeLog()
                log.observation = manager.observe { log.append($0) }
                return log
            }

            // A newer version is published.
            try fixture.pack(fixture.makeTheme(id: "com.acme.ocean", version: "1.1.0", brand: "#FF6600"))
            _ = try fixture.catalog(baseURL: base)
            let v2 = try #require(try await store.refreshCatalog().product(id: "com.acme.ocean"))
            #expect(v2.version == "1.1.0")
            #expect(await store.state(of: v2).isUpdateAvailable)
            #expect(await store.install(v2).result() == .finished)

            let after = await MainActor.run { manager.currentTheme }
            #expect(await MainActor.run { manager.currentThemeID } == "com.acme.ocean")
            #expect(after?.info.version == "1.1.0")
            #expect(after != before)
            #expect(changes.reloads == 1, "observers were told to re-apply the new version")
            let state = await store.state(of: v2)
            #expect(state.installedVersion == "1.1.0" && !state.isUpdateAvailable && state.isInUse)
        }
        #expect(fixture.workFolderIsClean())
    }

    @Test @MainActor func uninstallRules() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        let manager = fixture.makeManager()
        let store = try await fixture.makeStore(manager: manager)
        try await store.installPackage(at: fixture.packages + "/com.acme.ocean-1.0.0.liverypkg")
        // A child of the installed theme.
        try fixture.pack(fixture.makeTheme(id: "com.acme.reef", parent: "com.acme.ocean"))
        try await store.installPackage(at: fixture.packages + "/com.acme.reef-1.0.0.liverypkg")
        #expect(manager.activate(themeID: "com.acme.reef"))

        let snapshot = try fixture.snapshot()
        await #expect(
            throws: StoreError.refused(
                "'com.acme.ocean' cannot be uninstalled: com.acme.reef inherits from it; uninstall it first")
        ) {
            try await store.uninstall(id: "com.acme.ocean")
        }
        await #expect(throws: StoreError.refused("'com.acme.reef' is the theme in use; switch to another theme first"))
        {
            try await store.uninstall(id: "com.acme.reef")
        }
        await #expect(throws: StoreError.notInstalled("com.acme.nothing")) {
            try await store.uninstall(id: "com.acme.nothing")
        }
        #expect(try fixture.snapshot() == snapshot)

        try await store.uninstall(id: "com.acme.reef", whenInUse: .switchToDefault)
        #expect(manager.currentThemeID == "com.livery.light")
        #expect(manager.themes["com.acme.reef"] == nil)
        try await store.uninstall(id: "com.acme.ocean")
        #expect(manager.themes["com.acme.ocean"] == nil)
        #expect(try fixture.snapshot().isEmpty)
        #expect(fixture.workFolderIsClean())
    }

    @Test func paidProductsNeedAPersistedPurchase() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.gold"))
        try Data(#"{"com.acme.gold": {"amount": "0.99", "currency": "EUR"}}"#.utf8)
            .write(to: URL(fileURLWithPath: fixture.packages + "/prices.json"))
        try await TestServer.withServer(folder: fixture.packages) { base in
            _ = try fixture.catalog(baseURL: base)
            let store = try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json")
            let product = try #require(try await store.refreshCatalog().product(id: "com.acme.gold"))
            #expect(product.price == Price(amount: "0.99", currency: "EUR"))
            #expect(await store.state(of: product).isPurchased == false)
            #expect(await store.install(product).result() == .failed(.refused("'com.acme.gold' is not purchased")))
            try await store.markPurchased("com.acme.gold")
            let reopened = try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json")
            #expect(await reopened.state(of: product).isPurchased, "purchases are persisted")
            #expect(await reopened.install(product).result() == .finished)
        }
    }

    @Test func anotherContentTypeThroughARegisteredHandler() async throws {
        let fixture = try Fixture()
        let package = try fixture.handMadePackage(
            name: "stickers.liverypkg", type: "stickers", id: "com.acme.cats",
            content: ["stickers.json": #"["cat1.png"]"#, "cat1.png": "PNG"])
        let store = try await fixture.makeStore(manager: nil)
        await #expect(throws: StoreError.unsupportedType("stickers")) { try await store.installPackage(at: package) }
        let withHandler = try await fixture.makeStore(manager: nil, handlers: [StickerPackHandler()])
        let outcome = try await withHandler.installPackage(at: package)
        #expect(
            outcome.product
                == InstalledProduct(
                    id: "com.acme.cats", type: "stickers", name: "com.acme.cats", version: "1.0.0",
                    path: withHandler.installer.installedFolder + "/com.acme.cats.stickers"))
        #expect(await withHandler.installed().map(\.id) == ["com.acme.cats"])
        try await withHandler.uninstall(id: "com.acme.cats")
        #expect(try fixture.snapshot().isEmpty)
    }
}

/// A second product type, as an app would add it: sticker packs need a stickers.json.
struct StickerPackHandler: ContentHandler {
    var type: String { "stickers" }
    var folderExtension: String { "stickers" }
    var derivedFileExtensions: [String] { [] }

    func prepare(contentAt folder: String, manifest: PackageManifest, context: InstallContext) throws -> [String: Data]
    {
        guard FileManager.default.fileExists(atPath: folder + "/stickers.json") else {
            throw StoreError.invalidContent("a sticker pack needs stickers.json")
        }
        return [:]
    }

    func describe(installedFolder folder: String) -> InstalledProduct? {
        let id = ((folder as NSString).lastPathComponent as NSString).deletingPathExtension
        return InstalledProduct(id: id, type: type, name: id, version: "1.0.0", path: folder)
    }
}

/// Records the manager's changes (main actor only).
final class ChangeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var changes: [ThemeManager.Change] = []
    /// Keeps the observation going for as long as the log lives.
    var observation: ObservationToken?
    func append(_ change: ThemeManager.Change) {
        lock.lock()
        changes.append(change)
        lock.unlock()
    }
    var reloads: Int {
        lock.lock()
        defer { lock.unlock() }
        return changes.filter(\.reload).count
    }
}
