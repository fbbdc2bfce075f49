import ArgumentParser
import LiveryCompiler
import LiveryModel

struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a theme, then write it compiled for every trait set.",
        discussion: "The file is written atomically (a temporary file renamed over FILE); nothing is written when the theme has errors. Exits 0 on success, 1 on errors.")

    @Argument(help: ArgumentHelp("A theme folder.", valueName: "THEME"))
    var theme: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The compiled file to write.", valueName: "FILE"))
    var output: String

    @OptionGroup var themes: ThemeOptions

    @Option(help: "Diagnostics as text lines or a JSON array (both on stderr).")
    var format: DiagnosticFormat = .text

    func run() throws {
        let printer = DiagnosticPrinter(format: format)
        let result = ThemeCompiler.compile(themeAt: theme, workspace: themes.workspace())
        guard let bytes = result.value else {
            printer.print(result.diagnostics)
            throw ExitCode.failure
        }
        do {
            try ThemeCompiler.writeAtomically(bytes, to: output)
        } catch {
            printer.print(result.diagnostics + [
                .error(.compileWriteFailed, "cannot write the compiled theme: \(error.localizedDescription)",
                       at: SourceLocation(file: output)),
            ])
            throw ExitCode.failure
        }
        printer.print(result.diagnostics)
    }
}
