import Foundation
import Livery
import LiveryBinary
import LiveryCompiler
import LiveryModel
import LiveryXML

extension ThemeManager {
    /// A manager for development builds: `.theme` folders through the XML front end, compiled
    /// files when they are up to date with the folders beside them (`SourceStalenessCheck`),
    /// and the standard schema plus the configured schema files for bindings that name no parent.
    /// Pair it with `LiveReload` to see saves on screen; a release app uses
    /// `ThemeManager(configuration:)`, which reads compiled files only.
    public static func development(
        configuration: LiveryConfiguration, traits: TraitSet = .none, scale: Int = 1,
        diagnostics: DiagnosticHook = DiagnosticHook()
    ) -> ThemeManager {
        var schema = StandardSchema.schema
        for file in configuration.schemaFiles {
            let loaded = SchemaFile.load(path: file)
            for finding in loaded.diagnostics {
                diagnostics.report(finding, key: DiagnosticKey(DevelopmentFinding.schema(finding)))
            }
            if let extra = loaded.value { schema.merge(extra) }
        }
        let manager = ThemeManager(
            configuration: configuration,
            folderLoader: FolderThemeLoader(themeExtensions: configuration.themeExtensions),
            compiledLoader: CompiledFileThemeLoader(),
            stalenessCheck: SourceStalenessCheck(themeExtensions: configuration.themeExtensions),
            schema: schema, traits: traits, scale: scale, diagnostics: diagnostics)
        // The dimensions the schema files declare (their refused declarations were reported by
        // the tools): the app sets their tags like the standard ones.
        manager.dimensions = TraitDimensions.standard.adding(schema.dimensions).0
        return manager
    }

    /// The development manager for a configuration file (see `LiveryConfiguration`). A missing
    /// or broken file is reported and leaves a manager without themes, never a crash.
    public static func development(
        configurationFile path: String, traits: TraitSet = .none, scale: Int = 1,
        diagnostics: DiagnosticHook = DiagnosticHook()
    ) -> ThemeManager {
        development(
            configuration: LiveryConfiguration.load(path: path, reportingTo: diagnostics),
            traits: traits, scale: scale, diagnostics: diagnostics)
    }

    /// The development manager for the configuration file at a file URL.
    public static func development(
        configurationURL url: URL, traits: TraitSet = .none, scale: Int = 1,
        diagnostics: DiagnosticHook = DiagnosticHook()
    ) -> ThemeManager {
        development(
            configuration: LiveryConfiguration.load(url: url, reportingTo: diagnostics),
            traits: traits, scale: scale, diagnostics: diagnostics)
    }
}

/// The development staleness check: a compiled file is stale when the chain of themes it was
/// compiled from, or the source digests it recorded for them, differ from the folders on disk
/// (`ThemeCompiler.staleness`): editing a parent makes its children's compiled files stale too.
public struct SourceStalenessCheck: StalenessCheck {
    /// Folder extensions of theme sources, for finding parents.
    public let themeExtensions: [String]

    public init(themeExtensions: [String] = ["theme"]) {
        self.themeExtensions = themeExtensions
    }

    public func staleness(
        ofCompiledFile compiledFile: String, source folder: String, searchPaths: [String],
        schemaFiles: [String]
    ) -> String? {
        guard let theme = try? CompiledTheme(contentsOf: compiledFile) else { return "it cannot be read" }
        // A fresh workspace: the check must see the sources as they are on disk now.
        let workspace = ThemeWorkspace(
            searchPaths: searchPaths, schemaFiles: schemaFiles, themeExtensions: themeExtensions)
        return ThemeCompiler.staleness(of: theme, themeAt: folder, workspace: workspace)
    }
}

/// What `compileThemes(into:)` did.
public struct ThemeCacheReport: Sendable {
    /// The compiled files written, one per theme folder that compiled without errors.
    public var written: [String] = []
    /// Every finding, errors of themes that were not compiled included.
    public var diagnostics: [Diagnostic] = []
}

extension ThemeManager {
    /// Compiles every theme folder the manager found into `folder` (by default the
    /// configuration's first `<compiled-path>`), as `<folder name>.livery`, each written to a
    /// temporary file and renamed, then reloads so the compiled files are used. A theme with
    /// errors is not written; its findings are in the report and go to `diagnostics` too.
    @discardableResult
    public func compileThemes(into folder: String? = nil) -> ThemeCacheReport {
        var report = ThemeCacheReport()
        guard let cache = folder ?? configuration.compiledPaths.first else {
            report.diagnostics.append(
                .error(
                    .compileWriteFailed,
                    "no folder to compile into: pass one, or add a <compiled-path> to the configuration",
                    at: nil))
            for finding in report.diagnostics {
                diagnostics.report(
                    finding, key: DiagnosticKey(DevelopmentFinding.cache(generation: generation, finding)))
            }
            return report
        }
        let workspace = ThemeWorkspace(
            searchPaths: configuration.searchPaths, schemaFiles: configuration.schemaFiles,
            themeExtensions: configuration.themeExtensions)
        do {
            try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        } catch {
            report.diagnostics.append(
                .error(
                    .compileWriteFailed, "cannot create the folder: \(error.localizedDescription)",
                    at: SourceLocation(file: cache)))
        }
        let sources = report.diagnostics.isEmpty ? themes.values.compactMap(\.folder).sorted() : []
        for source in sources {
            let result = ThemeCompiler.compile(themeAt: source, workspace: workspace)
            report.diagnostics += result.diagnostics
            guard let bytes = result.value else { continue }
            let name = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
            let output = cache + "/" + name + ".livery"
            do {
                try ThemeCompiler.writeAtomically(bytes, to: output)
                report.written.append(output)
            } catch {
                report.diagnostics.append(
                    .error(
                        .compileWriteFailed, "cannot write the compiled theme: \(error.localizedDescription)",
                        at: SourceLocation(file: output)))
            }
        }
        for finding in report.diagnostics {
            diagnostics.report(finding, key: DiagnosticKey(DevelopmentFinding.cache(generation: generation, finding)))
        }
        if !report.written.isEmpty { reloadThemes() }
        return report
    }
}

/// What the development path's findings are about, for de-duplication.
enum DevelopmentFinding: Hashable {
    case schema(Diagnostic)
    case cache(generation: Int, Diagnostic)
    case liveReload(save: Int, Diagnostic)
    case liveReloadSummary(save: Int)
}
