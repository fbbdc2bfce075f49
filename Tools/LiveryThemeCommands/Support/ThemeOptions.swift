import ArgumentParser
import LiveryXML

/// Options every command that reads themes shares.
package struct ThemeOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("themes"),
        help: ArgumentHelp("A folder searched for parent themes (repeatable).", valueName: "DIR"))
    package var themeFolders: [String] = []

    @Option(
        name: .customLong("schema"),
        help: ArgumentHelp("A <components> schema file adding component types (repeatable).", valueName: "FILE"))
    package var schemaFiles: [String] = []

    package func workspace() -> ThemeWorkspace {
        ThemeWorkspace(searchPaths: themeFolders, schemaFiles: schemaFiles)
    }
}

package enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
    /// SARIF 2.1.0, for CI systems that annotate pull requests (`> livery.sarif`, or `--report livery.sarif`).
    case sarif
}
