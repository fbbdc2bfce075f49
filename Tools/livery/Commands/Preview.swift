import ArgumentParser
import Foundation
import LiveryModel
import LiveryThemeCommands
import LiveryTooling
import LiveryXML

/// A visual preview page of a theme, or of two side by side.
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a self-contained HTML page drawing every instance of a theme.",
        discussion: """
            The page shows the constants as a palette and every instance drawn as its component type \
            (background, border, corner radius, shadow, text colour and font, images, per-state variants), \
            grouped by component type, with its values beside it. Images are inlined. --compare takes \
            another theme folder (same traits) or other traits (same theme) and puts the two side by \
            side, outlining what differs. Exits 0 / 1.
            """)

    @Argument(help: ArgumentHelp("A theme folder.", valueName: "THEME"))
    var theme: String

    @Option(help: ArgumentHelp("Active traits, comma-separated (e.g. ipad,dark).", valueName: "T,T"))
    var traits: String?

    @Option(
        help: ArgumentHelp(
            "Another theme folder, or other traits (e.g. dark), to show side by side.", valueName: "THEME|T,T"))
    var compare: String?

    @Option(help: "Screen scale used to choose image files.")
    var scale: Int = 2

    @Option(name: .shortAndLong, help: ArgumentHelp("The HTML file to write.", valueName: "FILE.html"))
    var output: String

    @Flag(help: "Leave out the composed screen and its trait matrix.")
    var noScreen = false

    @Option(
        help: ArgumentHelp("The text scale the screen opens at: 1, 1.5, 2 or 3 (the page can switch).", valueName: "S"))
    var textScale: Double = 1

    @OptionGroup var themes: ThemeOptions

    func validate() throws {
        guard (1...9).contains(scale) else { throw ValidationError("--scale must be between 1 and 9") }
        guard PreviewScreen.textScales.contains(textScale) else {
            throw ValidationError("--text-scale must be 1, 1.5, 2 or 3")
        }
    }

    /// A trait list read with the theme's dimensions, app-defined ones included.
    func traitSet(_ text: String?, dimensions: TraitDimensions, compare: Bool = false) throws -> TraitSet {
        do { return try ThemeSource.traits(text, dimensions: dimensions) } catch {
            throw ValidationError(
                compare
                    ? "--compare takes a theme folder or traits; '\(text ?? "")' is neither: \(error.message)"
                    : error.message)
        }
    }

    /// The composed screen for each trait set of the matrix (PreviewScreen), for one theme; none
    /// when comparing, or with --no-screen.
    func screen(workspace: ThemeWorkspace, traits: TraitSet) -> String {
        guard compare == nil, !noScreen, let schema = workspace.schema(forThemeAt: theme) else { return "" }
        let sides = PreviewScreen.matrix(for: traits).compactMap {
            PreviewSide.load(themeAt: theme, traits: $0, scale: scale, workspace: workspace).value
        }
        return PreviewScreen.section(sides, schema: schema, textScale: textScale)
    }

    func run() throws {
        let workspace = themes.workspace()
        let dimensions = workspace.dimensions(forThemeAt: theme)
        let traitSet = try self.traitSet(traits, dimensions: dimensions)
        var requests = [(theme, traitSet)]
        if let compare {
            if FileManager.default.fileExists(atPath: compare) {
                requests.append((compare, traitSet))
            } else {
                requests.append((theme, try self.traitSet(compare, dimensions: dimensions, compare: true)))
            }
        }
        var sides: [PreviewSide] = []
        var failed = false
        var hasErrors = false
        for (path, traits) in requests {
            // a theme with errors is drawn as far as it resolves, its findings at the top
            let result = PreviewSide.load(
                themeAt: path, traits: traits, scale: scale, workspace: workspace, keepingWhatResolves: true)
            DiagnosticPrinter().print(result.diagnostics.filter { $0.severity == .error })
            hasErrors = hasErrors || result.diagnostics.hasErrors
            if let side = result.value { sides.append(side) } else { failed = true }
        }
        if failed { throw ExitCode.failure }
        let html = PreviewPage.render(sides, screen: screen(workspace: workspace, traits: traitSet))
        do {
            try FileManager.default.createDirectory(
                atPath: (output as NSString).deletingLastPathComponent.isEmpty
                    ? "." : (output as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try html.write(toFile: output, atomically: true, encoding: .utf8)
        } catch {
            writeError("\(output): error: cannot write the file: \(error.localizedDescription)\n")
            throw ExitCode.failure
        }
        let instances = Set(sides.flatMap { $0.theme.instances.map(\.id) }).count
        print(
            "wrote \(output): \(instances) instances, \(sides[0].constants.count) constants\(sides.count == 2 ? ", 2 columns" : ""), \(html.utf8.count) bytes"
        )
        if hasErrors { throw ExitCode.failure }
    }
}
