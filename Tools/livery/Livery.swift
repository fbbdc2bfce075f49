import ArgumentParser

/// `livery`: validates, compiles and inspects Livery themes. Exit codes: 0 success,
/// 1 errors in the input (diagnostics on stderr), 64 usage errors.
@main
struct Livery: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "livery",
        abstract: "Validate, compile, inspect, preview, explain, compare, pack, serve and install Livery themes.",
        version: "livery \(version) (theme format 1.1)",
        subcommands: [Validate.self, Compile.self, Dump.self, Inspect.self, BenchmarkLoad.self, Build.self,
                      Watch.self, Preview.self, Explain.self, Diff.self, GenerateSwift.self,
                      Pack.self, Catalog.self, Serve.self, Install.self, Uninstall.self, List.self, Keys.self,
                      Tokens.self, Studio.self]
    )

    /// The tool's version: `livery --version`, and the SARIF driver's version.
    static let version = "0.1.0"
}
