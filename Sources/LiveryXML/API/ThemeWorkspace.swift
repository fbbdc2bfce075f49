import Foundation
import LiveryModel

/// A theme folder as found on disk: what discovery, compiled-file digests and tools need.
public struct ThemeFolder: Hashable, Sendable {
    public var info: ThemeInfo
    public var path: String
    /// Relative paths of the theme's own files, sorted: Info.xml, configuration and schema files, assets.
    public var sourceFiles: [String]
}

/// The themes the engine can see (folders on search paths) and the schema they are checked
/// against: the entry point of the XML front end.
///
/// Work is done once per workspace: a folder is read and decoded once, the theme ids of each
/// search folder are indexed once, and what a parent contributes to its children (the schema,
/// the schema checks of its operations) is worked out once however many children share it.
/// `forget(themeAt:)` drops what was read from a folder and everything worked out from it.
///
/// Safe to share between threads: the caches are behind a lock, folders are read outside it,
/// and what is shared once read (decoded folders) is immutable.
public final class ThemeWorkspace: @unchecked Sendable {
    public let searchPaths: [String]
    public let themeExtensions: [String]
    public let limits: FrontEndLimits
    private let schemaFiles: [String]
    /// Interned operation identities, shared by every folder read, whichever thread reads it.
    private let identities = IdentityTable()
    private let lock = NSLock()
    /// Everything below is read and written under `lock`.
    private var themes: [String: DecodedThemeFolder] = [:]
    private var infos: [String: (InfoDecoder.Decoded?, [Diagnostic])] = [:]
    /// Theme folders of each searched folder, by canonical path: listed once, not per lookup.
    private var indexes: [String: SearchFolderIndex] = [:]
    private var canonicalPaths: [String: String] = [:]
    /// The next serial a folder's operations are moved to (`DecodedThemeFolder.rebase`).
    private var nextSerial = 0
    private var loadedBaseSchema: Base?
    /// What the schema files given to the workspace declare.
    private struct Base {
        var schema: Checked<Schema>
        var dimensions: TraitDimensions
        /// The declarations of the app-defined ones of `dimensions`.
        var declarations: [DimensionDeclaration]
    }
    /// By the canonical paths of the chain's folders that carry components.
    private var schemas: [[String]: SharedSchema] = [:]
    private var checksContrastValue = true
    /// Whether `validate` and `variants` run the contrast checks (format 1.1, 7.3). An app that
    /// loads themes at run time turns them off: they are for review, and cost launch time.
    public var checksContrast: Bool {
        get { locked { checksContrastValue } }
        set { locked { checksContrastValue = newValue } }
    }
    /// Unsaved contents read instead of the files on disk (a language server's open buffers).
    public let overlay: SourceOverlay?
    /// Whether resolutions of instances are reused across trait sets (`ResolutionMemo`); off only
    /// to check that reusing changes nothing.
    var reusesResolutions = true

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
        self.overlay = overlay
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: - Public operations

    /// Checks theme folders, or folders of theme folders, for every trait set. Findings are
    /// deduplicated and sorted by place. `progress` hears (themes done, themes in all, the theme
    /// about to be checked) before each theme, for a progress line on a terminal.
    ///
    /// `jobs` themes are checked at a time, on as many threads; the findings are the same, in the
    /// same order, whatever `jobs` is (`progress` may then be called from any of the threads,
    /// one call at a time).
    ///
    /// With `kept`, a theme's own check is taken from it when it holds one, and kept there
    /// otherwise: a tool that checks again after an edit marks stale there the themes the edit
    /// may change, and the findings are still those of checking every theme.
    public func validate(
        paths: [String], jobs: Int = 1, reusing kept: ThemeChecks? = nil,
        progress: ((Int, Int, String) -> Void)? = nil
    ) -> [Diagnostic] {
        /// What the serial walk finds, in order: findings of the walk itself, and themes to check.
        enum Step {
            case found([Diagnostic])
            case clash(String, Diagnostic)
            case theme(String)
        }
        var steps: [Step] = []
        for path in paths {
            switch FileSystem.kind(of: path) {
            case .missing:
                steps.append(.found([.error(.pathNotFound, "no such file or folder", at: SourceLocation(file: path))]))
            case .directory where isNamedTheme(path):
                steps.append(.theme(path))
            case .directory:
                let folders = themeFolders(in: path)
                if folders.isEmpty {
                    steps.append(
                        .found([
                            .error(
                                .noThemes,
                                "no theme folders (\(themeExtensions.map { "*.\($0)" }.joined(separator: ", "))) here",
                                at: SourceLocation(file: path))
                        ]))
                }
                for (id, finding) in duplicateIDs(among: folders) { steps.append(.clash(id, finding)) }
                steps.append(.found(misplacedThemeEntries(in: path)))
                for folder in folders { steps.append(.theme(folder)) }
            default:
                steps.append(
                    .found([
                        .error(
                            .pathNotFound, "not a theme folder or a folder of themes", at: SourceLocation(file: path))
                    ]))
            }
        }
        let themePaths = steps.compactMap { step -> String? in
            if case .theme(let path) = step { return path }
            return nil
        }
        let progressLock = NSLock()
        var done = 0
        let checked = ParallelMap.map(themePaths.count, jobs: jobs) { index -> ThemeValidation in
            if let progress {
                progressLock.lock()
                progress(done, themePaths.count, themePaths[index])
                done += 1
                progressLock.unlock()
            }
            guard let kept else { return self.validateTheme(at: themePaths[index]) }
            return kept.validation(of: themePaths[index]) { self.validateTheme(at: themePaths[index]) }
        }
        var diagnostics: [Diagnostic] = []
        var resolution = ResolutionFindings()
        /// Clashing theme ids, to the index of their finding.
        var clashes: [String: Int] = [:]
        var next = 0
        for step in steps {
            switch step {
            case .found(let found):
                diagnostics += found
            case .clash(let id, let finding):
                guard clashes[id] == nil else { continue }
                clashes[id] = diagnostics.count
                diagnostics.append(finding)
            case .theme(let path):
                let result = checked[next]
                next += 1
                if let findings = result.findings { resolution.add(findings, theme: path) }
                diagnostics += result.diagnostics
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

    /// What one theme's check found, kept until the findings of every theme are put in order.
    struct ThemeValidation {
        var diagnostics: [Diagnostic]
        /// Nil when the theme's chain could not be formed.
        var findings: TraitSetFindings?
    }

    /// The trait sets each finding of one theme's resolution was seen with, and those resolved.
    struct TraitSetFindings {
        var traitSets: [Diagnostic: Set<TraitSet>]
        var resolved: Set<TraitSet>
        /// The dimensions of the theme's chain, which name its trait sets.
        var dimensions: TraitDimensions = .standard
    }

    /// Where each finding of resolution was seen, over every theme validated: a finding in a
    /// parent's file is found once per child theme and per trait set, and reported once, with
    /// the themes and trait sets in notes.
    struct ResolutionFindings {
        var themes: [Diagnostic: [String]] = [:]
        var traitSets: [Diagnostic: Set<TraitSet>] = [:]
        /// The dimensions the trait sets of each finding are named with (its first theme's).
        var dimensions: [Diagnostic: TraitDimensions] = [:]
        /// Seen in only some of the trait sets of some theme.
        var partial: Set<Diagnostic> = []

        mutating func add(_ findings: TraitSetFindings, theme: String) {
            for (diagnostic, sets) in findings.traitSets {
                themes[diagnostic, default: []].append(FileSystem.lastComponent(of: theme))
                traitSets[diagnostic, default: []].formUnion(sets)
                if dimensions[diagnostic] == nil { dimensions[diagnostic] = findings.dimensions }
                if !findings.resolved.isSubset(of: sets) { partial.insert(diagnostic) }
            }
        }

        func noted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
            diagnostics.map { diagnostic in
                guard let sets = traitSets[diagnostic] else { return diagnostic }
                var noted =
                    partial.contains(diagnostic)
                    ? ThemeResolver.noting(sets, on: diagnostic, dimensions: dimensions[diagnostic] ?? .standard)
                    : diagnostic
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
        guard let resolution = resolution(ofThemeAt: path), let value = resolution.variants else {
            return Checked(value: nil, diagnostics: loadFailure(path))
        }
        var all = (resolution.loadDiagnostics + resolution.notedDiagnostics).mergingNotes()
        if all.hasErrors { all = Self.onePerPlace(all.filter { $0.code != .contrastLow }) }
        guard !all.hasErrors else { return Checked(value: nil, diagnostics: all) }
        return Checked(value: value, diagnostics: all)
    }

    /// A theme resolved for every trait set it distinguishes, with what resolving it found:
    /// what `validate`, `variants` and so `compile` and its proof all start from.
    struct Resolution {
        /// Reading the chain's files and building its schema.
        var loadDiagnostics: [Diagnostic]
        var resolverDiagnostics: [Diagnostic]
        /// `resolverDiagnostics` with the trait sets of partial findings in notes.
        var notedDiagnostics: [Diagnostic]
        var findings: TraitSetFindings
        /// Nil when the theme's Info.xml cannot be read.
        var variants: ThemeVariants?
    }

    /// The last few themes resolved, so that a tool that validates, compiles and proves one
    /// theme resolves it once (`recentCapacity` of them: the themes in flight, not every theme).
    private var recent: [(key: String, contrast: Bool, chain: [String], resolution: Resolution)] = []
    private let recentCapacity = 16

    func resolution(ofThemeAt path: String) -> Resolution? {
        let key = canonical(path)
        let contrast = checksContrast
        if let known = locked({ recent.first { $0.key == key && $0.contrast == contrast }?.resolution }) {
            return known
        }
        guard let (resolver, diagnostics) = resolver(forThemeAt: path) else { return nil }
        if contrast {
            resolver.contrast = ContrastCheck(
                schema: resolver.schema, themeID: resolver.chain.last?.info?.id ?? "", themePath: path)
            resolver.contrast?.dimensions = resolver.dimensions
        }
        let axes = resolver.axes
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        let choiceConstants = Self.overridableConstants(of: resolver.chain)
        resolver.collectsChoices = !choiceConstants.isEmpty
        for traits in axes.traitSets { variants[traits] = resolver.resolve(traits) }
        resolver.finish()
        let resolution = Resolution(
            loadDiagnostics: diagnostics, resolverDiagnostics: resolver.diagnostics,
            notedDiagnostics: resolver.notedDiagnostics,
            findings: TraitSetFindings(
                traitSets: resolver.traitSets, resolved: resolver.resolvedTraitSets, dimensions: resolver.dimensions),
            variants: resolver.chain.last?.info.map { info in
                ThemeVariants(
                    info: info, ancestors: resolver.chain.dropLast().compactMap(\.info), axes: axes,
                    variants: variants, assets: resolver.assets, dimensions: resolver.dimensions,
                    choices: ChoiceTable(
                        constants: choiceConstants.map { ChoiceConstant(name: $0.name, type: $0.type) },
                        uses: resolver.choiceUses))
            })
        let chain = resolver.chain.map { canonical($0.path) }
        locked {
            recent.removeAll { $0.key == key && $0.contrast == contrast }
            if recent.count >= recentCapacity { recent.removeFirst() }
            recent.append((key, contrast, chain, resolution))
        }
        return resolution
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
            value: ResolvedTheme(
                info: info, traits: traits, instances: instances, assets: resolver.assets,
                dimensions: resolver.dimensions),
            diagnostics: all)
    }

    /// The trait dimensions of the theme: the standard ones, then those the schema files and the
    /// schema files of its chain declare (format 1.3, section 10). The standard ones alone when
    /// the chain cannot be formed.
    public func dimensions(forThemeAt path: String) -> TraitDimensions {
        loadChain(path).0?.last?.dimensions ?? baseDimensions
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

    /// The id and the parent id the theme's `Info.xml` gives, or nil when it cannot be read.
    public func declaredIDs(ofThemeAt path: String) -> (id: String, parent: String?)? {
        info(at: path).0.map { ($0.info.id, $0.info.parent) }
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

    // MARK: - Loading

    private func validateTheme(at path: String) -> ThemeValidation {
        guard let resolution = resolution(ofThemeAt: path) else {
            return ThemeValidation(diagnostics: loadFailure(path), findings: nil)
        }
        let all = resolution.loadDiagnostics + resolution.resolverDiagnostics
        // Contrast is judged on the theme as meant: with an error, what resolves is not that
        // theme (a colour dropped, a class lost), and its contrast follows from the error.
        return ThemeValidation(
            diagnostics: all.hasErrors ? all.filter { $0.code != .contrastLow } : all,
            findings: resolution.findings)
    }

    /// A resolver for the theme's chain, or nil when the chain cannot be formed; the diagnostics
    /// are those of reading the files (the resolver collects its own).
    func resolver(forThemeAt path: String) -> (ThemeResolver, [Diagnostic])? {
        let (chain, diagnostics) = loadChain(path)
        guard let chain else { return nil }
        let (schema, schemaDiagnostics) = schema(of: chain)
        let resolver = ThemeResolver(chain: chain, schema: schema, reusingResolutions: reusesResolutions)
        resolver.maxReferenceDepth = limits.maxReferenceDepth
        resolver.definitionBelow = { [weak self] name, reference in self?.definition(of: name, referencedAt: reference)
        }
        return (resolver, diagnostics + schemaDiagnostics)
    }

    /// The schema a chain is checked against and the findings of its integrity check, worked
    /// out once per set of folders that carry components (usually the root alone), not once per
    /// child: adding a component rebuilds the schema's tables.
    private func schema(of chain: [DecodedThemeFolder]) -> (Schema, [Diagnostic]) {
        let carriers = chain.filter { !$0.schemaComponents.isEmpty }
        let key = carriers.map { canonical($0.path) }
        if let known = locked({ schemas[key] }) {
            return (known.schema, known.findings ?? integrity(of: known.schema, chain: chain))
        }
        let baseSchema = self.baseSchema
        var schema = baseSchema.value ?? StandardSchema.schema
        for theme in carriers {
            for component in theme.schemaComponents { schema.add(component) }
        }
        // Findings at a component's own place are the same for every chain; one that falls back
        // to the theme's folder is worked out per theme.
        var findings: [Diagnostic]? = baseSchema.diagnostics + SchemaIntegrity.check(schema, fallback: nil)
        if findings!.contains(where: { $0.location == nil }) { findings = nil }
        let known = SharedSchema(schema: schema, findings: findings)
        locked { schemas[key] = known }
        return (schema, findings ?? integrity(of: schema, chain: chain))
    }

    private func integrity(of schema: Schema, chain: [DecodedThemeFolder]) -> [Diagnostic] {
        baseSchema.diagnostics
            + SchemaIntegrity.check(schema, fallback: chain.last.map { SourceLocation(file: $0.path) })
    }

    struct SharedSchema {
        var schema: Schema
        /// Nil when a finding has no place of its own (see `schema(of:)`).
        var findings: [Diagnostic]?
    }

    func loadFailure(_ path: String) -> [Diagnostic] {
        let (_, diagnostics) = loadChain(path)
        return diagnostics.hasErrors
            ? diagnostics.sorted()
            : diagnostics + [.error(.pathNotFound, "not a theme folder", at: SourceLocation(file: path))]
    }

    /// Drops what was read from a theme folder that may have changed, so that the next operation
    /// reads it again (a tool that edits one theme keeps the others it has read). What was worked
    /// out from the folder goes too: its entry in the index of the folder holding it is read
    /// again (its id may have changed, or the folder be new or gone), and the schema of every
    /// chain it is in is built again. Children are resolved from their parents' folders each
    /// time, so forgetting a parent is seen by all of them.
    public func forget(themeAt path: String) {
        let folder = FileSystem.parent(of: path)
        let entry = indexEntry(forThemeAt: path, readingAgain: true)
        locked {
            canonicalPaths[path] = nil
            dropLocked(canonicalLocked(path))
            let folderKey = canonicalLocked(folder)
            indexes[folderKey]?.remove(path: path)
            if let entry { indexes[folderKey]?.insert(entry) }
        }
    }

    /// Drops what was read from a theme folder that has not changed, so that a tool going
    /// through many themes holds only those in flight: the next operation on it reads it again.
    /// Unlike `forget(themeAt:)`, the index of the folder holding it stays as it is (a build
    /// with nothing to do reads no file twice).
    public func release(themeAt path: String) {
        locked { dropLocked(canonicalLocked(path)) }
    }

    private func dropLocked(_ key: String) {
        themes[key] = nil
        infos[key] = nil
        schemas = schemas.filter { !$0.key.contains(key) }
        recent.removeAll { $0.chain.contains(key) }
    }

    /// `FileSystem.canonical`, remembered: it stats every component of the path.
    func canonical(_ path: String) -> String {
        if let known = locked({ canonicalPaths[path] }) { return known }
        let key = FileSystem.canonical(path)
        locked { canonicalPaths[path] = key }
        return key
    }

    private func canonicalLocked(_ path: String) -> String {
        if let known = canonicalPaths[path] { return known }
        let key = FileSystem.canonical(path)
        canonicalPaths[path] = key
        return key
    }

    /// A reader for one folder: the shared operation identities, the editor's unsaved buffers.
    private func folderReader() -> ThemeFolderReader {
        var reader = ThemeFolderReader(limits: limits)
        reader.identities = identities
        reader.overlay = overlay
        return reader
    }

    /// The folder read with the dimensions `inherited` from its ancestors; with nil, as it was
    /// last read (for what does not depend on them: its header, its constants).
    private func theme(
        at path: String, inherited: TraitDimensions? = nil, known: [DimensionDeclaration] = []
    ) -> DecodedThemeFolder {
        let key = canonical(path)
        func fits(_ theme: DecodedThemeFolder) -> Bool { inherited.map { theme.inherited == $0 } ?? true }
        if let theme = locked({ themes[key] }), fits(theme) { return theme }
        // Read outside the lock, so other threads read other folders meanwhile; the first
        // folder kept wins if two threads read the same one.
        var reader = folderReader()
        let read =
            inherited.map { reader.read(folder: path, inherited: $0, known: known) }
            ?? reader.read(folder: path, inherited: baseDimensions, known: loadedBase.declarations)
        return locked {
            if let theme = themes[key], fits(theme) { return theme }
            read.rebase(by: nextSerial)
            nextSerial = read.serials.upperBound
            themes[key] = read
            return read
        }
    }

    private func info(at path: String) -> (InfoDecoder.Decoded?, [Diagnostic]) {
        let key = canonical(path)
        if let known = locked({ themes[key].map { ($0.header, [Diagnostic]()) } ?? infos[key] }) { return known }
        let result = folderReader().readInfo(folder: path)
        return locked {
            if let known = infos[key] { return known }
            infos[key] = result
            return result
        }
    }

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
    private func indexEntry(forThemeAt path: String, readingAgain: Bool = false) -> SearchFolderIndex.Entry? {
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
    private func definition(of name: String, referencedAt reference: SourceLocation) -> ThemeResolver.ConstantBelow? {
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

    private var baseSchema: Checked<Schema> { loadedBase.schema }

    /// The standard dimensions and those the schema files given to the workspace declare.
    private var baseDimensions: TraitDimensions { loadedBase.dimensions }

    /// The standard dimensions and those the workspace's schema files declare: the dimensions of
    /// a theme whose chain declares none.
    public var schemaDimensions: TraitDimensions { baseDimensions }

    private var loadedBase: Base {
        if let loaded = locked({ loadedBaseSchema }) { return loaded }
        let loaded = loadSchemaFiles()
        return locked {
            if let known = loadedBaseSchema { return known }
            loadedBaseSchema = loaded
            return loaded
        }
    }

    /// The findings of themes in `folder` that share an id (what `validate` reports for a folder
    /// of themes): one per clashing id, with a note where the first folder has it.
    public func duplicateIDFindings(inFolder folder: String) -> [Diagnostic] {
        duplicateIDs(among: themeFolders(in: folder)).map(\.1)
    }

    private func loadSchemaFiles() -> Base {
        var schema = StandardSchema.schema
        var diagnostics: [Diagnostic] = []
        for file in schemaFiles {
            let loaded = SchemaFile.load(path: file)
            diagnostics += loaded.diagnostics
            if let extra = loaded.value { schema.merge(extra) }
        }
        let (dimensions, refusals) = TraitDimensions.standard.adding(schema.dimensions)
        let refused = Set(refusals.map(\.declaration))
        return Base(
            schema: Checked(value: schema, diagnostics: diagnostics + refusals.map(DimensionFindings.finding)),
            dimensions: dimensions, declarations: schema.dimensions.filter { !refused.contains($0) })
    }
}
