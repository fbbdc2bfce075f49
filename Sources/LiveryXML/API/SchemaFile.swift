import LiveryModel

/// Schema files (`<components>`): how apps and CI declare their own component types.
public enum SchemaFile {
    /// Reads the components declared in one file.
    public static func load(path: String) -> Checked<Schema> {
        guard FileSystem.kind(of: path) == .file,
            let bytes = FileSystem.read(path, limit: FrontEndLimits.default.maxFileBytes)
        else {
            return Checked(
                value: nil,
                diagnostics: [.error(.pathNotFound, "cannot read the schema file", at: SourceLocation(file: path))])
        }
        return parse(bytes, path: path)
    }

    /// Reads components (and declared dimensions) from the text of a schema file; `path` is used for locations only.
    public static func parse(_ bytes: [UInt8], path: String) -> Checked<Schema> {
        let (document, diagnostics) = XMLDocumentParser.parse(SourceText(path: path, bytes: bytes))
        guard let document else { return Checked(value: nil, diagnostics: diagnostics) }
        var context = DecodingContext(source: document.source)
        let schema = SchemaDecoder.decode(document.root, context: &context)
        let all = diagnostics + context.diagnostics
        return Checked(value: all.hasErrors ? nil : schema, diagnostics: all)
    }
}

/// Whole-schema checks once every file is merged: `extends` names a known type, without cycles.
enum SchemaIntegrity {
    static func check(_ schema: Schema, fallback location: SourceLocation?) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for component in schema.components.values.sorted(by: { $0.name < $1.name }) {
            guard let parent = component.extends else { continue }
            if schema.components[parent] == nil {
                diagnostics.append(
                    .error(
                        .schemaInvalid,
                        "component '\(component.name)' extends unknown component '\(parent)'\(Suggestions.didYouMean(parent, in: schema.components.keys))",
                        at: component.location ?? location))
            } else if schema.lineage(of: component.name).count < lineageLength(component.name, schema) {
                diagnostics.append(
                    .error(
                        .schemaInvalid, "component '\(component.name)' extends itself through '\(parent)'",
                        at: component.location ?? location))
            }
        }
        return diagnostics
    }

    /// How many `extends` steps can be followed before a name repeats or the chain ends.
    private static func lineageLength(_ name: String, _ schema: Schema) -> Int {
        var count = 0
        var current: String? = name
        while let type = current, let component = schema.components[type], count <= schema.components.count {
            count += 1
            current = component.extends
        }
        return count
    }
}

/// The findings about declared dimensions: one per declaration refused, at its attribute.
enum DimensionFindings {
    /// `inherited` with `declarations` added, and a finding for each one refused; `known` are
    /// the declarations of the inherited dimensions (for the note at a redeclaration's first).
    static func adding(
        _ declarations: [DimensionDeclaration], to inherited: TraitDimensions, known: [DimensionDeclaration] = []
    ) -> (TraitDimensions, [Diagnostic]) {
        let (dimensions, refusals) = inherited.adding(declarations, known: known)
        return (dimensions, refusals.map(finding))
    }

    static func finding(_ refusal: TraitDimensions.Refusal) -> Diagnostic {
        let name = refusal.declaration.dimension.name
        var message = refusal.error.description
        var notes: [Diagnostic.Note] = []
        switch refusal.error {
        case .duplicateName where TraitDimensions.standard.index(named: name) != nil:
            message = "'\(name)' is a standard dimension; an app-defined dimension needs a name of its own"
        case .duplicateName where refusal.isRedeclaration:
            message =
                "dimension '\(name)' is declared twice with different values ('\(refusal.declaration.dimension.values.joined(separator: " "))' here); declare it once, or the same everywhere"
            if let first = refusal.first {
                notes.append(
                    Diagnostic.Note(
                        "first declared with values '\(first.dimension.values.joined(separator: " "))' here",
                        at: first.valuesLocation))
            }
        case .duplicateTag(let tag, let first, let second) where first != second:
            let standard = TraitDimensions.standard.index(named: first) != nil
            message =
                "tag '\(tag)' of dimension '\(second)' is already a value of \(standard ? "the standard " : "")dimension '\(first)'; a tag names one value of one dimension"
        default:
            break
        }
        return .error(.schemaInvalid, message, at: refusal.location, notes: notes)
    }
}
