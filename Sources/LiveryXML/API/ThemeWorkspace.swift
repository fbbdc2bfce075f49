import LiveryModel

/// A theme folder as found on disk: what discovery, compiled-file digests and tools need.
public struct ThemeFolder: Hashable, Sendable {
    public var info: ThemeInfo
    public var path: String
    /// Relative paths of the theme's own files, sorted: Info.xml, configuration and schema files, assets.
    public var sourceFiles: [String]
}

/// The themes the engine can see (folders on search paths) and the schema they are checked
/// against: the entry point of the XML front end. Folders are read once and cached, so
/// validating a folder of themes reads a shared parent only once. Not thread-safe: use one
/// workspace per thread.
public final class ThemeWorkspace {
    public let searchPaths: [String]
    public let themeExtensions: [String]
    public let limits: FrontEndLimits
    private let schemaFiles: [String]
    private var reader: ThemeFolderReader
    private var themes: [String: DecodedThemeFolder] = [:]
    private var infos: [String: (InfoDecoder.Decoded?, [Diagnostic])] = [:]
    private lazy var baseSchema: Checked<Schema> = loadSchemaFiles()
    /// Whether `validate` and `variants` run the contrast checks (format 1.1, 7.3). An app that
    /// loads themes at run time turns them off: they are for review, and cost launch time.
    public var checksContrast = true
    /// Unsaved contents read instead of the files on disk (a language server's open buffers).
    public let overlay: SourceOverlay?

    /// - Parameters:
    ///   - searchPaths: folders searched for parent themes, besides each theme's own folder.
    ///   - schemaFiles: `<components>` files adding the app's components to the standard schema.
    ///   - themeExtensions: folder extensions that mark a theme (downloaded themes may use others).
    public init(
        searchPaths: [String] = [], schemaFiles: [String] = [], themeExtensions: [String] = ["theme"],
        limits: FrontEndLimits = .default, overlay: SourceOverlay? = nil
    ) {
        self.searchPaths = searchPaths
        self.schemaFiles = schemaFiles
        self.themeExtensions = themeExtensions
        self.limits = limits
        self.reader = ThemeFolderReader(limits: limits)
        self.overlay = overlay
        self.reader.overlay = overlay
    }

    // MARK: - Public operations

    /// Checks theme folders, or folders of theme folders, for every trait set. Findings are
    /// deduplicated and sorted by place. `progress` hears (themes done, themes in all, the theme
    /// about to be checked) before each theme, for a progress line on a terminal.
    public func validate(paths: [String], progress: ((Int, Int, String) -> Void)? = nil) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var resolution = ResolutionFindings()
        /// Clashing theme ids, to the index of their finding.
        var clashes: [String: Int] = [:]
        var done = 0
        let total =
            progress == nil
            ? 0
            : paths.reduce(0) { count, path in
                count + (isThemeFolder(path) ? 1 : themeFolders(in: path).count)
            }
        func validateTheme(at path: String) -> [Diagnostic] {
            progress?(done, total, path)
            done += 1
            return self.validateTheme(at: path, into: &resolution)
        }
        for path in paths {
            switch FileSystem.kind(of: path) {
            case .missing:
                diagnostics.append(.error(.pathNotFound, "no such file or folder", at: SourceLocation(file: path)))
            case .directory where isNamedTheme(path):
                diagnostics += validateTheme(at: path)
            case .directory:
                let folders = themeFolders(in: path)
                if folders.isEmpty {
                    diagnostics.append(
                        .error(
                            .noThemes,
                            "no theme folders (\(themeExtensions.map { "*.\($0)" }.joined(separator: ", "))) here",
                            at: SourceLocation(file: path)))
                }
                for (id, finding) in duplicateIDs(among: folders) where clashes[id] == nil {
                    clashes[id] = diagnostics.count
                    diagnostics.append(finding)
                }
                diagnostics += misplacedThemeEntries(in: path)
                for folder in folders { diagnostics += validateTheme(at: folder) }
            default:
                diagnostics.append(
                    .error(.pathNotFound, "not a theme folder or a folder of themes", at: SourceLocation(file: path)))
            }
        }
        return Self.onePerPlace(resolution.noted(Self.noting(clashes, in: diagnostics)).mergingNotes())
    }

    /// A child whose parent id is one of clashing ids cannot be resolved: that is a consequence
    /// of the clash, a note on its finding, not a finding of its own.
    static func noting(_ clashes: [String: Int], in diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !clashes.isEmpty else { return diagnostics }
        var result = diagnostics
        var dropped: Set<Int> = []
        for (index, finding) in diagnostics.enumerated()
        where finding.code == .themeDuplicate || finding.code == .parentCycle {
            // a child of the id, or a theme that took its own parent's id (a cycle of one)
            for (id, at) in clashes
            where at != index
                && (finding.message.hasPrefix(ambiguousParentPrefix(id))
                    || (finding.code == .parentCycle && finding.message.contains("'\(id)'")))
            {
                let note = Diagnostic.Note(
                    "this theme's parent is '\(id)', so it cannot be resolved until the ids differ",
                    at: finding.location)
                if !result[at].notes.contains(note) { result[at].notes.append(note) }
                dropped.insert(index)
            }
        }
        return result.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
    }

    static func ambiguousParentPrefix(_ id: String) -> String { "parent theme id '\(id)' is used by several folders" }

    /// One finding per place: findings at one location are one cause seen several ways (an
    /// operation of a class, unknown for each component that uses the class; a reference of the
    /// wrong type in a param of another type). The first in order (errors first) stands; the
    /// others become its notes.
    static func onePerPlace(_ findings: [Diagnostic]) -> [Diagnostic] {
        var result: [Diagnostic] = []
        var index: [SourceLocation: Int] = [:]
        for finding in findings {
            guard let location = finding.location else {
                result.append(finding)
                continue
            }
            if let at = index[location] {
                let note = Diagnostic.Note("also: \(finding.message)")
                if !result[at].notes.contains(note) { result[at].notes.append(note) }
            } else {
                index[location] = result.count
                result.append(finding)
            }
        }
        return result
    }

    /// Where each finding of resolution was seen, over every theme validated: a finding in a
    /// parent's file is found once per child theme and per trait set, and reported once, with
    /// the themes and trait sets in notes.
    struct ResolutionFindings {
        var themes: [Diagnostic: [String]] = [:]
        var traitSets: [Diagnostic: Set<TraitSet>] = [:]
        /// Seen in only some of the trait sets of some theme.
        var partial: Set<Diagnostic> = []

        mutating func add(_ resolver: ThemeResolver, theme: String) {
            for (diagnostic, sets) in resolver.traitSets {
                themes[diagnostic, default: []].append(FileSystem.lastComponent(of: theme))
                traitSets[diagnostic, default: []].formUnion(sets)
                if !resolver.resolvedTraitSets.isSubset(of: sets) { partial.insert(diagnostic) }
            }
        }

        func noted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
            diagnostics.map { diagnostic in
                guard let sets = traitSets[diagnostic] else { return diagnostic }
                var noted = partial.contains(diagnostic) ? ThemeResolver.noting(sets, on: diagnostic) : diagnostic
                let names = themes[diagnostic] ?? []
                if names.count > 1 {
                    noted.notes.append(Diagnostic.Note("applies to themes \(names.sorted().joined(separator: ", "))"))
                }
                return noted
            }
        }
    }

    /// The theme for every trait set it distinguishes: what the compiler stores.
    public func variants(ofThemeAt path: String) -> Checked<ThemeVariants> {
        guard let (resolver, diagnostics) = resolver(forThemeAt: path), let info = resolver.chain.last?.info else {
            return Checked(value: nil, diagnostics: loadFailure(path))
        }
        let axes = resolver.axes
        if checksContrast {
            resolver.contrast = ContrastCheck(
                schema: resolver.schema, themeID: resolver.chain.last?.info?.id ?? "", themePath: path)
        }
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        for traits in axes.traitSets { variants[traits] = resolver.resolve(traits) }
        resolver.finish()
        var all = (diagnostics + resolver.notedDiagnostics).mergingNotes()
        if all.hasErrors { all = Self.onePerPlace(all.filter { $0.code != .contrastLow }) }
        guard !all.hasErrors else { return Checked(value: nil, diagnostics: all) }
        let value = ThemeVariants(
            info: info, ancestors: resolver.chain.dropLast().compactMap(\.info), axes: axes,
            variants: variants, assets: resolver.assets)
        return Checked(value: value, diagnostics: all)
    }

    /// The theme as an app running with `traits` sees it. With `keepingWhatResolves`, a theme
    /// with errors still has a value, holding every instance and operation that resolves (for a
    /// preview of a half-fixed theme); without, errors mean no value.
    public func resolve(themeAt path: String, traits: TraitSet, keepingWhatResolves: Bool = false) -> Checked<
        ResolvedTheme
    > {
        guard let (resolver, diagnostics) = resolver(forThemeAt: path), let info = resolver.chain.last?.info else {
            return Checked(value: nil, diagnostics: loadFailure(path))
        }
        let instances = resolver.resolve(traits)
        let all = Array(Set(diagnostics + resolver.diagnostics)).sorted()
        guard !all.hasErrors || keepingWhatResolves else { return Checked(value: nil, diagnostics: all) }
        return Checked(
            value: ResolvedTheme(info: info, traits: traits, instances: instances, assets: resolver.assets),
            diagnostics: all)
    }

    /// The schema the theme is checked against: the standard one, the schema files and those its
    /// chain carries. Nil when the chain cannot be formed.
    public func schema(forThemeAt path: String) -> Schema? {
        resolver(forThemeAt: path)?.0.schema
    }

    /// The folders of the theme and its ancestors, root first.
    public func chain(ofThemeAt path: String) -> Checked<[ThemeFolder]> {
        let (chain, diagnostics) = loadChain(path)
        guard let chain, !diagnostics.hasErrors else { return Checked(value: nil, diagnostics: diagnostics) }
        let folders = chain.compactMap { theme in
            theme.info.map { ThemeFolder(info: $0, path: theme.path, sourceFiles: theme.sourceFiles) }
        }
        return Checked(value: folders, diagnostics: diagnostics)
    }

    /// The folders of the theme and of every ancestor that can be found, nearest first, whatever
    /// errors the themes have: what a watcher must watch so that fixing a parent is seen.
    public func ancestorFolders(ofThemeAt path: String) -> [String] {
        var folders = [path]
        var current = path
        while let parentID = info(at: current).0?.info.parent, folders.count <= limits.maxReferenceDepth {
            let candidates = searchFolders(for: path).flatMap(themeFolders)
            guard
                let parent = candidates.first(where: { info(at: $0).0?.info.id == parentID })
                    ?? candidates.first(where: { info(at: $0).0 == nil && claimsID(parentID, folder: $0) }),
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

    /// Whether a folder someone named explicitly is a theme rather than a folder of themes: it
    /// has a theme extension, or it holds an `Info.xml` whatever its name.
    public func isNamedTheme(_ path: String) -> Bool {
        isThemeFolder(path) || FileSystem.kind(of: FileSystem.join(path, "Info.xml")) == .file
    }

    public func isThemeFolder(_ path: String) -> Bool {
        let name = FileSystem.lastComponent(of: path)
        return themeExtensions.contains { name.hasSuffix("." + $0) }
    }

    // MARK: - Loading

    private func validateTheme(at path: String, into findings: inout ResolutionFindings) -> [Diagnostic] {
        guard let (resolver, diagnostics) = resolver(forThemeAt: path) else { return loadFailure(path) }
        if checksContrast {
            resolver.contrast = ContrastCheck(
                schema: resolver.schema, themeID: resolver.chain.last?.info?.id ?? "", themePath: path)
        }
        for traits in resolver.axes.traitSets { _ = resolver.resolve(traits) }
        resolver.finish()
        findings.add(resolver, theme: path)
        let all = diagnostics + resolver.diagnostics
        // Contrast is judged on the theme as meant: with an error, what resolves is not that
        // theme (a colour dropped, a class lost), and its contrast follows from the error.
        return all.hasErrors ? all.filter { $0.code != .contrastLow } : all
    }

    /// A resolver for the theme's chain, or nil when the chain cannot be formed; the diagnostics
    /// are those of reading the files (the resolver collects its own).
    func resolver(forThemeAt path: String) -> (ThemeResolver, [Diagnostic])? {
        let (chain, diagnostics) = loadChain(path)
        guard let chain else { return nil }
        var schema = baseSchema.value ?? StandardSchema.schema
        var schemaDiagnostics = baseSchema.diagnostics
        for theme in chain {
            for component in theme.schemaComponents { schema.add(component) }
        }
        schemaDiagnostics += SchemaIntegrity.check(schema, fallback: chain.last.map { SourceLocation(file: $0.path) })
        let resolver = ThemeResolver(chain: chain, schema: schema)
        resolver.maxReferenceDepth = limits.maxReferenceDepth
        return (resolver, diagnostics + schemaDiagnostics)
    }

    func loadFailure(_ path: String) -> [Diagnostic] {
        let (_, diagnostics) = loadChain(path)
        return diagnostics.hasErrors
            ? diagnostics.sorted()
            : diagnostics + [.error(.pathNotFound, "not a theme folder", at: SourceLocation(file: path))]
    }

    /// Drops what was read from a theme folder, so that the next operation reads it again (a
    /// tool that edits one theme keeps the others it has read).
    public func forget(themeAt path: String) {
        let key = FileSystem.canonical(path)
        themes[key] = nil
        infos[key] = nil
    }

    private func theme(at path: String) -> DecodedThemeFolder {
        let key = FileSystem.canonical(path)
        if let theme = themes[key] { return theme }
        let theme = reader.read(folder: path)
        themes[key] = theme
        return theme
    }

    private func info(at path: String) -> (InfoDecoder.Decoded?, [Diagnostic]) {
        let key = FileSystem.canonical(path)
        if let known = themes[key] { return (known.header, []) }
        if let known = infos[key] { return known }
        let result = reader.readInfo(folder: path)
        infos[key] = result
        return result
    }

    /// The theme and its ancestors, root first; nil when the chain cannot be formed (missing or
    /// cyclic parent, unreadable Info.xml). Diagnostics include every file of the chain.
    private func loadChain(_ path: String) -> ([DecodedThemeFolder]?, [Diagnostic]) {
        guard FileSystem.kind(of: path) == .directory else {
            return (nil, [.error(.pathNotFound, "no such theme folder", at: SourceLocation(file: path))])
        }
        var chain: [DecodedThemeFolder] = []
        var diagnostics: [Diagnostic] = []
        var current = theme(at: path)
        var seen: [String] = []
        while true {
            chain.insert(current, at: 0)
            diagnostics += current.diagnostics
            guard let header = current.header else { return (nil, diagnostics) }
            seen.append(header.info.id)
            guard let parentID = header.info.parent else { break }
            if seen.contains(parentID) {
                diagnostics.append(Self.cycle(closedBy: parentID, in: chain))
                return (nil, diagnostics)
            }
            let folders = searchFolders(for: path)
            let matches = folders.flatMap(themeFolders).filter { info(at: $0).0?.info.id == parentID }
            var unique: [String] = []
            for match in matches
            where !unique.contains(where: { FileSystem.canonical($0) == FileSystem.canonical(match) }) {
                unique.append(match)
            }
            guard let parentPath = unique.first else {
                let candidates = folders.flatMap(themeFolders)
                // The parent exists but its Info.xml is broken: that is the one finding, where it is.
                if let broken = candidates.first(where: { info(at: $0).0 == nil && claimsID(parentID, folder: $0) }) {
                    let infoFile = FileSystem.join(broken, "Info.xml")
                    diagnostics += theme(at: broken).diagnostics.filter { $0.location?.file == infoFile }
                    return (nil, diagnostics)
                }
                let list = folders.map { $0.hasSuffix("/") ? $0 : $0 + "/" }.joined(separator: ", ")
                // the theme itself and its descendants on the way here would make a cycle: not suggested
                let ids = candidates.compactMap { info(at: $0).0?.info.id }.filter { !seen.contains($0) }
                let (hint, fix) = Suggestions.suggest(parentID, in: ids)
                diagnostics.append(
                    .error(
                        .parentMissing,
                        "parent theme '\(parentID)' not found in: \(list)\(hint.isEmpty ? "; add its folder with --themes DIR" : hint)",
                        at: header.parentLocation, fix: fix))
                return (nil, diagnostics)
            }
            if unique.count > 1 {
                diagnostics.append(
                    .error(
                        .themeDuplicate,
                        "\(Self.ambiguousParentPrefix(parentID)): \(unique.joined(separator: ", ")); ids must be unique",
                        at: header.parentLocation))
                return (nil, diagnostics)
            }
            current = theme(at: parentPath)
        }
        return (chain, diagnostics)
    }

    /// A cycle of parents is one finding, whichever theme it is reached from: it is told from its
    /// member with the smallest id, at that theme's parent attribute, with a note at each other
    /// member's. `chain` holds the themes read so far, the one whose parent closes the cycle first.
    static func cycle(closedBy parentID: String, in chain: [DecodedThemeFolder]) -> Diagnostic {
        let headers = chain.compactMap(\.header)
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
        where !folders.contains(where: { FileSystem.canonical($0) == FileSystem.canonical(folder) }) {
            folders.append(folder)
        }
        return folders
    }

    /// Entries named like themes that are not folders: links are refused (nothing outside the
    /// searched folder is read), plain files are reported rather than skipped in silence.
    private func misplacedThemeEntries(in folder: String) -> [Diagnostic] {
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
    private func duplicateIDs(among folders: [String]) -> [(String, Diagnostic)] {
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

    /// The findings of themes in `folder` that share an id (what `validate` reports for a folder
    /// of themes): one per clashing id, with a note where the first folder has it.
    public func duplicateIDFindings(inFolder folder: String) -> [Diagnostic] {
        duplicateIDs(among: themeFolders(in: folder)).map(\.1)
    }

    private func loadSchemaFiles() -> Checked<Schema> {
        var schema = StandardSchema.schema
        var diagnostics: [Diagnostic] = []
        for file in schemaFiles {
            let loaded = SchemaFile.load(path: file)
            diagnostics += loaded.diagnostics
            if let extra = loaded.value { schema.merge(extra) }
        }
        return Checked(value: schema, diagnostics: diagnostics)
    }
}
