import Foundation
import Livery
import Testing

@testable import LiveryStore

/// Conditional catalogs through `ThemeStore`: the last verified catalog, roots and details are
/// revalidated (`If-None-Match`), a `304` reuses the copy on disk (verified again), `max-age`
/// skips the request while fresh, and a copy that is not the one kept is never used.
@Suite(.serialized) struct CatalogCacheTests {
    /// Packs ocean 1.0, serves the folder on `/ROUTE/`, and hands over a store reading
    /// `/ROUTE/catalog.json` with a fake clock.
    private func withStore(
        route: String, clock: FakeRetryClock = FakeRetryClock(),
        _ body: @Sendable (ThemeStore, FaultyServer, Fixture) async throws -> Void
    ) async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { _, faulty in
            _ = try fixture.catalog(baseURL: "http://127.0.0.1:\(faulty.port)/\(route)")
            let store = try await fixture.makeStore(
                manager: nil, catalogURL: "http://127.0.0.1:\(faulty.port)/\(route)/catalog.json",
                retryEnvironment: clock.environment)
            try await body(store, faulty, fixture)
        }
    }

    @Test func aSecondRefreshIsAnsweredNotModified() async throws {
        try await withStore(route: "cond") { store, faulty, _ in
            let first = try await store.refreshCatalog()
            let sent = faulty.bytesSent
            #expect(sent > 0)
            let second = try await store.refreshCatalog()
            #expect(second == first)
            #expect(faulty.requests(to: "/cond/catalog.json") == 2)
            #expect(faulty.notModified == 1)
            #expect(faulty.bytesSent == sent, "no body the second time")
        }
    }

    @Test func aChangedCatalogIsFetchedWhole() async throws {
        try await withStore(route: "cond") { store, faulty, fixture in
            _ = try await store.refreshCatalog()
            try fixture.pack(fixture.makeTheme(id: "com.acme.ocean", version: "2.0.0"))
            _ = try fixture.catalog(baseURL: "http://127.0.0.1:\(faulty.port)/cond")
            let refreshed = try await store.refreshCatalog()
            #expect(refreshed.product(id: "com.acme.ocean")?.version == "2.0.0")
            #expect(faulty.notModified == 0)
        }
    }

    @Test func maxAgeSkipsTheRequestWhileFresh() async throws {
        let clock = FakeRetryClock()
        try await withStore(route: "cond-fresh", clock: clock) { store, faulty, _ in
            let first = try await store.refreshCatalog()
            #expect(try await store.refreshCatalog() == first)
            #expect(faulty.requests(to: "/cond-fresh/catalog.json") == 1, "fresh for 60 s: not asked")
            try await clock.environment.sleep(.seconds(61))
            #expect(try await store.refreshCatalog() == first)
            #expect(faulty.requests(to: "/cond-fresh/catalog.json") == 2, "stale: revalidated")
            #expect(faulty.notModified == 1)
        }
    }

    @Test func anEditedCopyOnDiskIsNotUsed() async throws {
        try await withStore(route: "cond") { store, faulty, fixture in
            let first = try await store.refreshCatalog()
            let cache = fixture.installed + "/.liverystore/cache"
            let bodies = try FileManager.default.contentsOfDirectory(atPath: cache).filter { $0.hasSuffix(".body") }
            #expect(bodies.count == 1)
            for body in bodies {
                try Data("{\"products\": []}".utf8).write(to: URL(fileURLWithPath: cache + "/" + body))
            }
            // The body is not the one recorded: a plain GET, not a revalidation.
            #expect(try await store.refreshCatalog() == first)
            #expect(faulty.notModified == 0)
            #expect(faulty.requests(to: "/cond/catalog.json") == 2)
        }
    }

    @Test func aCopyThatNoLongerVerifiesIsFetchedAgain() async throws {
        try await withStore(route: "cond") { store, faulty, fixture in
            let first = try await store.refreshCatalog()
            // A consistent record for a body that is not a catalog: the 304 confirms it, it fails
            // verification, and the catalog is fetched again without the cache.
            let cache = DocumentCache(folder: fixture.installed + "/.liverystore/cache")
            let url = "http://127.0.0.1:\(faulty.port)/cond/catalog.json"
            var (record, _) = try #require(cache.load(url))
            let broken = Data("not a catalog".utf8)
            record.sha256 = Hashing.sha256(broken)
            cache.save(record, body: broken)
            #expect(try await store.refreshCatalog() == first)
            #expect(faulty.notModified == 1)
            #expect(faulty.requests(to: "/cond/catalog.json") == 3)
            #expect(cache.load(url)?.1 != broken, "the verified copy replaced it")
        }
    }

    @Test func detailsAreRevalidatedToo() async throws {
        try await withStore(route: "cond") { store, faulty, _ in
            let catalog = try await store.refreshCatalog()
            let product = try #require(catalog.product(id: "com.acme.ocean"))
            let first = try await store.details(for: product)
            #expect(try await store.details(for: product) == first)
            #expect(faulty.notModified == 1, "the details, the second time")
        }
    }

    @Test func aFreshCopyIsVerifiedAgainAndExpiryKeepsItsMeaning() async throws {
        let signed = try SigningTests.SignedStore()
        try signed.sign(expires: Date().addingTimeInterval(2))
        try await TestServer.withFaultyServer(folder: signed.fixture.packages) { _, faulty in
            let store = try await signed.fixture.makeStore(
                manager: nil, catalogURL: "http://127.0.0.1:\(faulty.port)/cond-fresh/catalog.json", trust: signed.trust
            )
            _ = try await store.refreshCatalog()
            try await Task.sleep(for: .milliseconds(2_200))
            // Fresh by max-age, but past the signed expiry: refused, not trusted from disk.
            await #expect(throws: StoreError.self) { try await store.refreshCatalog() }
            do {
                _ = try await store.refreshCatalog()
            } catch StoreError.untrusted(let message) {
                #expect(message.contains("expired"), "\(message)")
            }
            #expect(faulty.requests(to: "/cond-fresh/catalog.json") >= 2, "fetched again once the copy failed")
        }
    }

    @Test func freshnessFromCacheControl() {
        #expect(CachedDocument.freshness(cacheControl: "public, max-age=300", age: nil) == 300)
        #expect(CachedDocument.freshness(cacheControl: "max-age=300", age: "100") == 200)
        #expect(CachedDocument.freshness(cacheControl: "max-age=300", age: "400") == 0)
        #expect(CachedDocument.freshness(cacheControl: "no-cache, max-age=300", age: nil) == nil)
        #expect(CachedDocument.freshness(cacheControl: "no-store", age: nil) == nil)
        #expect(CachedDocument.freshness(cacheControl: "max-age=x", age: nil) == nil)
        #expect(CachedDocument.freshness(cacheControl: nil, age: nil) == nil)
    }
}
