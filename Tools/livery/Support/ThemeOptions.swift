import ArgumentParser
import LiveryXML

/// Options every command that reads themes shares.
struct ThemeOptions: ParsableArguments {
    @Option(name: .customLong("themes"), help: ArgumentHelp("A folder searched for parent themes (repeatable).", valueName: "DIR"))
    var themeFolders: [String] = []

    @Option(name: .customLong("schema"), help: ArgumentHelp("A <components> schema file adding component types (repeatable).", valueName: "FILE"))
    var schemaFiles: [String] = []

    func workspace() -> ThemeWorkspace {
        ThemeWorkspace(searchPaths: themeFolders, schemaFiles: schemaFiles)
    }
}

enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
    /// SARIF 2.1.0, for CI systems that annotate pull requests (`> livery.sarif`, or `--report livery.sarif`).
    case sarif
}
