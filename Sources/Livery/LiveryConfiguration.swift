import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
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
    public var defaultThemeID: String?
    public var searchPaths: [String]
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

        public init(catalogURL: String, rootKeys: [String], rootKeyLocations: [SourceLocation?]? = nil) {
            self.catalogURL = catalogURL
            self.rootKeys = rootKeys
            self.rootKeyLocations = rootKeyLocations ?? rootKeys.map { _ in nil }
        }
    }

    public init(defaultThemeID: String? = nil, searchPaths: [String] = [], themeExtensions: [String] = ["theme"],
                schemaFiles: [String] = [], compiledPaths: [String] = [], store: Store? = nil) {
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
        guard let data = FileManager.default.contents(atPath: path) else {
            return Checked(value: nil, diagnostics: [
                .error(.runtimeConfiguration, "the configuration file cannot be read", at: SourceLocation(file: path)),
            ])
        }
        let folder = (path as NSString).deletingLastPathComponent
        return parse(data, file: path, baseFolder: folder.isEmpty ? "." : folder)
    }

    /// Parses configuration XML; `baseFolder` anchors relative paths.
    public static func parse(_ data: Data, file: String = "(configuration)", baseFolder: String = ".") -> Checked<LiveryConfiguration> {
        let reader = ConfigurationReader(file: file, baseFolder: baseFolder)
        let parser = XMLParser(data: data)
        // No DTDs, no external entities: a configuration file is plain elements and text.
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        if !parser.parse(), !reader.diagnostics.hasErrors {
            let message = parser.parserError.map { "\($0.localizedDescription)" } ?? "malformed XML"
            reader.diagnostics.append(
                .error(.runtimeConfiguration, "the configuration is not well-formed XML: \(message)",
                       at: SourceLocation(file: file, line: parser.lineNumber, column: parser.columnNumber)))
        }
        if reader.openElements != 0, !reader.diagnostics.hasErrors {
            // Some parsers accept a truncated document; an unclosed element is still an error.
            reader.diagnostics.append(.error(.runtimeConfiguration, "the configuration ends before its elements are closed",
                                             at: SourceLocation(file: file, line: parser.lineNumber)))
        }
        if !reader.sawRoot, !reader.diagnostics.hasErrors {
            reader.diagnostics.append(.error(.runtimeConfiguration, "the root element must be <livery-configuration>",
                                             at: SourceLocation(file: file)))
        }
        guard !reader.diagnostics.hasErrors else { return Checked(value: nil, diagnostics: reader.diagnostics) }
        var configuration = reader.configuration
        if configuration.themeExtensions.isEmpty { configuration.themeExtensions = ["theme"] }
        return Checked(value: configuration, diagnostics: reader.diagnostics)
    }
}

/// The SAX delegate; lives only for one parse, on the calling thread.
private final class ConfigurationReader: NSObject, XMLParserDelegate {
    let file: String
    let baseFolder: String
    var configuration = LiveryConfiguration(themeExtensions: [])
    var diagnostics: [Diagnostic] = []
    var sawRoot = false
    private var depth = 0
    private var text = ""
    /// The `<store>` being read: its catalog URL, where it starts, and whether one was seen.
    private var inStore = false
    private var sawStore = false
    private var storeLocation: SourceLocation?
    private var keyLocation: SourceLocation?
    private var keyElements = 0
    var openElements: Int { depth }

    init(file: String, baseFolder: String) {
        self.file = file
        self.baseFolder = baseFolder
    }

    private func location(_ parser: XMLParser) -> SourceLocation {
        SourceLocation(file: file, line: parser.lineNumber, column: parser.columnNumber)
    }

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : baseFolder + "/" + path
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        depth += 1
        text = ""
        if depth == 1 {
            guard name == "livery-configuration" else {
                diagnostics.append(.error(.runtimeConfiguration,
                                          "the root element must be <livery-configuration>, not <\(name)>",
                                          at: location(parser)))
                parser.abortParsing()
                return
            }
            sawRoot = true
            configuration.defaultThemeID = attributes["default-theme"]
        } else if depth == 2, name == "store" {
            startStore(attributes: attributes, at: location(parser))
        } else if depth == 3, inStore, name == "root-key" {
            keyLocation = location(parser)
            keyElements += 1
        } else if depth > 2 {
            diagnostics.append(.warning(.runtimeConfiguration, "<\(name)> is not expected here and is ignored",
                                        at: location(parser)))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    private func startStore(attributes: [String: String], at location: SourceLocation) {
        inStore = true
        storeLocation = location
        keyElements = 0
        if sawStore {
            diagnostics.append(.error(.runtimeConfiguration, "a configuration has at most one <store>", at: location))
        }
        sawStore = true
        let catalog = (attributes["catalog"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let scheme = URL(string: catalog).flatMap { url in url.host == nil ? nil : url.scheme?.lowercased() }
        guard scheme == "http" || scheme == "https" else {
            diagnostics.append(.error(.runtimeConfiguration,
                                      catalog.isEmpty ? "<store> needs catalog=\"https://…/catalog.json\", the URL of the store's catalog"
                                          : "<store catalog=\"\(catalog)\"> is not an absolute http(s) URL", at: location))
            return
        }
        configuration.store = LiveryConfiguration.Store(catalogURL: catalog, rootKeys: [])
    }

    /// `</store>`: a store without a root key could not verify anything.
    private func endStore() {
        inStore = false
        if configuration.store != nil, keyElements == 0 {
            diagnostics.append(.error(.runtimeConfiguration,
                                      "<store> needs a <root-key>: the store's root public key, as `livery keys generate` prints it",
                                      at: storeLocation ?? SourceLocation(file: file)))
        }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer { depth -= 1 }
        if depth == 3, inStore, name == "root-key" {
            let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if key.isEmpty {
                diagnostics.append(.error(.runtimeConfiguration, "<root-key> is empty", at: keyLocation ?? location(parser)))
            } else {
                configuration.store?.rootKeys.append(key)
                configuration.store?.rootKeyLocations.append(keyLocation ?? location(parser))
            }
            return
        }
        if depth == 2, name == "store" { return endStore() }
        guard depth == 2 else { return }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else {
            diagnostics.append(.warning(.runtimeConfiguration, "<\(name)> is empty and is ignored", at: location(parser)))
            return
        }
        switch name {
        case "search-path": configuration.searchPaths.append(absolute(value))
        case "theme-extension": configuration.themeExtensions.append(value.hasPrefix(".") ? String(value.dropFirst()) : value)
        case "schema": configuration.schemaFiles.append(absolute(value))
        case "compiled-path": configuration.compiledPaths.append(absolute(value))
        default:
            diagnostics.append(.warning(.runtimeConfiguration,
                                        "<\(name)> is not a configuration element (search-path, theme-extension, schema, compiled-path, store) and is ignored",
                                        at: location(parser)))
        }
    }
}
