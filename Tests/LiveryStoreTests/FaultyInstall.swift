import Foundation
import Livery
import Testing

@testable import LiveryStore

/// One install of ocean 1.0 through the faulty server, as the retry and resume suites make it: the
/// task's states (the final one last) and what the server and the store's folder saw.
struct FaultyInstall {
    static let target = "com.acme.ocean-1.0.0.liverypkg"

    var states: [ProductTaskState]
    var faulty: FaultyServer
    var fixture: Fixture
    var product: CatalogProduct
    var fault: String
    /// The package's path on the faulty server.
    var path: String { "/\(fault)/\(Self.target)" }

    /// Packs ocean 1.0, serves it, and installs it from `/FAULT/NAME` on the faulty server with
    /// `policy` and `clock`; `change` edits the catalog's product first.
    static func run(
        through fault: String, policy: RetryPolicy, clock: FakeRetryClock, timeouts: StoreTimeouts,
        change: @Sendable (inout CatalogProduct) -> Void, check: @Sendable (FaultyInstall) async throws -> Void
    ) async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            var product = try #require(try fixture.catalog(baseURL: base).product(id: "com.acme.ocean"))
            product.packageURL = "http://127.0.0.1:\(faulty.port)/\(fault)/\(target)"
            change(&product)
            let store = try await fixture.makeStore(
                manager: nil, catalogURL: base + "/catalog.json", timeouts: timeouts, retry: policy,
                retryEnvironment: clock.environment)
            let task = await store.install(product)
            var seen: [ProductTaskState] = []
            for await state in task.states() { seen.append(state) }
            try await check(
                FaultyInstall(states: seen, faulty: faulty, fixture: fixture, product: product, fault: fault))
        }
    }
}
