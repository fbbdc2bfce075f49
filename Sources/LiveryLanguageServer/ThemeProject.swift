import Foundation
import LiveryModel
import LiveryXML

/// Where the server looks for themes and parents: the command line's options, the client's
/// `initializationOptions` (`{"themes": [DIR], "schema": [FILE]}`) and a `.livery-lsp.json` of
/// the same shape at a workspace folder's top. Relative paths are relative to that folder.
struct ProjectSettings {
    var themeFolders: [String]
    var schemaFiles: [String]

    init(options: LanguageServerOptions, initializationOptions: JSONValue, roots: [String]) {
        themeFolders = options.themeFolders.map(Self.absolute)
        schemaFiles = options.schemaFiles.map(Self.absolute)
        let base = roots.first ?? FileManager.default.currentDirectoryPath
        add(initializationOptions, base: base)
        for root in roots {
            let file = FileSystemPaths.join(root, ".livery-lsp.json")
            if let data = FileManager.default.contents(atPath: file), let json = DecodedJSON.parse([UInt8](data)) {
                add(json, base: root)
            }
        }
    }

    private mutating func add(_ json: JSONValue, base: String) {
        themeFolders += (json["themes"]?.array ?? []).compactMap(\.string).map { Self.absolute($0, base: base) }
        schemaFiles += (json["schema"]?.array ?? []).compactMap(\.string).map { Self.absolute($0, base: base) }
    }

    static func absolute(_ path: String) -> String {
        absolute(path, base: FileManager.default.currentDirectoryPath)
    }

    static func absolute(_ path: String, base: String) -> String {
        LanguageServer.standardized(path.hasPrefix("/") ? path : FileSystemPaths.join(base, path))
    }
}

enum FileSystemPaths {
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    static func parent(of path: String) -> String { (path as NSString).deletingLastPathComponent }

    static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}

/// The themes of the editor's workspace, checked on the unsaved text of open files (a
/// `SourceOverlay` the front end reads instead of the disk). Knows which themes an edit makes
/// stale (`staleThemes`): those are checked again, the others' checks are reused, and the
/// findings are those of `livery validate` of every theme.
final class ThemeProject {
    let roots: [String]
    let settings: ProjectSettings
    let overlay = SourceOverlay()
    private(set) var workspace: ThemeWorkspace
    /// Theme folders found, sorted.
    private(set) var themes: [String] = []
    private var dirty: Set<String> = []
    /// Each theme's own check, reused for the themes an edit cannot have changed.
    private let checks = ThemeChecks()
    /// How the themes were related at the last check.
    private var relations = ThemeRelations()
    /// Whether the next check is of every theme (the first one, or after themes came or went).
    private var checksAll = false

    init(roots: [String], settings: ProjectSettings) {
        self.roots = roots
        self.settings = settings
        self.workspace = ThemeWorkspace(searchPaths: [], schemaFiles: settings.schemaFiles)
        discover()
    }

    /// Finds the theme folders under the workspace folders and the configured theme folders.
    private func discover() {
        var found: Set<String> = Set(themes)
        func visit(_ folder: String, depth: Int) {
            guard depth <= 4 else { return }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for name in names.sorted() where !name.hasPrefix(".") && name != "node_modules" {
                let path = FileSystemPaths.join(folder, name)
                guard FileSystemPaths.isDirectory(path) else { continue }
                if name.hasSuffix(".theme") {
                    found.insert(path)
                } else {
                    visit(path, depth: depth + 1)
                }
            }
        }
        for root in roots {
            if root.hasSuffix(".theme") { found.insert(root) } else { visit(root, depth: 0) }
        }
        for folder in settings.themeFolders { visit(folder, depth: 3) }
        setThemes(found)
    }

    private func setThemes(_ found: Set<String>) {
        themes = found.sorted()
        var searchPaths: [String] = []
        for folder in settings.themeFolders + themes.map(FileSystemPaths.parent(of:))
        where !searchPaths.contains(folder) {
            searchPaths.append(folder)
        }
        if searchPaths != workspace.searchPaths {
            workspace = ThemeWorkspace(searchPaths: searchPaths, schemaFiles: settings.schemaFiles, overlay: overlay)
        }
        checksAll = true
    }

    /// The theme folder a file belongs to (its folder, or the theme holding its `assets/`).
    func theme(holding path: String) -> String? {
        var folder = FileSystemPaths.parent(of: path)
        while folder != "/" && !folder.isEmpty {
            if themes.contains(folder) { return folder }
            if folder.hasSuffix(".theme")
                || FileManager.default.fileExists(atPath: FileSystemPaths.join(folder, "Info.xml"))
            {
                return folder
            }
            folder = FileSystemPaths.parent(of: folder)
        }
        return nil
    }

    // MARK: - Edits

    /// Reads `text` as the file at `path` from now on (an open buffer).
    func hold(_ text: String, at path: String) {
        overlay.set(text, forFileAt: path)
        changed(path)
    }

    /// Reads the file from disk again (the buffer was closed).
    func release(_ path: String) {
        overlay.remove(fileAt: path)
        changed(path)
    }

    func fileChangedOnDisk(_ path: String) { changed(path) }

    private func changed(_ path: String) {
        guard let theme = theme(holding: path) else { return }
        if !themes.contains(theme) {
            setThemes(Set(themes + [theme]))
        }
        workspace.forget(themeAt: theme)
        dirty.insert(theme)
    }

    var hasDirtyThemes: Bool { checksAll || !dirty.isEmpty }

    func markAllDirty() { checksAll = true }

    func markDirty(_ themes: [String]) { dirty.formUnion(themes) }

    /// The themes that inherit from `theme`, directly or not.
    func descendants(of theme: String) -> [String] {
        themes.filter { $0 != theme && workspace.ancestorFolders(ofThemeAt: $0).dropFirst().contains(theme) }
    }

    /// Checks the themes as `livery validate` of their folders would, checking again only the
    /// themes an edit may have changed (`staleThemes`) and reusing the others' checks; returns
    /// the themes checked again and the findings of every theme.
    func checkDirtyThemes() -> ([String], [Diagnostic]) {
        let current = themes.filter(FileSystemPaths.isDirectory)
        var seen = ThemeRelations()
        for theme in current {
            seen.chains[theme] = workspace.ancestorFolders(ofThemeAt: theme)
            if let declared = workspace.declaredIDs(ofThemeAt: theme) {
                seen.ids[theme] = declared.id
                seen.parents[theme] = declared.parent
            }
        }
        let stale: Set<String>
        if checksAll {
            checks.markAllStale()
            stale = Set(current)
        } else {
            stale = staleThemes(before: relations, after: seen)
            for theme in stale { checks.markStale(theme) }
        }
        for theme in relations.chains.keys where seen.chains[theme] == nil { checks.markStale(theme) }
        relations = seen
        checksAll = false
        dirty = []
        guard !current.isEmpty else { return ([], []) }
        // The folders of themes, as `livery validate Themes` is given them (their id clashes
        // and misplaced entries included), and themes named by an Info.xml alone.
        var paths: [String] = []
        var added: Set<String> = []
        for theme in current {
            let path = workspace.isThemeFolder(theme) ? FileSystemPaths.parent(of: theme) : theme
            if added.insert(path).inserted { paths.append(path) }
        }
        return (stale.sorted(), workspace.validate(paths: paths, reusing: checks))
    }

    /// The themes whose own check the edits since the last check (`dirty`) may change: the
    /// edited themes; every theme whose chain held one of them before or holds one now (their
    /// descendants, old and new); every theme whose chain changed (a parent found, lost or
    /// changed); every theme whose declared parent is an id an edited theme had or has (a child
    /// whose parent became missing, ambiguous or found); and, when an id changed, every theme
    /// whose parent is missing (the id suggested in its finding may change).
    private func staleThemes(before: ThemeRelations, after: ThemeRelations) -> Set<String> {
        var stale = dirty
        let ids = Set(dirty.compactMap { before.ids[$0] } + dirty.compactMap { after.ids[$0] })
        let idChanged = dirty.contains { before.ids[$0] != after.ids[$0] }
        for (theme, chain) in after.chains {
            let old = before.chains[theme] ?? []
            if old != chain || !dirty.isDisjoint(with: chain) || !dirty.isDisjoint(with: old)
                || after.parents[theme].map(ids.contains) == true
                || (idChanged && chain.last.flatMap { after.parents[$0] } != nil)
            {
                stale.insert(theme)
            }
        }
        return stale
    }

    /// The XML files of the themes (on disk or only in an open buffer).
    func files(ofThemes themes: [String]) -> [String] {
        var files: Set<String> = []
        for theme in themes {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: theme)) ?? []
            where name.lowercased().hasSuffix(".xml") {
                files.insert(FileSystemPaths.join(theme, name))
            }
        }
        for path in overlay.paths where themes.contains(FileSystemPaths.parent(of: path)) { files.insert(path) }
        return files.sorted()
    }
}

/// The themes' chains (each theme's folder and its ancestors', nearest first), ids and declared
/// parent ids, by theme folder.
struct ThemeRelations {
    var chains: [String: [String]] = [:]
    var ids: [String: String] = [:]
    var parents: [String: String] = [:]
}
