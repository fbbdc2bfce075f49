import Foundation
import LiveryModel

// Finding themes: search-folder indexes, parents by id, chains, and findings about theme folders.
extension ThemeWorkspace {
    /// The theme folders of a searched folder with their ids, listed and read once, then kept up
    /// to date one folder at a time by `forget(themeAt:)`.
    struct SearchFolderIndex {
        struct Entry {
            var path: String
            var canonical: String
            /// Nil when the folder's Info.xml cannot be read.
            var id: String?
        }
        /// Sorted by path, as `themeFolders(in:)` lists them.
        private(set) var entries: [Entry] = []
        /// In path order.
        private var byID: [String: [Entry]] = [:]

        func folders(withID id: String) -> [Entry] { byID[id] ?? [] }

        mutating func insert(_ entry: Entry) {
            remove(path: entry.path)
            entries.insert(entry, at: Self.position(of: entry.path, in: entries))
            if let id = entry.id {
                var list = byID[id] ?? []
                list.insert(entry, at: Self.position(of: entry.path, in: list))
                byID[id] = list
            }
        }

        /// The first position whose path is not below `path` (entries are sorted by path).
        static func position(of path: String, in entries: [Entry]) -> Int {
            var low = 0
            var high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].path < path { low = middle + 1 } else { high = middle }
            }
            return low
        }

        mutating func remove(path: String) {
            let at = Self.position(of: path, in: entries)
            guard at < entries.count, entries[at].path == path else { return }
            if let id = entries[at].id {
                byID[id]?.removeAll { $0.path == path }
                if byID[id]?.isEmpty == true { byID[id] = nil }
            }
            entries.remove(at: at)
        }
    }

    /// The index entry of a theme folder as it is on disk now; nil when it is not a theme folder.
    /// Reads Info.xml without keeping it: an index of ten thousand themes holds their ids only.
    /// `readingAgain` ignores what was read from the folder before (for `forget(themeAt:)`).
    func indexEntry(forThemeAt path: String, readingAgain: Bool = false) -> SearchFolderIndex.Entry? {
        guard isThemeFolder(path), FileSystem.kind(of: path) == .directory else { return nil }
        let key = readingAgain ? FileSystem.canonical(path) : canonical(path)
        let known = readingAgain ? nil : locked({ themes[key]?.header ?? infos[key]?.0 })
        let id =
            known?.info.id
            ?? folderReader().readInfo(folder: path).0?.info.id
        return .init(path: path, canonical: key, id: id)
    }

    private func index(of folder: String) -> SearchFolderIndex {
        let key = canonical(folder)
        if let known = locked({ indexes[key] }) { return known }
        var index = SearchFolderIndex()
        for path in themeFolders(in: folder) {
            if let entry = indexEntry(forThemeAt: path) { index.insert(entry) }
        }
        return locked {
            if let known = indexes[key] { return known }
            indexes[key] = index
            return index
        }
    }

    /// The first definition of constant `name` in a theme that inherits from the theme whose file
    /// holds `reference`, among the themes of its search folders (the error path of an unknown
    /// constant), with the fix that moves it up into that theme. An unqualified file's definition
    /// comes before a qualified one's: that is the one a parent can take.
    func definition(of name: String, referencedAt reference: SourceLocation) -> ThemeResolver.ConstantBelow? {
        let path = FileSystem.parent(of: reference.file)
        let owner = theme(at: path)
        guard let id = owner.info?.id else { return nil }
        let indexes = searchFolders(for: path).map(index(of:))
        for entry in indexes.flatMap(\.entries) where entry.id != nil && entry.id != id {
            // does the entry inherit from `id`? (a bounded walk up: cycles are reported elsewhere)
            var current = theme(at: entry.path).info?.parent
            var steps = 0
            var inherits = false
            while let parent = current, steps < 64 {
                if parent == id {
                    inherits = true
                    break
                }
                current = indexes.lazy.flatMap { $0.folders(withID: parent) }.first.flatMap {
                    self.theme(at: $0.path).info?.parent
                }
                steps += 1
            }
            guard inherits else { continue }
            let all = theme(at: entry.path).files
            let files = all.filter { $0.qualifiers == .none } + all.filter { $0.qualifiers != .none }
            for file in files {
                if let constant = file.constants.first(where: { $0.name == name }) {
                    return ThemeResolver.ConstantBelow(
                        theme: FileSystem.lastComponent(of: entry.path), location: constant.location,
                        fix: file.qualifiers == .none
                            ? ConstantMove.fix(constant, into: owner, referencedAt: reference) : nil)
                }
            }
        }
        return nil
    }

    /// The theme and its ancestors, root first; nil when the chain cannot be formed (missing or
    /// cyclic parent, unreadable Info.xml). Diagnostics include every file of the chain.
    ///
    /// The chain is found from the folders' Info.xml, then the folders are read root first: each
    /// is read with the dimensions its ancestors declare.
    func loadChain(_ path: String) -> ([DecodedThemeFolder]?, [Diagnostic]) {
        guard FileSystem.kind(of: path) == .directory else {
            return (nil, [.error(.pathNotFound, "no such theme folder", at: SourceLocation(file: path))])
        }
        /// The folders found, the theme first.
        var paths: [String] = []
        var headers: [InfoDecoder.Decoded] = []
        var failure: [Diagnostic]?
        var current = path
        walk: while true {
            paths.append(current)
            guard let header = info(at: current).0 else {
                failure = []
                break
            }
            headers.append(header)
            guard let parentID = header.info.parent else { break }
            if headers.contains(where: { $0.info.id == parentID }) {
                failure = [Self.cycle(closedBy: parentID, in: headers.reversed())]
                break
            }
            let folders = searchFolders(for: path)
            let indexes = folders.map(index(of:))
            var unique: [SearchFolderIndex.Entry] = []
            for match in indexes.flatMap({ $0.folders(withID: parentID) })
            where !unique.contains(where: { $0.canonical == match.canonical }) {
                unique.append(match)
            }
            guard let parentPath = unique.first?.path else {
                let candidates = indexes.flatMap(\.entries)
                // The parent exists but its Info.xml is broken: that is the one finding, where it is.
                if let broken = candidates.first(where: { $0.id == nil && claimsID(parentID, folder: $0.path) }) {
                    let infoFile = FileSystem.join(broken.path, "Info.xml")
                    failure = theme(at: broken.path).diagnostics.filter { $0.location?.file == infoFile }
                    break walk
                }
                let seen = headers.map(\.info.id)
                let list = folders.map { $0.hasSuffix("/") ? $0 : $0 + "/" }.joined(separator: ", ")
                // the theme itself and its descendants on the way here would make a cycle: not suggested
                let ids = candidates.compactMap(\.id).filter { !seen.contains($0) }
                let themes = candidates.compactMap { entry in entry.id.map { (entry.path, $0) } }
                let (hint, fix) =
                    Suggestions.parentNamedByFolder(parentID, themes: themes.filter { !seen.contains($0.1) })
                    .map { ($0.hint, $0.fix) } ?? Suggestions.suggest(parentID, in: ids)
                failure = [
                    .error(
                        .parentMissing,
                        "parent theme '\(parentID)' not found in: \(list)\(hint.isEmpty ? "; add its folder with --themes DIR" : hint)",
                        at: header.parentLocation, fix: fix)
                ]
                break
            }
            if unique.count > 1 {
                failure = [
                    .error(
                        .themeDuplicate,
                        "\(Self.ambiguousParentPrefix(parentID)): \(unique.map(\.path).joined(separator: ", ")); ids must be unique",
                        at: header.parentLocation)
                ]
                break
            }
            current = parentPath
        }
        var dimensions = baseDimensions
        var declarations = loadedBase.declarations
        var chain: [DecodedThemeFolder] = []
        for folder in paths.reversed() {
            let theme = theme(at: folder, inherited: dimensions, known: declarations)
            dimensions = theme.dimensions
            declarations = theme.declarations
            chain.append(theme)
        }
        let diagnostics = chain.reversed().flatMap(\.diagnostics) + (failure ?? [])
        return (failure == nil ? chain : nil, diagnostics)
    }

    func loadFailure(_ path: String) -> [Diagnostic] {
        let (_, diagnostics) = loadChain(path)
        return diagnostics.hasErrors
            ? diagnostics.sorted()
            : diagnostics + [.error(.pathNotFound, "not a theme folder", at: SourceLocation(file: path))]
    }

    /// A cycle of parents is one finding, whichever theme it is reached from: it is told from its
    /// member with the smallest id, at that theme's parent attribute, with a note at each other
    /// member's. `headers` are those of the themes read so far, the one whose parent closes the
    /// cycle first.
    static func cycle(closedBy parentID: String, in headers: [InfoDecoder.Decoded]) -> Diagnostic {
        let end = headers.firstIndex { $0.info.id == parentID } ?? headers.count - 1
        let members = Array(headers[...end])
        let byID = Dictionary(members.map { ($0.info.id, $0) }, uniquingKeysWith: { first, _ in first })
        let start = members.min { $0.info.id < $1.info.id }!
        var path = [start.info.id]
        var current = start
        while let parent = current.info.parent, let next = byID[parent], next.info.id != start.info.id,
            path.count <= members.count
        {
            path.append(parent)
            current = next
        }
        path.append(start.info.id)
        let notes = members.filter { $0.info.id != start.info.id }.sorted { $0.info.id < $1.info.id }.map {
            Diagnostic.Note("'\($0.info.id)' names '\($0.info.parent ?? "")' as its parent here", at: $0.parentLocation)
        }
        return .error(
            .parentCycle,
            "theme '\(start.info.id)' has parent '\(start.info.parent ?? "")', which makes a cycle: \(path.joined(separator: " -> "))",
            at: start.parentLocation, notes: notes)
    }

    /// Whether a folder's Info.xml, unreadable as a whole, still says `id="<id>"`: enough to know
    /// a child's parent is that broken theme rather than missing.
    private func claimsID(_ id: String, folder: String) -> Bool {
        guard
            let bytes = FileSystem.read(
                FileSystem.join(folder, "Info.xml"), limit: limits.maxFileBytes, overlay: overlay)
        else {
            return false
        }
        let text = String(decoding: bytes, as: UTF8.self)
        return text.contains("id=\"\(id)\"") || text.contains("id='\(id)'")
    }

    /// The theme's own folder first, then the configured search paths, without repeats.
    private func searchFolders(for themePath: String) -> [String] {
        var folders: [String] = []
        for folder in [FileSystem.parent(of: themePath)] + searchPaths
        where !folders.contains(where: { canonical($0) == canonical(folder) }) {
            folders.append(folder)
        }
        return folders
    }

    /// Entries named like themes that are not folders: links are refused (nothing outside the
    /// searched folder is read), plain files are reported rather than skipped in silence.
    func misplacedThemeEntries(in folder: String) -> [Diagnostic] {
        (FileSystem.entries(of: folder) ?? []).map { FileSystem.join(folder, $0) }.filter(isThemeFolder).compactMap {
            path in
            switch FileSystem.kind(of: path) {
            case .link:
                return .error(
                    .fileLink,
                    "'\(FileSystem.lastComponent(of: path))' is a symbolic link; theme folders must be real folders",
                    at: SourceLocation(file: path))
            case .directory:
                return nil
            default:
                return .error(
                    .pathNotFound,
                    "'\(FileSystem.lastComponent(of: path))' is not a folder; a theme is a folder holding Info.xml",
                    at: SourceLocation(file: path))
            }
        }
    }

    /// One finding per clashing id, at the second folder that has it, with a note at the first.
    func duplicateIDs(among folders: [String]) -> [(String, Diagnostic)] {
        var first: [String: (String, InfoDecoder.Decoded)] = [:]
        var diagnostics: [(String, Diagnostic)] = []
        for folder in folders {
            guard let decoded = info(at: folder).0 else { continue }
            if let (other, otherInfo) = first[decoded.info.id] {
                diagnostics.append(
                    (
                        decoded.info.id,
                        .error(
                            .themeDuplicate,
                            "theme id '\(decoded.info.id)' is already used by \(FileSystem.lastComponent(of: other)); ids must be unique",
                            at: decoded.location,
                            notes: [
                                Diagnostic.Note(
                                    "\(FileSystem.lastComponent(of: other)) has the id here", at: otherInfo.location)
                            ])
                    ))
            } else {
                first[decoded.info.id] = (folder, decoded)
            }
        }
        return diagnostics
    }

    /// The folders of the theme and of every ancestor that can be found, nearest first, whatever
    /// errors the themes have: what a watcher must watch so that fixing a parent is seen.
    public func ancestorFolders(ofThemeAt path: String) -> [String] {
        var folders = [path]
        var current = path
        while let parentID = info(at: current).0?.info.parent, folders.count <= limits.maxReferenceDepth {
            let candidates = searchFolders(for: path).map(index(of:))
            guard
                let parent = candidates.lazy.flatMap({ $0.folders(withID: parentID) }).first?.path
                    ?? candidates.lazy.flatMap(\.entries).first(where: {
                        $0.id == nil && self.claimsID(parentID, folder: $0.path)
                    })?.path,
                !folders.contains(parent)
            else { break }
            folders.append(parent)
            current = parent
        }
        return folders
    }

    /// The theme folders directly inside `folder`, sorted by name.
    public func themeFolders(in folder: String) -> [String] {
        (FileSystem.entries(of: folder) ?? [])
            .map { FileSystem.join(folder, $0) }
            .filter { isThemeFolder($0) && FileSystem.kind(of: $0) == .directory }
    }

    /// What `validate` finds about a folder of themes as a whole, without checking any theme in
    /// it: no theme folders, an entry named like a theme that is not a folder, two themes with
    /// one id. For tools that check the themes one by one (`build`).
    public func folderFindings(in folder: String) -> [Diagnostic] {
        let folders = themeFolders(in: folder)
        var diagnostics: [Diagnostic] = []
        if folders.isEmpty {
            diagnostics.append(
                .error(
                    .noThemes, "no theme folders (\(themeExtensions.map { "*.\($0)" }.joined(separator: ", "))) here",
                    at: SourceLocation(file: folder)))
        }
        return diagnostics + duplicateIDs(among: folders).map(\.1) + misplacedThemeEntries(in: folder)
    }

    /// Whether a folder someone named explicitly is a theme rather than a folder of themes: it
    /// has a theme extension, or it holds an `Info.xml` whatever its name.
    public func isNamedTheme(_ path: String) -> Bool {
        isThemeFolder(path) || FileSystem.kind(of: FileSystem.join(path, "Info.xml")) == .file
    }

    public func isThemeFolder(_ path: String) -> Bool {
        let name = FileSystem.lastComponent(of: path)
        return themeExtensions.contains { name.hasSuffix("." + $0) }
    }

    /// The findings of themes in `folder` that share an id (what `validate` reports for a folder
    /// of themes): one per clashing id, with a note where the first folder has it.
    public func duplicateIDFindings(inFolder folder: String) -> [Diagnostic] {
        duplicateIDs(among: themeFolders(in: folder)).map(\.1)
    }
}
