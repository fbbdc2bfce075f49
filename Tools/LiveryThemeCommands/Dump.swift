import ArgumentParser
import Foundation
import LiveryBinary
import LiveryCompiler
import LiveryModel
import LiveryXML

package struct Dump: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Print a theme resolved for a trait set as canonical JSON.")

    @Argument(help: ArgumentHelp("A theme folder, or a compiled theme file.", valueName: "SOURCE"))
    var source: String

    @Option(help: ArgumentHelp("Active traits, comma-separated (e.g. ipad,dark).", valueName: "T,T"))
    var traits: String?

    @Option(help: "Screen scale used to choose image files (1, 2 or 3...).")
    var scale: Int = 1

    @Option(
        help: ArgumentHelp("The user's text scale (0.5...4): font sizes are printed as applied at it.", valueName: "S"))
    var textScale: Double = TextScale.standard

    @OptionGroup var themes: ThemeOptions

    package func validate() throws {
        _ = try traitSet()
        guard (1...9).contains(scale) else { throw ValidationError("--scale must be between 1 and 9") }
        guard TextScale.range.contains(textScale) else {
            throw ValidationError("--text-scale must be between 0.5 and 4")
        }
    }

    func traitSet() throws -> TraitSet {
        do {
            return try TraitDimensions.standard.traits(list: traits)
        } catch {
            throw ValidationError(TraitDimensions.standard.message(for: error))
        }
    }

    package func run() throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), !isFolder.boolValue {
            let compiled = try CompiledFile.open(source)
            do {
                let theme = try compiled.materialize().resolved(for: try traitSet())
                print(CanonicalJSON.dump(theme, scale: scale, textScale: textScale), terminator: "")
            } catch let error as BinaryFormatError {
                DiagnosticPrinter().print([
                    .error(.compiledInvalid, error.description, at: SourceLocation(file: source))
                ])
                throw ExitCode.failure
            }
            return
        }
        let result = themes.workspace().resolve(themeAt: source, traits: try traitSet())
        DiagnosticPrinter().print(result.diagnostics)
        guard let theme = result.value else { throw ExitCode.failure }
        print(CanonicalJSON.dump(theme, scale: scale, textScale: textScale), terminator: "")
    }
}
