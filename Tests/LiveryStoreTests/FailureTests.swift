import Foundation
import Livery
import LiveryBinary
import Testing
import ZIPFoundation

@testable import LiveryStore

/// Every failure leaves the installed folder exactly as it was: same names, same bytes, no
/// leftovers, and the theme manager sees the same themes.
@Suite(.serialized) struct StoreFailureTests {
    /// Installs ocean 1.0 (so the snapshot is not empty), publishes `publish`, serves the
    /// packages folder, then runs `attempt` and checks the installed state is unchanged.
    private func expectUnchanged(
        limits: ExtractionLimits = .default,
        timeouts: StoreTimeouts = StoreTimeouts(idle: .seconds(5), total: .seconds(30)),
        publish: @Sendable (Fixture) throws -> Void = { _ in },
        attempt: @Sendable (ThemeStore, LiveryStore.Catalog, String) async throws -> Void
    ) async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        let manager = await MainActor.run { fixture.makeManager() }
        let store = try await fixture.makeStore(manager: manager, timeouts: timeouts, limits: limits)
        try await store.installPackage(at: fixture.packages + "/com.acme.ocean-1.0.0.liverypkg")
        try publish(fixture)
        let before = try fixture.snapshot()
        let themesBefore = await MainActor.run { Set(manager.themes.keys) }
        #expect(before.keys.contains("com.acme.ocean.livery"))

        try await TestServer.withServer(folder: fixture.packages) { base in
            let catalog = try fixture.catalog(baseURL: base)
            let online = try await fixture.makeStore(
                manager: manager, catalogURL: base + "/catalog.json", timeouts: timeouts, limits: limits)
            try await attempt(online, catalog, base)
        }
        #expect(try fixture.snapshot() == before)
        #expect(fixture.workFolderIsClean())
        await MainActor.run { manager.reloadThemes() }
        #expect(await MainActor.run { Set(manager.themes.keys) } == themesBefore)
    }

    private func failure(_ store: ThemeStore, _ product: CatalogProduct) async -> StoreError? {
        if case .failed(let error) = await store.install(product).result() { return error }
        return nil
    }

    private static func publishV2(_ fixture: Fixture) throws {
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean", version: "2.0.0", brand: "#123456"))
    }

    // MARK: Network

    @Test func connectionDroppedMidDownload() async throws {
        try await expectUnchanged(publish: Self.publishV2) { store, catalog, base in
            var product = try #require(catalog.product(id: "com.acme.ocean"))
            product.packageURL = base + "/drop/com.acme.ocean-2.0.0.liverypkg"
            let error = await failure(store, product)
            guard case .network = error else {
                Issue.record("expected a network error, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func notFound() async throws {
        try await expectUnchanged(publish: Self.publishV2) { store, catalog, base in
            var product = try #require(catalog.product(id: "com.acme.ocean"))
            product.packageURL = base + "/nothing-here.liverypkg"
            #expect(await failure(store, product) == .httpStatus(404, url: product.packageURL))
        }
    }

    @Test func wrongSize() async throws {
        try await expectUnchanged(publish: Self.publishV2) { store, catalog, _ in
            var product = try #require(catalog.product(id: "com.acme.ocean"))
            let actual = product.packageSize
            product.packageSize = actual + 10
            #expect(await failure(store, product) == .sizeMismatch(expected: actual + 10, actual: actual))
            product.packageSize = actual - 10
            #expect(await failure(store, product) == .sizeMismatch(expected: actual - 10, actual: actual))
        }
    }

    @Test func wrongChecksum() async throws {
        try await expectUnchanged(publish: Self.publishV2) { store, catalog, _ in
            var product = try #require(catalog.product(id: "com.acme.ocean"))
            let actual = product.sha256
            product.sha256 = String(repeating: "0", count: 64)
            #expect(await failure(store, product) == .checksumMismatch(expected: product.sha256, actual: actual))
        }
    }

    @Test func slowServerPastTheTimeout() async throws {
        try await expectUnchanged(
            timeouts: StoreTimeouts(idle: .milliseconds(600), total: .seconds(30)), publish: Self.publishV2
        ) { store, catalog, base in
            var product = try #require(catalog.product(id: "com.acme.ocean"))
            product.packageURL = base + "/stall/com.acme.ocean-2.0.0.liverypkg"
            let started = ContinuousClock.now
            let error = await failure(store, product)
            guard case .timeout = error else {
                Issue.record("expected a timeout, got \(String(describing: error))")
                return
            }
            #expect(
                ContinuousClock.now - started < .seconds(8), "the idle timeout fires long before the server resumes")
        }
    }

    @Test func cancelMidway() async throws {
        try await expectUnchanged(publish: Self.publishV2) { store, catalog, base in
            var product = try #require(catalog.product(id: "com.acme.ocean"))
            product.packageURL = base + "/trickle/com.acme.ocean-2.0.0.liverypkg"
            let task = await store.install(product)
            for await state in task.states() {
                if case .downloading(let received, _) = state, received > 0 { task.cancel() }
            }
            #expect(task.state == .cancelled)
            #expect(await store.state(of: product).installedVersion == "1.0.0")
        }
    }

    // MARK: Content

    /// A package of sources only (made before packages carried compiled files), and one whose
    /// only compiled file is of another format version: refused before the download, naming the
    /// versions offered and the one the app reads; the same from a file.
    @Test func aPackageWithoutACompiledFileTheAppReadsIsRefused() async throws {
        let reads = CompiledTheme.readableFormatVersion
        try await expectUnchanged(publish: { fixture in
            try fixture.handMadePackage(
                name: "sources.liverypkg", id: "com.acme.sources",
                parent: .init(id: "com.livery.base", minimumVersion: "1.0.0"),
                content: [
                    "Info.xml":
                        #"<theme-info id="com.acme.sources" name="Sources" version="1.0.0" parent="com.livery.base"/>"#
                ])
            let real = try Data(contentsOf: URL(fileURLWithPath: Repository.compiledThemes + "/Dark.livery"))
            try fixture.handMadePackage(
                name: "future.liverypkg", id: "com.acme.future",
                parent: .init(id: "com.livery.base", minimumVersion: "1.0.0"), content: [:],
                compiled: ["compiled/v\(reads + 1).livery": (reads + 1, real)])
        }) { store, catalog, _ in
            let sources = try #require(catalog.product(id: "com.acme.sources"))
            let future = try #require(catalog.product(id: "com.acme.future"))
            let task = await store.install(sources)
            var seen: [ProductTaskState] = []
            for await state in task.states() { seen.append(state) }
            #expect(
                seen.last == .failed(.unreadableFormat(product: "'com.acme.sources' 1.0.0", offered: [], reads: reads)))
            // Refused before anything was downloaded.
            #expect(!seen.contains { if case .downloading = $0 { true } else { false } }, "\(seen)")
            #expect(
                await failure(store, future)
                    == .unreadableFormat(product: "'com.acme.future' 1.0.0", offered: [reads + 1], reads: reads))
            #expect(
                StoreError.unreadableFormat(product: "'com.acme.future' 1.0.0", offered: [reads + 1], reads: reads)
                    .description.contains(
                        "offers compiled format version \(reads + 1); this app reads version \(reads)"))
            // Installed from the file, the installer refuses it the same way.
            await #expect(
                throws: StoreError.unreadableFormat(
                    product: "'com.acme.future' 1.0.0", offered: [reads + 1], reads: reads)
            ) {
                try await store.installPackage(at: store.installer.installedFolder + "/../packages/future.liverypkg")
            }
        }
    }

    /// Tampered compiled bytes whose digests were made to match (a dishonest packer, or a package
    /// damaged before it was signed): only the runtime's verifier can tell, and it does.
    @Test func aDamagedCompiledFileIsRefusedByTheVerifier() async throws {
        let reads = CompiledTheme.readableFormatVersion
        try await expectUnchanged(publish: { fixture in
            let folder = try fixture.makeTheme(id: "com.acme.damaged")
            let packed = try fixture.pack(folder, name: "damaged-source.liverypkg")
            let archive = try PackageArchive(path: packed)
            let compiled = try #require(archive.manifest.compiled?.first)
            var bytes = [UInt8](try archive.data(of: compiled.path))
            bytes[bytes.count / 2] ^= 0x5A
            try FileManager.default.removeItem(atPath: packed)
            try fixture.handMadePackage(
                name: "damaged.liverypkg", id: "com.acme.damaged",
                parent: .init(id: "com.livery.base", minimumVersion: "1.0.0"), content: [:],
                compiled: [compiled.path: (reads, Data(bytes))])
        }) { store, catalog, _ in
            let product = try #require(catalog.product(id: "com.acme.damaged"))
            let error = await failure(store, product)
            guard case .invalidContent(let message) = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
            #expect(message.hasPrefix("the compiled theme does not verify"), "\(message)")
        }
    }

    @Test func missingOrOutdatedParent() async throws {
        try await expectUnchanged(publish: { fixture in
            // Compiled against a parent the app does not have.
            try fixture.makeTheme(id: "com.acme.nowhere", parent: nil)
            try fixture.pack(
                fixture.makeTheme(id: "com.acme.orphan", parent: "com.acme.nowhere"), name: "orphan.liverypkg")
            // Compiled against the installed ocean, but asking for a newer one.
            try fixture.pack(
                fixture.makeTheme(id: "com.acme.picky", parent: "com.acme.ocean"), name: "picky.liverypkg",
                parentMinimumVersion: "3.0")
        }) { store, catalog, _ in
            let orphan = try #require(catalog.product(id: "com.acme.orphan"))
            let picky = try #require(catalog.product(id: "com.acme.picky"))
            #expect(
                await failure(store, orphan)
                    == .missingDependency(
                        "the theme's parent 'com.acme.nowhere' is neither installed nor bundled as a compiled theme; install it first"
                    ))
            #expect(
                await failure(store, picky)
                    == .missingDependency(
                        "the theme needs 'com.acme.ocean' 3.0 or newer; 1.0.0 is installed; update it first"))
        }
    }

    // MARK: Hostile archives (installed from files: the checks are the same after a download)

    private func expectRefusedPackage(
        _ expected: String, limits: ExtractionLimits = .default,
        _ build: @escaping @Sendable (inout RawZip) -> Void
    ) async throws {
        try await expectUnchanged(
            limits: limits,
            publish: { fixture in
                try fixture.hostilePackage(name: "hostile.liverypkg", build: build)
            }
        ) { store, _, _ in
            let path = store.installer.installedFolder + "/../hostile/hostile.liverypkg"
            do {
                try await store.installPackage(at: path)
                Issue.record("the hostile package was installed")
            } catch let error as StoreError {
                guard case .invalidPackage(let message) = error else {
                    Issue.record("got \(error)")
                    return
                }
                #expect(message.contains(expected), "\(message)")
            }
            // Nothing escaped next to the installed folder either.
            #expect(!FileManager.default.fileExists(atPath: store.installer.installedFolder + "/../evil.xml"))
            #expect(!FileManager.default.fileExists(atPath: store.installer.installedFolder + "/evil.xml"))
        }
    }

    @Test func zipSlipPaths() async throws {
        try await expectRefusedPackage("leaves the package folder") { zip in
            zip.add("content/Info.xml", Fixture.validInfo)
            zip.add("content/../../evil.xml", "<theme/>")
        }
        try await expectRefusedPackage("absolute path") { zip in
            zip.add("content/Info.xml", Fixture.validInfo)
            zip.add("/tmp/evil.xml", "<theme/>")
        }
        try await expectRefusedPackage("backslash") { zip in
            zip.add("content/Info.xml", Fixture.validInfo)
            zip.add("content\\..\\..\\evil.xml", "<theme/>")
        }
    }

    @Test func symlinkEntries() async throws {
        try await expectRefusedPackage("symbolic link") { zip in
            zip.add("content/Info.xml", Fixture.validInfo)
            zip.add("content/Chat.xml", Data("/etc/passwd".utf8), symlink: true)
        }
    }

    @Test func duplicateAndCaseCollidingNames() async throws {
        try await expectRefusedPackage("appears twice") { zip in
            zip.add("content/Info.xml", Fixture.validInfo)
            zip.add("content/Chat.xml", "<theme/>")
            zip.add("content/Chat.xml", "<theme/>")
        }
        try await expectRefusedPackage("differ only in case") { zip in
            zip.add("content/Info.xml", Fixture.validInfo)
            zip.add("content/Chat.xml", "<theme/>")
            zip.add("content/chat.XML", "<theme/>")
        }
        try await expectRefusedPackage("differ only in case or Unicode form") { zip in
            zip.add("content/Info.xml", Fixture.validInfo)
            zip.add("content/assets/caf\u{E9}.png", "x")
            zip.add("content/assets/cafe\u{301}.png", "y")
        }
    }

    @Test func zipBombByRatio() async throws {
        // 48 MiB of zeros deflates to about 48 KiB: refused from the headers, before any write.
        let fixture = try Fixture()
        let path = fixture.packages + "/bomb.liverypkg"
        let zeros = Data(count: 48 << 20)
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        try archive.addEntry(with: "manifest.json", type: .file, uncompressedSize: Int64(2), compressionMethod: .none) {
            (_: Int64, _: Int) in Data("{}".utf8)
        }
        try archive.addEntry(
            with: "content/Info.xml", type: .file, uncompressedSize: Int64(zeros.count),
            compressionMethod: .deflate
        ) { (position: Int64, size: Int) in zeros.subdata(in: Int(position)..<Int(position) + size) }
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size < 200_000)
        #expect {
            _ = try PackageArchive(path: path)
        } throws: { error in
            guard case StoreError.invalidPackage(let message) = error else { return false }
            return message.contains("expands") && message.contains("at most 100x")
        }
    }

    @Test func zipBombByTotalSizeAndLyingHeaders() async throws {
        try await expectRefusedPackage("more than 262144 bytes", limits: ExtractionLimits(maxTotalBytes: 256 << 10)) {
            zip in
            zip.add("compiled/v4.livery", Data(count: 300 << 10))
        }
        // A deflated entry whose headers claim 10 bytes but that inflates to 1 MiB: it passes
        // the header checks, and is caught while extracting, before 11 bytes are written.
        try await expectUnchanged(publish: { fixture in try Self.lyingPackage(fixture.packages + "/liar.liverypkg") }) {
            store, _, _ in
            await #expect(
                throws: StoreError.invalidPackage(
                    "'compiled/v4.livery' unpacks to more bytes than its header says")
            ) {
                try await store.installPackage(at: store.installer.installedFolder + "/../packages/liar.liverypkg")
            }
        }
        // (The ocean package installed first has 4 entries: manifest, 2 sources, the compiled file.)
        try await expectRefusedPackage("more than 4 entries", limits: ExtractionLimits(maxEntries: 4)) { zip in
            zip.add("content/Info.xml", Fixture.validInfo)
            for index in 0..<4 { zip.add("content/assets/\(index).png", "x") }
        }
    }

    /// A valid package whose deflated compiled file lies about its size in both zip headers.
    static func lyingPackage(_ path: String) throws {
        let info = Data(Fixture.validInfo.utf8)
        let zeros = Data(count: 1 << 20)
        let liar = PackageManifest.File(path: "compiled/v4.livery", size: 10, sha256: Hashing.sha256(zeros.prefix(10)))
        let manifest = PackageManifest(
            type: "theme", id: "com.acme.hostile", name: "Hostile", version: "1.0.0",
            parent: .init(id: "com.livery.base", minimumVersion: "1.0.0"),
            files: [.init(path: "content/Info.xml", size: Int64(info.count), sha256: Hashing.sha256(info)), liar],
            compiled: [
                .init(
                    path: liar.path, formatVersion: CompiledTheme.readableFormatVersion, size: liar.size,
                    sha256: liar.sha256,
                    sources: try Fixture.baseSources() + [
                        .init(id: "com.acme.hostile", version: "1.0.0", sourceDigest: "00")
                    ])
            ])
        let archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .create)
        for (name, data) in [
            ("manifest.json", try manifest.encoded()), ("content/Info.xml", info), ("compiled/v4.livery", zeros),
        ] {
            try archive.addEntry(
                with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate
            ) { (position: Int64, size: Int) in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let name = Array("compiled/v4.livery".utf8)
        func patch(signature: [UInt8], nameOffset: Int, sizeOffset: Int) {
            for index in 0..<(bytes.count - nameOffset - name.count)
            where Array(bytes[index..<index + 4]) == signature
                && Array(bytes[index + nameOffset..<index + nameOffset + name.count]) == name
            {
                bytes.replaceSubrange(index + sizeOffset..<index + sizeOffset + 4, with: [10, 0, 0, 0])
            }
        }
        patch(signature: [0x50, 0x4B, 0x03, 0x04], nameOffset: 30, sizeOffset: 22)
        patch(signature: [0x50, 0x4B, 0x01, 0x02], nameOffset: 46, sizeOffset: 24)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    // MARK: Recovery

    @Test @MainActor func interruptedInstallThenRestart() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        let store = try await fixture.makeStore(manager: nil)
        try await store.installPackage(at: fixture.packages + "/com.acme.ocean-1.0.0.liverypkg")
        let before = try fixture.snapshot()
        let work = store.installer.workFolder

        // 1. Killed while downloading and unpacking: a partial download and a staged theme.
        try Data("partial".utf8).write(to: URL(fileURLWithPath: work + "/downloads/\(UUID().uuidString).part"))
        try fixture.pack(fixture.makeTheme(id: "com.acme.reef"))
        let staged = work + "/staging/\(UUID().uuidString)/com.acme.reef.purchasedTheme"
        try FileManager.default.createDirectory(
            atPath: (staged as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: fixture.sources + "/com.acme.reef-1.0.0/com.acme.reef.theme", toPath: staged)
        try Data().write(to: URL(fileURLWithPath: fixture.installed + "/.com.acme.ocean.livery.123.tmp"))
        // The half-installed theme is never visible.
        let manager = fixture.makeManager()
        #expect(manager.themes["com.acme.reef"] == nil)

        let restarted = try await fixture.makeStore(manager: manager)
        #expect(restarted.recoveryActions.count == 3, "\(restarted.recoveryActions)")
        #expect(try fixture.snapshot() == before)
        #expect(fixture.workFolderIsClean())
        #expect(manager.themes["com.acme.reef"] == nil)

        // 2. Killed after everything was verified and the journal written, before the moves:
        //    the restart completes the install.
        let v2 = try fixture.pack(fixture.makeTheme(id: "com.acme.ocean", version: "2.0.0"))
        var crashing = restarted.installer
        crashing.faultInjection = { step in if step == "journal written" { throw SimulatedCrash() } }
        #expect(throws: SimulatedCrash.self) {
            _ = try crashing.install(packageAt: v2)
        }
        #expect(try fixture.snapshot() == before, "nothing moved before the crash")
        let again = try await fixture.makeStore(manager: manager)
        #expect(again.recoveryActions == ["completed the interrupted operation on com.acme.ocean"])
        #expect(again.installer.installedProduct(id: "com.acme.ocean")?.version == "2.0.0")
        #expect(manager.themes["com.acme.ocean"]?.info.version == "2.0.0")
        #expect(FileManager.default.fileExists(atPath: fixture.installed + "/com.acme.ocean.livery"))
        #expect(try fixture.snapshot() != before)
        #expect(fixture.workFolderIsClean())
    }

    /// A finished download is removed by the install's own journal: killed after the journal was
    /// written, the restart completes the install and leaves no download behind. A package file
    /// the app named itself is never removed.
    @Test(arguments: [true, false]) @MainActor func aDownloadLeavesWithTheInstallItCommitted(removing: Bool)
        async throws
    {
        let fixture = try Fixture()
        let package = try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        let store = try await fixture.makeStore(manager: nil)
        let download = store.installer.resumableDownloadPath(sha256: try Hashing.sha256(fileAt: package).digest)
        try FileManager.default.copyItem(atPath: package, toPath: download)
        // The record a resumable download keeps beside it: with it, recovery keeps the file.
        try Data(#"{"url": "https://a/p.liverypkg", "validator": "\"1\""}"#.utf8).write(
            to: URL(fileURLWithPath: download + ".json"))
        var crashing = store.installer
        crashing.faultInjection = { step in if step == "journal written" { throw SimulatedCrash() } }
        #expect(throws: SimulatedCrash.self) {
            _ = try crashing.install(packageAt: download, removingDownload: removing)
        }
        let restarted = try await fixture.makeStore(manager: nil)
        #expect(restarted.recoveryActions.contains("completed the interrupted operation on com.acme.ocean"))
        #expect(restarted.installer.installedProduct(id: "com.acme.ocean") != nil)
        #expect(FileManager.default.fileExists(atPath: download) == !removing)
        #expect(FileManager.default.fileExists(atPath: download + ".json") == !removing)
    }
}
