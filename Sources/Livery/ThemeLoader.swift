import LiveryModel

/// A theme the manager can activate: what `Info.xml` says and where the theme lives.
public struct ThemeDescriptor: Hashable, Sendable {
    public var info: ThemeInfo
    /// The `.theme` folder (the source), when there is one.
    public var folder: String?
    /// The compiled file, when there is one.
    public var compiledFile: String?

    public init(info: ThemeInfo, folder: String? = nil, compiledFile: String? = nil) {
        self.info = info
        self.folder = folder
        self.compiledFile = compiledFile
    }

    public var id: String { info.id }
    /// Where the theme was found, for messages.
    public var location: String { folder ?? compiledFile ?? "(memory)" }
}

/// A theme ready to apply: resolved for every trait set it distinguishes, with its assets.
public struct LoadedTheme: Sendable {
    public enum Origin: String, Sendable {
        case folder, compiled, memory
    }

    public var variants: ThemeVariants
    public var assets: (any AssetSource)?
    /// Which loader produced it: exactly one does, so XML and compiled semantics never mix.
    public var origin: Origin

    public init(variants: ThemeVariants, assets: (any AssetSource)? = nil, origin: Origin = .memory) {
        self.variants = variants
        self.assets = assets
        self.origin = origin
    }

    public var info: ThemeInfo { variants.info }
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
    func staleness(ofCompiledFile compiledFile: String, source folder: String, searchPaths: [String],
                   schemaFiles: [String]) -> String?
}
