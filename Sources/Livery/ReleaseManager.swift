import Foundation
import LiveryModel

extension ThemeManager {
    /// A manager for the compiled themes a configuration names: `.livery` files in its search
    /// paths and compiled paths, read through the memory-mapped reader. What a release app
    /// runs: no XML front end, no schema, no sources. `LiveryDevelopment` adds `.theme` folders,
    /// the staleness check and live reload (`ThemeManager.development(configuration:)`).
    public convenience init(configuration: LiveryConfiguration, traits: TraitSet = .none, scale: Int = 1,
                            diagnostics: DiagnosticHook = DiagnosticHook()) {
        self.init(configuration: configuration, compiledLoader: CompiledFileThemeLoader(),
                  traits: traits, scale: scale, diagnostics: diagnostics)
    }

    /// A manager configured by a configuration file (see `LiveryConfiguration`), compiled
    /// themes only. A missing or broken file is reported and leaves a manager without themes,
    /// never a crash.
    public convenience init(configurationFile path: String, traits: TraitSet = .none, scale: Int = 1,
                            diagnostics: DiagnosticHook = DiagnosticHook()) {
        self.init(configuration: LiveryConfiguration.load(path: path, reportingTo: diagnostics),
                  traits: traits, scale: scale, diagnostics: diagnostics)
    }
}

extension LiveryConfiguration {
    /// The configuration in the file at `path`, or an empty one when the file cannot be used;
    /// every finding goes to `diagnostics`. What the managers' `configurationFile` forms read.
    @MainActor
    public static func load(path: String, reportingTo diagnostics: DiagnosticHook) -> LiveryConfiguration {
        let loaded = load(path: path)
        for finding in loaded.diagnostics { diagnostics.report(finding, key: "configuration|\(finding)") }
        return loaded.value ?? LiveryConfiguration()
    }
}
