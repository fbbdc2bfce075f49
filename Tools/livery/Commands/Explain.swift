import ArgumentParser
import LiveryModel
import LiveryThemeCommands
import LiveryTooling
import LiveryXML

/// Provenance: why an instance looks as it does.
struct Explain: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show where each effective operation of an instance comes from.",
        discussion: """
            For every effective operation: its value, the theme, file:line, instance or class and layer \
            it is written in, the constants its value comes through, and what it overrode. Exits 1 when \
            the theme has errors or no such instance for the traits.
            """)

    @Argument(help: ArgumentHelp("A theme folder.", valueName: "THEME"))
    var theme: String

    @Argument(help: ArgumentHelp("An instance identifier, e.g. button_send.", valueName: "IDENTIFIER"))
    var identifier: String

    @Option(help: ArgumentHelp("Active traits, comma-separated (e.g. ipad,dark).", valueName: "T,T"))
    var traits: String?

    @OptionGroup var themes: ThemeOptions

    @Option(help: "Output as text or JSON (on stdout).")
    var format: OutputFormat = .text

    func run() throws {
        let workspace = themes.workspace()
        let dimensions = ThemeSource.dimensions(at: theme, workspace: workspace)
        let traitSet: TraitSet
        do { traitSet = try ThemeSource.traits(traits, dimensions: dimensions) } catch {
            throw ValidationError(error.message)
        }
        let result = workspace.explain(themeAt: theme, identifier: identifier, traits: traitSet)
        DiagnosticPrinter().print(result.diagnostics)
        guard let explanation = result.value else {
            if !result.diagnostics.hasErrors {
                let known = workspace.resolve(themeAt: theme, traits: traitSet).value?.instances.map(\.id) ?? []
                let hint = Suggestions.closest(to: identifier, in: known).map { "; did you mean '\($0)'?" } ?? ""
                writeError(
                    "error: no instance '\(identifier)' in \(theme) with \(traitSet.isEmpty ? "no traits" : "traits \(dimensions.description(of: traitSet))")\(hint)\n"
                )
            }
            throw ExitCode.failure
        }
        switch format {
        case .text: print(ExplainText.render(explanation), terminator: "")
        case .json: print(ExplainText.json(explanation).rendered())
        }
    }
}

/// Output of the reporting commands (diagnostics keep their own `--format`).
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}
