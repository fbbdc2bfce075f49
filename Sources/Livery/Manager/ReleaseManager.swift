import Foundation
import LiveryModel

extension ThemeManager {
    /// A manager for the compiled themes a configuration names: `.livery` files in its search
    /// paths and compiled paths, read through the memory-mapped reader. What a release app
    /// runs: no XML front end, no schema, no sources. `LiveryDevelopment` adds `.theme` folders,
    /// the staleness check and live reload (`ThemeManager.development(configuration:)`).
    public convenience init(
        configuration: LiveryConfiguration, traits: TraitSet = .none, scale: Int = 1,
        diagnostics: DiagnosticHook = DiagnosticHook()
    ) {
        self.init(
            configuration: configuration, compiledLoader: CompiledFileThemeLoader(),
            traits: traits, scale: scale, diagnostics: diagnostics)
    }

    /// A manager configured by a configuration file (see `LiveryConfiguration`), compiled
    /// themes only. A missing or broken file is reported and leaves a manager without themes,
    /// never a crash.
    public convenience init(
        configurationFile path: String, traits: TraitSet = .none, scale: Int = 1,
        diagnostics: DiagnosticHook = DiagnosticHook()
    ) {
        self.init(
            configuration: LiveryConfiguration.load(path: path, reportingTo: diagnostics),
            traits: traits, scale: scale, diagnostics: diagnostics)
    }

    /// A manager configured by the configuration file at a file URL.
    public convenience init(
        configurationURL url: URL, traits: TraitSet = .none, scale: Int = 1,
        diagnostics: DiagnosticHook = DiagnosticHook()
    ) {
        self.init(
            configuration: LiveryConfiguration.load(url: url, reportingTo: diagnostics),
            traits: traits, scale: scale, diagnostics: diagnostics)
    }

    /// A manager configured by a configuration file shipped as a resource, e.g.
    /// `ThemeManager(configurationResource: "Livery")` for `Livery.xml` in the app's main bundle;
    /// relative paths in it are relative to the resource's folder. A missing resource is reported (`runtime-configuration`) and leaves a manager
    /// without themes.
    public convenience init(
        configurationResource name: String, withExtension fileExtension: String = "xml",
        in bundle: Bundle = .main, traits: TraitSet = .none, scale: Int = 1,
        diagnostics: DiagnosticHook = DiagnosticHook()
    ) {
        self.init(
            configuration: LiveryConfiguration.load(
                resource: name, withExtension: fileExtension, in: bundle,
                reportingTo: diagnostics),
            traits: traits, scale: scale, diagnostics: diagnostics)
    }
}

extension LiveryConfiguration {
    /// The configuration in the file at `path`, or an empty one when the file cannot be used;
    /// every finding goes to `diagnostics`. What the managers' `configurationFile` forms read.
    @MainActor
    public static func load(path: String, reportingTo diagnostics: DiagnosticHook) -> LiveryConfiguration {
        let loaded = load(path: path)
        for finding in loaded.diagnostics { diagnostics.report(finding, finding: .configuration(finding)) }
        return loaded.value ?? LiveryConfiguration()
    }

    /// The same for a file URL; another kind of URL is reported and gives an empty configuration.
    @MainActor
    public static func load(url: URL, reportingTo diagnostics: DiagnosticHook) -> LiveryConfiguration {
        guard url.isFileURL else {
            diagnostics.report(
                .error(
                    .runtimeConfiguration, "the configuration must be a file, not \(url.absoluteString)",
                    at: nil),
                finding: .configurationNotAFile(url: url.absoluteString))
            return LiveryConfiguration()
        }
        return load(path: url.path, reportingTo: diagnostics)
    }

    /// The same for a resource of `bundle`; a missing resource is reported.
    @MainActor
    public static func load(
        resource name: String, withExtension fileExtension: String, in bundle: Bundle,
        reportingTo diagnostics: DiagnosticHook
    ) -> LiveryConfiguration {
        guard let url = bundle.url(forResource: name, withExtension: fileExtension) else {
            diagnostics.report(
                .error(
                    .runtimeConfiguration,
                    "the bundle \(bundle.bundlePath) has no resource \(name).\(fileExtension)", at: nil),
                finding: .missingConfigurationResource(bundle: bundle.bundlePath, resource: "\(name).\(fileExtension)"))
            return LiveryConfiguration()
        }
        return load(url: url, reportingTo: diagnostics)
    }
}
