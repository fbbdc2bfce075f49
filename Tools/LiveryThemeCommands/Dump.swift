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

    @Option(
        name: .customLong("override"),
        help: ArgumentHelp(
            "A value for an overridable constant, written as its XML text (accent=#00AA88, radius=12); repeatable.",
            valueName: "NAME=VALUE"))
    var overrides: [String] = []

    @OptionGroup var themes: ThemeOptions

    package func validate() throws {
        _ = try givenOverrides()
        guard (1...9).contains(scale) else { throw ValidationError("--scale must be between 1 and 9") }
        guard TextScale.range.contains(textScale) else {
            throw ValidationError("--text-scale must be between 0.5 and 4")
        }
    }

    /// `--traits` read with the theme's dimensions (app-defined ones included): a usage error
    /// lists the tags the theme knows.
    func traitSet(_ dimensions: TraitDimensions) throws -> TraitSet {
        do {
            return try dimensions.traits(list: traits)
        } catch {
            throw ValidationError(dimensions.message(for: error))
        }
    }

    /// `--override NAME=VALUE` pairs in the order given; a later one of a name wins.
    func givenOverrides() throws -> [(name: String, text: String)] {
        try overrides.map { pair in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ValidationError("--override takes NAME=VALUE (e.g. accent=#00AA88), not '\(pair)'")
            }
            return (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
        }
    }

    /// The values given, read as the types of the theme's overridable constants; a name that is
    /// not one of them, or a value that does not read, is a usage error naming them.
    func overrideValues(workspace: ThemeWorkspace) throws -> [String: Value] {
        guard !overrides.isEmpty else { return [:] }
        let constants = (workspace.overridableConstants(ofThemeAt: source) ?? []).map {
            ChoiceConstant(name: $0.name, type: $0.type)
        }
        return try overrideValues(constants: constants)
    }

    /// The same for a theme whose overridable constants are `constants` (a compiled file's).
    func overrideValues(constants: [ChoiceConstant]) throws -> [String: Value] {
        let given = try givenOverrides()
        guard !given.isEmpty else { return [:] }
        let offered =
            constants.isEmpty
            ? "the theme has no overridable constants (a constant is with overridable=\"true\")"
            : "its overridable constants are "
                + constants.map { "\($0.name) (\($0.type.rawValue))" }.joined(separator: ", ")
        var values: [String: Value] = [:]
        for (name, text) in given {
            guard let constant = constants.first(where: { $0.name == name }) else {
                throw ValidationError("--override \(name): not an overridable constant of this theme; \(offered)")
            }
            switch ThemeWorkspace.overrideValue(text, type: constant.type) {
            case .success(let value): values[name] = value
            case .failure(let problem):
                throw ValidationError("--override \(name)=\(text): \(problem.message)")
            }
        }
        return values
    }

    package func run() throws {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), !isFolder.boolValue {
            let compiled = try CompiledFile.open(source)
            do {
                let values = try overrideValues(constants: try compiled.choiceConstants())
                let variants = try compiled.materialize()
                let theme: ResolvedTheme
                do {
                    theme = try variants.resolved(for: try traitSet(variants.dimensions), overriding: values)
                } catch let problem as ChoiceProblem {
                    DiagnosticPrinter().print([
                        .error(
                            .compiledInvalid,
                            "--override \(problem.constants.joined(separator: ", ")): instance '\(problem.id)': \(problem.message)",
                            at: SourceLocation(file: source))
                    ])
                    throw ExitCode.failure
                }
                print(CanonicalJSON.dump(theme, scale: scale, textScale: textScale), terminator: "")
            } catch let error as BinaryFormatError {
                DiagnosticPrinter().print([
                    .error(.compiledInvalid, error.description, at: SourceLocation(file: source))
                ])
                throw ExitCode.failure
            }
            return
        }
        let workspace = themes.workspace()
        let values = try overrideValues(workspace: workspace)
        let traitSet = try traitSet(workspace.dimensions(forThemeAt: source))
        let result =
            values.isEmpty
            ? workspace.resolve(themeAt: source, traits: traitSet)
            : workspace.resolve(themeAt: source, traits: traitSet, overriding: values)
        DiagnosticPrinter().print(result.diagnostics)
        guard let theme = result.value else { throw ExitCode.failure }
        print(CanonicalJSON.dump(theme, scale: scale, textScale: textScale), terminator: "")
    }
}
