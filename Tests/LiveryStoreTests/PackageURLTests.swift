import Foundation
import Livery
import Testing

@testable import LiveryStore

/// A package installed by URL (`ThemeStore.installPackage(from:)`, what `livery install URL` does)
/// goes through the same download as a catalog's: resumed after a restart, within the cache
/// budget, which it checks against the size the response announces before writing a byte.
@Suite(.serialized) struct PackageURLTests {
    private static func name(_ id: String) -> String { "\(id)-1.0.0.liverypkg" }

    /// Packs `ids` and hands over the faulty server's base URL (`http://127.0.0.1:PORT`).
    private func withServer(
        _ ids: [String], _ body: @Sendable (Fixture, FaultyServer, String) async throws -> Void
    ) async throws {
        let fixture = try Fixture()
        for id in ids { try fixture.pack(fixture.makeTheme(id: id)) }
        try await TestServer.withFaultyServer(folder: fixture.packages) { _, faulty in
            try await body(fixture, faulty, "http://127.0.0.1:\(faulty.port)")
        }
    }

    private static func packageSize(_ fixture: Fixture, _ id: String) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: fixture.packages + "/" + name(id))
        return try #require(attributes[.size] as? Int64)
    }

    @Test func aPackageURLResumesAfterARestart() async throws {
        try await withServer(["com.acme.ocean"]) { fixture, faulty, base in
            let target = "/r-dropfirst/" + Self.name("com.acme.ocean")
            let size = try Self.packageSize(fixture, "com.acme.ocean")
            let first = try await fixture.makeStore(manager: nil, retry: .never)
            guard case .failed(.network) = await first.installPackage(from: base + target).result() else {
                Issue.record("the first run's download should fail")
                return
            }
            let part = first.installer.resumableDownloadPath(url: base + target)
            let kept = (try? FileManager.default.attributesOfItem(atPath: part))?[.size] as? Int64
            #expect(kept == size / 2, "half the package kept")
            #expect(FileManager.default.fileExists(atPath: part + ".json"))

            let second = try await fixture.makeStore(manager: nil, retry: .never)
            let task = await second.installPackage(from: base + target)
            #expect(await task.result() == .finished)
            #expect(task.outcome?.product.id == "com.acme.ocean" && task.outcome?.replacedVersion == nil)
            #expect(faulty.rangeRequests(to: target) == 1)
            #expect(Int64(faulty.bytesSent) == size, "the second run sent only the rest")
            #expect(try fixture.snapshot().keys.sorted() == ["com.acme.ocean.livery"])
            #expect(fixture.workFolderIsClean())
        }
    }

    @Test func aPackageURLMakesRoomByRemovingTheLeastRecentlyUsed() async throws {
        try await withServer(["com.acme.a", "com.acme.b", "com.acme.c"]) { fixture, _, base in
            let store = try await fixture.makeStore(manager: nil)
            for id in ["com.acme.a", "com.acme.b"] {
                #expect(await store.installPackage(from: base + "/plain/" + Self.name(id)).result() == .finished)
            }
            await store.markUsed("com.acme.a")  // b is now the least recently used
            // Room for c only once one theme goes: its package, and as much again installed.
            let needed = 2 * (try Self.packageSize(fixture, "com.acme.c"))
            await store.setCacheBudget(await store.storageUsed() + needed - 1)
            #expect(await store.installPackage(from: base + "/plain/" + Self.name("com.acme.c")).result() == .finished)
            #expect(await store.installed().map(\.id) == ["com.acme.a", "com.acme.c"])
            let all = FileManager.default.enumerator(atPath: fixture.installed)?.allObjects as? [String] ?? []
            #expect(all.filter { $0.contains("com.acme.b") }.isEmpty, "b leaves nothing behind")
        }
    }

    @Test func aPackageURLThatCannotFitFailsBeforeWritingAByte() async throws {
        try await withServer(["com.acme.a"]) { fixture, faulty, base in
            let store = try await fixture.makeStore(manager: nil)
            await store.setCacheBudget(10)
            let url = base + "/plain/" + Self.name("com.acme.a")
            var states: [ProductTaskState] = []
            for await state in await store.installPackage(from: url).states() { states.append(state) }
            let result = states.last ?? .initializing
            let received = states.compactMap { if case .downloading(let count, _) = $0 { count } else { nil } }
            #expect(received.allSatisfy { $0 == 0 }, "refused at the response's head: \(states)")
            guard case .failed(.cacheBudgetExceeded(let product, let needed, let budget, let kept)) = result else {
                Issue.record("expected cacheBudgetExceeded, got \(result)")
                return
            }
            #expect(product == url && budget == 10 && kept == 0)
            #expect(needed == 2 * (try Self.packageSize(fixture, "com.acme.a")), "the announced size, twice")
            #expect(faulty.requests(to: "/plain/" + Self.name("com.acme.a")) == 1, "not retried")
            #expect(try fixture.snapshot().isEmpty)
            #expect(fixture.workFolderIsClean(), "no partial download")
        }
    }

    @Test func aPackageURLWithNoAnnouncedSizeIsCheckedBeforeItIsInstalled() async throws {
        try await withServer(["com.acme.a"]) { fixture, _, base in
            let store = try await fixture.makeStore(manager: nil)
            await store.setCacheBudget(10)
            let result = await store.installPackage(from: base + "/nolength/" + Self.name("com.acme.a")).result()
            guard case .failed(.cacheBudgetExceeded) = result else {
                Issue.record("expected cacheBudgetExceeded, got \(result)")
                return
            }
            #expect(try fixture.snapshot().isEmpty)
            #expect(fixture.workFolderIsClean())
            await store.setCacheBudget(nil)
            #expect(
                await store.installPackage(from: base + "/nolength/" + Self.name("com.acme.a")).result() == .finished)
        }
    }
}
