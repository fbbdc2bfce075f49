import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Installs, updates and uninstalls products in one installed folder, atomically.
///
/// Layout of the installed folder:
/// ```
/// com.acme.ocean.livery            the theme's compiled file (the commit point: present = installed)
/// com.acme.reef.purchasedTheme/    a product installed as a folder (other types; themes
/// com.acme.reef.livery             installed from sources in development, compiled file beside)
/// .liverystore/                    the store's own files, never seen by the theme manager
///   lock  journal.json  purchases.json  downloads/  staging/  trash/  manifests/
///   parked/                        products moved out because what they build on changed
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
    /// Called at every step of an install, update and uninstall; a test throws `SimulatedCrash`
    /// from it to stop there as a killed process would (nothing cleaned up), then checks recovery.
    var faultInjection: (@Sendable (String) throws -> Void)?

    public var workFolder: String { installedFolder + "/" + Self.workFolderName }
    var stagingFolder: String { workFolder + "/staging" }
    var trashFolder: String { workFolder + "/trash" }
    var downloadsFolder: String { workFolder + "/downloads" }
    var journalPath: String { workFolder + "/journal.json" }
    var parkedFolder: String { workFolder + "/parked" }

    public init(
        installedFolder: String, bundledSearchPaths: [String] = [], handlers: ContentHandlers = ContentHandlers(),
        limits: ExtractionLimits = .default
    ) throws {
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
        for folder in [
            workFolder, stagingFolder, trashFolder, downloadsFolder, workFolder + "/manifests", parkedFolder,
        ] {
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
                if let product = handler.describe(installedFolder: installedFolder + "/" + entry) {
                    products.append(product)
                }
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

    /// Where the package with this SHA-256 downloads, the same path on every attempt and every
    /// run, so that a partial download is found and resumed (a new path when `sha256` is not one).
    public func resumableDownloadPath(sha256: String) -> String {
        let digest = sha256.lowercased()
        guard digest.count == 64, digest.allSatisfy(\.isHexDigit) else { return makeDownloadPath() }
        return downloadsFolder + "/\(digest).part"
    }

    /// Where a package known only by its URL downloads: the same path for the same URL on every
    /// attempt and every run (named by the URL's SHA-256), so that its partial download is resumed.
    public func resumableDownloadPath(url: String) -> String {
        downloadsFolder + "/url-\(Hashing.sha256(Data(url.utf8))).part"
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
        /// An older version than the installed one is refused unless this is set (the user asked).
        public var allowDowngrade: Bool
        public init(id: String? = nil, type: String? = nil, version: String? = nil, allowDowngrade: Bool = false) {
            self.id = id
            self.type = type
            self.version = version
            self.allowDowngrade = allowDowngrade
        }
    }

    /// Installs (or updates) the package at `packagePath`. `shouldCommit` is asked right before
    /// the first move: returning false (e.g. cancelled) abandons the install with no trace. With
    /// `removingDownload`, a package in the work folder's `downloads/` (and its partial-download
    /// record) is removed by the commit itself, whatever moment the process is killed at.
    ///
    /// An update re-derives the files of every installed product that builds on this one (a
    /// theme's children are compiled again against the new parent) and moves them in within the
    /// same journal, so no child is left with a compiled file of the old parent.
    public func install(
        packageAt packagePath: String, expecting expectation: Expectation = Expectation(),
        removingDownload: Bool = false, shouldCommit: () -> Bool = { true }
    ) throws -> Outcome {
        try withLock {
            let staging = stagingFolder + "/" + UUID().uuidString
            try createFolder(staging)
            var committed = false
            // A download in `downloads/` leaves with the commit, in the same journal: an app
            // killed between the two would otherwise keep a finished download (resumable in
            // form) for a product already installed.
            let download =
                removingDownload && (packagePath as NSString).deletingLastPathComponent == downloadsFolder
                ? (packagePath as NSString).lastPathComponent : nil
            do {
                let outcome = try stageAndCommit(packagePath, expectation, staging, download, shouldCommit) {
                    committed = true
                }
                return outcome
            } catch let crash as SimulatedCrash {
                throw crash  // a killed process cleans nothing up: recovery must
            } catch {
                if !committed { try? FileManager.default.removeItem(atPath: staging) }
                throw error
            }
        }
    }

    private func stageAndCommit(
        _ packagePath: String, _ expectation: Expectation, _ staging: String, _ download: String?,
        _ shouldCommit: () -> Bool, committed: () -> Void
    ) throws -> Outcome {
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
        let current = installed()
        let old = current.first { $0.id == manifest.id }
        if let old, old.type != manifest.type {
            throw StoreError.refused(
                "'\(manifest.id)' is installed as a \(old.type), the package is a \(manifest.type)")
        }
        try checkVersion(of: manifest, replacing: old, installed: current, allowDowngrade: expectation.allowDowngrade)
        let context = InstallContext(
            installedFolder: installedFolder, bundledSearchPaths: bundledSearchPaths, installed: current)
        let installedFile = try handler.installedFile(of: manifest, context: context)
        try fault("checked")

        let name = manifest.id + "." + handler.folderExtension
        let content = staging + "/" + name
        if let installedFile {
            try archive.extract(file: installedFile, to: content)
        } else {
            try createFolder(content)
            try archive.extract(into: content)
        }
        try fault("extracted")

        let derived = try handler.prepare(contentAt: content, manifest: manifest, context: context)
        var steps: [Journal.Step] = [.placeFolder(name: name, inode: try Self.inode(of: content))]
        var derivedNames: [String] = []
        for (ext, data) in derived.sorted(by: { $0.key < $1.key }) {
            guard handler.derivedFileExtensions.contains(ext) else {
                throw StoreError.invalidContent("the handler derived an undeclared .\(ext) file")
            }
            let file = manifest.id + "." + ext
            try Self.writeDurably(data, to: staging + "/" + file)
            derivedNames.append(file)
            steps.append(.placeFile(staged: file, target: file))
        }
        for ext in handler.derivedFileExtensions where !derivedNames.contains(manifest.id + "." + ext) {
            steps.append(.removeFile(manifest.id + "." + ext))
        }
        steps += try rederiveDescendants(of: manifest, stagedAt: content, installed: current, staging: staging)
        // A parked copy of this product is replaced by the one installed now.
        if FileManager.default.fileExists(atPath: parkedFolder + "/" + name) {
            steps.append(.removeFile(Self.workFolderName + "/parked/" + name))
        }
        try Self.writeDurably(try manifest.encoded(), to: staging + "/" + PackageManifest.fileName)
        steps.append(.placeFile(staged: PackageManifest.fileName, target: Self.manifestPath(of: manifest.id)))
        if let download {
            let folder = Self.workFolderName + "/downloads/"
            steps += [.removeFile(folder + download), .removeFile(folder + PartialDownload.recordPath(for: download))]
        }
        try fault("staged")
        guard shouldCommit() else { throw StoreError.cancelled }

        let journal = Journal(id: manifest.id, staging: staging, steps: steps)
        try journal.write(to: journalPath)
        committed()
        try fault("journal written")
        try rollForward(journal)
        let product =
            handler.describe(installedFolder: installedFolder + "/" + name)
            ?? InstalledProduct(
                id: manifest.id, type: manifest.type, name: manifest.name, version: manifest.version,
                parent: manifest.parent?.id, path: installedFolder + "/" + name)
        return Outcome(product: product, replacedVersion: old?.version)
    }

    /// An older version only when asked for, and never below what an installed child requires.
    private func checkVersion(
        of manifest: PackageManifest, replacing old: InstalledProduct?, installed: [InstalledProduct],
        allowDowngrade: Bool
    ) throws {
        if let old, ThemeVersion.isNewer(old.version, than: manifest.version), !allowDowngrade {
            throw StoreError.refused(
                "'\(manifest.id)' \(old.version) is installed and \(manifest.version) is older; to install the older version anyway, allow a downgrade (--allow-downgrade)"
            )
        }
        for child in installed where child.parent == manifest.id {
            guard let required = storedManifest(of: child.id)?.parent?.minimumVersion,
                ThemeVersion.isNewer(required, than: manifest.version)
            else { continue }
            throw StoreError.refused(
                "'\(child.id)' needs '\(manifest.id)' \(required) or newer; installing \(manifest.version) would break it (uninstall or update '\(child.id)' first)"
            )
        }
    }

    /// The manifest an installed product came with (kept in the work folder), when known.
    public func storedManifest(of id: String) -> PackageManifest? {
        guard let data = FileManager.default.contents(atPath: installedFolder + "/" + Self.manifestPath(of: id)) else {
            return nil
        }
        return try? PackageManifest.decode(data)
    }

    static func manifestPath(of id: String) -> String { workFolderName + "/manifests/" + id + ".json" }

    /// Every installed product that builds on `id`, directly or not, parents before children.
    static func descendants(of id: String, in installed: [InstalledProduct]) -> [InstalledProduct] {
        var result: [InstalledProduct] = []
        var frontier = [id]
        while let next = frontier.first {
            frontier.removeFirst()
            for child in installed
            where child.parent == next && !result.contains(where: { $0.id == child.id }) && child.id != id {
                result.append(child)
                frontier.append(child.id)
            }
        }
        return result
    }

    /// Derives the files of every installed descendant again against the staged new version, in a
    /// view of the installed folder where the new version replaces the old one (hard links, so
    /// nothing is copied). Returns the journal steps that move the results in.
    private func rederiveDescendants(
        of manifest: PackageManifest, stagedAt content: String, installed: [InstalledProduct],
        staging: String
    ) throws -> [Journal.Step] {
        let descendants = Self.descendants(of: manifest.id, in: installed)
        guard !descendants.isEmpty else { return [] }
        let view = staging + "/view"
        try createFolder(view)
        try Self.linkFolder(content, into: view + "/" + (content as NSString).lastPathComponent)
        for product in installed where product.id != manifest.id {
            try Self.linkFolder(product.path, into: view + "/" + (product.path as NSString).lastPathComponent)
        }
        let context = InstallContext(
            installedFolder: view, bundledSearchPaths: bundledSearchPaths, installed: installed)
        var steps: [Journal.Step] = []
        var parked: Set<String> = []
        for child in descendants {
            let handler = try handlers.handler(for: child.type)
            let name = (child.path as NSString).lastPathComponent
            // What cannot be derived again (a compiled theme) and no longer fits leaves the
            // installed folder in this same transaction, with whatever builds on it.
            let mismatch =
                child.parent.map { parked.contains($0) } == true
                ? "what it builds on is parked" : handler.mismatch(ofInstalledAt: view + "/" + name, context: context)
            if mismatch != nil {
                parked.insert(child.id)
                steps.append(.parkFolder(name))
                continue
            }
            let derived: [String: Data]
            do {
                derived = try handler.rederive(
                    contentAt: view + "/" + (child.path as NSString).lastPathComponent, context: context)
            } catch {
                throw StoreError.refused(
                    "installing '\(manifest.id)' \(manifest.version) would break the installed '\(child.id)': \(error)")
            }
            for (ext, data) in derived.sorted(by: { $0.key < $1.key }) where handler.derivedFileExtensions.contains(ext)
            {
                let file = child.id + "." + ext
                try Self.writeDurably(data, to: staging + "/" + file)
                steps.append(.placeFile(staged: file, target: file))
            }
        }
        return steps
    }

    /// Recreates the folder `source` at `destination` with hard links to its files (copies where
    /// the file system refuses links).
    static func linkFolder(_ source: String, into destination: String) throws {
        let files = FileManager.default
        var isSourceFolder: ObjCBool = false
        if files.fileExists(atPath: source, isDirectory: &isSourceFolder), !isSourceFolder.boolValue {
            if link(source, destination) != 0 {
                do {
                    try files.copyItem(atPath: source, toPath: destination)
                } catch {
                    throw StoreError.io("cannot prepare \(destination): \(error.localizedDescription)")
                }
            }
            return
        }
        do {
            try files.createDirectory(atPath: destination, withIntermediateDirectories: true)
            guard let enumerator = files.enumerator(atPath: source) else { return }
            while let relative = enumerator.nextObject() as? String {
                let from = source + "/" + relative, to = destination + "/" + relative
                var isFolder: ObjCBool = false
                guard files.fileExists(atPath: from, isDirectory: &isFolder) else { continue }
                if isFolder.boolValue {
                    try files.createDirectory(atPath: to, withIntermediateDirectories: true)
                } else if link(from, to) != 0 {
                    try files.copyItem(atPath: from, toPath: to)
                }
            }
        } catch {
            throw StoreError.io("cannot prepare \(destination): \(error.localizedDescription)")
        }
    }
}
