import Foundation
import LiveryCompiler
import LiveryModel
import LiveryStore
import LiveryXML

/// Installs themes from their sources, for development builds and tools: checks that the theme
/// validates for every trait set against its installed or bundled parent (folders), compiles it
/// on the machine, and installs `<id>.purchasedTheme` with `<id>.livery` beside. Updating a
/// parent compiles its installed children again. Register it in place of the app's
/// `ThemeContentHandler`: `ThemeStore(…, handlers: [SourceThemeContentHandler()])`.
public struct SourceThemeContentHandler: ContentHandler {
    public static let type = ThemeContentHandler.type
    public var type: String { Self.type }
    public let folderExtension: String
    public var derivedFileExtensions: [String] { ["livery"] }
    /// Schema files with the app's own components, so themes using them validate.
    public var schemaFiles: [String]

    public init(folderExtension: String = "purchasedTheme", schemaFiles: [String] = []) {
        self.folderExtension = folderExtension
        self.schemaFiles = schemaFiles
    }

    public func prepare(contentAt folder: String, manifest: PackageManifest, context: InstallContext) throws -> [String:
        Data]
    {
        let extensions = ["theme", folderExtension]
        let searchPaths = [context.installedFolder] + context.bundledSearchPaths
        let workspace = ThemeWorkspace(searchPaths: searchPaths, schemaFiles: schemaFiles, themeExtensions: extensions)

        // The theme says what the manifest says.
        let chain = workspace.chain(ofThemeAt: folder)
        let ownInfo = readInfo(folder)
        guard let info = ownInfo else {
            throw StoreError.invalidContent("the package has no readable Info.xml: \(describe(chain.diagnostics))")
        }
        guard info.id == manifest.id, info.version == manifest.version, info.parent == manifest.parent?.id else {
            throw StoreError.invalidContent(
                "Info.xml (id \(info.id), version \(info.version), parent \(info.parent ?? "none")) disagrees with the manifest (id \(manifest.id), version \(manifest.version), parent \(manifest.parent?.id ?? "none"))"
            )
        }
        // A bundled theme with the same id would be shadowed or shadow this one.
        for path in context.bundledSearchPaths {
            for bundled in workspace.themeFolders(in: path) where readInfo(bundled)?.id == manifest.id {
                throw StoreError.refused("a bundled theme already has the id '\(manifest.id)' (\(bundled))")
            }
        }
        // The parent must be installed or bundled, and new enough.
        if let parent = manifest.parent {
            let candidates = searchPaths.flatMap { workspace.themeFolders(in: $0) }.compactMap(readInfo).filter {
                $0.id == parent.id
            }
            guard let found = candidates.first else {
                throw StoreError.missingDependency(
                    "the theme's parent '\(parent.id)' is neither installed nor bundled; install it first")
            }
            guard !ThemeVersion.isNewer(parent.minimumVersion, than: found.version) else {
                throw StoreError.missingDependency(
                    "the theme needs '\(parent.id)' \(parent.minimumVersion) or newer; \(found.version) is installed; update it first"
                )
            }
        }
        guard chain.value != nil else {
            throw StoreError.invalidContent(describe(chain.diagnostics))
        }
        return try compile(folder, workspace: workspace)
    }

    /// A child's compiled file holds its parents' resolved operations and source digests: it is
    /// compiled again against the new parent.
    public func rederive(contentAt folder: String, context: InstallContext) throws -> [String: Data] {
        try compile(
            folder,
            workspace: ThemeWorkspace(
                searchPaths: [context.installedFolder] + context.bundledSearchPaths,
                schemaFiles: schemaFiles, themeExtensions: ["theme", folderExtension]))
    }

    private func compile(_ folder: String, workspace: ThemeWorkspace) throws -> [String: Data] {
        let compiled = ThemeCompiler.compile(themeAt: folder, workspace: workspace)
        guard let bytes = compiled.value else {
            throw StoreError.invalidContent("the theme does not validate: \(describe(compiled.diagnostics))")
        }
        return ["livery": Data(bytes)]
    }

    public func describe(installedFolder folder: String) -> InstalledProduct? {
        guard let info = readInfo(folder) else { return nil }
        return InstalledProduct(
            id: info.id, type: type, name: info.name, version: info.version, parent: info.parent, path: folder)
    }

    /// Info.xml alone (no parent needed), through the front end.
    private func readInfo(_ folder: String) -> ThemeInfo? {
        let workspace = ThemeWorkspace(searchPaths: [], themeExtensions: ["theme", folderExtension])
        let chain = workspace.chain(ofThemeAt: folder)
        if let info = chain.value?.last?.info { return info }
        return InfoReader.read(folder + "/Info.xml")
    }

    private func describe(_ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }
        let shown = errors.prefix(5).map(\.description).joined(separator: "; ")
        return errors.count > 5 ? shown + "; and \(errors.count - 5) more" : shown
    }
}

/// Reads `<theme-info>` attributes without resolving parents (a theme whose parent is
/// missing still has an id and a version to report).
enum InfoReader {
    static func read(_ path: String) -> ThemeInfo? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 1 << 20,
            let text = String(data: data, encoding: .utf8),
            let start = text.range(of: "<theme-info")
        else { return nil }
        let tail = text[start.upperBound...]
        guard let end = tail.firstIndex(of: ">") else { return nil }
        let attributes = tail[..<end]
        func value(_ name: String) -> String? {
            for quote in ["\"", "'"] {
                if let range = attributes.range(of: " \(name)=\(quote)") ?? attributes.range(of: "\n\(name)=\(quote)"),
                    let close = attributes[range.upperBound...].firstIndex(of: Character(quote))
                {
                    return String(attributes[range.upperBound..<close])
                }
            }
            return nil
        }
        guard let id = value("id") else { return nil }
        return ThemeInfo(
            id: id, name: value("name") ?? id, version: value("version") ?? "1.0.0", parent: value("parent"))
    }
}
