import Foundation
import Hummingbird
import Livery
import LiveryBinary
import LiveryCompiler
import LiveryDevelopment
import LiveryStoreDevelopment
import LiveryXML
import Logging
import NIOCore
import ServiceLifecycle
import Testing
import ZIPFoundation

@testable import LiveryStore

enum Repository {
    static let root: String = {
        var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        components.removeLast(3)
        return components.joined(separator: "/")
    }()
    static let themes = root + "/Themes"

    /// The sample themes compiled, as an app bundles them (`<Name>.livery`): the parents the
    /// store's compiled installs are checked against. Compiled once per test process.
    static let compiledThemes: String = {
        let folder = NSTemporaryDirectory() + "livery-store-bundled-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let workspace = ThemeWorkspace(searchPaths: [themes])
        for name in ["Base", "Dark", "HighContrast", "Light", "Tokens"] {
            let compiled = ThemeCompiler.compile(themeAt: themes + "/\(name).theme", workspace: workspace)
            guard let bytes = compiled.value else { fatalError("\(name) does not compile: \(compiled.diagnostics)") }
            try! Data(bytes).write(to: URL(fileURLWithPath: folder + "/\(name).livery"))
        }
        atexit {
            try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "livery-store-bundled-\(getpid())")
        }
        return folder
    }()
}

/// A scratch world for one test: theme sources, a packages folder served over HTTP, an
/// installed folder, a theme manager seeing the bundled sample themes and the installed folder.
final class Fixture: @unchecked Sendable {
    let root: String
    var sources: String { root + "/sources" }
    var packages: String { root + "/packages" }
    var installed: String { root + "/installed" }
    /// The folder holding the newest source made of each theme id (what children are packed against).
    private var newestSource: [String: String] = [:]

    init() throws {
        root = NSTemporaryDirectory() + "livery-store-\(UUID().uuidString)"
        for folder in [sources, packages, installed] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    // MARK: Themes and packages

    /// A theme folder: Info.xml plus a palette that redefines Base's brand colour.
    @discardableResult
    func makeTheme(
        id: String, version: String = "1.0.0", parent: String? = "com.livery.base", brand: String = "#0077BE",
        extraFiles: [String: String] = [:]
    ) throws -> String {
        // Each in its own folder: a theme's siblings are searched for its parent.
        let folder = sources + "/\(id)-\(version)/\(id).theme"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        newestSource[id] = (folder as NSString).deletingLastPathComponent
        let parentAttribute = parent.map { " parent=\"\($0)\"" } ?? ""
        try write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <theme-info id="\(id)" name="\(id.split(separator: ".").last!.capitalized)" version="\(version)"\(parentAttribute)>
              <description>A test theme.</description>
            </theme-info>
            """, to: folder + "/Info.xml")
        try write(
            """
            <theme>
              <constants>
                <color name="brand">\(brand)</color>
              </constants>
            </theme>
            """, to: folder + "/Palette.xml")
        for (name, text) in extraFiles { try write(text, to: folder + "/" + name) }
        return folder
    }

    /// Packs a theme with `livery pack`'s code into the packages folder: compiled against the
    /// sample themes and the newest source made of every other test theme.
    @discardableResult
    func pack(
        _ folder: String, name: String? = nil, alsoCompiled: [String] = [], parentMinimumVersion: String? = nil
    ) throws -> String {
        let output =
            packages + "/"
            + (name ?? (((folder as NSString).deletingLastPathComponent) as NSString).lastPathComponent + ".liverypkg")
        let own = (folder as NSString).deletingLastPathComponent
        let workspace = ThemeWorkspace(
            searchPaths: [Repository.themes] + newestSource.values.filter { $0 != own }.sorted(),
            themeExtensions: ["theme", "purchasedTheme"])
        let result = PackageBuilder.pack(
            themeAt: folder, workspace: workspace, output: output, parentMinimumVersion: parentMinimumVersion,
            alsoCompiled: alsoCompiled)
        try #require(result.value != nil, "\(result.diagnostics)")
        return output
    }

    /// A package written by hand: content files and compiled files (`compiled/v4.livery` →
    /// format version and bytes) with a correct manifest (for contents that `livery pack` would
    /// refuse, such as an invalid theme, a damaged compiled file or another format version).
    /// Compiled files declare the sample Base then the theme itself as what they were made from.
    @discardableResult
    func handMadePackage(
        name: String, type: String = "theme", id: String, version: String = "1.0.0",
        parent: PackageManifest.Dependency? = nil, content: [String: String],
        compiled: [String: (formatVersion: Int, bytes: Data)] = [:]
    ) throws -> String {
        var zip = RawZip()
        var files: [PackageManifest.File] = []
        var entries: [(String, Data)] = content.sorted(by: { $0.key < $1.key }).map { ("content/" + $0, Data($1.utf8)) }
        entries += compiled.sorted(by: { $0.key < $1.key }).map { ($0, $1.bytes) }
        for (path, data) in entries {
            files.append(.init(path: path, size: Int64(data.count), sha256: Hashing.sha256(data)))
        }
        let compiledFiles = try compiled.sorted(by: { $0.key < $1.key }).map { path, file in
            PackageManifest.CompiledFile(
                path: path, formatVersion: file.formatVersion, size: Int64(file.bytes.count),
                sha256: Hashing.sha256(file.bytes),
                sources: try Self.baseSources() + [.init(id: id, version: version, sourceDigest: "00")])
        }
        let manifest = PackageManifest(
            type: type, id: id, name: id, version: version, parent: parent, files: files,
            compiled: compiled.isEmpty ? nil : compiledFiles)
        zip.add("manifest.json", try manifest.encoded())
        for (path, data) in entries { zip.add(path, data) }
        let output = packages + "/" + name
        try zip.bytes().write(to: URL(fileURLWithPath: output))
        return output
    }

    /// A hostile zip: manifest built from the given entries (so only the hostile part fails).
    @discardableResult
    func hostilePackage(name: String, id: String = "com.acme.hostile", build: (inout RawZip) -> Void) throws -> String {
        // Kept out of the packages folder: `livery catalog` (rightly) refuses to list them.
        try FileManager.default.createDirectory(atPath: root + "/hostile", withIntermediateDirectories: true)
        var entries = RawZip()
        build(&entries)
        var files: [PackageManifest.File] = []
        var seen = Set<String>()
        for entry in entries.entries where !entry.symlink && seen.insert(entry.name).inserted {
            files.append(
                .init(
                    path: entry.name, size: Int64(entry.declaredSize.map(Int.init) ?? entry.data.count),
                    sha256: Hashing.sha256(entry.data)))
        }
        let compiled = try files.filter { $0.path.hasPrefix("compiled/") }.map {
            PackageManifest.CompiledFile(
                path: $0.path, formatVersion: CompiledTheme.readableFormatVersion, size: $0.size, sha256: $0.sha256,
                sources: try Self.baseSources() + [.init(id: id, version: "1.0.0", sourceDigest: "00")])
        }
        let manifest = PackageManifest(
            type: "theme", id: id, name: id, version: "1.0.0",
            parent: .init(id: "com.livery.base", minimumVersion: "1.0.0"), files: files,
            compiled: compiled.isEmpty ? nil : compiled)
        var zip = RawZip()
        zip.add("manifest.json", try manifest.encoded())
        zip.entries += entries.entries
        let output = root + "/hostile/" + name
        try zip.bytes().write(to: URL(fileURLWithPath: output))
        return output
    }

    /// The chain the bundled compiled Base records (what a child of Base is compiled against).
    static func baseSources() throws -> [PackageManifest.CompiledSource] {
        ThemeContentHandler.sources(of: try CompiledTheme(contentsOf: Repository.compiledThemes + "/Base.livery"))
    }

    static var validInfo: String {
        #"<theme-info id="com.acme.hostile" name="Hostile" version="1.0.0" parent="com.livery.base"/>"#
    }

    func catalog(baseURL: String) throws -> LiveryStore.Catalog {
        defer { Self.stampPublished(packages) }
        return try CatalogBuilder.build(packagesIn: packages, baseURL: baseURL)
    }

    private static let lastStamp = Locked(0.0)

    /// Gives `catalog.json` a modification time a whole second after any earlier one: hosts derive
    /// their validators (ETag, Last-Modified) from whole seconds and the size, so a catalog
    /// rewritten in the same second with the same size would be answered `304` (docs/Packages.md,
    /// Conditional catalogs). Publishing tests call it after each catalog they write.
    static func stampPublished(_ folder: String) {
        let stamp = lastStamp.withValue { last -> Double in
            last = max(Date().timeIntervalSince1970.rounded(.down), last + 1)
            return last
        }
        try? FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: stamp)], ofItemAtPath: folder + "/catalog.json")
    }

    /// The product as the catalog last written in the packages folder lists it.
    func catalogProduct(_ id: String) throws -> CatalogProduct? {
        let data = try Data(contentsOf: URL(fileURLWithPath: packages + "/catalog.json"))
        return try JSONDecoder().decode(LiveryStore.Catalog.self, from: data).product(id: id)
    }

    // MARK: Runtime

    @MainActor
    func makeManager() -> ThemeManager {
        ThemeManager.development(
            configuration: LiveryConfiguration(
                defaultThemeID: "com.livery.light", searchPaths: [Repository.compiledThemes, installed],
                themeExtensions: ["theme", "purchasedTheme"]))
    }

    func makeStore(
        manager: ThemeManager?, catalogURL: String? = nil, trust: CatalogTrust = .unsignedForDevelopment,
        handlers: [any ContentHandler] = [],
        timeouts: StoreTimeouts = StoreTimeouts(idle: .seconds(5), total: .seconds(30)),
        limits: ExtractionLimits = .default, retry: RetryPolicy = .never,
        retryEnvironment: RetryEnvironment = .live
    ) async throws -> ThemeStore {
        // No retries unless a test asks: the fault tests check the error one attempt reports.
        try await ThemeStore(
            installedFolder: installed, catalogURL: catalogURL, trust: trust, manager: manager,
            bundledSearchPaths: [Repository.compiledThemes], handlers: handlers, timeouts: timeouts, limits: limits,
            retry: retry, retryEnvironment: retryEnvironment)
    }

    // MARK: Snapshots

    /// Every file and folder in the installed folder with a hash of its bytes, except the
    /// store's own work folder, whose transient parts must be empty.
    func snapshot() throws -> [String: String] {
        var result: [String: String] = [:]
        let base = URL(fileURLWithPath: installed).resolvingSymlinksInPath().path
        guard let enumerator = FileManager.default.enumerator(atPath: base) else { return [:] }
        while let relative = enumerator.nextObject() as? String {
            if relative == ProductInstaller.workFolderName || relative.hasPrefix(ProductInstaller.workFolderName + "/")
            {
                continue
            }
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isFolder)
            result[relative] =
                isFolder.boolValue
                ? "folder" : Hashing.sha256(try Data(contentsOf: URL(fileURLWithPath: base + "/" + relative)))
        }
        return result
    }

    /// No download, staging, trash or journal left behind.
    func workFolderIsClean() -> Bool {
        let work = installed + "/" + ProductInstaller.workFolderName
        let transient = ["downloads", "staging", "trash"].flatMap {
            (try? FileManager.default.contentsOfDirectory(atPath: work + "/" + $0)) ?? []
        }
        return transient.isEmpty && !FileManager.default.fileExists(atPath: work + "/journal.json")
    }

    private func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }
}

// MARK: - A real HTTP server on loopback

/// Serves the packages folder like `livery serve`, plus routes that misbehave on purpose:
/// `/drop/NAME` (closes the connection half-way), `/stall/NAME` (sends half, then nothing for
/// 10 s), `/trickle/NAME` (64 bytes every 50 ms).
enum TestServer {
    static func withServer<Result: Sendable>(folder: String, _ body: @Sendable (String) async throws -> Result)
        async throws -> Result
    {
        try await withFaultyServer(folder: folder) { base, _ in try await body(base) }
    }

    /// The same, also handing over the raw-socket server (for its `bytesSent`).
    static func withFaultyServer<Result: Sendable>(
        folder: String, _ body: @Sendable (String, FaultyServer) async throws -> Result
    ) async throws -> Result {
        let router = Router()
        router.add(middleware: FileMiddleware(folder, searchForIndexHtml: false))
        // The misbehaving routes redirect to a raw-socket server (see FaultyServer for why).
        let faulty = try FaultyServer(folder: folder)
        defer { faulty.stop() }
        for fault in ["drop", "stall", "trickle", "drip", "huge", "endless", "gzip", "brotli", "bomb"] {
            router.get("/\(fault)/:name") { _, context in
                let name = try context.parameters.require("name")
                return Response(
                    status: .found,
                    headers: [.location: "http://127.0.0.1:\(faulty.port)/\(fault)/\(name)", .contentLength: "0"])
            }
        }
        let ports = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "livery-store-tests")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in ports.continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger)
        // Stopped by a graceful shutdown, never by cancelling its task: cancelling while an
        // accepted connection is still queued makes swift-nio trap ("Deinited NIOAsyncWriter
        // without calling finish()", apple/swift-nio#3481); it crashed a CI run.
        var configuration = ServiceGroupConfiguration(services: [app], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(20)
        let services = ServiceGroup(configuration: configuration)
        let server = Task { try await services.run() }
        func stop() async {
            await services.triggerGracefulShutdown()
            _ = await server.result
        }
        do {
            let port = try await withThrowingTaskGroup(of: Int?.self) { group in
                group.addTask { await ports.stream.first { _ in true } }
                group.addTask {
                    try await Task.sleep(for: .seconds(30))
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let port, port > 0 else { throw StoreError.network("the test server did not start") }
            let result = try await body("http://127.0.0.1:\(port)", faulty)
            await stop()
            return result
        } catch {
            await stop()
            throw error
        }
    }

}
