import Foundation
import LiveryBinary
import LiveryModel
import LiveryXML

/// A theme to compare or explain: a theme folder (read through the XML front end) or a compiled
/// file (memory-mapped and verified). Both give every trait set the theme distinguishes.
public enum ThemeSource {
    /// The `compiled-invalid` code the compiled-file tools use.
    public static let compiledInvalid: DiagnosticCode = "compiled-invalid"

    public static func isCompiledFile(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
    }

    /// Every variant of the theme at `path`, whichever kind of source it is.
    public static func variants(at path: String, workspace: ThemeWorkspace) -> Checked<ThemeVariants> {
        guard isCompiledFile(path) else { return workspace.variants(ofThemeAt: path) }
        do {
            let compiled = try CompiledTheme(contentsOf: path)
            return Checked(value: try compiled.materialize(), diagnostics: [])
        } catch {
            let message: String
            if case .io(_, let text) = error { message = text } else { message = error.description }
            return Checked(value: nil, diagnostics: [.error(compiledInvalid, message, at: SourceLocation(file: path))])
        }
    }

    /// The dimensions of the theme at `path`: those a compiled file records, or those of a theme
    /// folder's chain and the workspace's schema files. The workspace's when it cannot be read.
    public static func dimensions(at path: String, workspace: ThemeWorkspace) -> TraitDimensions {
        guard isCompiledFile(path) else { return workspace.dimensions(forThemeAt: path) }
        return (try? CompiledTheme(contentsOf: path))?.dimensions ?? workspace.schemaDimensions
    }

    /// Parses `ipad,dark` into a trait set (`TraitDimensions.traits(list:)`); the error names
    /// the bad tag and lists the known ones.
    public static func traits(_ text: String?, dimensions: TraitDimensions = .standard) throws(TraitParseError)
        -> TraitSet
    {
        do {
            return try dimensions.traits(list: text)
        } catch {
            throw TraitParseError(message: dimensions.message(for: error))
        }
    }
}

public struct TraitParseError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
