import Foundation
import LiveryBinary
import LiveryModel

/// Installs themes as apps do: the package's compiled file of the format this app reads, checked
/// by the runtime's own verifier, installed as `<id>.livery`. Nothing is parsed or compiled.
///
/// A compiled file holds its parents' resolved operations, so a child is installed only where the
/// app's copy of every theme of its parent chain (bundled or installed) is exactly the one it was
/// compiled from: same id, version and source digest. A package may carry several compiled files
/// (format versions, parent versions); the first that fits is installed.
public struct ThemeContentHandler: ContentHandler {
    public static let type = "theme"
    public var type: String { Self.type }
    /// The extension of the installed compiled file, which the theme manager discovers.
    public let folderExtension: String
    public var derivedFileExtensions: [String] { [] }
    /// The caps a compiled file must stay within (the runtime's own).
    public let limits: VerificationLimits

    public init(fileExtension: String = "livery", limits: VerificationLimits = VerificationLimits()) {
        self.folderExtension = fileExtension
        self.limits = limits
    }

    // MARK: Choosing the compiled file

    /// The compiled file of `compiled` this app installs: of the format version it reads, made
    /// from the parent chain the app has. Throws `unreadableFormat` (naming the versions offered
    /// and the one read) or `missingDependency` (naming the parent it was compiled from and the
    /// one the app has).
    public func select(
        from compiled: [PackageManifest.CompiledFile]?, product: String, parent: PackageManifest.Dependency?,
        context: InstallContext
    ) throws -> PackageManifest.CompiledFile {
        let offered = compiled ?? []
        let reads = CompiledTheme.readableFormatVersion
        let readable = offered.filter { $0.formatVersion == reads }
        guard let first = readable.first else {
            throw StoreError.unreadableFormat(
                product: product, offered: Array(Set(offered.map(\.formatVersion))).sorted(), reads: reads)
        }
        guard let parent else { return first }
        let have = try appChain(of: parent.id, context: context)
        if let fitting = readable.first(where: { $0.parents == have }) { return fitting }
        let wanted = readable.map { $0.parents.map(\.description).joined(separator: " > ") }
        throw StoreError.missingDependency(
            "\(product) is compiled against \(wanted.joined(separator: "; or against ")); the app has \(have.map(\.description).joined(separator: " > ")); update the app's parent or ask the store for a package compiled against it"
        )
    }

    public func installedFile(of manifest: PackageManifest, context: InstallContext) throws -> String? {
        try select(
            from: manifest.compiled, product: "'\(manifest.id)' \(manifest.version)", parent: manifest.parent,
            context: context
        ).path
    }

    /// The parent chain the app shows for `id` (root first, `id` last): its bundled or installed
    /// compiled file's chain. Throws `missingDependency` when the app has none.
    func appChain(of id: String, context: InstallContext) throws -> [PackageManifest.CompiledSource] {
        guard let path = compiledFile(of: id, context: context) else {
            throw StoreError.missingDependency(
                "the theme's parent '\(id)' is neither installed nor bundled as a compiled theme; install it first")
        }
        do {
            return Self.sources(of: try CompiledTheme(contentsOf: path, limits: limits))
        } catch {
            throw StoreError.missingDependency(
                "the app's copy of the parent '\(id)' cannot be read (\(path): \(error))")
        }
    }

    /// The chain a compiled file records, as manifests and catalogs write it.
    public static func sources(of theme: CompiledTheme) -> [PackageManifest.CompiledSource] {
        theme.chain.map {
            PackageManifest.CompiledSource(
                id: $0.info.id, version: $0.info.version, sourceDigest: $0.sourceDigest?.description ?? "")
        }
    }

    /// The compiled file the app shows for `id`: installed (`<id>.livery`), else bundled.
    func compiledFile(of id: String, context: InstallContext) -> String? {
        let installed = context.installedFolder + "/" + id + "." + folderExtension
        if FileManager.default.fileExists(atPath: installed) { return installed }
        for folder in context.bundledSearchPaths {
            if let found = compiledThemes(in: folder).first(where: { $0.info.id == id }) { return found.path }
        }
        return nil
    }

    /// The compiled files directly in `folder`, with their facts.
    func compiledThemes(in folder: String) -> [(path: String, info: ThemeInfo)] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return entries.sorted().filter { ($0 as NSString).pathExtension == folderExtension }.compactMap { entry in
            let path = folder + "/" + entry
            return (try? CompiledTheme.info(contentsOf: path, limits: limits)).map { (path, $0) }
        }
    }

    // MARK: Installing

    /// Verifies the staged compiled file whole (structure, every block, the metadata) and checks
    /// that it is the theme the manifest names, made from the chain it declares, on top of the
    /// app's copy of its parent.
    public func prepare(contentAt file: String, manifest: PackageManifest, context: InstallContext) throws -> [String:
        Data]
    {
        let theme: CompiledTheme
        do {
            theme = try CompiledTheme(contentsOf: file, limits: limits)
            try theme.verifyMetadata()
            try theme.verifyBlocks()
        } catch {
            throw StoreError.invalidContent("the compiled theme does not verify: \(error)")
        }
        let info = theme.info
        guard info.id == manifest.id, info.version == manifest.version, info.parent == manifest.parent?.id else {
            throw StoreError.invalidContent(
                "the compiled theme (id \(info.id), version \(info.version), parent \(info.parent ?? "none")) disagrees with the manifest (id \(manifest.id), version \(manifest.version), parent \(manifest.parent?.id ?? "none"))"
            )
        }
        let declared = try select(
            from: manifest.compiled, product: "'\(manifest.id)' \(manifest.version)", parent: manifest.parent,
            context: context)
        guard Self.sources(of: theme) == declared.sources else {
            throw StoreError.invalidContent(
                "the compiled theme is made from \(Self.sources(of: theme).map(\.description).joined(separator: " > ")), the manifest says \(declared.sources.map(\.description).joined(separator: " > "))"
            )
        }
        // A bundled theme with the same id would be shadowed or shadow this one.
        for folder in context.bundledSearchPaths {
            for bundled in compiledThemes(in: folder) where bundled.info.id == manifest.id {
                throw StoreError.refused("a bundled theme already has the id '\(manifest.id)' (\(bundled.path))")
            }
        }
        if let parent = manifest.parent {
            let have = try appChain(of: parent.id, context: context)
            if let found = have.last, ThemeVersion.isNewer(parent.minimumVersion, than: found.version) {
                throw StoreError.missingDependency(
                    "the theme needs '\(parent.id)' \(parent.minimumVersion) or newer; \(found.version) is installed; update it first"
                )
            }
        }
        return [:]
    }

    /// A compiled file cannot be made again on the device: a child whose parent changed is parked
    /// (`mismatch`) rather than derived again.
    public func rederive(contentAt folder: String, context: InstallContext) throws -> [String: Data] { [:] }

    public func mismatch(ofInstalledAt path: String, context: InstallContext) -> String? {
        guard let theme = try? CompiledTheme(contentsOf: path, limits: limits) else {
            return "its compiled file cannot be read"
        }
        guard let parent = theme.info.parent else { return nil }
        let compiledFrom = Self.sources(of: theme).dropLast()
        guard let have = try? appChain(of: parent, context: context) else {
            return "its parent '\(parent)' is no longer in the app"
        }
        guard Array(compiledFrom) == have else {
            return
                "it is compiled against \(compiledFrom.map(\.description).joined(separator: " > ")), the app now has \(have.map(\.description).joined(separator: " > "))"
        }
        return nil
    }

    public func describe(installedFolder file: String) -> InstalledProduct? {
        guard let info = try? CompiledTheme.info(contentsOf: file, limits: limits) else { return nil }
        return InstalledProduct(
            id: info.id, type: type, name: info.name, version: info.version, parent: info.parent, path: file)
    }
}
