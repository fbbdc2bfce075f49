import ArgumentParser
import Foundation
import LiveryStore
import LiveryStoreDevelopment
import LiveryThemeCommands

struct Pack: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a theme and pack it into a distributable package (.liverypkg).",
        discussion: """
            The package is a zip: manifest.json (id, name, version, parent and its minimum version, \
            package format version, size and SHA-256 of every file, and for each compiled file its \
            format version and the id, version and source digest of every theme it was compiled \
            from), content/ (the theme's files, for tools and development), compiled/v<N>.livery \
            (the theme compiled against the parents --themes finds: what apps install) and store/ \
            (optional thumbnail, previews and sprite for the catalog). Nothing is written when the \
            theme has errors. Exits 0 on success, 1 on errors.
            """)

    @Argument(help: ArgumentHelp("A theme folder.", valueName: "THEME"))
    var theme: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The package file to write, e.g. Ocean-1.0.0.liverypkg.", valueName: "FILE"))
    var output: String

    @OptionGroup var themes: ThemeOptions

    @Option(
        help: ArgumentHelp(
            "The oldest parent version the theme works with (default: the parent's version now).", valueName: "VERSION")
    )
    var parentMinimumVersion: String?

    @Option(
        help: ArgumentHelp(
            "A compiled file of the same theme made elsewhere, packed beside (another format version, or compiled against another parent version; repeatable).",
            valueName: "FILE"))
    var alsoCompiled: [String] = []

    @Option(help: ArgumentHelp("A thumbnail image for the catalog.", valueName: "FILE"))
    var thumbnail: String?

    @Option(help: ArgumentHelp("A preview image for the product page (repeatable).", valueName: "FILE"))
    var preview: [String] = []

    @Option(help: ArgumentHelp("One image with several previews side by side.", valueName: "FILE"))
    var sprite: String?

    @OptionGroup var report: ReportOptions

    func run() throws {
        let media = PackageBuilder.Media(thumbnail: thumbnail, previews: preview, sprite: sprite)
        let result = PackageBuilder.pack(
            themeAt: theme, workspace: themes.workspace(), output: output, media: media,
            parentMinimumVersion: parentMinimumVersion, alsoCompiled: alsoCompiled)
        let reporter = Reporter(options: report)
        let failed = reporter.finish(reporter.configured(result.diagnostics, paths: [theme]))
        guard let manifest = result.value, !failed else { throw ExitCode.failure }
        let size = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        let parent = manifest.parent.map { ", parent \($0.id) >= \($0.minimumVersion)" } ?? ""
        let compiled = (manifest.compiled ?? []).map { "v\($0.formatVersion) (\($0.size) bytes)" }
        let sources = manifest.contentFiles.count
        DiagnosticPrinter(format: report.format).say(
            "packed \(manifest.id) \(manifest.version)\(parent): \(sources) files, compiled \(compiled.joined(separator: ", ")), \(size) bytes -> \(output)"
        )
    }
}
