import ArgumentParser
import LiveryBinary
import LiveryCompiler
import LiveryModel
import LiveryXML

struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a theme, then write it compiled for every trait set.",
        discussion: "The file is written atomically (a temporary file renamed over FILE); nothing is written when the theme has errors. Exits 0 on success, 1 on errors.")

    @Argument(help: ArgumentHelp("A theme folder.", valueName: "THEME"))
    var theme: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The compiled file to write.", valueName: "FILE"))
    var output: String

    @OptionGroup var themes: ThemeOptions

    @Option(help: "Diagnostics as text lines, a JSON array or a SARIF log (all on stderr).")
    var format: DiagnosticFormat = .text

    @Flag(help: "Before writing, check that the compiled theme dumps exactly like the folder for every trait set and scales 1-3.")
    var verify = false

    func run() throws {
        let printer = DiagnosticPrinter(format: format)
        let result = ThemeCompiler.compile(themeAt: theme, workspace: themes.workspace())
        guard let bytes = result.value else {
            printer.print(result.diagnostics)
            throw ExitCode.failure
        }
        if verify {
            if let mismatch = Self.firstMismatch(bytes, themeAt: theme, workspace: themes.workspace()) {
                printer.print(result.diagnostics + [.error(.compiledInvalid, mismatch, at: SourceLocation(file: theme))])
                throw ExitCode.failure
            }
            print("verified: \(TraitAxes.all.traitSets.count) trait sets x 3 scales and 3 text scales dump identically from the folder and the compiled file")
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
                for scale in 1...3
                where CanonicalJSON.dump(model.resolved(for: traits), scale: scale) != CanonicalJSON.dump(folder, scale: scale) {
                    return "the compiled theme dumps differently from the folder for \(traits) at scale \(scale)"
                }
                // Text scales reach fonts only (max-size, scaling): one screen scale is enough.
                for textScale in [0.5, 1.5, 3]
                where CanonicalJSON.dump(model.resolved(for: traits), textScale: textScale) != CanonicalJSON.dump(folder, textScale: textScale) {
                    return "the compiled theme dumps differently from the folder for \(traits) at text scale \(textScale)"
                }
            }
            return nil
        } catch {
            return "the compiled bytes do not read back: \(error)"
        }
    }
}
