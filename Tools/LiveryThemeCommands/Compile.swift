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
            "Before writing, check that the compiled theme dumps exactly like the folder for every trait set and scales 1-3."
    )
    var verify = false

    package func run() throws {
        let reporter = Reporter(options: report, strict: strictness.strict)
        let result = ThemeCompiler.compile(themeAt: theme, workspace: themes.workspace())
        var diagnostics = reporter.configured(result.diagnostics, paths: [theme])
        // Nothing is written when the run fails: on errors, or on warnings under --strict.
        guard let bytes = result.value, !(strictness.strict && !diagnostics.isEmpty) else {
            _ = reporter.finish(diagnostics)
            throw ExitCode.failure
        }
        if verify {
            if let mismatch = Self.firstMismatch(bytes, themeAt: theme, workspace: themes.workspace()) {
                _ = reporter.finish(diagnostics + [.error(.compiledInvalid, mismatch, at: SourceLocation(file: theme))])
                throw ExitCode.failure
            }
            DiagnosticPrinter(format: report.format).say(
                "verified: \(TraitAxes.all.traitSets.count) trait sets x 3 scales and 3 text scales dump identically from the folder and the compiled file"
            )
        }
        do {
            try ThemeCompiler.writeAtomically(bytes, to: output)
        } catch {
            diagnostics.append(
                .error(
                    .compileWriteFailed, "cannot write the compiled theme: \(error.localizedDescription)",
                    at: SourceLocation(file: output)))
        }
        if reporter.finish(diagnostics) { throw ExitCode.failure }
    }

    /// The proof the issue asks for, runnable by hand: nil when every dump agrees.
    static func firstMismatch(_ bytes: [UInt8], themeAt path: String, workspace: ThemeWorkspace) -> String? {
        do {
            let compiled = try CompiledTheme(bytes: bytes)
            try compiled.verifyContents()
            let model = try compiled.materialize()
            for traits in TraitAxes.all.traitSets {
                guard let folder = workspace.resolve(themeAt: path, traits: traits).value else {
                    return "the folder does not resolve for \(traits)"
                }
                // Bytes, not String ==: Swift's == calls "é" and "e" + U+0301 equal, the format does not.
                for scale in 1...3
                where Array(CanonicalJSON.dump(model.resolved(for: traits), scale: scale).utf8)
                    != Array(CanonicalJSON.dump(folder, scale: scale).utf8)
                {
                    return "the compiled theme dumps differently from the folder for \(traits) at scale \(scale)"
                }
                // Text scales reach fonts only (max-size, scaling): one screen scale is enough.
                for textScale in [0.5, 1.5, 3]
                where CanonicalJSON.dump(model.resolved(for: traits), textScale: textScale)
                    != CanonicalJSON.dump(folder, textScale: textScale)
                {
                    return
                        "the compiled theme dumps differently from the folder for \(traits) at text scale \(textScale)"
                }
            }
            return nil
        } catch {
            return "the compiled bytes do not read back: \(error)"
        }
    }
}
