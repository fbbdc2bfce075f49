import Foundation
import LiveryModel

/// Knows every theme the app can use, which one is in use and the active traits; tells its
/// observers (the applicators) when either changes.
///
/// Themes are found once at start in the configured search paths, by folder extension
/// (`theme`, plus e.g. `purchasedTheme` for downloaded ones) and by compiled-file extension.
/// A theme is loaded on first use and kept; `reloadThemes()` forgets everything and looks again.
@MainActor
public final class ThemeManager {
    /// What changed, as observers are told.
    public struct Change: Hashable, Sendable {
        /// Another theme became current.
        public var theme: Bool
        /// The active traits changed.
        public var traits: Bool
        /// The display scale changed.
        public var scale: Bool
        /// Themes were reloaded: everything in use must be looked up again.
        public var reload: Bool
        /// The text scale changed (see `setTextScale(_:)`).
        public var textScale = false
    }

    /// What the manager was made from: default theme, search paths, compiled paths, store.
    public let configuration: LiveryConfiguration
    /// Every finding of discovery, loading and applying: observe it to see problems at run time.
    public let diagnostics: DiagnosticHook
    /// The themes found, by id: what discovery read (each file's header or `Info.xml`), nothing
    /// more. Free to read.
    public private(set) var themes: [String: ThemeDescriptor] = [:]
    /// The theme in use, nil until one could be activated.
    public private(set) var currentThemeID: String?
    /// The active traits: at most one value per dimension of `dimensions`.
    public internal(set) var traits: TraitSet
    /// The trait dimensions in force: the standard ones and the app's own, as its schema files
    /// declare them (a compiled theme records them: `CompiledTheme.dimensions`). Tags are read
    /// and scopes' overrides applied under these.
    public var dimensions: TraitDimensions = .standard
    /// The display scale images are picked for (1, 2, 3...).
    public private(set) var scale: Int
    /// The user's text scale, 0.5...4: every scaled font is applied at `min(size x s, max-size)`
    /// (ThemeManager+TextSize.swift).
    public internal(set) var textScale: Double = TextScale.standard
    /// The schema bindings inherit by when a binding names no parent: in development, the
    /// standard schema plus the configured schema files; empty on the release path.
    public private(set) var schema: Schema

    /// How themes are read.
    private let loaders: Loaders
    /// What was loaded and found.
    private var store = Store()
    /// Grows with every reload, so caches keyed by it never serve a stale theme.
    public private(set) var generation = 0
    private let observers = ObserverList<Change>()

    /// - Parameters:
    ///   - configuration: the default theme, the search paths and the compiled files to look for.
    ///   - folderLoader: reads `.theme` folders (the development path, `LiveryDevelopment`).
    ///   - compiledLoader: reads compiled files; used whenever one is found and not stale.
    ///   - stalenessCheck: tells a compiled file that no longer matches the folder beside it
    ///     (development only); without one, a compiled file always wins over its folder.
    ///   - schema: the component schema bindings inherit by when a binding names no parent;
    ///     empty on the release path, where bindings name their parents (`extends:`).
    ///   - traits: the trait set the manager starts with (``setTraits(_:scale:)`` changes it).
    ///   - scale: the display scale images are chosen for (1, 2 or 3).
    ///   - diagnostics: where problems found while loading and applying are reported.
    public init(
        configuration: LiveryConfiguration = LiveryConfiguration(),
        folderLoader: (any ThemeLoader)? = nil,
        compiledLoader: (any CompiledThemeLoader)? = nil,
        stalenessCheck: (any StalenessCheck)? = nil,
        schema: Schema = Schema(),
        traits: TraitSet = .none, scale: Int = 1,
        diagnostics: DiagnosticHook = DiagnosticHook()
    ) {
        self.configuration = configuration
        self.loaders = Loaders(folder: folderLoader, compiled: compiledLoader, staleness: stalenessCheck)
        self.schema = schema
        self.traits = traits
        self.scale = max(1, scale)
        self.diagnostics = diagnostics
        discoverThemes()
    }

    // MARK: Observing

    /// Calls `observer` after every change of theme, traits or scale, for as long as the token
    /// is kept: releasing it (or `cancel()`) stops the observation.
    public func observe(_ observer: @escaping @MainActor (Change) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    func notify(_ change: Change) {
        observers.notify(change)
    }

    // MARK: Switching

    /// Makes `themeID` the theme in use. On failure (unknown id, theme with errors) the
    /// previous theme stays, a finding is reported and the result is false.
    @discardableResult
    public func activate(themeID: String) -> Bool {
        guard theme(themeID) != nil else { return false }
        guard themeID != currentThemeID else { return true }
        currentThemeID = themeID
        notify(Change(theme: true, traits: false, scale: false, reload: false))
        return true
    }

    /// Changes the active traits, e.g. dark mode on, and optionally the scale, in one step:
    /// observers re-apply what changed once.
    public func setTraits(_ traits: TraitSet, scale: Int? = nil) {
        let scale = max(1, scale ?? self.scale)
        let change = Change(theme: false, traits: traits != self.traits, scale: scale != self.scale, reload: false)
        guard change.traits || change.scale else { return }
        self.traits = traits
        self.scale = scale
        notify(change)
    }

    /// Sets the active traits from tags of any dimension in force (`["dark", "rtl", "compact"]`);
    /// an unknown tag throws (`dimensions.message(for:)` words it) and changes nothing.
    public func setTraits(tags: [String], scale: Int? = nil) throws(TraitSet.TagError) {
        setTraits(try dimensions.traits(tags: tags), scale: scale)
    }

    /// Changes the display scale images are picked for.
    public func setScale(_ scale: Int) {
        setTraits(traits, scale: scale)
    }

    /// Forgets every loaded theme, discovers again and re-applies (after themes changed on
    /// disk, or a theme was downloaded).
    public func reloadThemes() {
        let previous = currentThemeID.flatMap { store.loaded[$0] }
        let previousDescriptor = currentThemeID.flatMap { themes[$0] }
        store.loaded = store.inMemory
        generation += 1
        loaders.folder?.forgetCachedReads()
        loaders.compiled?.forgetCachedReads()
        discoverThemes()
        if let current = currentThemeID, theme(current) == nil {
            // The theme on screen is still there but no longer loads (a save with errors, a file
            // caught mid-write): keep showing its last good version, never a blank screen. The
            // failure was reported by `theme(_:)`. A theme that is gone altogether is dropped.
            let stillThere = [previousDescriptor?.folder, previousDescriptor?.compiledFile].contains { path in
                path.map { FileManager.default.fileExists(atPath: $0) } ?? false
            }
            if let previous, let previousDescriptor, stillThere {
                themes[current] = previousDescriptor
                store.loaded[current] = previous
            } else {
                currentThemeID = nil
            }
        }
        notify(Change(theme: true, traits: false, scale: false, reload: true))
    }

    // MARK: Themes

    /// Adds a theme held in memory (tests, generated themes). It replaces a discovered theme
    /// with the same id.
    public func add(_ theme: LoadedTheme) {
        store.inMemory[theme.info.id] = theme
        themes[theme.info.id] = ThemeDescriptor(info: theme.info)
        store.loaded[theme.info.id] = theme
        generation += 1
        if theme.info.id == currentThemeID {
            notify(Change(theme: true, traits: false, scale: false, reload: true))
        }
    }

    /// The theme with its variants, loading it on first use. Nil, with a finding, when it
    /// cannot be loaded. Cheap for a compiled file: the first call maps it and checks its
    /// structure (not its instances), later calls return what was loaded. A theme folder (in
    /// development) is parsed and resolved on the first call.
    public func theme(_ id: String) -> LoadedTheme? {
        if let theme = store.loaded[id] { return theme }
        guard let descriptor = themes[id] else {
            var reason = "no theme with this id was found in \(configuration.searchPaths + configuration.compiledPaths)"
            if !store.skippedFolders.isEmpty {
                let shown =
                    store.skippedFolders.prefix(3).joined(separator: ", ")
                    + (store.skippedFolders.count > 3 ? " and \(store.skippedFolders.count - 3) more" : "")
                reason +=
                    "; \(store.skippedFolders.count) theme folder\(store.skippedFolders.count == 1 ? " was" : "s were") found and skipped (\(shown)): "
                    + "this manager reads compiled files only; reading folders needs LiveryDevelopment (ThemeManager.development(configuration:)), "
                    + "or compile them with livery compile"
            }
            unavailable(id, reason)
            return nil
        }
        let result = load(descriptor)
        for diagnostic in result.diagnostics {
            diagnostics.report(diagnostic, finding: .load(generation: generation, source: id, diagnostic))
        }
        guard let theme = result.value, !result.diagnostics.hasErrors else {
            unavailable(id, "it has errors (see the findings before this one)")
            return nil
        }
        store.loaded[id] = theme
        return theme
    }

    /// Builds the theme in use, resolved for the active traits, as model values: every instance
    /// of every trait set of a compiled file is read and checked, once per theme and reload
    /// (`LoadedTheme.buildVariants()`). That costs time and memory in proportion to the theme's
    /// size (milliseconds for a theme of thousands of instances, several times a whole launch),
    /// where `themes` is free and `theme(_:)` maps the file without reading instances. For tools,
    /// inspectors and tests; styling never needs it. A damaged compiled file gives nil and is
    /// reported (`runtime-compiled-corrupt`, with the file), never an empty theme.
    public func buildCurrentTheme() -> ResolvedTheme? {
        currentThemeID.flatMap { buildResolvedTheme(themeID: $0, traits: traits) }
    }

    /// Builds one theme resolved for `traits`, at the cost `buildCurrentTheme()` describes.
    public func buildResolvedTheme(themeID: String, traits: TraitSet) -> ResolvedTheme? {
        guard let loaded = theme(themeID) else { return nil }
        do {
            return try loaded.buildVariants().resolved(for: traits)
        } catch {
            let file = loaded.compiledFile?.path ?? themes[themeID]?.compiledFile
            diagnostics.report(
                .error(
                    .runtimeCompiledCorrupt,
                    "the compiled theme file is damaged (\(error.description)); theme '\(themeID)' cannot be read whole; recompile or reinstall it",
                    at: file.map { SourceLocation(file: $0) }),
                finding: .corruptFile(file ?? themeID, offset: error.offset))
            return nil
        }
    }

    /// The theme in use resolved for the active traits: `buildCurrentTheme()`, which says what it costs.
    @available(*, deprecated, renamed: "buildCurrentTheme()")
    public var currentTheme: ResolvedTheme? { buildCurrentTheme() }

    /// A theme resolved for `traits`: `buildResolvedTheme(themeID:traits:)`, which says what it costs.
    @available(*, deprecated, renamed: "buildResolvedTheme(themeID:traits:)")
    public func resolvedTheme(themeID: String, traits: TraitSet) -> ResolvedTheme? {
        buildResolvedTheme(themeID: themeID, traits: traits)
    }

    /// The one rule deciding semantics: a compiled file wins unless the staleness check (in
    /// development) finds it out of date with its sources; otherwise the folder. Never both: the result comes from exactly one loader. A
    /// compiled file that is stale or cannot be read is reported (once per reload) and the
    /// folder is loaded instead, so a broken cache never takes a theme away.
    private func load(_ descriptor: ThemeDescriptor) -> Checked<LoadedTheme> {
        let paths = configuration.searchPaths
        let schemas = configuration.schemaFiles
        let canFallBack = descriptor.folder != nil && loaders.folder != nil
        if let compiled = descriptor.compiledFile, let compiledLoader = loaders.compiled {
            let stale = descriptor.folder.flatMap { folder in
                loaders.staleness?.staleness(
                    ofCompiledFile: compiled, source: folder, searchPaths: paths, schemaFiles: schemas)
            }
            if let stale {
                diagnostics.report(
                    .warning(
                        .runtimeCompiledStale,
                        "the compiled theme file is out of date with its sources (\(stale)); the folder \(descriptor.folder ?? "") is loaded instead; recompile it to ship the change",
                        at: SourceLocation(file: compiled)),
                    finding: .stale(generation: generation, file: compiled))
            } else {
                let result = compiledLoader.load(descriptor, searchPaths: paths, schemaFiles: schemas)
                if !canFallBack || (result.value != nil && !result.diagnostics.hasErrors) { return result }
                // Keep what the compiled loader found (why the file is unusable), then fall back.
                for diagnostic in result.diagnostics {
                    diagnostics.report(diagnostic, finding: .load(generation: generation, source: compiled, diagnostic))
                }
            }
        }
        if descriptor.folder != nil, let folderLoader = loaders.folder {
            return folderLoader.load(descriptor, searchPaths: paths, schemaFiles: schemas)
        }
        return Checked(
            value: nil,
            diagnostics: [
                .error(.runtimeThemeUnavailable, "no loader can read \(descriptor.location)", at: nil)
            ])
    }

    private func unavailable(_ id: String, _ reason: String) {
        diagnostics.report(
            .error(
                .runtimeThemeUnavailable, "theme '\(id)' is unavailable: \(reason); the theme in use stays", at: nil),
            finding: .unavailableTheme(generation: generation, themeID: id))
    }

    // MARK: Discovery

    /// Finds theme folders and compiled files in the search paths. The first search path that
    /// holds an id wins; later duplicates are reported and ignored.
    private func discoverThemes() {
        var found: [String: ThemeDescriptor] = [:]
        store.skippedFolders = []
        let folderExtensions = Set(configuration.themeExtensions.map { $0.lowercased() })
        // Search paths hold theme folders and compiled files (`Dark.livery` beside `Dark.theme`);
        // compiled paths (a cache folder) hold compiled files only. Pairing is by theme id.
        let places = configuration.searchPaths.map { ($0, true) } + configuration.compiledPaths.map { ($0, false) }
        for (searchPath, holdsFolders) in places {
            guard let entries = DirectoryListing.entries(of: searchPath) else {
                diagnostics.report(
                    .warning(.runtimeConfiguration, "theme search path \(searchPath) cannot be read", at: nil),
                    finding: .unreadableSearchPath(generation: generation, path: searchPath))
                continue
            }
            for entry in entries {
                let path = searchPath + "/" + entry.name
                let fileExtension = entry.pathExtension.lowercased()
                if holdsFolders, entry.isFolder, folderExtensions.contains(fileExtension) {
                    guard let folderLoader = loaders.folder else {
                        store.skippedFolders.append(path)
                        continue
                    }
                    record(
                        folderLoader.info(at: path, searchPaths: configuration.searchPaths), path: path,
                        compiled: false, into: &found)
                } else if !entry.isFolder, let compiledLoader = loaders.compiled,
                    fileExtension == compiledLoader.fileExtension.lowercased()
                {
                    record(
                        compiledLoader.info(at: path, searchPaths: configuration.searchPaths), path: path,
                        compiled: true, into: &found)
                }
            }
        }
        for (id, theme) in store.inMemory { found[id] = ThemeDescriptor(info: theme.info) }
        themes = found
        if currentThemeID == nil, let id = configuration.defaultThemeID, theme(id) != nil {
            currentThemeID = id
        }
    }

    private func record(
        _ result: Checked<ThemeInfo>, path: String, compiled: Bool,
        into found: inout [String: ThemeDescriptor]
    ) {
        for diagnostic in result.diagnostics {
            diagnostics.report(diagnostic, finding: .info(generation: generation, path: path, diagnostic))
        }
        guard let info = result.value else { return }
        var descriptor = found[info.id] ?? ThemeDescriptor(info: info)
        let slotTaken = compiled ? descriptor.compiledFile != nil : descriptor.folder != nil
        if slotTaken {
            diagnostics.report(
                .warning(
                    .runtimeThemeUnavailable,
                    "theme id '\(info.id)' at \(path) is already used by \(descriptor.location); this one is ignored",
                    at: nil),
                finding: .duplicateTheme(generation: generation, path: path))
            return
        }
        if compiled {
            descriptor.compiledFile = path
        } else {
            descriptor.folder = path
            descriptor.info = info  // the source's Info.xml is the authority for the catalogue
        }
        found[info.id] = descriptor
    }
}

extension ThemeManager {
    /// The ways a manager reads themes.
    fileprivate struct Loaders {
        /// Reads `.theme` folders (development only).
        let folder: (any ThemeLoader)?
        /// Reads compiled files.
        let compiled: (any CompiledThemeLoader)?
        /// Tells a compiled file that no longer matches its folder (development only).
        let staleness: (any StalenessCheck)?
    }

    /// The themes a manager loaded or was given, and what discovery skipped.
    fileprivate struct Store {
        /// Themes added in memory (`add(_:)`), kept across reloads.
        var inMemory: [String: LoadedTheme] = [:]
        /// Every theme loaded so far, by id.
        var loaded: [String: LoadedTheme] = [:]
        /// `.theme` folders discovery found but has no loader for (a release manager reads
        /// compiled files only), for the message that says why a theme id was not found.
        var skippedFolders: [String] = []
    }
}
