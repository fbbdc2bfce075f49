import Foundation
import LiveryBinary
import LiveryModel

/// A theme the manager can activate: what `Info.xml` says and where the theme lives.
public struct ThemeDescriptor: Hashable, Sendable {
    /// The theme's id, name, version and parent.
    public var info: ThemeInfo
    /// The `.theme` folder (the source), when there is one.
    public var folder: String?
    /// The compiled file, when there is one.
    public var compiledFile: String?

    /// A theme found at `folder`, `compiledFile`, or both.
    public init(info: ThemeInfo, folder: String? = nil, compiledFile: String? = nil) {
        self.info = info
        self.folder = folder
        self.compiledFile = compiledFile
    }

    /// The theme's id.
    public var id: String { info.id }
    /// Where the theme was found, for messages.
    public var location: String { folder ?? compiledFile ?? "(memory)" }
}

/// A theme ready to apply: resolved for every trait set it distinguishes, with its assets. A
/// theme read from a compiled file stays in the file: its instances are read as components are
/// styled (`instances(for:)`), and `variants` builds the whole model only when asked.
public struct LoadedTheme: Sendable {
    /// Where a loaded theme came from.
    public enum Origin: String, Sendable {
        /// A theme folder, through the XML front end (development builds).
        case folder
        /// A compiled `.livery` file.
        case compiled
        /// Values made in memory (tests, generated themes).
        case memory
    }

    /// Where the theme's image files are read from; nil for a theme without assets.
    public var assets: (any AssetSource)?
    /// Which loader produced it: exactly one does, so XML and compiled semantics never mix.
    public var origin: Origin
    /// The compiled file the theme is read from, nil for a theme resolved in memory.
    public let compiledFile: CompiledTheme?
    private let model: Model

    /// A theme already resolved for every trait set it distinguishes.
    public init(variants: ThemeVariants, assets: (any AssetSource)? = nil, origin: Origin = .memory) {
        self.assets = assets
        self.origin = origin
        compiledFile = nil
        model = Model(variants: variants)
    }

    /// A theme read lazily from `compiledFile`.
    public init(compiledFile: CompiledTheme, assets: (any AssetSource)? = nil) {
        self.assets = assets
        origin = .compiled
        self.compiledFile = compiledFile
        model = Model(compiledFile: compiledFile)
    }

    /// The theme's `Info.xml`: id, name, version, parent.
    public var info: ThemeInfo { model.info }

    /// Every variant as model values. For a compiled theme this reads and checks the whole file,
    /// once, on first use: time and memory in proportion to the theme's size (every instance of
    /// every trait set), where applying reads only the instances styled. A damaged file throws
    /// (the blocks that fail their checksums); `ThemeManager.buildResolvedTheme` reports it.
    public func buildVariants() throws(BinaryFormatError) -> ThemeVariants { try model.variants() }

    /// `buildVariants()`, with a damaged compiled file read as a theme without instances.
    @available(
        *, deprecated,
        message:
            "a damaged compiled file reads as an empty theme here; use buildVariants(), which throws, or ThemeManager.buildResolvedTheme, which reports"
    )
    public var variants: ThemeVariants {
        (try? model.variants()) ?? model.emptyVariants
    }

    /// The instances an app running with `traits` gets, read as they are needed, their fonts
    /// sized for `textScale`.
    func instances(for traits: TraitSet, textScale: Double = TextScale.standard) -> InstanceSource {
        guard let compiledFile else {
            // A theme given whole: building it reads nothing and cannot fail.
            return InstanceSource(resolved: model.resolved(for: traits), textScale: textScale)
        }
        return InstanceSource(
            compiled: compiledFile, info: model.info, traits: traits, assets: model.assets,
            textScale: textScale)
    }

    /// The constants the theme lets its user give values for (format 1.3, section 9.2), sorted by
    /// name; empty for a theme without any (or a compiled file whose section is damaged).
    public var choiceConstants: [ChoiceConstant] {
        guard let compiledFile else { return ((try? model.variants()) ?? model.emptyVariants).choices.constants }
        return (try? compiledFile.choiceConstants()) ?? []
    }

    /// `instances(for:textScale:)` with `values` (accepted by the theme) given for its overridable
    /// constants: the uses of the variant are evaluated once, here; a use whose param cannot take
    /// its value keeps the theme's and goes to `problem`.
    func instances(
        for traits: TraitSet, textScale: Double, choices values: [String: Value], problem: (ChoiceProblem) -> Void
    ) -> InstanceSource {
        guard !values.isEmpty else { return instances(for: traits, textScale: textScale) }
        guard let compiledFile else {
            let variants = (try? model.variants()) ?? model.emptyVariants
            let theme = model.resolved(for: traits)
            let index = model.useIndex(for: traits) {
                ChoiceUseIndex(uses: variants.choices.uses[variants.axes.canonical(traits)] ?? [])
            }
            let replacements = ChoiceReplacements(
                index: index, values: values, traits: traits, assets: theme.assets, instance: { theme.instance($0) },
                problem: problem)
            return InstanceSource(resolved: theme, textScale: textScale, replacements: replacements)
        }
        // A damaged block among the uses: no replacements; the instances read from it report it.
        let index = model.useIndex(for: traits) {
            ChoiceUseIndex(
                uses: compiledFile.variant(for: traits).flatMap { try? compiledFile.choiceUses(in: $0) } ?? [])
        }
        let replacements = ChoiceReplacements(
            index: index, values: values, traits: traits, assets: model.assets,
            instance: { try? compiledFile.instance($0, for: traits) }, problem: problem)
        return InstanceSource(
            compiled: compiledFile, info: model.info, traits: traits, assets: model.assets,
            textScale: textScale, replacements: replacements)
    }

    /// The model behind a loaded theme: given whole, or built from the compiled file on first
    /// use. A class, so copies of the theme share what was built; the lock makes building it
    /// safe from any thread (`@unchecked Sendable`: nothing else is mutable).
    private final class Model: @unchecked Sendable {
        private let compiledFile: CompiledTheme?
        private let lock = NSLock()
        private var built: Result<ThemeVariants, BinaryFormatError>?
        /// The last trait set a theme given whole was resolved for, and the result: a change of
        /// personal choices resolves the same traits again (`livery-switch-bench --choice`).
        private var lastResolved: (traits: TraitSet, theme: ResolvedTheme)?
        /// The last trait set values of personal choices were given for, and its uses, grouped
        /// once for every change of the values (`livery-switch-bench --choice`).
        private var lastUses: (traits: TraitSet, index: ChoiceUseIndex)?
        let info: ThemeInfo
        /// The compiled file's asset directory, read once (small: a record per asset file).
        let assets: AssetCatalog

        init(variants: ThemeVariants) {
            compiledFile = nil
            built = .success(variants)
            info = variants.info
            assets = variants.assets
        }

        init(compiledFile: CompiledTheme) {
            self.compiledFile = compiledFile
            info = compiledFile.info
            assets = compiledFile.assetCatalog
        }

        /// Built once; a damaged file fails the same way every time it is asked.
        func variants() throws(BinaryFormatError) -> ThemeVariants {
            lock.lock()
            defer { lock.unlock() }
            if built == nil, let compiledFile {
                do {
                    built = .success(try compiledFile.materialize())
                } catch {
                    built = .failure(error)
                }
            }
            switch built {
            case .success(let variants): return variants
            case .failure(let error): throw error
            case nil: return emptyVariants
            }
        }

        /// The theme given whole, resolved for `traits`.
        func resolved(for traits: TraitSet) -> ResolvedTheme {
            let variants = (try? variants()) ?? emptyVariants
            lock.lock()
            defer { lock.unlock() }
            if let last = lastResolved, last.traits == traits { return last.theme }
            let theme = variants.resolved(for: traits)
            lastResolved = (traits, theme)
            return theme
        }

        /// The uses for `traits`, grouped by `make` once.
        func useIndex(for traits: TraitSet, make: () -> ChoiceUseIndex) -> ChoiceUseIndex {
            lock.lock()
            if let last = lastUses, last.traits == traits {
                lock.unlock()
                return last.index
            }
            lock.unlock()
            let index = make()
            lock.lock()
            lastUses = (traits, index)
            lock.unlock()
            return index
        }

        var emptyVariants: ThemeVariants {
            ThemeVariants(
                info: info, ancestors: compiledFile?.chain.dropLast().map(\.info) ?? [],
                axes: compiledFile?.axes ?? TraitAxes(), variants: [:], assets: assets)
        }
    }
}

/// Reads themes from one kind of storage. The manager owns discovery and the choice of loader;
/// a loader only reads. Loaders run on the main actor today; being `Sendable` keeps the door
/// open to loading in the background.
public protocol ThemeLoader: Sendable {
    /// What `Info.xml` (or the compiled file's header) says about the theme at `path`.
    func info(at path: String, searchPaths: [String]) -> Checked<ThemeInfo>
    /// Loads the theme, finding its parents in `searchPaths`.
    func load(_ theme: ThemeDescriptor, searchPaths: [String], schemaFiles: [String]) -> Checked<LoadedTheme>
    /// Forgets anything cached, so the next read sees what is on disk now.
    func forgetCachedReads()
}

extension ThemeLoader {
    public func forgetCachedReads() {}
}

/// Reads compiled theme files: what ships in a release build. Preferred over the folder
/// whenever a compiled file exists (and, in development, is up to date with its source).
public protocol CompiledThemeLoader: ThemeLoader {
    /// The compiled files' extension, e.g. `livery`.
    var fileExtension: String { get }
}

/// Decides whether a compiled file still says what its source folder (and its parents) say.
///
/// A development-path check: a compiled file is validated when it is compiled, and a release
/// app, which ships compiled files only, has no sources to compare with, so the runtime has no
/// check of its own (`LiveryDevelopment` supplies one that reads the sources). When a check
/// finds a file stale, the manager loads the folder instead: an outdated compiled file is never
/// mixed with the source.
public protocol StalenessCheck: Sendable {
    /// Why the compiled file no longer says what the folder says, or nil when it still does.
    func staleness(
        ofCompiledFile compiledFile: String, source folder: String, searchPaths: [String],
        schemaFiles: [String]
    ) -> String?
}
