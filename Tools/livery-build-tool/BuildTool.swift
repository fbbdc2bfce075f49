import ArgumentParser
import LiveryThemeCommands

/// `livery-build-tool`: the theme commands of `livery` (validate, compile, dump, inspect, build,
/// generate-swift) in an executable that links only the front end, the compiler and the tooling.
/// The build-tool plugin runs it on every build of an app with themes, and the main job
/// (`Scripts/build-themes.sh`) runs it, so neither compiles the store's HTTP client or the
/// catalog server. Same arguments, output and exit codes as `livery`'s commands.
@main
struct BuildTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livery-build-tool",
        abstract: "Validate, compile and inspect themes and generate Swift identifiers: livery's theme commands.",
        version: "livery-build-tool \(LiveryVersion.tool) (theme format \(LiveryVersion.format))",
        subcommands: [Validate.self, Compile.self, Dump.self, Inspect.self, Build.self, GenerateSwift.self])
}
