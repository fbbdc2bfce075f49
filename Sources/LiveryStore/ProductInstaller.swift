import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Installs, updates and uninstalls products in one installed folder, atomically.
///
/// Layout of the installed folder:
/// ```
/// com.acme.ocean.purchasedTheme/   the theme (the commit point: present = installed)
/// com.acme.ocean.livery            compiled, derived from the folder
/// .liverystore/                    the store's own files, never seen by the theme manager
///   lock  journal.json  purchases.json  downloads/  staging/  trash/
/// ```
///
/// An install unpacks and checks everything in `staging/`, then writes a journal, then moves
/// the result in with renames (an update moves the old version to `trash/` first), then
/// removes the journal. A crash before the journal leaves only leftovers, which `recover()`
/// removes; a crash after it is rolled forward by `recover()`, since everything staged was
/// already verified. Either way no half-installed product is ever in the installed folder.
/// Operations on one folder are serialised by an exclusive lock on `.liverystore/lock`
/// (across processes too: the CLI and an app may share the folder).
public struct ProductInstaller: Sendable {
    public static let workFolderName = ".liverystore"

    public let installedFolder: String
    public let bundledSearchPaths: [String]
    public var handlers: ContentHandlers
    public var limits: ExtractionLimits

    public var workFolder: String { installedFolder + "/" + Self.workFolderName }
    var stagingFolder: String { workFolder + "/staging" }
    var trashFolder: String { workFolder + "/trash" }
    var downloadsFolder: String { workFolder + "/downloads" }
    var journalPath: String { workFolder + "/journal.json" }

    public init(installedFolder: String, bundledSearchPaths: [String] = [], handlers: ContentHandlers = ContentHandlers(),
                limits: ExtractionLimits = .default) throws {
        let files = FileManager.default
        try? files.createDirectory(atPath: installedFolder, withIntermediateDirectories: true)
        // Realpath so that renames stay inside one file system and messages show real paths.
        var resolved = installedFolder
        if let real = realpath(installedFolder, nil) {
            resolved = String(cString: real)
            free(real)
        }
        self.installedFolder = resolved
        self.bundledSearchPaths = bundledSearchPaths
        self.handlers = handlers
        self.limits = limits
        for folder in [workFolder, stagingFolder, trashFolder, downloadsFolder] {
            do {
                try files.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw StoreError.io("cannot create \(folder): \(error.localizedDescription)")
            }
        }
    }

    // MARK: Reading

    /// Every valid installed product, sorted by id.
    public func installed() -> [InstalledProduct] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: installedFolder)) ?? []
        var products: [InstalledProduct] = []
        for entry in entries.sorted() where !entry.hasPrefix(".") {
            let ext = (entry as NSString).pathExtension
            for handler in handlers.all where handler.folderExtension == ext {
                if let product = handler.describe(installedFolder: installedFolder + "/" + entry) { products.append(product) }
            }
        }
        return products.sorted { $0.id < $1.id }
    }

    public func installedProduct(id: String) -> InstalledProduct? {
        installed().first { $0.id == id }
    }

    /// A fresh temporary file for a download, inside the work folder (same file system).
    public func makeDownloadPath() -> String {
        downloadsFolder + "/\(UUID().uuidString).part"
    }

    // MARK: Install

    /// What an install did.
    public struct Outcome: Sendable, Hashable {
        public var product: InstalledProduct
        /// The version that was replaced, for an update.
        public var replacedVersion: String?
    }

    /// What the caller expects the package to be (from the catalog); nil fields are not checked.
    public struct Expectation: Sendable, Hashable {
        public var id: String?
        public var type: String?
        public var version: String?
        public init(id: String? = nil, type: String? = nil, version: String? = nil) {
            self.id = id
            self.type = type
            self.version = version
        }
    }

    /// Installs (or updates) the package at `packagePath`. `shouldCommit` is asked right before
    /// the first move: returning false (e.g. cancelled) abandons the install with no trace.
    public func install(packageAt packagePath: String, expecting expectation: Expectation = Expectation(),
                        shouldCommit: () -> Bool = { true }) throws -> Outcome {
        try install(packageAt: packagePath, expecting: expectation, shouldCommit: shouldCommit, crashAfterJournal: false)
    }

    /// `crashAfterJournal` stops right after the journal is written, as a killed process would
    /// (tests of recovery).
    func install(packageAt packagePath: String, expecting expectation: Expectation = Expectation(),
                 shouldCommit: () -> Bool = { true }, crashAfterJournal: Bool) throws -> Outcome {
        try withLock {
            let staging = stagingFolder + "/" + UUID().uuidString
            try createFolder(staging)
            var committed = false
            defer { if !committed { try? FileManager.default.removeItem(atPath: staging) } }

            let archive = try PackageArchive(path: packagePath, limits: limits)
            let manifest = archive.manifest
            if let id = expectation.id, id != manifest.id {
                throw StoreError.invalidPackage("the package is '\(manifest.id)', expected '\(id)'")
            }
            if let type = expectation.type, type != manifest.type {
                throw StoreError.invalidPackage("the package is a \(manifest.type), expected a \(type)")
            }
            if let version = expectation.version, ThemeVersion(version) != ThemeVersion(manifest.version) {
                throw StoreError.invalidPackage("the package is version \(manifest.version), the catalog says \(version)")
            }
            let handler = try handlers.handler(for: manifest.type)
            let name = manifest.id + "." + handler.folderExtension
            let content = staging + "/" + name
            try createFolder(content)
            try archive.extract(into: content)

            let current = installed()
            let context = InstallContext(installedFolder: installedFolder, bundledSearchPaths: bundledSearchPaths, installed: current)
            let derived = try handler.prepare(contentAt: content, manifest: manifest, context: context)
            var derivedNames: [String] = []
            for (ext, data) in derived.sorted(by: { $0.key < $1.key }) {
                guard handler.derivedFileExtensions.contains(ext) else {
                    throw StoreError.invalidContent("the handler derived an undeclared .\(ext) file")
                }
                let file = manifest.id + "." + ext
                try Self.writeDurably(data, to: staging + "/" + file)
                derivedNames.append(file)
            }
            let old = current.first { $0.id == manifest.id }
            if let old, old.type != manifest.type {
                throw StoreError.refused("'\(manifest.id)' is installed as a \(old.type), the package is a \(manifest.type)")
            }
            guard shouldCommit() else { throw StoreError.cancelled }

            let journal = Journal(id: manifest.id, staging: staging, folder: name, derived: derivedNames,
                                  obsolete: handler.derivedFileExtensions.map { manifest.id + "." + $0 }.filter { !derivedNames.contains($0) })
            try journal.write(to: journalPath)
            committed = true
            if crashAfterJournal { throw SimulatedCrash() }
            try rollForward(journal)
            let product = handler.describe(installedFolder: installedFolder + "/" + name)
                ?? InstalledProduct(id: manifest.id, type: manifest.type, name: manifest.name, version: manifest.version,
                                    parent: manifest.parent?.id, path: installedFolder + "/" + name)
            return Outcome(product: product, replacedVersion: old?.version)
        }
    }

    // MARK: Uninstall

    /// Removes an installed product. Refuses while another installed product builds on it,
    /// saying which. (Whether it is in use is the store's question: it knows the manager.)
    public func uninstall(id: String) throws -> InstalledProduct {
        try withLock {
            let all = installed()
            guard let product = all.first(where: { $0.id == id }) else { throw StoreError.notInstalled(id) }
            let dependents = all.filter { $0.parent == id }.map(\.id)
            guard dependents.isEmpty else {
                throw StoreError.refused("'\(id)' cannot be uninstalled: \(dependents.joined(separator: ", ")) \(dependents.count == 1 ? "inherits" : "inherit") from it; uninstall \(dependents.count == 1 ? "it" : "them") first")
            }
            let handler = try handlers.handler(for: product.type)
            // Derived files first (the folder alone is still a whole product), then the folder
            // leaves in one rename, then the trash is emptied.
            for ext in handler.derivedFileExtensions {
                let file = installedFolder + "/" + id + "." + ext
                if unlink(file) != 0, errno != ENOENT { throw StoreError.io("cannot remove \(file): \(String(cString: strerror(errno)))") }
            }
            let trash = trashFolder + "/" + UUID().uuidString
            try createFolder(trash)
            try move(product.path, to: trash + "/" + (product.path as NSString).lastPathComponent)
            try? FileManager.default.removeItem(atPath: trash)
            return product
        }
    }

    // MARK: Recovery

    /// Cleans up after an interrupted operation; call at start, before the theme manager
    /// discovers themes. Returns what it did, for logs.
    @discardableResult
    public func recover() -> [String] {
        (try? withLock { () -> [String] in
            var actions: [String] = []
            if let data = FileManager.default.contents(atPath: journalPath) {
                if let journal = try? JSONDecoder().decode(Journal.self, from: data) {
                    do {
                        try rollForward(journal)
                        actions.append("completed the interrupted install of \(journal.id)")
                    } catch {
                        actions.append("could not complete the interrupted install of \(journal.id): \(error)")
                    }
                } else {
                    actions.append("removed an unreadable journal")
                }
                unlink(journalPath)
            }
            for folder in [stagingFolder, trashFolder, downloadsFolder] {
                for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                    try? FileManager.default.removeItem(atPath: folder + "/" + entry)
                    actions.append("removed leftover \((folder as NSString).lastPathComponent)/\(entry)")
                }
            }
            // Temporary files of atomic writes, and derived files whose folder is gone.
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: installedFolder)) ?? []
            let names = Set(entries)
            for entry in entries where entry != Self.workFolderName {
                if entry.hasPrefix("."), entry.hasSuffix(".tmp") {
                    unlink(installedFolder + "/" + entry)
                    actions.append("removed leftover \(entry)")
                    continue
                }
                let ext = (entry as NSString).pathExtension
                let id = (entry as NSString).deletingPathExtension
                for handler in handlers.all where handler.derivedFileExtensions.contains(ext) {
                    if !names.contains(id + "." + handler.folderExtension), handlers.all.allSatisfy({ !names.contains(id + "." + $0.folderExtension) }) {
                        unlink(installedFolder + "/" + entry)
                        actions.append("removed \(entry), whose product folder is missing")
                    }
                }
            }
            return actions
        }) ?? []
    }

    // MARK: Journal

    /// Written once everything is staged and verified; its presence means "finish this".
    struct Journal: Codable {
        var id: String
        var staging: String
        /// The product folder's name, in staging and in the installed folder.
        var folder: String
        var derived: [String]
        /// Derived files of an older version the new one no longer has.
        var obsolete: [String]

        func write(to path: String) throws {
            try ProductInstaller.writeDurably(try JSONEncoder().encode(self), to: path)
        }
    }

    /// Each step checks whether it is still to do, so running this twice is harmless.
    private func rollForward(_ journal: Journal) throws {
        let files = FileManager.default
        let staged = journal.staging + "/" + journal.folder
        let target = installedFolder + "/" + journal.folder
        if files.fileExists(atPath: staged) {
            if files.fileExists(atPath: target) {
                let trash = trashFolder + "/" + UUID().uuidString
                try createFolder(trash)
                try Self.exchangeOrReplace(staged: staged, target: target, trash: trash + "/" + journal.folder)
            } else {
                try move(staged, to: target)
            }
        }
        for file in journal.derived where files.fileExists(atPath: journal.staging + "/" + file) {
            try move(journal.staging + "/" + file, to: installedFolder + "/" + file)
        }
        for file in journal.obsolete { unlink(installedFolder + "/" + file) }
        fsyncFolder(installedFolder)
        unlink(journalPath)
        try? files.removeItem(atPath: journal.staging)
        for entry in (try? files.contentsOfDirectory(atPath: trashFolder)) ?? [] {
            try? files.removeItem(atPath: trashFolder + "/" + entry)
        }
    }

    /// Puts `staged` at `target`, where an older version is. On Linux one `renameat2` with
    /// RENAME_EXCHANGE swaps them, so the product is never absent; elsewhere the old one is
    /// renamed away first (absent for the moment between two renames, never half there).
    static func exchangeOrReplace(staged: String, target: String, trash: String) throws {
        #if os(Linux)
        if exchange(staged, target) {
            if rename(staged, trash) != 0 { try? FileManager.default.removeItem(atPath: staged) }
            return
        }
        #endif
        guard rename(target, trash) == 0 else { throw StoreError.io("cannot move \(target) aside: \(String(cString: strerror(errno)))") }
        guard rename(staged, target) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(trash, target)
            throw StoreError.io("cannot move the new version into place: \(reason)")
        }
    }

    #if os(Linux)
    /// renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) through the syscall, since not every
    /// C library exports the wrapper.
    private static func exchange(_ first: String, _ second: String) -> Bool {
        LiveryStoreExchange.exchange(first, second)
    }
    #endif

    // MARK: Files

    private func withLock<Result>(_ body: () throws -> Result) throws -> Result {
        let descriptor = open(workFolder + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StoreError.io("cannot open the store lock: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else { throw StoreError.io("cannot lock the store: \(String(cString: strerror(errno)))") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    private func createFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io("cannot create \(path): \(error.localizedDescription)")
        }
    }

    private func move(_ source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else {
            throw StoreError.io("cannot move \(source) to \(destination): \(String(cString: strerror(errno)))")
        }
    }

    static func writeDurably(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StoreError.io("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try data.withUnsafeBytes { try writeAll($0, to: descriptor, path: path) }
        guard fsync(descriptor) == 0 else { throw StoreError.io("cannot flush \(path)") }
    }

    private func fsyncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}

/// Thrown by the recovery tests' simulated crash.
struct SimulatedCrash: Error {}
