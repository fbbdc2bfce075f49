import ArgumentParser
import Foundation
import LiveryCompiler
import LiveryModel
import LiveryTooling
import LiveryXML

/// `livery-build-tool`: what the build-tool plugin runs on every build of an app with themes.
/// The same library calls as `livery generate-swift` and `livery compile`, in an executable
/// that links only the front end and the compiler: building an app must not compile the CLI's
/// catalog server (Hummingbird, NIO) or its package store. Findings go to stderr as
/// `file:line:col: error: message [code]` lines, which the build shows; exit 1 on errors.
@main
struct BuildTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livery-build-tool",
        abstract: "Validate and compile themes and generate Swift identifiers, for the Livery build plugin.",
        subcommands: [GenerateSwiftStep.self, CompileStep.self])
}

/// Options both steps take.
struct SearchOptions: ParsableArguments {
    @Option(name: .customLong("themes"), help: ArgumentHelp("A folder searched for parent themes (repeatable).", valueName: "DIR"))
    var themeFolders: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("The file to write.", valueName: "FILE"))
    var output: String

    var workspace: ThemeWorkspace { ThemeWorkspace(searchPaths: themeFolders) }
}

func report(_ diagnostics: [Diagnostic]) {
    for diagnostic in diagnostics { FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8)) }
}

struct GenerateSwiftStep: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-swift", abstract: "Write Swift constants for the themes' identifiers, classes and constants.")

    @Argument(help: ArgumentHelp("Theme folders.", valueName: "THEME"))
    var paths: [String]

    @OptionGroup var options: SearchOptions

    func run() throws {
        let result = SwiftIdentifiers().generate(themesAt: paths, workspace: options.workspace)
        report(result.diagnostics)
        guard let generated = result.value else { throw ExitCode.failure }
        do {
            try generated.write(to: options.output)
        } catch {
            report([.error(.compileWriteFailed, "cannot write the file: \(error.localizedDescription)",
                           at: SourceLocation(file: options.output))])
            throw ExitCode.failure
        }
    }
}

struct CompileStep: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile", abstract: "Validate a theme, then write it compiled for every trait set.")

    @Argument(help: ArgumentHelp("A theme folder.", valueName: "THEME"))
    var theme: String

    @OptionGroup var options: SearchOptions

    func run() throws {
        let result = ThemeCompiler.compile(themeAt: theme, workspace: options.workspace)
        report(result.diagnostics)
        guard let bytes = result.value else { throw ExitCode.failure }
        do {
            try ThemeCompiler.writeAtomically(bytes, to: options.output)
        } catch {
            report([.error(.compileWriteFailed, "cannot write the compiled theme: \(error.localizedDescription)",
                           at: SourceLocation(file: options.output))])
            throw ExitCode.failure
        }
    }
}
