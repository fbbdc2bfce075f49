import Foundation
import LiveryModel

/// How the manager finds themes: an app ships this as an XML file next to its themes.
///
/// ```xml
/// <livery-configuration default-theme="com.livery.light">
///   <search-path>Themes</search-path>
///   <search-path>Downloads</search-path>
///   <theme-extension>theme</theme-extension>
///   <theme-extension>purchasedTheme</theme-extension>
///   <schema>Schemas/Chat.xml</schema>
///   <compiled-path>Caches/Themes</compiled-path>
///   <store catalog="https://cdn.example.com/store/catalog.json">
///     <root-key>q3V1…=</root-key>
///   </store>
/// </livery-configuration>
/// ```
///
/// `<store>` (optional, at most one) is the theme store the app downloads from: its catalog URL
/// and the root public key or keys its catalogs must chain to (base64, as `livery keys generate`
/// prints them). The runtime only carries them; `LiveryStore` checks the keys
/// (`CatalogTrust(configuration:)`, `ThemeStore(configuration:installedFolder:)`).
///
/// Relative paths are relative to the configuration file's folder. Without any
/// `<theme-extension>`, `theme` is used. Compiled files (`.livery`) are found in the search
/// paths (conventionally `Dark.livery` beside `Dark.theme`) and in the compiled paths, and are
/// paired with folders by theme id.
public struct LiveryConfiguration: Hashable, Sendable {
    /// The theme activated at launch (`<default-theme>`).
    public var defaultThemeID: String?
    /// Folders searched for themes (`<search-path>`), relative to the configuration file.
    public var searchPaths: [String]
    /// Folder extensions that are theme folders (`theme`, and e.g. `purchasedTheme`).
    public var themeExtensions: [String]
    /// Schema files (`<components>`) declaring the app's own components.
    public var schemaFiles: [String]
    /// Folders searched for compiled files only (e.g. a cache the app compiles into), after
    /// the search paths.
    public var compiledPaths: [String]
    /// The theme store (`<store>`), when the app has one.
    public var store: Store?

    /// A theme store: where its catalog is and the root public keys it must be signed under.
    public struct Store: Hashable, Sendable {
        /// The catalog's absolute http(s) URL (`<store catalog="…">`).
        public var catalogURL: String
        /// The root public keys (`<root-key>`), as text: base64 of an Ed25519 key, as
        /// `livery keys generate` prints it. Not checked here: `LiveryStore` parses them.
        public var rootKeys: [String]
        /// Where each of `rootKeys` is written (nil for keys given in code), so that a malformed
        /// key is reported at its line and column.
        public var rootKeyLocations: [SourceLocation?]

        /// A store at `catalogURL` whose catalogs must chain to one of `rootKeys`.
        public init(catalogURL: String, rootKeys: [String], rootKeyLocations: [SourceLocation?]? = nil) {
            self.catalogURL = catalogURL
            self.rootKeys = rootKeys
            self.rootKeyLocations = rootKeyLocations ?? rootKeys.map { _ in nil }
        }
    }

    /// A configuration made in code rather than read from a file.
    public init(
        defaultThemeID: String? = nil, searchPaths: [String] = [], themeExtensions: [String] = ["theme"],
        schemaFiles: [String] = [], compiledPaths: [String] = [], store: Store? = nil
    ) {
        self.store = store
        self.compiledPaths = compiledPaths
        self.defaultThemeID = defaultThemeID
        self.searchPaths = searchPaths
        self.themeExtensions = themeExtensions
        self.schemaFiles = schemaFiles
    }

    /// Reads a configuration file. Never throws: problems come back as findings, and
    /// unknown elements are warnings so that newer files still load in older apps.
    public static func load(path: String) -> Checked<LiveryConfiguration> {
        guard let bytes = FileContents.bytes(atPath: path) else {
            return Checked(
                value: nil,
                diagnostics: [
                    .error(
                        .runtimeConfiguration, "the configuration file cannot be read", at: SourceLocation(file: path))
                ])
        }
        return parse(bytes: bytes, file: path, baseFolder: FileContents.folder(of: path))
    }

    /// Parses configuration XML; `baseFolder` anchors relative paths.
    public static func parse(_ data: Data, file: String = "(configuration)", baseFolder: String = ".") -> Checked<
        LiveryConfiguration
    > {
        parse(bytes: [UInt8](data), file: file, baseFolder: baseFolder)
    }

    static func parse(bytes: [UInt8], file: String, baseFolder: String) -> Checked<LiveryConfiguration> {
        let root: PlainXML.Element
        do {
            root = try PlainXML.parse(bytes)
        } catch {
            return Checked(
                value: nil,
                diagnostics: [
                    .error(
                        .runtimeConfiguration, "the configuration is not well-formed XML: \(error.message)",
                        at: SourceLocation(file: file, line: error.line, column: error.column))
                ])
        }
        func location(_ element: PlainXML.Element) -> SourceLocation {
            SourceLocation(file: file, line: element.line, column: element.column)
        }
        guard root.name == "livery-configuration" else {
            return Checked(
                value: nil,
                diagnostics: [
                    .error(
                        .runtimeConfiguration, "the root element must be <livery-configuration>, not <\(root.name)>",
                        at: location(root))
                ])
        }
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : baseFolder + "/" + path
        }
        var configuration = LiveryConfiguration(defaultThemeID: root.attribute("default-theme"), themeExtensions: [])
        var diagnostics: [Diagnostic] = []
        var sawStore = false
        for element in root.children {
            if element.name == "store" {
                if sawStore {
                    diagnostics.append(
                        .error(
                            .runtimeConfiguration, "a configuration has at most one <store>",
                            at: location(element)))
                }
                sawStore = true
                configuration.store =
                    store(element, location: location, diagnostics: &diagnostics) ?? configuration.store
                continue
            }
            for nested in element.children {
                diagnostics.append(
                    .warning(
                        .runtimeConfiguration, "<\(nested.name)> is not expected here and is ignored",
                        at: location(nested)))
            }
            let value = PlainXML.trimmingSpace(element.text)
            guard !value.isEmpty else {
                diagnostics.append(
                    .warning(.runtimeConfiguration, "<\(element.name)> is empty and is ignored", at: location(element)))
                continue
            }
            switch element.name {
            case "search-path": configuration.searchPaths.append(absolute(value))
            case "theme-extension":
                configuration.themeExtensions.append(value.hasPrefix(".") ? String(value.dropFirst()) : value)
            case "schema": configuration.schemaFiles.append(absolute(value))
            case "compiled-path": configuration.compiledPaths.append(absolute(value))
            default:
                diagnostics.append(
                    .warning(
                        .runtimeConfiguration,
                        "<\(element.name)> is not a configuration element (search-path, theme-extension, schema, compiled-path, store) and is ignored",
                        at: location(element)))
            }
        }
        guard !diagnostics.hasErrors else { return Checked(value: nil, diagnostics: diagnostics) }
        if configuration.themeExtensions.isEmpty { configuration.themeExtensions = ["theme"] }
        return Checked(value: configuration, diagnostics: diagnostics)
    }

    /// `<store catalog="…"><root-key>…</root-key>…</store>`: nil, with an error, when the catalog
    /// is not an absolute http(s) URL; an error too when it names no root key (a store without
    /// one could verify nothing).
    private static func store(
        _ element: PlainXML.Element, location: (PlainXML.Element) -> SourceLocation,
        diagnostics: inout [Diagnostic]
    ) -> Store? {
        let catalog = PlainXML.trimmingSpace(element.attribute("catalog") ?? "")
        let scheme = URL(string: catalog).flatMap { url in url.host == nil ? nil : url.scheme?.lowercased() }
        guard scheme == "http" || scheme == "https" else {
            diagnostics.append(
                .error(
                    .runtimeConfiguration,
                    catalog.isEmpty
                        ? "<store> needs catalog=\"https://…/catalog.json\", the URL of the store's catalog"
                        : "<store catalog=\"\(catalog)\"> is not an absolute http(s) URL",
                    at: location(element)))
            return nil
        }
        var store = Store(catalogURL: catalog, rootKeys: [])
        var keyElements = 0
        for child in element.children {
            guard child.name == "root-key" else {
                diagnostics.append(
                    .warning(
                        .runtimeConfiguration, "<\(child.name)> is not expected here and is ignored",
                        at: location(child)))
                continue
            }
            keyElements += 1
            let key = PlainXML.trimmingSpace(child.text)
            if key.isEmpty {
                diagnostics.append(.error(.runtimeConfiguration, "<root-key> is empty", at: location(child)))
            } else {
                store.rootKeys.append(key)
                store.rootKeyLocations.append(location(child))
            }
        }
        if keyElements == 0 {
            diagnostics.append(
                .error(
                    .runtimeConfiguration,
                    "<store> needs a <root-key>: the store's root public key, as `livery keys generate` prints it",
                    at: location(element)))
        }
        return store
    }
}
