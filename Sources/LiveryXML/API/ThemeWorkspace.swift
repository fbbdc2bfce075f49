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
    let schemaFiles: [String]
    /// Interned operation identities, shared by every folder read, whichever thread reads it.
    let identities = IdentityTable()
    private let lock = NSLock()
    /// Everything below is read and written under `lock`.
    var themes: [String: DecodedThemeFolder] = [:]
    var infos: [String: (InfoDecoder.Decoded?, [Diagnostic])] = [:]
    /// Theme folders of each searched folder, by canonical path: listed once, not per lookup.
    var indexes: [String: SearchFolderIndex] = [:]
    var canonicalPaths: [String: String] = [:]
    /// The next serial a folder's operations are moved to (`DecodedThemeFolder.rebase`).
    var nextSerial = 0
    var loadedBaseSchema: Base?
    /// By the canonical paths of the chain's folders that carry components.
    var schemas: [[String]: SharedSchema] = [:]
    private var checksContrastValue = true
    /// Whether `validate` and `variants` run the contrast checks (format 1.1, 7.3). An app that
    /// loads themes at run time turns them off: they are for review, and cost launch time.
    public var checksContrast: Bool {
        get { locked { checksContrastValue } }
        set { locked { checksContrastValue = newValue } }
    }
    private var collectsChoicesValue = true
    /// Whether resolutions record what the theme's personal choices change (format 1.3, 9.2),
    /// which the compiler stores; without, their variants have no personal choices. A run that
    /// only validates turns it off: nothing it reports depends on them (bench-brands.py,
    /// validate).
    public var collectsChoices: Bool {
        get { locked { collectsChoicesValue } }
        set { locked { collectsChoicesValue = newValue } }
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

    func locked<T>(_ body: () throws -> T) rethrows -> T {
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
            // Only the last themes' resolutions can be reused after the run: each theme's
            // resolution pushes an earlier one out of `recent` (bench-brands.py, validate).
            let keeping = index >= themePaths.count - self.recentCapacity
            guard let kept else { return self.validateTheme(at: themePaths[index], keeping: keeping) }
            return kept.validation(of: themePaths[index]) {
                self.validateTheme(at: themePaths[index], keeping: keeping)
            }
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
        /// Nil when the theme's Info.xml cannot be read, and in a resolution made for its
        /// findings alone (one not kept: see `resolution(ofThemeAt:keeping:)`).
        var variants: ThemeVariants?
    }

    /// The last few themes resolved, so that a tool that validates, compiles and proves one
    /// theme resolves it once (`recentCapacity` of them: the themes in flight, not every theme).
    var recent: [(key: String, checks: Checks, chain: [String], resolution: Resolution)] = []
    /// What a resolution was made with: the contrast checks, the personal choices recorded.
    struct Checks: Equatable {
        var contrast: Bool
        var choices: Bool
    }
    let recentCapacity = 16

    /// The theme's resolution, from `recent` when it is there. A new one is put there when
    /// `keeping` (the oldest then leaves, and is destroyed outside the lock); without, it is made
    /// for its findings alone, with no variants (bench-brands.py, validate).
    func resolution(ofThemeAt path: String, keeping: Bool = true) -> Resolution? {
        let key = canonical(path)
        let checks = locked { Checks(contrast: checksContrastValue, choices: collectsChoicesValue) }
        if let known = locked({ recent.first { $0.key == key && $0.checks == checks }?.resolution }) {
            return known
        }
        guard let (resolver, diagnostics) = resolver(forThemeAt: path) else { return nil }
        if checks.contrast {
            resolver.contrast = ContrastCheck(
                schema: resolver.schema, themeID: resolver.chain.last?.info?.id ?? "", themePath: path)
            resolver.contrast?.dimensions = resolver.dimensions
        }
        let axes = resolver.axes
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        // Personal choices go only into variants: a resolution not kept has none to record.
        let choiceConstants = checks.choices && keeping ? Self.overridableConstants(of: resolver.chain) : []
        resolver.collectsChoices = !choiceConstants.isEmpty
        for traits in axes.traitSets {
            let instances = resolver.resolve(traits, collecting: keeping)
            if keeping { variants[traits] = instances }
        }
        resolver.finish()
        let resolution = Resolution(
            loadDiagnostics: diagnostics, resolverDiagnostics: resolver.diagnostics,
            notedDiagnostics: resolver.notedDiagnostics,
            findings: TraitSetFindings(
                traitSets: resolver.traitSets, resolved: resolver.resolvedTraitSets, dimensions: resolver.dimensions),
            variants: !keeping
                ? nil
                : resolver.chain.last?.info.map { info in
                    ThemeVariants(
                        info: info, ancestors: resolver.chain.dropLast().compactMap(\.info), axes: axes,
                        variants: variants, assets: resolver.assets, dimensions: resolver.dimensions,
                        choices: ChoiceTable(
                            constants: choiceConstants.map { ChoiceConstant(name: $0.name, type: $0.type) },
                            uses: resolver.choiceUses))
                })
        guard keeping else { return resolution }
        let chain = resolver.chain.map { canonical($0.path) }
        // What leaves `recent` is returned, to be destroyed once the lock is released.
        _ = locked {
            var left = recent.filter { $0.key == key && $0.checks == checks }
            recent.removeAll { $0.key == key && $0.checks == checks }
            if recent.count >= recentCapacity { left.append(recent.removeFirst()) }
            recent.append((key, checks, chain, resolution))
            return left
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

    /// The id and the parent id the theme's `Info.xml` gives, or nil when it cannot be read.
    public func declaredIDs(ofThemeAt path: String) -> (id: String, parent: String?)? {
        info(at: path).0.map { ($0.info.id, $0.info.parent) }
    }

    // MARK: - Loading

    private func validateTheme(at path: String, keeping: Bool) -> ThemeValidation {
        guard let resolution = resolution(ofThemeAt: path, keeping: keeping) else {
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
}
