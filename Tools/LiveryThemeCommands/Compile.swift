import ArgumentParser
import LiveryBinary
import LiveryCompiler
import LiveryModel
import LiveryXML

package struct Compile: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Validate a theme, then write it compiled for every trait set.",
        discussion:
            "The file is written atomically (a temporary file renamed over FILE); nothing is written when the theme has errors. Exits 0 on success, 1 on errors."
    )

    @Argument(help: ArgumentHelp("A theme folder.", valueName: "THEME"))
    var theme: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The compiled file to write.", valueName: "FILE"))
    var output: String

    @OptionGroup var themes: ThemeOptions

    @OptionGroup var report: ReportOptions

    @OptionGroup var strictness: StrictOption

    @Flag(
        help:
            "Before writing, check that the compiled theme reads back exactly as the folder resolves, for every trait set, and that images pick the same files at scales 1-3."
    )
    var verify = false

    package func run() throws {
        let reporter = Reporter(options: report, strict: strictness.strict)
        let result = ThemeCompiler.compilation(themeAt: theme, workspace: themes.workspace())
        var diagnostics = reporter.configured(result.diagnostics, paths: [theme])
        // Nothing is written when the run fails: on errors, or on warnings under --strict.
        guard let compilation = result.value, !(strictness.strict && !diagnostics.isEmpty) else {
            _ = reporter.finish(diagnostics)
            throw ExitCode.failure
        }
        if verify {
            if let mismatch = ThemeCompiler.firstMismatch(compilation.bytes, variants: compilation.variants) {
                _ = reporter.finish(diagnostics + [.error(.compiledInvalid, mismatch, at: SourceLocation(file: theme))])
                throw ExitCode.failure
            }
            DiagnosticPrinter(format: report.format).say(
                "verified: \(TraitAxes.all.traitSets.count) trait sets read back value for value as the folder resolves them (every text scale), and every image picks the same file at scales 1-3"
            )
        }
        do {
            try ThemeCompiler.writeAtomically(compilation.bytes, to: output)
        } catch {
            diagnostics.append(
                .error(
                    .compileWriteFailed, "cannot write the compiled theme: \(error.localizedDescription)",
                    at: SourceLocation(file: output)))
        }
        if reporter.finish(diagnostics) { throw ExitCode.failure }
    }
}
