import Foundation
import Livery
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

    private func withWorkspace<Result>(
        searchPaths: [String], schemaFiles: [String],
        _ body: (ThemeWorkspace) -> Result
    ) -> Result {
        lock.lock()
        defer { lock.unlock() }
        let key = searchPaths + ["\u{0}"] + schemaFiles
        if workspace == nil || workspaceKey != key {
            workspace = ThemeWorkspace(
                searchPaths: searchPaths, schemaFiles: schemaFiles, themeExtensions: themeExtensions)
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

    public func info(at path: String, searchPaths: [String]) -> Checked<ThemeInfo> {
        // The chain is read to learn the theme's own Info.xml: a theme whose parent is missing
        // is reported here and not offered.
        let chain = withWorkspace(searchPaths: searchPaths, schemaFiles: []) { $0.chain(ofThemeAt: path) }
        if let info = chain.value?.last?.info { return Checked(value: info, diagnostics: chain.diagnostics) }
        return Checked(value: nil, diagnostics: chain.diagnostics)
    }

    public func load(_ theme: ThemeDescriptor, searchPaths: [String], schemaFiles: [String]) -> Checked<LoadedTheme> {
        guard let folder = theme.folder else {
            return Checked(
                value: nil,
                diagnostics: [
                    .error(.runtimeThemeUnavailable, "theme '\(theme.id)' has no folder", at: nil)
                ])
        }
        return withWorkspace(searchPaths: searchPaths, schemaFiles: schemaFiles) { workspace in
            let variants = workspace.variants(ofThemeAt: folder)
            let chain = workspace.chain(ofThemeAt: folder)
            guard let value = variants.value, let folders = chain.value else {
                return Checked(value: nil, diagnostics: variants.diagnostics)
            }
            var roots: [String: String] = [:]
            for themeFolder in folders { roots[themeFolder.info.id] = themeFolder.path }
            return Checked(
                value: LoadedTheme(variants: value, assets: FolderAssetSource(roots: roots), origin: .folder),
                diagnostics: variants.diagnostics)
        }
    }
}
