import Foundation
import LiveryModel
import LiveryXML

/// Loads `.theme` folders through the XML front end: the development path, where designers
/// edit XML and see the result on the next reload.
public final class FolderThemeLoader: ThemeLoader, @unchecked Sendable {
    public let themeExtensions: [String]
    /// The workspace caches folder reads (a shared parent is read once). It is not thread-safe,
    /// hence the lock; `@unchecked Sendable` is sound because every use holds it.
    private let lock = NSLock()
    private var workspace: ThemeWorkspace?
    private var workspaceKey: [String] = []

    public init(themeExtensions: [String] = ["theme"]) {
        self.themeExtensions = themeExtensions
    }

    private func withWorkspace<Result>(searchPaths: [String], schemaFiles: [String],
                                       _ body: (ThemeWorkspace) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        let key = searchPaths + ["\u{0}"] + schemaFiles
        if workspace == nil || workspaceKey != key {
            workspace = ThemeWorkspace(searchPaths: searchPaths, schemaFiles: schemaFiles, themeExtensions: themeExtensions)
            workspace?.checksContrast = false  // a review finding, not a launch's work (docs/Accessibility.md)
            workspaceKey = key
        }
        return body(workspace!)
    }

    /// Drops cached folder reads, so the next load sees what is on disk now.
    public func forgetCachedReads() {
        lock.lock()
        workspace = nil
        lock.unlock()
    }

    public func info(at path: String, searchPaths: [String]) -> LoadResult<ThemeInfo> {
        // The chain is read to learn the theme's own Info.xml: a theme whose parent is missing
        // is reported here and not offered.
        let chain = withWorkspace(searchPaths: searchPaths, schemaFiles: []) { $0.chain(ofThemeAt: path) }
        if let info = chain.value?.last?.info { return LoadResult(value: info, diagnostics: chain.diagnostics) }
        return LoadResult(value: nil, diagnostics: chain.diagnostics)
    }

    public func load(_ theme: ThemeDescriptor, searchPaths: [String], schemaFiles: [String]) -> LoadResult<LoadedTheme> {
        guard let folder = theme.folder else {
            return LoadResult(value: nil, diagnostics: [
                .error(.runtimeThemeUnavailable, "theme '\(theme.id)' has no folder", at: nil),
            ])
        }
        return withWorkspace(searchPaths: searchPaths, schemaFiles: schemaFiles) { workspace in
            let variants = workspace.variants(ofThemeAt: folder)
            let chain = workspace.chain(ofThemeAt: folder)
            guard let value = variants.value, let folders = chain.value else {
                return LoadResult(value: nil, diagnostics: variants.diagnostics)
            }
            var roots: [String: String] = [:]
            for themeFolder in folders { roots[themeFolder.info.id] = themeFolder.path }
            return LoadResult(value: LoadedTheme(variants: value, assets: FolderAssetSource(roots: roots), origin: .folder),
                              diagnostics: variants.diagnostics)
        }
    }
}

extension ThemeManager {
    /// A manager for the themes a configuration names: compiled files through the mapped
    /// reader when they are up to date, folders through the XML front end otherwise; the
    /// standard schema plus the configured schema files.
    public convenience init(configuration: LiveryConfiguration, traits: TraitSet = .none, scale: Int = 1,
                            diagnostics: DiagnosticHook = DiagnosticHook()) {
        var schema = StandardSchema.schema
        var findings: [Diagnostic] = []
        for file in configuration.schemaFiles {
            let loaded = SchemaFile.load(path: file)
            findings += loaded.diagnostics
            if let extra = loaded.value { schema.merge(extra) }
        }
        for finding in findings { diagnostics.report(finding, key: "schema|\(finding)") }
        self.init(configuration: configuration,
                  folderLoader: FolderThemeLoader(themeExtensions: configuration.themeExtensions),
                  compiledLoader: CompiledFileThemeLoader(themeExtensions: configuration.themeExtensions),
                  schema: schema, traits: traits, scale: scale, diagnostics: diagnostics)
    }

    /// A manager configured by a configuration file (see `LiveryConfiguration`). A missing or
    /// broken file is reported and leaves a manager without themes, never a crash.
    public convenience init(configurationFile path: String, traits: TraitSet = .none, scale: Int = 1,
                            diagnostics: DiagnosticHook = DiagnosticHook()) {
        let loaded = LiveryConfiguration.load(path: path)
        for finding in loaded.diagnostics { diagnostics.report(finding, key: "configuration|\(finding)") }
        self.init(configuration: loaded.value ?? LiveryConfiguration(), traits: traits, scale: scale,
                  diagnostics: diagnostics)
    }
}
