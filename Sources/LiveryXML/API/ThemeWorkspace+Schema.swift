import Foundation
import LiveryModel

// The schema a theme is checked against: the standard one, the schema files and its chain's components.
extension ThemeWorkspace {
    /// What the schema files given to the workspace declare.
    struct Base {
        var schema: Checked<Schema>
        var dimensions: TraitDimensions
        /// The declarations of the app-defined ones of `dimensions`.
        var declarations: [DimensionDeclaration]
    }

    /// The schema a chain is checked against and the findings of its integrity check, worked
    /// out once per set of folders that carry components (usually the root alone), not once per
    /// child: adding a component rebuilds the schema's tables.
    func schema(of chain: [DecodedThemeFolder]) -> (Schema, [Diagnostic]) {
        let carriers = chain.filter { !$0.schemaComponents.isEmpty }
        let key = carriers.map { canonical($0.path) }
        if let known = locked({ schemas[key] }) {
            return (known.schema, known.findings ?? integrity(of: known.schema, chain: chain))
        }
        let baseSchema = self.baseSchema
        var schema = baseSchema.value ?? StandardSchema.schema
        for theme in carriers {
            for component in theme.schemaComponents { schema.add(component) }
        }
        // Findings at a component's own place are the same for every chain; one that falls back
        // to the theme's folder is worked out per theme.
        var findings: [Diagnostic]? = baseSchema.diagnostics + SchemaIntegrity.check(schema, fallback: nil)
        if findings!.contains(where: { $0.location == nil }) { findings = nil }
        let known = SharedSchema(schema: schema, findings: findings)
        locked { schemas[key] = known }
        return (schema, findings ?? integrity(of: schema, chain: chain))
    }

    private func integrity(of schema: Schema, chain: [DecodedThemeFolder]) -> [Diagnostic] {
        baseSchema.diagnostics
            + SchemaIntegrity.check(schema, fallback: chain.last.map { SourceLocation(file: $0.path) })
    }

    struct SharedSchema {
        var schema: Schema
        /// Nil when a finding has no place of its own (see `schema(of:)`).
        var findings: [Diagnostic]?
    }

    private var baseSchema: Checked<Schema> { loadedBase.schema }

    /// The standard dimensions and those the schema files given to the workspace declare.
    var baseDimensions: TraitDimensions { loadedBase.dimensions }

    /// The standard dimensions and those the workspace's schema files declare: the dimensions of
    /// a theme whose chain declares none.
    public var schemaDimensions: TraitDimensions { baseDimensions }

    var loadedBase: Base {
        if let loaded = locked({ loadedBaseSchema }) { return loaded }
        let loaded = loadSchemaFiles()
        return locked {
            if let known = loadedBaseSchema { return known }
            loadedBaseSchema = loaded
            return loaded
        }
    }

    private func loadSchemaFiles() -> Base {
        var schema = StandardSchema.schema
        var diagnostics: [Diagnostic] = []
        for file in schemaFiles {
            let loaded = SchemaFile.load(path: file)
            diagnostics += loaded.diagnostics
            if let extra = loaded.value { schema.merge(extra) }
        }
        let (dimensions, refusals) = TraitDimensions.standard.adding(schema.dimensions)
        let refused = Set(refusals.map(\.declaration))
        return Base(
            schema: Checked(value: schema, diagnostics: diagnostics + refusals.map(DimensionFindings.finding)),
            dimensions: dimensions, declarations: schema.dimensions.filter { !refused.contains($0) })
    }
}
