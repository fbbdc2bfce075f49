import Foundation
import Livery

/// What to do when uninstalling the theme in use.
public enum InUsePolicy: Sendable {
    case refuse
    /// Switch the manager to its default theme first (refused when that is the same theme).
    case switchToDefault
}

/// The store an app links: catalog, purchases, product states, downloads, install, update,
/// uninstall, and recovery at start. One store per installed folder.
///
/// ```swift
/// let store = try await ThemeStore(installedFolder: downloads, catalogURL: "http://127.0.0.1:8080/catalog.json",
///                                  manager: manager)
/// let catalog = try await store.refreshCatalog()
/// let task = await store.install(catalog.products[0])
/// for await state in task.states() { print(state) }
/// ```
public actor ThemeStore {
    public nonisolated let installer: ProductInstaller
    public nonisolated let client: CatalogClient?
    /// Downloads packages: the catalog's client, or one with the same timeouts and retries for a
    /// store without a catalog (installs by URL).
    private nonisolated let downloader: CatalogClient
    public nonisolated let manager: ThemeManager?
    /// What recovery did at start (empty when the last run ended cleanly).
    public nonisolated let recoveryActions: [String]
    /// How catalogs are checked (signed by a root that chains to the shipped keys, or not).
    public nonisolated let trust: CatalogTrust
    public private(set) var catalog: Catalog?
    private var purchases: Set<String>
    private var tasks: [String: ProductTask] = [:]
    /// The byte budget for downloaded themes (nil: none).
    public private(set) var cacheBudget: Int64?
    /// The theme in use when there is no manager to ask (the CLI's `--in-use`).
    public private(set) var themeInUse: String?

    /// Opens the store and recovers from an interrupted install before anything else.
    ///
    /// - Parameters:
    ///   - installedFolder: where products are installed; must be one of the manager's search
    ///     paths (themes are installed as compiled `<id>.livery` files, which the manager finds; a
    ///     handler that installs folders needs their extension among its theme extensions).
    ///   - catalogURL: the store's `catalog.json`; nil for a store that installs files only.
    ///   - trust: required with a catalog: `.signed(rootKeys:)` with the store's root public key
    ///     (what apps ship), or `.unsignedForDevelopment`.
    ///   - manager: the app's theme manager: told to reload after an install, uninstall or
    ///     recovery, and asked which theme is in use (never uninstalled or evicted).
    ///   - bundledSearchPaths: folders with the app's own compiled themes (parents of downloaded
    ///     ones); by default the manager's other search paths. With a manager or these, the
    ///     store parks installed themes that no longer fit the app's parents (docs/Packages.md).
    ///   - handlers: installers for package types other than themes (a theme handler is always
    ///     there).
    ///   - timeouts: the longest wait for the next bytes, and for a whole request.
    ///   - limits: the most a package may unpack to (bytes, entries, compression ratio, depth).
    ///   - retry: when requests that failed in a way that can heal are tried again
    ///     (`RetryPolicy.default`; `.never` to report every failure at once).
    ///   - retryEnvironment: the clock, sleep and randomness of retries (tests pass their own).
    public init(
        installedFolder: String, catalogURL: String? = nil, trust: CatalogTrust? = nil, manager: ThemeManager? = nil,
        bundledSearchPaths: [String]? = nil, handlers: [any ContentHandler] = [],
        timeouts: StoreTimeouts = StoreTimeouts(), limits: ExtractionLimits = .default,
        retry: RetryPolicy = .default, retryEnvironment: RetryEnvironment = .live
    ) async throws {
        if catalogURL != nil, trust == nil {
            throw StoreError.refused(
                "a store with a catalog needs trust: .signed(rootKeys: [the store's root public key]), or .unsignedForDevelopment while developing"
            )
        }
        self.trust = trust ?? .signed(rootKeys: [])
        var bundled = bundledSearchPaths ?? []
        if bundledSearchPaths == nil, let manager {
            let installedReal =
                realpath(installedFolder, nil).map { pointer -> String in
                    defer { free(pointer) }
                    return String(cString: pointer)
                } ?? installedFolder
            bundled = await MainActor.run { manager.configuration.searchPaths }.filter { path in
                let real =
                    realpath(path, nil).map { pointer -> String in
                        defer { free(pointer) }
                        return String(cString: pointer)
                    } ?? path
                return real != installedReal
            }
        }
        let installer = try ProductInstaller(
            installedFolder: installedFolder, bundledSearchPaths: bundled,
            handlers: ContentHandlers(handlers), limits: limits)
        self.installer = installer
        let downloader = CatalogClient(
            catalogURL: catalogURL ?? "", timeouts: timeouts, retry: retry, retryEnvironment: retryEnvironment,
            documentCacheFolder: installer.workFolder + "/cache")
        self.downloader = downloader
        self.client = catalogURL == nil ? nil : downloader
        self.manager = manager
        // Recovery first, then what no longer fits the app's parents leaves before anything shows
        // it; only a store that knows the app's themes (a manager, or bundled paths) can tell.
        let knowsAppThemes = manager != nil || bundledSearchPaths != nil
        self.recoveryActions = installer.recover() + (knowsAppThemes ? installer.parkMismatched() : [])
        self.purchases = Self.loadPurchases(installer.workFolder + "/purchases.json")
        if manager != nil, !recoveryActions.isEmpty {
            await MainActor.run { manager?.reloadThemes() }
        }
    }

    /// Opens the store the app's configuration names (`<store>` in `Livery.xml`): its catalog
    /// URL, signed under its root keys (`CatalogTrust(configuration:)`; a malformed key is refused
    /// with its file, line and column). `trust` replaces the configuration's keys (e.g.
    /// `.unsignedForDevelopment` while developing).
    ///
    /// ```swift
    /// let loaded = LiveryConfiguration.load(path: "Livery.xml")   // problems: loaded.diagnostics
    /// guard let configuration = loaded.value else { return }
    /// let store = try await ThemeStore(configuration: configuration, installedFolder: downloads, manager: manager)
    /// ```
    public init(
        configuration: LiveryConfiguration, installedFolder: String, trust: CatalogTrust? = nil,
        manager: ThemeManager? = nil,
        bundledSearchPaths: [String]? = nil, handlers: [any ContentHandler] = [],
        timeouts: StoreTimeouts = StoreTimeouts(), limits: ExtractionLimits = .default,
        retry: RetryPolicy = .default, retryEnvironment: RetryEnvironment = .live
    ) async throws {
        guard let store = configuration.store else {
            throw StoreError.refused("the configuration has no <store catalog=\"…\"> with the store's <root-key>")
        }
        try await self.init(
            installedFolder: installedFolder, catalogURL: store.catalogURL,
            trust: try trust ?? CatalogTrust(configuration: store), manager: manager,
            bundledSearchPaths: bundledSearchPaths, handlers: handlers, timeouts: timeouts, limits: limits,
            retry: retry, retryEnvironment: retryEnvironment)
    }

    // MARK: Catalog

    @discardableResult
    public func refreshCatalog() async throws -> Catalog {
        guard let client else { throw StoreError.refused("this store has no catalog URL") }
        let trustFolder = installer.workFolder + "/trust"
        let known = TrustState.load(from: trustFolder)
        let (catalog, state) = try await client.fetchCatalog(trust: trust, state: known)
        // The trust state records verified metadata only: it is written once a signed catalog and
        // its roots verified, and only when they move it forward (a newer root, a higher catalog
        // version). A refused catalog, an unsigned one, or one already seen writes nothing.
        if let state, state != known { try state.save(in: trustFolder) }
        self.catalog = catalog
        return catalog
    }

    /// A product page's details, checked against the signed catalog's digest.
    public func details(for product: CatalogProduct) async throws -> ProductDetails {
        guard let client else { throw StoreError.refused("this store has no catalog URL") }
        return try await client.fetchDetails(for: product, in: try verifiedCatalog())
    }

    /// A thumbnail, preview or sprite, checked against the signed catalog's digest.
    public func media(at url: String) async throws -> Data {
        guard let client else { throw StoreError.refused("this store has no catalog URL") }
        return try await client.fetchDocument(url, in: try verifiedCatalog())
    }

    /// The catalog documents are checked against; with signed trust, there must be one.
    private func verifiedCatalog() throws -> Catalog? {
        if case .signed = trust, catalog == nil {
            throw StoreError.refused(
                "refresh the catalog first: details and media are checked against the signed catalog")
        }
        return catalog
    }

    // MARK: Purchases and states

    /// Records a purchase (after the app's payment flow); persisted in the installed folder.
    public func markPurchased(_ id: String) throws {
        purchases.insert(id)
        let data = try JSONEncoder().encode(purchases.sorted())
        try ProductInstaller.writeDurably(data, to: installer.workFolder + "/purchases.json.tmp")
        guard rename(installer.workFolder + "/purchases.json.tmp", installer.workFolder + "/purchases.json") == 0 else {
            throw StoreError.io("cannot save the purchases")
        }
    }

    public var purchasedIDs: Set<String> { purchases }

    public func state(of product: CatalogProduct) async -> ProductState {
        let installed = installer.installedProduct(id: product.id)
        let current = await currentThemeID()
        return ProductState(
            isFree: product.isFree,
            isPurchased: product.isFree || purchases.contains(product.id),
            installedVersion: installed?.version,
            task: tasks[product.id]?.state,
            isInUse: current == product.id,
            isUpdateAvailable: installed.map { ThemeVersion.isNewer(product.version, than: $0.version) } ?? false,
            parkedVersion: installer.parked().first { $0.id == product.id }?.version)
    }

    public func installed() -> [InstalledProduct] { installer.installed() }

    /// The running (or last) task for a product, or for a package URL (`installPackage(from:)`).
    public func task(for id: String) -> ProductTask? { tasks[id] }

    // MARK: Install and update

    /// Downloads and installs (or updates) a product. A second call while one runs for the
    /// same product returns the running task. Paid products must be purchased first. A version
    /// older than the installed one is refused unless `allowDowngrade`.
    public func install(_ product: CatalogProduct, allowDowngrade: Bool = false) -> ProductTask {
        if let running = tasks[product.id], !running.state.isTerminal { return running }
        let task = ProductTask(productID: product.id)
        tasks[product.id] = task
        guard product.isFree || purchases.contains(product.id) else {
            task.update(.failed(.refused("'\(product.id)' is not purchased")))
            return task
        }
        guard client != nil else {
            task.update(.failed(.refused("this store has no catalog URL")))
            return task
        }
        // The size and SHA-256 checked below are only as good as the catalog they come from.
        if case .signed = trust, catalog?.product(id: product.id) != product {
            task.update(
                .failed(.untrusted("'\(product.id)' is not as the verified catalog lists it; refresh the catalog")))
            return task
        }
        // An app installs compiled files: what it cannot read, or what was made from another copy
        // of a parent than the app's, is refused before anything is downloaded.
        if let handler = try? installer.handlers.handler(for: product.type) as? ThemeContentHandler {
            do {
                let context = InstallContext(
                    installedFolder: installer.installedFolder, bundledSearchPaths: installer.bundledSearchPaths,
                    installed: installer.installed())
                _ = try handler.select(
                    from: product.compiled, product: "'\(product.id)' \(product.version)", parent: product.parent,
                    context: context)
            } catch {
                task.update(.failed((error as? StoreError) ?? .io("\(error)")))
                return task
            }
        }
        run(
            PackageDownload(
                url: product.packageURL, size: product.packageSize, sha256: product.sha256,
                installedSize: product.compiled?.map(\.size).max(),
                expectation: ProductInstaller.Expectation(
                    id: product.id, type: product.type, version: product.version, allowDowngrade: allowDowngrade)),
            as: task)
        return task
    }

    /// Downloads the package at `url` and installs (or updates) it, as `install(_:)` does a
    /// catalog's product and through the same steps: the download resumes a partial one left by a
    /// dropped connection or a killed app (`Range`/`If-Range`, kept under the work folder by the
    /// URL's digest), failures that can heal are retried, and the cache budget makes room before
    /// the first byte is written. With no catalog to give the size beforehand, the budget is
    /// checked against the size the response announces (its Content-Length, or the total of its
    /// Content-Range) before any byte of the body is written, so an install that cannot fit
    /// fails having downloaded nothing; a response that announces no size is checked once the
    /// bytes are in, before anything is installed. What the package is, is checked after the
    /// download (its manifest, against `expectation`); `expectation.id`, when given, is kept
    /// through evictions as a catalog product being installed is. The task's `productID` is the
    /// URL; its `outcome` says what was installed.
    public func installPackage(
        from url: String, expecting expectation: ProductInstaller.Expectation = .init()
    ) -> ProductTask {
        if let running = tasks[url], !running.state.isTerminal { return running }
        let task = ProductTask(productID: url)
        tasks[url] = task
        run(PackageDownload(url: url, size: nil, sha256: nil, installedSize: nil, expectation: expectation), as: task)
        return task
    }

    /// Installs a package file (no catalog): what `livery install FILE` does.
    @discardableResult
    public func installPackage(at path: String, expecting expectation: ProductInstaller.Expectation = .init())
        async throws
        -> ProductInstaller.Outcome
    {
        let outcome = try await Self.runInstall(installer, path, expectation, nil, download: false)
        await Self.tellManager(manager)
        return outcome
    }

    /// A package to download and install: what is known of it before the request.
    struct PackageDownload: Sendable {
        var url: String
        /// The package's size and SHA-256, from a catalog (nil: only the response tells the size).
        var size: Int64?
        var sha256: String?
        /// The bytes it takes installed, when the catalog says (nil: counted as the package's size).
        var installedSize: Int64?
        var expectation: ProductInstaller.Expectation

        /// What the budget needs for it, with `packageSize` bytes to download of which `onDisk` are.
        func needed(packageSize: Int64, onDisk: Int64) -> Int64 {
            max(0, packageSize - onDisk) + (installedSize ?? packageSize)
        }
    }

    /// The one path of every download-and-install, from a catalog or a URL: room made in the
    /// cache budget, the download (resumed from a partial one, retried), the install, the use
    /// recorded, the manager told.
    private func run(_ package: PackageDownload, as task: ProductTask) {
        let installer = self.installer
        let manager = self.manager
        let downloader = self.downloader
        task.start { [self] task in
            // The same path on every run: a partial download left by a dropped connection or a
            // killed app is resumed (CatalogClient.download keeps it only then).
            let file =
                package.sha256.map { installer.resumableDownloadPath(sha256: $0) }
                ?? installer.resumableDownloadPath(url: package.url)
            let outcome: ProductTaskState
            var downloaded = false
            do {
                // Known sizes make room before the request; announced ones before the first byte.
                let admitted = Locked(false)
                if let size = package.size {
                    try await self.makeRoom(for: package, packageSize: size, partial: file)
                    admitted.withValue { $0 = true }
                }
                try await downloader.download(
                    package.url, to: file, expectedSize: package.size, expectedSHA256: package.sha256,
                    admit: { [self] announced in
                        guard let announced, package.size == nil else { return }
                        try await self.makeRoom(for: package, packageSize: announced, partial: file)
                        admitted.withValue { $0 = true }
                    },
                    waiting: { task.update(.waitingToRetry($0)) }
                ) { received, expected in
                    task.update(.downloading(received: received, expected: expected))
                }
                downloaded = true
                if !admitted.withValue({ $0 }) {
                    try await self.makeRoom(for: package, packageSize: CacheBudget.size(of: file), partial: file)
                }
                try Task.checkCancellation()
                task.update(.downloaded)
                let installed = try await Self.runInstall(installer, file, package.expectation, task, download: true)
                CacheBudget(installer: installer).recordUse(installed.product.id)
                task.record(installed)
                await Self.tellManager(manager)
                outcome = .finished
            } catch {
                let storeError = (error as? StoreError) ?? (error is CancellationError ? .cancelled : .io("\(error)"))
                outcome = storeError == .cancelled || task.isCancelled ? .cancelled : .failed(storeError)
            }
            // Cleaned up before the end is announced: whoever waits sees the final state on disk.
            if downloaded { PartialDownload.remove(at: file) }
            task.update(outcome)
        }
    }

    private static func runInstall(
        _ installer: ProductInstaller, _ path: String, _ expectation: ProductInstaller.Expectation,
        _ task: ProductTask?, download: Bool
    ) async throws -> ProductInstaller.Outcome {
        // File work off the cooperative pool's hot path; cancellation is honoured up to the commit.
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    let outcome = try installer.install(
                        packageAt: path, expecting: expectation, removingDownload: download
                    ) {
                        !(task?.isCancelled ?? false)
                    }
                    continuation.resume(returning: outcome)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// The manager sees installed folders at once; the theme in use, if updated, switches live.
    static func tellManager(_ manager: ThemeManager?) async {
        guard let manager else { return }
        await MainActor.run { manager.reloadThemes() }
    }

    // MARK: Cache budget

    /// Sets the byte budget for downloaded themes (nil: none): installed and parked products and
    /// partial downloads. Each install first makes room by removing partial downloads of other
    /// packages, parked products, then installed products by oldest use; never the theme in use,
    /// its parents, a pinned product or one another installed product builds on. An install that
    /// cannot fit even then fails before downloading with `StoreError.cacheBudgetExceeded`.
    public func setCacheBudget(_ bytes: Int64?) { cacheBudget = bytes }

    /// The theme in use, for a store without a theme manager (with one, the manager's current
    /// theme counts too).
    public func setThemeInUse(_ id: String?) { themeInUse = id }

    // MARK: Uninstall

    /// Uninstalls a product. Refused while another installed product inherits from it; when it
    /// is the theme in use, refused or preceded by a switch to the default theme.
    @discardableResult
    public func uninstall(id: String, whenInUse policy: InUsePolicy = .refuse) async throws -> InstalledProduct {
        if let running = tasks[id], !running.state.isTerminal {
            throw StoreError.refused("'\(id)' is being downloaded or installed; cancel that first")
        }
        guard installer.installedProduct(id: id) != nil else { throw StoreError.notInstalled(id) }
        let dependents = installer.installed().filter { $0.parent == id }.map(\.id)
        guard dependents.isEmpty else {
            throw StoreError.refused(
                "'\(id)' cannot be uninstalled: \(dependents.joined(separator: ", ")) inherit\(dependents.count == 1 ? "s" : "") from it; uninstall \(dependents.count == 1 ? "it" : "them") first"
            )
        }
        if let manager, await currentThemeID() == id {
            switch policy {
            case .refuse:
                throw StoreError.refused("'\(id)' is the theme in use; switch to another theme first")
            case .switchToDefault:
                let switched = await MainActor.run { () -> Bool in
                    guard let fallback = manager.configuration.defaultThemeID, fallback != id else { return false }
                    return manager.activate(themeID: fallback)
                }
                guard switched else {
                    throw StoreError.refused("'\(id)' is the theme in use and the default theme cannot replace it")
                }
            }
        }
        let removed = try installer.uninstall(id: id)
        await Self.tellManager(manager)
        return removed
    }

    func currentThemeID() async -> String? {
        guard let manager else { return nil }
        return await MainActor.run { manager.currentThemeID }
    }

    private static func loadPurchases(_ path: String) -> Set<String> {
        guard let data = FileManager.default.contents(atPath: path),
            let ids = try? JSONDecoder().decode([String].self, from: data)
        else { return [] }
        return Set(ids)
    }
}
