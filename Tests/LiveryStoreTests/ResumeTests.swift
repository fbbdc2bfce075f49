import Foundation
import Livery
import Testing

@testable import LiveryStore

/// Resumable downloads through `ThemeStore`: a dropped, cut or stalled download continues from
/// the bytes on disk (`Range` + `If-Range`), also after a restart; a changed file or a lying
/// `Content-Range` starts over; the whole file's SHA-256 is checked either way.
@Suite(.serialized) struct StoreResumeTests {
    private static let target = FaultyInstall.target

    /// Packs ocean 1.0 and installs it from `/FAULT/NAME` on the faulty server.
    private func install(
        through fault: String, policy: RetryPolicy = .default,
        timeouts: StoreTimeouts = StoreTimeouts(idle: .seconds(5), total: .seconds(30)),
        check: @Sendable (FaultyInstall) async throws -> Void,
        change: @Sendable (inout CatalogProduct) -> Void = { _ in }
    ) async throws {
        try await FaultyInstall.run(
            through: fault, policy: policy, clock: FakeRetryClock(), timeouts: timeouts, change: change, check: check)
    }

    private static func installedNames(_ fixture: Fixture) throws -> [String] {
        try fixture.snapshot().keys.sorted()
    }

    @Test func aDroppedDownloadResumesWhereItStopped() async throws {
        try await install(through: "r-dropfirst") { run in
            #expect(run.states.last == .finished, "\(run.states)")
            #expect(run.faulty.requests(to: run.path) == 2)
            #expect(run.faulty.rangeRequests(to: run.path) == 1)
            #expect(Int64(run.faulty.bytesSent) == run.product.packageSize, "each byte sent once")
            let names = try Self.installedNames(run.fixture)
            #expect(names == ["com.acme.ocean.livery"])
            #expect(run.fixture.workFolderIsClean())
        }
    }

    @Test func aDownloadCutAgainAndAgainFinishes() async throws {
        try await install(through: "r-cut") { run in
            #expect(run.states.last == .finished, "\(run.states)")
            #expect(run.faulty.requests(to: run.path) == 3)
            #expect(run.faulty.rangeRequests(to: run.path) == 2)
            #expect(Int64(run.faulty.bytesSent) == run.product.packageSize)
            // Progress counts the whole file, resumed bytes included: it never goes back.
            let received = run.states.compactMap { if case .downloading(let count, _) = $0 { count } else { nil } }
            #expect(received == received.sorted() && received.last == run.product.packageSize, "\(received)")
        }
    }

    @Test func aStalledDownloadResumes() async throws {
        try await install(
            through: "r-stallfirst", timeouts: StoreTimeouts(idle: .milliseconds(600), total: .seconds(30))
        ) { run in
            #expect(run.states.last == .finished, "\(run.states)")
            #expect(run.faulty.rangeRequests(to: run.path) == 1)
        }
    }

    @Test func aChangedFileStartsOver() async throws {
        try await install(through: "r-changing") { run in
            #expect(run.states.last == .finished, "\(run.states)")
            #expect(run.faulty.rangeRequests(to: run.path) == 1, "asked for the rest")
            // The If-Range no longer matched: the whole file came again.
            #expect(Int64(run.faulty.bytesSent) == run.product.packageSize / 2 + run.product.packageSize)
            let names = try Self.installedNames(run.fixture)
            #expect(names == ["com.acme.ocean.livery"])
        }
    }

    @Test func aLyingContentRangeStartsOver() async throws {
        try await install(through: "r-lying") { run in
            #expect(run.states.last == .finished, "\(run.states)")
            #expect(run.faulty.requests(to: run.path) == 3, "dropped, refused 206, whole file")
            #expect(run.faulty.rangeRequests(to: run.path) == 1)
            let names = try Self.installedNames(run.fixture)
            #expect(names == ["com.acme.ocean.livery"])
        }
    }

    @Test func aResumedDownloadIsCheckedLikeAWholeOne() async throws {
        try await install(through: "r-dropfirst") { run in
            guard case .failed(.checksumMismatch) = run.states.last else {
                Issue.record("expected a checksum mismatch, got \(String(describing: run.states.last))")
                return
            }
            #expect(run.faulty.rangeRequests(to: run.path) == 1)
            let names = try Self.installedNames(run.fixture)
            #expect(names.isEmpty)
            #expect(run.fixture.workFolderIsClean(), "a refused download leaves nothing")
        } change: { product in
            product.sha256 = String(repeating: "0", count: 64)
        }
    }

    @Test func aServerWithoutRangesStartsOverAndLeavesNothingOnFailure() async throws {
        // No validator: nothing to resume with, so nothing is kept.
        try await install(through: "dropfirst", policy: .never) { run in
            guard case .failed(.network) = run.states.last else {
                Issue.record("expected a network error, got \(String(describing: run.states.last))")
                return
            }
            #expect(run.fixture.workFolderIsClean())
        }
    }

    @Test func aPartialDownloadSurvivesARestart() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            var product = try #require(try fixture.catalog(baseURL: base).product(id: "com.acme.ocean"))
            product.packageURL = "http://127.0.0.1:\(faulty.port)/r-dropfirst/\(Self.target)"
            let first = try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json", retry: .never)
            guard case .failed(.network) = await first.install(product).result() else {
                Issue.record("the first run's download should fail")
                return
            }
            let downloads = fixture.installed + "/.liverystore/downloads"
            let part = downloads + "/\(product.sha256).part"
            #expect(FileManager.default.fileExists(atPath: part))
            #expect(FileManager.default.fileExists(atPath: part + ".json"))
            let kept = (try? FileManager.default.attributesOfItem(atPath: part))?[.size] as? Int64
            #expect(kept == product.packageSize / 2)
            // Leftovers without a record go at the next start; the partial with its record stays.
            FileManager.default.createFile(atPath: downloads + "/stray.part", contents: Data([1, 2, 3]))
            FileManager.default.createFile(atPath: downloads + "/orphan.part.json", contents: Data("{}".utf8))

            let second = try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json", retry: .never)
            #expect(second.recoveryActions.count == 2, "\(second.recoveryActions)")
            let left = try FileManager.default.contentsOfDirectory(atPath: downloads).sorted()
            #expect(left == ["\(product.sha256).part", "\(product.sha256).part.json"])
            #expect(await second.install(product).result() == .finished)
            #expect(faulty.rangeRequests(to: "/r-dropfirst/\(Self.target)") == 1)
            #expect(Int64(faulty.bytesSent) == product.packageSize, "the second run sent only the rest")
            #expect(fixture.workFolderIsClean())
        }
    }

    @Test func contentRangeParsing() {
        #expect(
            PartialDownload.parseContentRange("bytes 10-19/20").map { [$0.start, $0.end, $0.total ?? -1] } == [
                10, 19, 20,
            ])
        #expect(PartialDownload.parseContentRange("bytes 10-19/*").map { $0.total } == .some(nil))
        #expect(PartialDownload.parseContentRange("bytes 10-19/19") == nil, "the end past the total")
        #expect(PartialDownload.parseContentRange("bytes 19-10/20") == nil)
        #expect(PartialDownload.parseContentRange("items 0-1/2") == nil)
        #expect(PartialDownload.parseContentRange(nil) == nil)
        #expect(PartialDownload.validator(etag: "W/\"weak\"", lastModified: nil) == nil, "If-Range takes no weak ETag")
        #expect(PartialDownload.validator(etag: "W/\"weak\"", lastModified: "Sun, 09 Sep 2001 01:46:40 GMT") != nil)
        #expect(PartialDownload.validator(etag: "\"v1\"", lastModified: "x") == "\"v1\"")
    }
}
