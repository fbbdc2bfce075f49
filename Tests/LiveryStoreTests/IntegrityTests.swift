import AsyncHTTPClient
import Foundation
import Livery
import LiveryBinary
import LiveryCompiler
import LiveryXML
import Testing

@testable import LiveryStore

/// Regression tests for the store: crash recovery at every step, bounded downloads,
/// downgrades, children of an updated parent, compressed responses, relative catalog URLs.
@Suite(.serialized) struct StoreIntegrityTests {
    // MARK: Crash at every step

    /// Runs `operation` once per step, crashing at step 1, 2, ... (until it completes without
    /// reaching the step), and checks after each crash that recovery leaves exactly the state
    /// before or exactly the state after, never a mix.
    private func crashAtEveryStep(
        setUp: (Fixture) async throws -> Void,
        operation: @escaping (ProductInstaller, Fixture) throws -> Void
    ) async throws -> Int {
        // The reference: the same operation, uninterrupted.
        let reference = try Fixture()
        try await setUp(reference)
        let referenceBefore = try reference.snapshot()
        try operation(
            try ProductInstaller(installedFolder: reference.installed, bundledSearchPaths: [Repository.compiledThemes]),
            reference)
        let referenceAfter = try reference.snapshot()
        #expect(referenceBefore != referenceAfter)

        var step = 1
        while true {
            let fixture = try Fixture()
            try await setUp(fixture)
            let before = try fixture.snapshot()
            #expect(before == referenceBefore)
            var installer = try ProductInstaller(
                installedFolder: fixture.installed, bundledSearchPaths: [Repository.compiledThemes])
            let reached = Locked(0)
            let stopAt = step
            installer.faultInjection = { _ in
                if reached.withValue({ count -> Bool in
                    count += 1
                    return count == stopAt
                }) {
                    throw SimulatedCrash()
                }
            }
            do {
                try operation(installer, fixture)
                #expect(reached.withValue { $0 } < step)
                #expect(try fixture.snapshot() == referenceAfter)
                return step - 1
            } catch is SimulatedCrash {
                // Restarted: recovery runs before anything else.
                let restarted = try ProductInstaller(
                    installedFolder: fixture.installed, bundledSearchPaths: [Repository.compiledThemes])
                let actions = restarted.recover()
                let after = try fixture.snapshot()
                #expect(
                    after == before || after == referenceAfter,
                    "crash at step \(step): recovery left a mix (\(actions)); differs from before in \(Self.difference(after, before)), from after in \(Self.difference(after, referenceAfter))"
                )
                #expect(fixture.workFolderIsClean(), "crash at step \(step)")
                // And a second recovery changes nothing.
                restarted.recover()
                #expect(try fixture.snapshot() == after)
            }
            step += 1
        }
    }

    private static func difference(_ lhs: [String: String], _ rhs: [String: String]) -> [String] {
        Set(lhs.keys).union(rhs.keys).filter { lhs[$0] != rhs[$0] }.sorted()
    }

    @Test func aCrashAtAnyStepOfAFirstInstallRecoversWhole() async throws {
        let steps = try await crashAtEveryStep(
            setUp: { fixture in
                try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
            },
            operation: { installer, fixture in
                _ = try installer.install(packageAt: fixture.packages + "/com.acme.ocean-1.0.0.liverypkg")
            })
        // checked, extracted, staged, journal written, compiled file placed, manifest, journal removed
        #expect(steps >= 7, "install steps exercised: \(steps)")
    }

    @Test func aCrashAtAnyStepOfAnUpdateWithAChildRecoversWhole() async throws {
        let steps = try await crashAtEveryStep(
            setUp: { fixture in
                let installer = try ProductInstaller(
                    installedFolder: fixture.installed, bundledSearchPaths: [Repository.compiledThemes])
                _ = try installer.install(packageAt: fixture.pack(fixture.makeTheme(id: "com.acme.sea", parent: nil)))
                _ = try installer.install(
                    packageAt: fixture.pack(
                        fixture.makeTheme(id: "com.acme.wave", parent: "com.acme.sea", brand: "#223344")))
                try fixture.pack(fixture.makeTheme(id: "com.acme.sea", version: "1.1.0", parent: nil, brand: "#445566"))
            },
            operation: { installer, fixture in
                _ = try installer.install(packageAt: fixture.packages + "/com.acme.sea-1.1.0.liverypkg")
            })
        // checked, extracted, staged, journal, file (exchanged, placed), child parked, manifest, journal removed
        #expect(steps >= 8, "update steps exercised: \(steps)")
    }

    @Test func aCrashAtAnyStepOfAnUninstallRecoversWhole() async throws {
        let steps = try await crashAtEveryStep(
            setUp: { fixture in
                let installer = try ProductInstaller(
                    installedFolder: fixture.installed, bundledSearchPaths: [Repository.compiledThemes])
                _ = try installer.install(packageAt: fixture.pack(fixture.makeTheme(id: "com.acme.ocean")))
            },
            operation: { installer, _ in
                _ = try installer.uninstall(id: "com.acme.ocean")
            })
        #expect(steps >= 4, "uninstall steps exercised: \(steps)")
    }

    // MARK: Versions

    @Test func aDowngradeIsRefusedUnlessAskedFor() async throws {
        let fixture = try Fixture()
        let installer = try ProductInstaller(
            installedFolder: fixture.installed, bundledSearchPaths: [Repository.compiledThemes])
        let v1 = try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        let v2 = try fixture.pack(fixture.makeTheme(id: "com.acme.ocean", version: "2.0.0", brand: "#123456"))
        _ = try installer.install(packageAt: v2)
        let before = try fixture.snapshot()
        #expect {
            _ = try installer.install(packageAt: v1)
        } throws: { error in
            guard case .refused(let message) = error as? StoreError else { return false }
            return message.contains("2.0.0 is installed and 1.0.0 is older") && message.contains("--allow-downgrade")
        }
        #expect(try fixture.snapshot() == before)
        #expect(fixture.workFolderIsClean())
        let outcome = try installer.install(packageAt: v1, expecting: .init(allowDowngrade: true))
        #expect(outcome.product.version == "1.0.0" && outcome.replacedVersion == "2.0.0")
    }

    @Test func aParentIsNeverDowngradedBelowWhatAChildRequires() async throws {
        let fixture = try Fixture()
        let installer = try ProductInstaller(
            installedFolder: fixture.installed, bundledSearchPaths: [Repository.compiledThemes])
        let sea1 = try fixture.pack(fixture.makeTheme(id: "com.acme.sea", parent: nil))
        _ = try installer.install(
            packageAt: fixture.pack(
                fixture.makeTheme(id: "com.acme.sea", version: "2.0.0", parent: nil, brand: "#101010")))
        // Packed against sea 2.0.0: needs 2.0.0 or newer.
        _ = try installer.install(
            packageAt: fixture.pack(fixture.makeTheme(id: "com.acme.wave", parent: "com.acme.sea")))
        #expect(
            installer.storedManifest(of: "com.acme.wave")?.parent == .init(id: "com.acme.sea", minimumVersion: "2.0.0"))
        let before = try fixture.snapshot()
        #expect {
            _ = try installer.install(packageAt: sea1, expecting: .init(allowDowngrade: true))
        } throws: { error in
            guard case .refused(let message) = error as? StoreError else { return false }
            return message.contains("'com.acme.wave' needs 'com.acme.sea' 2.0.0 or newer")
        }
        #expect(try fixture.snapshot() == before)
        #expect(fixture.workFolderIsClean())
    }

    /// Updating a downloaded parent parks its installed compiled children in the same
    /// transaction (a compiled child cannot be made again on the device): none is left where the
    /// app would show it on top of a parent it was not compiled from. Installing children compiled
    /// against the new parent brings them back.
    @Test func updatingAParentParksItsCompiledChildrenUntilTheyAreInstalledForIt() async throws {
        let fixture = try Fixture()
        let installer = try ProductInstaller(
            installedFolder: fixture.installed, bundledSearchPaths: [Repository.compiledThemes])
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
        #expect(try fixture.snapshot().keys.sorted() == ["com.acme.sea.livery"])
        #expect(installer.installed().map(\.id) == ["com.acme.sea"])
        #expect(
            installer.parked().map { "\($0.id) \($0.version)" } == ["com.acme.ripple 1.0.0", "com.acme.wave 1.0.0"])
        #expect(fixture.workFolderIsClean())

        // Compiled against sea 1.1.0, they come back (and leave the parked folder).
        _ = try installer.install(
            packageAt: fixture.pack(
                fixture.makeTheme(id: "com.acme.wave", version: "1.0.1", parent: "com.acme.sea", brand: "#223344")))
        _ = try installer.install(
            packageAt: fixture.pack(
                fixture.makeTheme(id: "com.acme.ripple", version: "1.0.1", parent: "com.acme.wave", brand: "#334455")))
        #expect(installer.parked().isEmpty)
        for id in ["com.acme.sea", "com.acme.wave", "com.acme.ripple"] {
            let compiled = try CompiledTheme(contentsOf: fixture.installed + "/\(id).livery")
            #expect(compiled.chain.first?.info.version == "1.1.0", "\(id) is compiled against the new parent")
        }
        #expect(fixture.workFolderIsClean())
    }

    // MARK: Downloads

    /// What a server can push past the point where the client stops reading: what the socket
    /// buffers hold, plus the client's last read. FaultyServer's send buffer is kept at 64 KiB; the
    /// client's receive buffer grows with the kernel's autotuning, the more so the longer the
    /// client read fast, up to the kernel's limit (Linux: the last field of `tcp_rmem`, 32 MiB on
    /// these machines). Measured at 0.2-0.7 MiB past a 1 MiB cap, and 0.5-5.6 MiB past 64 MiB on a
    /// loaded machine; URLSession read 0.07 to 3 GB past the cap (docs/Packages.md, "Limits of
    /// the download caps"). What the client itself read is checked exactly, by its progress.
    static let socketSlack = receiveBufferLimit + (1 << 20)

    /// The most the kernel lets a TCP receive buffer grow to.
    static let receiveBufferLimit: Int = {
        let fields = (try? String(contentsOfFile: "/proc/sys/net/ipv4/tcp_rmem", encoding: .utf8))?
            .split(whereSeparator: \.isWhitespace)
        return fields?.last.flatMap { Int($0) } ?? (8 << 20)
    }()

    /// A progress handler that keeps the most bytes the client reported as read.
    final class MostReceived: Sendable {
        private let most = Locked<Int64>(0)
        var value: Int64 { most.withValue { $0 } }
        func record(_ received: Int64) { most.withValue { $0 = max($0, received) } }
    }

    /// Once the client has its answer it closes the connection: the server's connection ends, and
    /// by then it has sent at most `limit` bytes (the cap plus what socket buffers held).
    static func expectStoppedReading(
        _ faulty: FaultyServer, within limit: Int, sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws {
        let ended = try await faulty.waitForConnectionsEnded()
        #expect(ended, "the client did not close the connection", sourceLocation: sourceLocation)
        let sent = faulty.bytesSent
        #expect(sent <= limit, "the server sent \(sent) bytes, more than \(limit)", sourceLocation: sourceLocation)
        try await Task.sleep(for: .milliseconds(200))
        #expect(
            faulty.bytesSent == sent, "the server still sent bytes after the connection ended",
            sourceLocation: sourceLocation)
    }

    @Test func aDownloadWithoutACatalogStopsAtTheCap() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            let client = CatalogClient(catalogURL: base + "/catalog.json", maxDownloadBytes: 1 << 20)
            let path = fixture.root + "/download.part"
            let started = ContinuousClock.now
            let received = MostReceived()
            await #expect {
                try await client.download(
                    base + "/endless/com.acme.ocean-1.0.0.liverypkg", to: path, expectedSize: nil,
                    expectedSHA256: nil
                ) { count, _ in received.record(count) }
            } throws: { error in
                guard case .tooLarge(let message) = error as? StoreError else { return false }
                return message.contains("more than 1048576 bytes")
            }
            #expect(ContinuousClock.now - started < .seconds(60))
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(received.value > 0 && received.value <= 1 << 20)
            try await Self.expectStoppedReading(faulty, within: (1 << 20) + Self.socketSlack)
        }
    }

    /// A bigger cap, the default one: the bytes read past it are the same few MiB.
    @Test func anEndlessDownloadReadsTheDefaultCapAndNoMore() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            let client = CatalogClient(catalogURL: base + "/catalog.json")
            #expect(client.maxDownloadBytes == 64 << 20)
            let path = fixture.root + "/download.part"
            let received = MostReceived()
            await #expect(
                throws: StoreError.tooLarge(
                    "\(base)/endless/com.acme.ocean-1.0.0.liverypkg has more than 67108864 bytes, the most a download may have"
                )
            ) {
                try await client.download(
                    base + "/endless/com.acme.ocean-1.0.0.liverypkg", to: path, expectedSize: nil, expectedSHA256: nil
                ) { count, _ in received.record(count) }
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(received.value > 32 << 20 && received.value <= 64 << 20)
            try await Self.expectStoppedReading(faulty, within: (64 << 20) + Self.socketSlack)
        }
    }

    /// Installs the fixture's com.acme.ocean as its catalog lists it, but downloaded through the
    /// faulty route `fault`; returns the product and how its task ended.
    private static func install(_ fixture: Fixture, through fault: String, _ base: String) async throws -> (
        CatalogProduct, ProductTaskState
    ) {
        var product = try #require(try fixture.catalog(baseURL: base).product(id: "com.acme.ocean"))
        product.packageURL = base + "/\(fault)/com.acme.ocean-1.0.0.liverypkg"
        let store = try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json")
        return (product, await store.install(product).result())
    }

    /// From a catalog the package's size is the cap: an endless body is cut just past it, and the
    /// installed folder is untouched.
    @Test func anEndlessPackageFromACatalogStopsAtItsSize() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            let (product, state) = try await Self.install(fixture, through: "endless", base)
            guard case .failed(.sizeMismatch(let expected, let actual)) = state else {
                Issue.record("expected a size mismatch, got \(state)")
                return
            }
            #expect(expected == product.packageSize && actual > expected && actual <= expected + 65_536)
            try await Self.expectStoppedReading(faulty, within: Int(product.packageSize) + Self.socketSlack)
        }
        #expect(try fixture.snapshot().isEmpty)
        #expect(fixture.workFolderIsClean())
    }

    /// Documents (catalog, details, media) have their own, smaller cap.
    @Test func anEndlessDocumentStopsAtTheDocumentCap() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: fixture.packages + "/catalog.json"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            let client = CatalogClient(catalogURL: base + "/endless/catalog.json", maxDocumentBytes: 256 << 10)
            await #expect(throws: StoreError.tooLarge("\(base)/endless/catalog.json is larger than 262144 bytes")) {
                _ = try await client.fetch(base + "/endless/catalog.json")
            }
            try await Self.expectStoppedReading(faulty, within: (256 << 10) + Self.socketSlack)
        }
    }

    @Test func anAnnouncedSizeOverTheCatalogsStopsAtTheHead() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            let started = ContinuousClock.now
            let (product, state) = try await Self.install(fixture, through: "huge", base)
            #expect(state == .failed(.sizeMismatch(expected: product.packageSize, actual: 10_737_418_240)))
            #expect(ContinuousClock.now - started < .seconds(60))
            // Refused from the head: nothing of the body is read, the buffers hold what was sent.
            try await Self.expectStoppedReading(faulty, within: Self.socketSlack)
        }
        #expect(try fixture.snapshot().isEmpty)
        #expect(fixture.workFolderIsClean())
    }

    /// AsyncHTTPClient must be shut down before it is released (debug builds trap otherwise): the
    /// client's copies share one, shut down when the last copy goes, and then released.
    @Test func theHTTPClientIsShutDownWithTheLastCopy() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        final class Weak: @unchecked Sendable {
            weak var client: HTTPClient?
        }
        let http = Weak()
        try await TestServer.withServer(folder: fixture.packages) { base in
            var client: CatalogClient? = CatalogClient(catalogURL: base + "/catalog.json")
            http.client = client?.http.client
            let copy = client
            client = nil
            let package = try await copy?.fetch(base + "/com.acme.ocean-1.0.0.liverypkg")
            #expect(package?.isEmpty == false)
            #expect(http.client != nil, "a copy keeps it")
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while http.client != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(http.client == nil, "the HTTP client was not shut down and released")
    }

    /// The reader and the watchdog share the cooperative thread pool. When every thread of it is
    /// busy for longer than the idle timeout (a loaded machine: it happened in a full test run),
    /// data waits with nobody to touch the watchdog, and a watchdog that woke first took that for
    /// a silent server. Here every thread is blocked for 1.5 s against an idle timeout of 0.6 s,
    /// then the reader takes a moment before it touches, as a resumed reader does.
    @Test func aStarvedProcessIsNotASilentServer() async throws {
        let watchdog = Watchdog(idle: .milliseconds(600), total: .seconds(30))
        try await watchdog.run {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
                    group.addTask { usleep(1_500_000) }
                }
            }
            try await Task.sleep(for: .milliseconds(100))
            watchdog.touch()
        }
        // A silent server still times out, on a machine that is not starved.
        let silent = Watchdog(idle: .milliseconds(600), total: .seconds(30))
        let started = ContinuousClock.now
        await #expect(throws: StoreError.timeout("no data arrived for 0.6 seconds")) {
            try await silent.run { try await Task.sleep(for: .seconds(10)) }
        }
        #expect(ContinuousClock.now - started < .seconds(3))
    }

    @Test func aDripIsStoppedByTheTotalTimeout() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withServer(folder: fixture.packages) { base in
            let catalog = try fixture.catalog(baseURL: base)
            var product = try #require(catalog.product(id: "com.acme.ocean"))
            product.packageURL = base + "/drip/com.acme.ocean-1.0.0.liverypkg"
            let store = try await fixture.makeStore(
                manager: nil, catalogURL: base + "/catalog.json",
                timeouts: StoreTimeouts(idle: .seconds(5), total: .seconds(2)))
            let started = ContinuousClock.now
            let state = await store.install(product).result()
            guard case .failed(.timeout(let message)) = state else {
                Issue.record("expected a timeout, got \(state)")
                return
            }
            #expect(message.contains("longer than"))
            #expect(ContinuousClock.now - started < .seconds(6))
        }
        #expect(try fixture.snapshot().isEmpty)
        #expect(fixture.workFolderIsClean())
    }

    @Test func aGzippedResponseIsDecodedAndCheckedOnItsDecodedBytes() async throws {
        let fixture = try Fixture()
        try fixture.pack(
            fixture.makeTheme(
                id: "com.acme.ocean",
                extraFiles: ["Notes.xml": "<theme/>" + String(repeating: "<!-- padding -->", count: 400)]))
        try await TestServer.withServer(folder: fixture.packages) { base in
            let catalog = try fixture.catalog(baseURL: base)
            var product = try #require(catalog.product(id: "com.acme.ocean"))
            product.packageURL = base + "/gzip/com.acme.ocean-1.0.0.liverypkg"
            let store = try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json")
            #expect(await store.install(product).result() == .finished)
        }
        #expect(try fixture.snapshot().keys.contains("com.acme.ocean.livery"))
    }

    /// A compressed response is capped on its decoded bytes: 64 KB of gzip that decode to 64 MiB
    /// stop at the cap (or at the decoder's limit, 4 MiB here).
    @Test func aGzipBombStopsAtTheCapOnItsDecodedBytes() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, _ in
            let client = CatalogClient(catalogURL: base + "/catalog.json", maxDownloadBytes: 1 << 20)
            let url = base + "/bomb/com.acme.ocean-1.0.0.liverypkg"
            // Whichever sees it first: the client's cap on decoded bytes, or the decoder's own
            // limit (the larger of the two caps), which bounds what one compressed read expands to.
            await #expect {
                try await client.download(
                    url, to: fixture.root + "/download.part", expectedSize: nil, expectedSHA256: nil
                ) { _, _ in }
            } throws: { error in
                [
                    StoreError.tooLarge("\(url) has more than 1048576 bytes, the most a download may have"),
                    StoreError.tooLarge("\(url) decodes to more bytes than the store accepts"),
                ].contains(error as? StoreError)
            }
            #expect(!FileManager.default.fileExists(atPath: fixture.root + "/download.part"))
        }
    }

    /// Only gzip and deflate are decoded: bytes in another encoding are refused from the head,
    /// not hashed as they are and reported as a wrong checksum.
    @Test func anEncodingTheStoreCannotDecodeIsRefusedFromTheHead() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            let (product, state) = try await Self.install(fixture, through: "brotli", base)
            #expect(
                state
                    == .failed(
                        .network(
                            "\(product.packageURL) is sent with Content-Encoding 'br', which the store does not decode (it asks for identity)"
                        )))
            try await Self.expectStoppedReading(faulty, within: Int(product.packageSize))
        }
        #expect(try fixture.snapshot().isEmpty)
        #expect(fixture.workFolderIsClean())
    }

    @Test func relativeURLsResolveAgainstTheCatalog() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        let written = try CatalogBuilder.build(packagesIn: fixture.packages)
        #expect(written.products.first?.packageURL == "com.acme.ocean-1.0.0.liverypkg")
        #expect(written.products.first?.detailsURL == "details/com.acme.ocean.json")
        try await TestServer.withServer(folder: fixture.root) { base in
            let store = try await fixture.makeStore(manager: nil, catalogURL: base + "/packages/catalog.json")
            let catalog = try await store.refreshCatalog()
            let product = try #require(catalog.product(id: "com.acme.ocean"))
            #expect(product.packageURL == base + "/packages/com.acme.ocean-1.0.0.liverypkg")
            #expect(try await store.details(for: product).description == "A test theme.")
            #expect(await store.install(product).result() == .finished)
        }
        #expect(try fixture.snapshot().keys.contains("com.acme.ocean.livery"))
    }
}
