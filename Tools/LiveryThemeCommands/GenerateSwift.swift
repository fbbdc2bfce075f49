import ArgumentParser
import Foundation
import LiveryModel
import LiveryTooling
import LiveryXML

/// Typed identifiers: Swift constants for what themes define, so typos fail to compile.
package struct GenerateSwift: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        commandName: "generate-swift",
        abstract: "Write Swift constants for the instance identifiers, classes and constants of themes.",
        discussion: """
            Validates the themes first (every trait set) and writes nothing when they have errors. \
            Instance identifiers are grouped by component type (ThemeIdentifiers.UIButton.buttonSend) and \
            also added to String, so `applicator.style(button, as: .buttonSend)` compiles and a typo does \
            not. The file is only rewritten when its content changes. Exits 0 / 1.
            """)

    @Argument(help: ArgumentHelp("Theme folders, or folders holding theme folders.", valueName: "THEME"))
    var paths: [String]

    @Option(name: .shortAndLong, help: ArgumentHelp("The Swift file to write.", valueName: "FILE"))
    var output: String

    @Option(help: "Access level of the generated declarations.")
    var accessLevel: AccessLevel = .internal

    @Flag(help: "Leave out the `extension String` shorthands.")
    var noStringExtension = false

    @OptionGroup var themes: ThemeOptions

    @Option(help: "Diagnostics as text lines, a JSON array or a SARIF log (all on stderr).")
    var format: DiagnosticFormat = .text

    enum AccessLevel: String, ExpressibleByArgument, CaseIterable {
        case `internal`, `public`
    }

    package func run() throws {
        let generator = SwiftIdentifiers(
            accessLevel: accessLevel == .public ? .public : .internal,
            stringExtension: !noStringExtension)
        let result = generator.generate(themesAt: paths, workspace: themes.workspace())
        DiagnosticPrinter(format: format).print(result.diagnostics)
        guard let generated = result.value else { throw ExitCode.failure }
        do {
            try generated.write(to: output)
        } catch {
            writeError("\(output): error: cannot write the file: \(error.localizedDescription)\n")
            throw ExitCode.failure
        }
        let (names, ids) = (generated.names, generated.themes)
        if format == .text {
            print(
                "wrote \(output): \(names.instances.count) identifiers, \(names.classes.count) classes, \(names.constants.count) constants from \(ids.count) theme\(ids.count == 1 ? "" : "s")"
            )
        }
    }
}
