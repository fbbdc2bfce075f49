import ArgumentParser
import Foundation
import LiveryModel
import LiveryTooling
import LiveryXML

package struct Validate: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Check theme folders (or folders of theme folders) for every trait set.",
        discussion: "Exits 0 when there are no errors (warnings allowed), 1 otherwise.")

    @Argument(help: ArgumentHelp("Theme folders, or folders holding theme folders.", valueName: "PATH"))
    var paths: [String]

    @OptionGroup var themes: ThemeOptions

    @OptionGroup var report: ReportOptions

    @OptionGroup var strictness: StrictOption

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the diagnostics to FILE instead of stderr (the same as --report).", valueName: "FILE")
    )
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Check up to N themes at a time, on as many threads (default: the number of cores). The findings and their order do not depend on N.",
            valueName: "N"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    package func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    package func run() throws {
        let workspace = themes.workspace()
        workspace.collectsChoices = false
        let progress = ProgressLine.forStandardError()
        let found = workspace.validate(paths: paths, jobs: jobs) { done, total, path in
            if total > 1 { progress.update(done, of: total, "validating \(path)") }
        }
        progress.finish()
        let reporter = Reporter(options: report, strict: strictness.strict, file: output)
        let diagnostics = reporter.configured(found, paths: paths)
        let failed = reporter.finish(diagnostics)
        if report.format == .text && report.writeBaseline == nil {
            let checked = paths.flatMap { workspace.isNamedTheme($0) ? [$0] : workspace.themeFolders(in: $0) }
            let errors = diagnostics.filter { $0.severity == .error }.count
            let warnings = diagnostics.count - errors
            print(
                "\(failed ? "failed" : "ok"): \(checked.count) theme\(checked.count == 1 ? "" : "s") checked, \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            )
        }
        if failed { throw ExitCode.failure }
    }
}
