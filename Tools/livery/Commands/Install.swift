import ArgumentParser
import Foundation
import LiveryStore
import LiveryStoreDevelopment
import LiveryThemeCommands

struct Install: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Download, verify and install a theme package into a folder of installed themes.",
        discussion: """
            SOURCE is a package file, a package URL, or a catalog URL (…/catalog.json) with --id. \
            From a catalog the download's size and SHA-256 are checked against it. The package is \
            unpacked with caps into a staging folder, every file is checked against the manifest, the \
            theme is validated against its installed or bundled parent (--themes) and compiled, then \
            moved into DIR as <id>.purchasedTheme with <id>.livery beside it. With --compiled, the \
            package's compiled file is installed as an app installs it: verified, made from the very \
            parent the app has (compiled files in --themes or DIR), moved into DIR as <id>.livery. \
            On any failure DIR is left exactly as it was. Installing a newer version updates the \
            installed one. From a catalog, failures that can heal (a dropped connection, a stall, \
            408/429/5xx) are retried with backoff, a dropped download is kept in DIR/.liverystore/downloads \
            and resumed by the next run, and the last verified catalog is kept in DIR/.liverystore/cache \
            to be revalidated (If-None-Match). A package URL downloads the same way (retried, resumed \
            by the next run). With --cache-budget, installed and parked themes and partial downloads \
            are kept within BYTES: the least recently used themes go first, never the theme named by \
            --in-use, its parents, or a theme another one builds on; an install that cannot fit fails \
            before downloading (a package URL's size is the one its response announces), printing \
            "error: '<id>' needs N bytes, and the cache budget of BYTES bytes has M bytes that must \
            stay …" with exit status 1.
            """)

    @Argument(
        help: ArgumentHelp("A .liverypkg file, a package URL, or a catalog URL with --id.", valueName: "URL_OR_FILE"))
    var source: String

    @Option(help: ArgumentHelp("The installed-themes folder.", valueName: "DIR"))
    var into: String

    @Option(help: ArgumentHelp("The product to install from a catalog URL.", valueName: "ID"))
    var id: String?

    @Option(
        name: .customLong("themes"),
        help: ArgumentHelp("A folder of bundled themes, searched for parents (repeatable).", valueName: "DIR"))
    var bundled: [String] = []

    @Option(help: ArgumentHelp("Seconds without data before a download fails.", valueName: "SECONDS"))
    var timeout: Int = 20

    @Option(help: ArgumentHelp("Seconds a whole download may take.", valueName: "SECONDS"))
    var totalTimeout: Int = 600

    @Option(
        help: ArgumentHelp(
            "The store's root public key (base64 or a .pub file; repeatable): a catalog must be signed by a key its root names.",
            valueName: "KEY"))
    var rootKey: [String] = []

    @Option(
        help: ArgumentHelp(
            "The byte budget for DIR's downloaded themes (installed, parked, partial downloads); older themes are removed to make room.",
            valueName: "BYTES"))
    var cacheBudget: Int64?

    @Option(
        help: ArgumentHelp(
            "The id of the theme in use: with --cache-budget, it and its parents are never removed.", valueName: "ID"))
    var inUse: String?

    @Flag(help: "Accept an unsigned catalog (development only: anyone on the path could then push any theme).")
    var allowUnsigned = false

    @Flag(help: "Install the package's compiled file as an app does, not its sources (parents: compiled files).")
    var compiled = false

    @Flag(
        help:
            "Install even when the package is older than the installed version (never below what an installed child requires)."
    )
    var allowDowngrade = false

    func validate() throws {
        if let cacheBudget, cacheBudget < 0 { throw ValidationError("--cache-budget must be 0 or more bytes") }
        // A root key that cannot be read is a usage error, like a missing one.
        for key in rootKey {
            do {
                _ = try StoreKeyFiles.publicKey(key)
            } catch {
                throw ValidationError("--root-key \(key): \(error)")
            }
        }
    }

    func run() async throws {
        let store: ThemeStore
        let isURL = source.hasPrefix("http://") || source.hasPrefix("https://")
        let isCatalog = isURL && source.hasSuffix(".json")
        if isCatalog, id == nil { throw ValidationError("a catalog URL needs --id ID") }
        if isCatalog, rootKey.isEmpty, !allowUnsigned {
            throw ValidationError(
                "a catalog is trusted only when signed: pass the store's --root-key KEY (or --allow-unsigned while developing)"
            )
        }
        do {
            let trust: CatalogTrust =
                rootKey.isEmpty
                ? .unsignedForDevelopment
                : .signed(rootKeys: try rootKey.map { try StoreKeyFiles.publicKey($0).base64 })
            store = try await ThemeStore(
                installedFolder: into, catalogURL: isCatalog ? source : nil, trust: isCatalog ? trust : nil,
                bundledSearchPaths: bundled.isEmpty ? nil : bundled, handlers: StoreLayout.handlers(compiled: compiled),
                timeouts: StoreTimeouts(idle: .seconds(timeout), total: .seconds(totalTimeout)))
            for action in store.recoveryActions { print("recovered: \(action)") }
            await store.setCacheBudget(cacheBudget)
            await store.setThemeInUse(inUse)
            if isCatalog, let id {
                let catalog = try await store.refreshCatalog()
                guard let product = catalog.product(id: id) else {
                    throw StoreError.refused(
                        "the catalog has no product '\(id)' (it has: \(catalog.products.map(\.id).joined(separator: ", ")))"
                    )
                }
                // The command line is the user's own install: paid products are recorded as bought.
                if !product.isFree { try await store.markPurchased(id) }
                let before = store.installer.installedProduct(id: id)?.version
                let task = await store.install(product, allowDowngrade: allowDowngrade)
                try await follow(task, label: product.id)
                report(id: product.id, version: product.version, replaced: before)
            } else if isURL {
                // Through the same download as a catalog's package: resumed after a kill or a
                // dropped connection, retried, and within --cache-budget.
                let task = await store.installPackage(from: source, expecting: .init(allowDowngrade: allowDowngrade))
                try await follow(task, label: (source as NSString).lastPathComponent)
                guard let outcome = task.outcome else { throw StoreError.cancelled }
                report(id: outcome.product.id, version: outcome.product.version, replaced: outcome.replacedVersion)
            } else {
                let outcome = try await store.installPackage(
                    at: source, expecting: .init(allowDowngrade: allowDowngrade))
                report(id: outcome.product.id, version: outcome.product.version, replaced: outcome.replacedVersion)
            }
        } catch let error as StoreError {
            writeError("error: \(error)\n")
            throw ExitCode.failure
        }
    }

    /// Shows a download's progress and retries; throws its error when it does not finish.
    private func follow(_ task: ProductTask, label: String) async throws {
        let bar = ProgressBar(label: label)
        for await state in task.states() {
            switch state {
            case .downloading(let received, let expected): bar.update(received, expected)
            case .waitingToRetry(let wait): writeError("\(label): \(wait)\n")
            default: break
            }
        }
        bar.finish()
        switch task.state {
        case .finished: return
        case .failed(let error): throw error
        default: throw StoreError.cancelled
        }
    }

    private func report(id: String, version: String, replaced: String?) {
        if let replaced {
            let verb = ThemeVersion.isNewer(replaced, than: version) ? "downgraded" : "updated"
            print("\(verb) \(id) \(replaced) -> \(version) in \(into)")
        } else {
            print("installed \(id) \(version) in \(into)")
        }
    }
}

/// A one-line progress bar on stderr, drawn only on a terminal.
final class ProgressBar: @unchecked Sendable {
    private let label: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private let lock = NSLock()
    private var lastDrawn = -1

    init(label: String) { self.label = label }

    func update(_ received: Int64, _ expected: Int64?) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let width = 30
        if let expected, expected > 0 {
            let percent = Int(received * 100 / expected)
            guard percent != lastDrawn else { return }
            lastDrawn = percent
            let filled = width * percent / 100
            let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            writeError("\r\(label) [\(bar)] \(percent)% \(Self.bytes(received))/\(Self.bytes(expected))")
        } else {
            writeError("\r\(label) \(Self.bytes(received))")
        }
    }

    func finish() {
        if enabled { writeError("\n") }
    }

    static func bytes(_ count: Int64) -> String {
        count < 1024 * 1024
            ? String(format: "%.1f KB", Double(count) / 1024) : String(format: "%.1f MB", Double(count) / 1_048_576)
    }
}
