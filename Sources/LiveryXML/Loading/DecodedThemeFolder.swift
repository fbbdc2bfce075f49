import LiveryModel

/// One theme folder read and decoded: the unit the resolver works on. Immutable once loaded.
/// (Not `LoadedTheme`, the runtime's theme ready to apply: one name per concept.)
final class DecodedThemeFolder {
    let path: String
    let header: InfoDecoder.Decoded?
    /// Sorted into layer order: specificity key, then file name.
    let files: [ConfigurationFile]
    let schemaComponents: [ComponentSchema]
    let assets: [AssetVariant]
    /// Relative paths of every file the theme is made of, sorted.
    let sourceFiles: [String]
    let diagnostics: [Diagnostic]
    /// Configuration files that could not be read into definitions (malformed XML, a wrong root):
    /// what they define is unknown.
    let unreadFiles: [String]

    var info: ThemeInfo? { header?.info }

    init(
        path: String, header: InfoDecoder.Decoded?, files: [ConfigurationFile], schemaComponents: [ComponentSchema],
        assets: [AssetVariant], sourceFiles: [String], diagnostics: [Diagnostic], unreadFiles: [String] = []
    ) {
        self.path = path
        self.header = header
        self.files = files.sorted {
            ($0.qualifiers.specificity, $0.fileName) < ($1.qualifiers.specificity, $1.fileName)
        }
        self.schemaComponents = schemaComponents
        self.assets = assets
        self.sourceFiles = sourceFiles
        self.diagnostics = diagnostics
        self.unreadFiles = unreadFiles
    }
}
