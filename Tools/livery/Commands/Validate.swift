import ArgumentParser
import LiveryModel
import LiveryTooling
import LiveryXML

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check theme folders (or folders of theme folders) for every trait set.",
        discussion: "Exits 0 when there are no errors (warnings allowed), 1 otherwise.")

    @Argument(help: ArgumentHelp("Theme folders, or folders holding theme folders.", valueName: "PATH"))
    var paths: [String]

    @OptionGroup var themes: ThemeOptions

    @Option(help: "Diagnostics as text lines, a JSON array or a SARIF log (all on stderr).")
    var format: DiagnosticFormat = .text

    func run() throws {
        let workspace = themes.workspace()
        let progress = ProgressLine.forStandardError()
        let diagnostics = workspace.validate(paths: paths) { done, total, path in
            if total > 1 { progress.update(done, of: total, "validating \(path)") }
        }
        progress.finish()
        DiagnosticPrinter(format: format).print(diagnostics)
        if format == .text {
            let checked = paths.flatMap { workspace.isNamedTheme($0) ? [$0] : workspace.themeFolders(in: $0) }
            let errors = diagnostics.filter { $0.severity == .error }.count
            let warnings = diagnostics.count - errors
            print("\(errors == 0 ? "ok" : "failed"): \(checked.count) theme\(checked.count == 1 ? "" : "s") checked, \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")")
        }
        if diagnostics.hasErrors { throw ExitCode.failure }
    }
}
