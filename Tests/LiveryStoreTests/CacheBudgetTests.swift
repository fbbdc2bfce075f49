import Foundation
import Livery
import Testing

@testable import LiveryStore

/// The cache budget through `ThemeStore`: installs make room by removing the least recently used
/// themes, never the theme in use, its parents or a pinned theme; an install that cannot fit
/// fails before downloading; what goes leaves nothing behind.
@Suite(.serialized) struct CacheBudgetTests {
    /// Packs `ids` (children of Base), serves them, and hands over the store and the catalog.
    private func withStore(
        _ ids: [String], parents: [String: String] = [:],
        _ body: @Sendable (ThemeStore, LiveryStore.Catalog, Fixture, FaultyServer) async throws -> Void
    ) async throws {
        let fixture = try Fixture()
        for id in ids {
            try fixture.pack(fixture.makeTheme(id: id, parent: parents[id] ?? "com.livery.base"))
        }
        try await TestServer.withFaultyServer(folder: fixture.packages) { _, faulty in
            let base = "http://127.0.0.1:\(faulty.port)/cond"
            let catalog = try fixture.catalog(baseURL: base)
            let store = try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json")
            try await body(store, catalog, fixture, faulty)
        }
    }

    private static func install(_ store: ThemeStore, _ catalog: LiveryStore.Catalog, _ id: String) async
        -> ProductTaskState
    {
        guard let product = catalog.product(id: id) else { return .failed(.notInstalled(id)) }
        return await store.install(product).result()
    }

    /// Every path under the installed folder (work folder included) whose name mentions `id`.
    private static func traces(of id: String, in fixture: Fixture) -> [String] {
        let all = FileManager.default.enumerator(atPath: fixture.installed)?.allObjects as? [String] ?? []
        return all.filter { $0.contains(id) }
    }

    /// Room for `count` installed themes and one download.
    private static func budget(for count: Int, _ catalog: LiveryStore.Catalog) -> Int64 {
        let largest = catalog.products.map { ($0.compiled?.map(\.size).max() ?? 0) + $0.packageSize }.max() ?? 0
        return largest * Int64(count) + largest
    }

    @Test func theLeastRecentlyUsedThemeGoesFirst() async throws {
        try await withStore(["com.acme.a", "com.acme.b", "com.acme.c"]) { store, catalog, fixture, _ in
            #expect(await Self.install(store, catalog, "com.acme.a") == .finished)
            #expect(await Self.install(store, catalog, "com.acme.b") == .finished)
            await store.markUsed("com.acme.a")  // b is now the least recently used
            await store.setCacheBudget(Self.budget(for: 1, catalog))
            #expect(await Self.install(store, catalog, "com.acme.c") == .finished)
            #expect(await store.installed().map(\.id) == ["com.acme.a", "com.acme.c"])
            #expect(Self.traces(of: "com.acme.b", in: fixture).isEmpty, "\(Self.traces(of: "com.acme.b", in: fixture))")
            #expect(await store.storageUsed() <= Self.budget(for: 1, catalog))
        }
    }

    @Test func theThemeInUseItsParentsAndPinnedThemesStay() async throws {
        try await withStore(
            ["com.acme.a", "com.acme.b", "com.acme.child", "com.acme.d"], parents: ["com.acme.child": "com.acme.b"]
        ) { store, catalog, fixture, _ in
            for id in ["com.acme.a", "com.acme.b", "com.acme.child"] {
                #expect(await Self.install(store, catalog, id) == .finished)
            }
            await store.setThemeInUse("com.acme.child")
            await store.pin("com.acme.a")
            // Room for nothing more than what must stay: d cannot fit, and nothing was removed.
            let d = try #require(catalog.product(id: "com.acme.d"))
            let needed = d.packageSize + (d.compiled?.map(\.size).max() ?? 0)
            await store.setCacheBudget(await store.storageUsed() + needed - 1)
            let before = try fixture.snapshot()
            let result = await Self.install(store, catalog, "com.acme.d")
            guard case .failed(.cacheBudgetExceeded(let product, _, _, _)) = result else {
                Issue.record("expected cacheBudgetExceeded, got \(result)")
                return
            }
            #expect(product == "com.acme.d")
            let after = try fixture.snapshot()
            #expect(after == before)
            #expect(Self.traces(of: "com.acme.d", in: fixture).isEmpty, "nothing downloaded")
            // Unpinned, a is the one that may go.
            await store.unpin("com.acme.a")
            #expect(await Self.install(store, catalog, "com.acme.d") == .finished)
            #expect(await store.installed().map(\.id) == ["com.acme.b", "com.acme.child", "com.acme.d"])
            #expect(Self.traces(of: "com.acme.a", in: fixture).isEmpty)
        }
    }

    @Test func anInstallThatCannotFitFailsBeforeDownloading() async throws {
        try await withStore(["com.acme.a"]) { store, catalog, fixture, faulty in
            await store.setCacheBudget(10)
            let result = await Self.install(store, catalog, "com.acme.a")
            guard case .failed(.cacheBudgetExceeded(_, let needed, let budget, let kept)) = result else {
                Issue.record("expected cacheBudgetExceeded, got \(result)")
                return
            }
            #expect(budget == 10 && kept == 0 && needed > 10)
            #expect(faulty.requests(to: "/cond/com.acme.a-1.0.0.liverypkg") == 0)
            let snapshot = try fixture.snapshot()
            #expect(snapshot.isEmpty)
            #expect(fixture.workFolderIsClean())
        }
    }

    @Test func abandonedPartialsGoFirst() async throws {
        try await withStore(["com.acme.a", "com.acme.b"]) { store, catalog, fixture, _ in
            #expect(await Self.install(store, catalog, "com.acme.a") == .finished)
            // An abandoned partial of another package, with its record, as a dropped download leaves.
            let downloads = fixture.installed + "/.liverystore/downloads"
            let stale = downloads + "/" + String(repeating: "ab", count: 32) + ".part"
            let size = catalog.products.map(\.packageSize).max() ?? 0
            FileManager.default.createFile(atPath: stale, contents: Data(count: Int(size)))
            try PartialDownload(url: "http://x/y", validator: "\"v\"", expectedSize: size * 2, expectedSHA256: nil)
                .save(for: stale)
            await store.setCacheBudget(Self.budget(for: 1, catalog) + 1)
            #expect(await Self.install(store, catalog, "com.acme.b") == .finished)
            #expect(!FileManager.default.fileExists(atPath: stale))
            #expect(!FileManager.default.fileExists(atPath: stale + ".json"))
            #expect(await store.installed().map(\.id) == ["com.acme.a", "com.acme.b"], "the partial was enough")
        }
    }
}
