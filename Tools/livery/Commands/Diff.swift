import ArgumentParser
import LiveryModel
import LiveryThemeCommands
import LiveryTooling
import LiveryXML

/// What changed between two versions of a theme, for code review in CI.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List instances added and removed and operations changed between two themes.",
        discussion: """
            OLD and NEW are theme folders or compiled files, in any mix. Without --traits every trait set \
            either theme distinguishes is compared, and each change says where it happens (all traits, \
            with dark, ...). Where both are folders, derived colours that change are listed first, with \
            their derivation before and after. Exits 0 whether or not there are differences (1 for errors); add \
            --exit-code to exit 2 when there are differences.
            """)

    @Argument(help: ArgumentHelp("The old theme: a folder or a compiled file.", valueName: "OLD"))
    var old: String

    @Argument(help: ArgumentHelp("The new theme: a folder or a compiled file.", valueName: "NEW"))
    var new: String

    @Option(help: ArgumentHelp("Compare one trait set only, comma-separated (e.g. ipad,dark).", valueName: "T,T"))
    var traits: String?

    @OptionGroup var themes: ThemeOptions

    @Option(help: "Output as text or JSON (on stdout).")
    var format: OutputFormat = .text

    @Flag(help: "Exit 2 when the themes differ, like `git diff --exit-code`.")
    var exitCode = false

    func run() throws {
        let workspace = themes.workspace()
        // the trait set is named with the new theme's dimensions, which name the differences too
        let dimensions = ThemeSource.dimensions(at: new, workspace: workspace)
        var traitSet: TraitSet?
        if let traits {
            do { traitSet = try ThemeSource.traits(traits, dimensions: dimensions) } catch {
                throw ValidationError(error.message)
            }
        }
        let before = ThemeSource.variants(at: old, workspace: workspace)
        let after = ThemeSource.variants(at: new, workspace: workspace)
        DiagnosticPrinter().print(
            Array(Set(before.diagnostics + after.diagnostics).filter { $0.severity == .error }).sorted())
        guard let oldTheme = before.value, let newTheme = after.value else { throw ExitCode.failure }
        var diff = ThemeDiff.compare(oldTheme, newTheme, traits: traitSet)
        // derived colours are named where both sides are folders (a compiled file keeps no constants)
        if let before = ThemeDiff.constants(ofThemeAt: old, traitSets: diff.traitSets, workspace: workspace),
            let after = ThemeDiff.constants(ofThemeAt: new, traitSets: diff.traitSets, workspace: workspace)
        {
            diff.addDerivedColors(old: before, new: after)
        }
        switch format {
        case .text: print(diff.text(oldLabel: old, newLabel: new), terminator: "")
        case .json: print(diff.json().rendered())
        }
        if exitCode && !diff.isEmpty { throw ExitCode(2) }
    }
}
