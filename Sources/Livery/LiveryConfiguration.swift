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
/// </livery-configuration>
/// ```
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

    public init(defaultThemeID: String? = nil, searchPaths: [String] = [], themeExtensions: [String] = ["theme"],
                schemaFiles: [String] = [], compiledPaths: [String] = []) {
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
        let root: PlainXML.Element
        do {
            root = try PlainXML.parse([UInt8](data))
        } catch {
            return Checked(value: nil, diagnostics: [
                .error(.runtimeConfiguration, "the configuration is not well-formed XML: \(error.message)",
                       at: SourceLocation(file: file, line: error.line, column: error.column)),
            ])
        }
        func location(_ element: PlainXML.Element) -> SourceLocation {
            SourceLocation(file: file, line: element.line, column: element.column)
        }
        guard root.name == "livery-configuration" else {
            return Checked(value: nil, diagnostics: [
                .error(.runtimeConfiguration, "the root element must be <livery-configuration>, not <\(root.name)>",
                       at: location(root)),
            ])
        }
        func absolute(_ path: String) -> String {
            path.hasPrefix("/") ? path : baseFolder + "/" + path
        }
        var configuration = LiveryConfiguration(defaultThemeID: root.attribute("default-theme"), themeExtensions: [])
        var diagnostics: [Diagnostic] = []
        for element in root.children {
            for nested in element.children {
                diagnostics.append(.warning(.runtimeConfiguration, "<\(nested.name)> is not expected here and is ignored",
                                            at: location(nested)))
            }
            let value = PlainXML.trimmingSpace(element.text)
            guard !value.isEmpty else {
                diagnostics.append(.warning(.runtimeConfiguration, "<\(element.name)> is empty and is ignored", at: location(element)))
                continue
            }
            switch element.name {
            case "search-path": configuration.searchPaths.append(absolute(value))
            case "theme-extension": configuration.themeExtensions.append(value.hasPrefix(".") ? String(value.dropFirst()) : value)
            case "schema": configuration.schemaFiles.append(absolute(value))
            case "compiled-path": configuration.compiledPaths.append(absolute(value))
            default:
                diagnostics.append(.warning(.runtimeConfiguration,
                                            "<\(element.name)> is not a configuration element (search-path, theme-extension, schema, compiled-path) and is ignored",
                                            at: location(element)))
            }
        }
        if configuration.themeExtensions.isEmpty { configuration.themeExtensions = ["theme"] }
        return Checked(value: configuration, diagnostics: diagnostics)
    }
}
