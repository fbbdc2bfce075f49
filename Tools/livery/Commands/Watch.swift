import ArgumentParser
import Foundation
import LiveryModel
import LiveryThemeCommands
import LiveryTooling
import LiveryXML

/// Re-validates themes on every save: for designers without an app at hand.
struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate themes, then again on every save, printing the diagnostics.",
        discussion: """
            Watches the theme folders, their parents' folders and the schema files (by polling file sizes \
            and modification times every --interval seconds) and re-validates after each change. Runs until \
            interrupted (Ctrl-C).
            """)

    @Argument(help: ArgumentHelp("Theme folders, or folders holding theme folders.", valueName: "PATH"))
    var paths: [String]

    @OptionGroup var themes: ThemeOptions

    @OptionGroup var report: ReportOptions

    @Option(help: "Seconds between looks at the files.")
    var interval: Double = 0.25

    @Option(help: .hidden)
    var maxRuns: Int?

    func validate() throws {
        guard interval > 0, interval <= 60 else { throw ValidationError("--interval must be between 0 and 60 seconds") }
    }

    func run() throws {
        var watcher = SourceWatcher(roots: roots(), interval: interval)
        var hasErrors = check(reason: "checking")
        var runs = 1
        while maxRuns.map({ runs < $0 }) ?? true {
            let changed = watcher.waitForChange()
            let names = changed.map(watcher.display)
            let reason =
                "changed: "
                + (names.count > 3
                    ? names.prefix(3).joined(separator: ", ") + " and \(names.count - 3) more"
                    : names.joined(separator: ", "))
            hasErrors = check(reason: reason)
            runs += 1
            let now = roots()
            if now != watcher.roots { watcher = SourceWatcher(roots: now, interval: interval) }
        }
        if hasErrors { throw ExitCode.failure }
    }

    /// The given paths, the folders of every parent theme, and the schema files.
    private func roots() -> [String] {
        let workspace = themes.workspace()
        var roots = paths
        let folders = paths.flatMap { workspace.isThemeFolder($0) ? [$0] : workspace.themeFolders(in: $0) }
        for folder in folders {
            // the whole chain as far as it can be followed, errors or not: a fix in a parent
            // must be seen after a failed run
            for theme in workspace.ancestorFolders(ofThemeAt: folder) where !roots.contains(theme) {
                if !roots.contains(where: { theme.hasPrefix($0 + "/") }) { roots.append(theme) }
            }
        }
        return roots + themes.schemaFiles
    }

    /// One validation with a fresh workspace (nothing cached from before the save); true on errors.
    private func check(reason: String) -> Bool {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        say("[\(formatter.string(from: Date()))] \(reason)")
        let workspace = themes.workspace()
        let reporter = Reporter(options: report)
        let diagnostics = reporter.configured(workspace.validate(paths: paths), paths: paths)
        _ = reporter.finish(diagnostics)
        let checked = paths.flatMap { workspace.isThemeFolder($0) ? [$0] : workspace.themeFolders(in: $0) }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        say(
            "\(errors == 0 ? "ok" : "failed"): \(checked.count) theme\(checked.count == 1 ? "" : "s") checked, \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        )
        return diagnostics.hasErrors
    }
}

/// A line on stdout, written at once (not held in a buffer while the watch waits).
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
