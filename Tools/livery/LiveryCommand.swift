import ArgumentParser
import LiveryThemeCommands

/// `livery`: validates, compiles and inspects Livery themes, and packs, serves and installs them.
/// Exit codes: 0 success, 1 errors in the input (diagnostics on stderr), 64 usage errors. The
/// theme commands live in `LiveryThemeCommands`, which the lean `livery-build-tool` shares.
@main
struct LiveryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livery",
        abstract: "Validate, compile, inspect, preview, explain, compare, pack, serve and install Livery themes.",
        version: "livery \(LiveryVersion.tool) (theme format \(LiveryVersion.format))",
        subcommands: [
            Validate.self, Compile.self, Dump.self, Inspect.self, Build.self,
            Watch.self, Preview.self, Explain.self, Diff.self, GenerateSwift.self,
            Pack.self, Catalog.self, Serve.self, Install.self, Uninstall.self, List.self, Keys.self,
            Tokens.self, Studio.self, LanguageServerCommand.self,
        ]
    )
}
