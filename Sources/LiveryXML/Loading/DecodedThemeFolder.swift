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
    /// The dimensions the folder was read with from its ancestors and the app's schema files: a
    /// folder read with others (an ancestor changed) is read again.
    let inherited: TraitDimensions
    /// `inherited` and the dimensions the folder's own schema files declare: the dimensions of
    /// its files' and assets' qualifiers, and of every theme inheriting from it.
    let dimensions: TraitDimensions
    /// Where the app-defined ones of `dimensions` are declared (for a redeclaration's note).
    let declarations: [DimensionDeclaration]

    /// The serials of the folder's operations, `lowerBound..<upperBound` (see `rebase`).
    private(set) var serials: Range<Int>

    var info: ThemeInfo? { header?.info }

    /// Moves every operation's serial up by `offset`: folders are read with serials from 0, on
    /// any thread, and the workspace gives each one a range of its own before sharing it.
    func rebase(by offset: Int) {
        guard offset != 0 else { return }
        for file in files {
            for instance in file.instances { for operation in instance.operations { operation.rebase(by: offset) } }
            for definition in file.classes { for operation in definition.operations { operation.rebase(by: offset) } }
        }
        serials = (serials.lowerBound + offset)..<(serials.upperBound + offset)
    }

    init(
        path: String, header: InfoDecoder.Decoded?, files: [ConfigurationFile], schemaComponents: [ComponentSchema],
        assets: [AssetVariant], sourceFiles: [String], diagnostics: [Diagnostic], unreadFiles: [String] = [],
        serials: Range<Int> = 0..<0, inherited: TraitDimensions = .standard, dimensions: TraitDimensions = .standard,
        declarations: [DimensionDeclaration] = []
    ) {
        self.declarations = declarations
        self.serials = serials
        self.inherited = inherited
        self.dimensions = dimensions
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
