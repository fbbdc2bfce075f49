import ArgumentParser
import Foundation
import LiveryLanguageServer
import LiveryThemeCommands

/// `livery lsp`: the language server editors start (docs/Editors.md).
struct LanguageServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsp",
        abstract: "Run the language server editors use (LSP over stdin and stdout).",
        discussion: """
            Speaks the Language Server Protocol on stdin and stdout: diagnostics as you type, completion, \
            hover, go to definition, references, symbols, rename, quick fixes and colour pickers for the \
            themes in the editor's workspace folders. Parent themes are also looked for in --themes folders, \
            in the client's initializationOptions and in a .livery-lsp.json at a workspace folder's top \
            (docs/Editors.md). Exits 0 after the client's shutdown and exit.
            """)

    @OptionGroup var themes: ThemeOptions

    @Flag(help: .hidden)
    var stdio = false  // what some clients pass by habit (`--stdio`); stdio is the only transport

    func run() throws {
        let server = LanguageServer(
            options: LanguageServerOptions(themeFolders: themes.themeFolders, schemaFiles: themes.schemaFiles))
        let status = server.run()
        if status != 0 { throw ExitCode(status) }
    }
}
