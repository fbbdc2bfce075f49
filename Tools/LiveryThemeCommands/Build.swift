import ArgumentParser
import Foundation
import LiveryBinary
import LiveryCompiler
import LiveryModel
import LiveryTooling
import LiveryXML

/// The main job in one command: every theme of a folder validated, compiled, checked against its
/// source, and summed up in a table; incrementally (a theme whose output is up to date is not
/// compiled, an output that would not change is not rewritten), on every core, and, for a CI
/// matrix, a stable share of the themes per runner.
package struct Build: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Validate and compile every theme in a folder, proving each compiled file dumps like its source.",
        discussion: """
            Writes OUTPUT/<ThemeFolderName>.livery for each valid theme (atomically), checks that the compiled \
            file dumps exactly like the folder for every trait set at scales 1-3, and prints a summary. A theme \
            whose output is up to date (the same sources, parents, schema files, options and compiler as \
            recorded in OUTPUT/.livery-build/) is not compiled again, and an output whose bytes would not change \
            is not rewritten. Themes with errors are reported and not written; the others are built. Exits 0 \
            when every theme compiled or was up to date, 1 otherwise.
            """)

    @Argument(help: ArgumentHelp("A folder of theme folders (or one theme folder).", valueName: "DIR"))
    var folder: String

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Where the compiled files go (created if needed).", valueName: "DIR"))
    var output: String

    @Flag(help: "Compile every theme, even those whose output is up to date.")
    var force = false

    @Option(help: ArgumentHelp("Themes built at once (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "Build only share I of N of the themes (a CI matrix of N runners; the shares together are the whole build).",
            valueName: "I/N"))
    var shard: BuildShard = .all

    @OptionGroup var themes: ThemeOptions

    @OptionGroup var report: ReportOptions

    @OptionGroup var strictness: StrictOption

    package func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    package func run() throws {
        let reporter = Reporter(options: report, strict: strictness.strict)
        var (paths, diagnostics) = themePaths(reporter: reporter)
        paths = paths.filter { shard.owns(folderName: Self.folderName($0)) }
        do {
            try FileManager.default.createDirectory(
                atPath: output + "/" + BuildStamp.folderName, withIntermediateDirectories: true)
        } catch {
            diagnostics.append(
                .error(
                    .compileWriteFailed, "cannot create the output folder: \(error.localizedDescription)",
                    at: SourceLocation(file: output)))
            paths = []
        }

        let queue = BuildQueue(
            paths: paths, folder: folder, output: output, force: force, strict: strictness.strict, reporter: reporter,
            inputs: BuildInputs(
                strict: strictness.strict, schemaFiles: themes.schemaFiles,
                config: report.config ?? DiagnosticPolicy.find(from: folder), baseline: report.baseline))
        let jobs = min(jobs ?? ProcessInfo.processInfo.activeProcessorCount, max(paths.count, 1))
        queue.run(jobs: jobs, workspace: themes.workspace())
        let outcomes = queue.outcomes

        diagnostics += Self.namingThemes(outcomes)
        let reportFailed = reporter.finish(diagnostics.mergingNotes())
        let failed = outcomes.filter { $0.status == .failed }.count
        let upToDate = outcomes.filter { $0.status == .upToDate }.count
        let printer = DiagnosticPrinter(format: report.format)
        if report.format == .text { writeOutput(Self.table(outcomes)) }
        printer.say(
            (shard == .all ? "" : "shard \(shard): ")
                + "\(outcomes.count) theme\(outcomes.count == 1 ? "" : "s"): \(outcomes.count - upToDate - failed) compiled, \(upToDate) up to date, \(failed) failed; output in \(output)"
        )
        if failed > 0 || reportFailed || diagnostics.hasErrors { throw ExitCode.failure }
    }

    /// The theme folders to build and the findings about the folder as a whole (a clash of ids),
    /// read with a workspace of their own that is gone once they are known.
    private func themePaths(reporter: Reporter) -> ([String], [Diagnostic]) {
        var isDirectory: ObjCBool = false
        let layout = themes.workspace()
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            return (
                [],
                [.error(.pathNotFound, "not a theme folder or a folder of themes", at: SourceLocation(file: folder))]
            )
        }
        if layout.isNamedTheme(folder) { return ([folder], []) }
        return (
            layout.themeFolders(in: folder), reporter.configured(layout.folderFindings(in: folder), paths: [folder])
        )
    }

    /// The findings of every theme, in theme order, each naming the themes it applies to when it
    /// is about more than one, or about a theme other than the folder its file is in (a finding
    /// in the base seen through one child): one finding, its themes listed.
    static func namingThemes(_ outcomes: [ThemeOutcome]) -> [Diagnostic] {
        var themes: [Diagnostic: [ThemeOutcome]] = [:]
        var all: [Diagnostic] = []
        for outcome in outcomes {
            for diagnostic in outcome.diagnostics {
                themes[diagnostic.withoutNotes, default: []].append(outcome)
                all.append(diagnostic)
            }
        }
        return all.mergingNotes().map { diagnostic in
            guard let seen = themes[diagnostic.withoutNotes] else { return diagnostic }
            let file = diagnostic.location?.file ?? ""
            if seen.count == 1, file == seen[0].path || file.hasPrefix(seen[0].path + "/") { return diagnostic }
            let names = seen.map { folderName($0.path) }.sorted()
            var named = diagnostic
            named.notes.append(
                Diagnostic.Note("applies to theme\(names.count == 1 ? "" : "s") \(names.joined(separator: ", "))"))
            return named
        }
    }

    static func folderName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

    static func table(_ outcomes: [ThemeOutcome]) -> String {
        var rows: [[String]] = [
            [
                "theme", "parent", "status", "instances", "variants", "XML bytes*", "compiled bytes*", "ratio",
                "assets",
                "dump check",
            ]
        ]
        for outcome in outcomes {
            guard let row = outcome.summary else {
                rows.append([folderName(outcome.path), "-", outcome.status.rawValue] + Array(repeating: "-", count: 7))
                continue
            }
            rows.append([
                row.id, row.parent ?? "-", outcome.status.rawValue, "\(row.instances)", "\(row.variants)",
                "\(row.xmlBytes)", "\(row.themeBytes)",
                String(format: "%.2f", Double(row.themeBytes) / Double(max(row.xmlBytes, 1))), "\(row.assetBytes)",
                "identical",
            ])
        }
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index <= 2
                    ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
            + "* XML of the theme and its parents, which the compiled file resolves; compiled size without asset bytes\n"
    }
}

/// What building one theme came to: its row in the summary and its findings. No compiled
/// bytes or resolved theme: a build holds only what the themes in flight need.
struct ThemeOutcome: Sendable {
    enum Status: String, Sendable {
        /// Compiled and written.
        case compiled
        /// Compiled; the output already had these bytes and was left untouched (bytes and time).
        case unchanged
        /// Not compiled: the stamp vouches for the output and the inputs are those recorded.
        case upToDate = "up to date"
        /// Errors (or findings under --strict): nothing written.
        case failed
    }

    var path: String
    var status: Status
    var summary: BuildSummary?
    var diagnostics: [Diagnostic]
}

/// The themes of one build and the workers going through them: each worker takes the next theme
/// in order (`ParallelMap`) and files its outcome at the theme's index, so the outcomes (and
/// everything printed from them) are in the same order whatever the number of workers.
final class BuildQueue: @unchecked Sendable {
    let paths: [String]
    let folder: String
    let output: String
    let force: Bool
    let strict: Bool
    let reporter: Reporter
    let inputs: BuildInputs
    private let progress = ProgressLine.forStandardError()
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var done = 0
    private var results: [ThemeOutcome?]
    /// Digests of parent folders, computed once per build (guarded by `lock`). A theme's own folder
    /// is not kept: what is kept grows with the number of parents, not of themes.
    private var parentDigests: [String: FolderDigest] = [:]

    init(
        paths: [String], folder: String, output: String, force: Bool, strict: Bool, reporter: Reporter,
        inputs: BuildInputs
    ) {
        self.paths = paths
        self.folder = folder
        self.output = output
        self.force = force
        self.strict = strict
        self.reporter = reporter
        self.inputs = inputs
        self.results = Array(repeating: nil, count: paths.count)
    }

    var outcomes: [ThemeOutcome] { lock.withLock { results.compactMap { $0 } } }

    /// Builds every theme with `jobs` workers (`ParallelMap`; this thread is one of them), all
    /// sharing `workspace` (thread-safe): a parent is read, decoded and indexed once.
    func run(jobs: Int, workspace: ThemeWorkspace) {
        _ = ParallelMap.map(paths.count, jobs: jobs) { [self] index in
            let outcome = build(paths[index], workspace: workspace)
            // the theme is done: keep its parents (other themes need them), drop the theme itself
            workspace.release(themeAt: paths[index])
            lock.withLock {
                results[index] = outcome
                done += 1
                if paths.count > 1 { progress.update(done, of: paths.count, Build.folderName(paths[index])) }
            }
        }
        progress.finish()
    }

    private func parentDigest(_ path: String) -> FolderDigest? {
        if let known = lock.withLock({ parentDigests[path] }) { return known }
        guard let digest = FolderDigest.of(path) else { return nil }
        lock.withLock { parentDigests[path] = digest }
        return digest
    }

    /// One theme: up to date, or validated, compiled, proved and written when its bytes changed.
    func build(_ path: String, workspace: ThemeWorkspace) -> ThemeOutcome {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let target = output + "/" + name + ".livery"
        // The chain from Info.xml files only: deciding "up to date" parses no theme.
        var chain: [FolderDigest]? = []
        for (position, folder) in workspace.ancestorFolders(ofThemeAt: path).enumerated() {
            guard let digest = position == 0 ? FolderDigest.of(folder) : parentDigest(folder) else {
                chain = nil
                break
            }
            chain?.append(digest)
        }
        let key = chain.map(inputs.digest(chain:))
        if !force, let key, let stamp = BuildStamp.recorded(output: output, themeName: name), stamp.inputs == key,
            stamp.vouches(for: target)
        {
            return ThemeOutcome(path: path, status: .upToDate, summary: stamp.summary, diagnostics: [])
        }

        let diagnostics = reporter.configured(workspace.validate(paths: [path]), paths: [folder])
        func failed(_ more: [Diagnostic] = []) -> ThemeOutcome {
            ThemeOutcome(path: path, status: .failed, summary: nil, diagnostics: diagnostics + more)
        }
        // Nothing is written when the theme fails: on errors, or on any finding under --strict.
        if diagnostics.hasErrors || (strict && !diagnostics.isEmpty) { return failed() }
        // Compiled and proved against the one resolution the bytes were written from.
        let result = ThemeCompiler.compilation(themeAt: path, workspace: workspace)
        guard let compilation = result.value else {
            let known = Set(diagnostics.map(\.withoutNotes))
            return failed(result.diagnostics.filter { $0.severity == .error && !known.contains($0.withoutNotes) })
        }
        let (bytes, variants) = (compilation.bytes, compilation.variants)
        if let mismatch = ThemeCompiler.firstMismatch(bytes, variants: variants) {
            return failed([.error(.compiledInvalid, mismatch, at: SourceLocation(file: path))])
        }
        let assetBytes = (try? CompiledTheme(bytes: bytes))?.assets.reduce(0) { $0 + $1.length } ?? 0
        let summary = BuildSummary(
            id: variants.info.id, parent: variants.info.parent, instances: variants.variants[.none]?.count ?? 0,
            variants: variants.variants.count, xmlBytes: chain?.reduce(0) { $0 + $1.xmlBytes } ?? 0,
            themeBytes: bytes.count - assetBytes, assetBytes: assetBytes)
        // An output that would not change is not touched, so make, Bazel and SwiftPM see nothing to do.
        let unchanged = FileManager.default.contents(atPath: target).map { Array($0) == bytes } ?? false
        do {
            // Not flushed to the disk one by one: the next build trusts a file only when its stamp
            // vouches for its digest, so one a power loss damaged is rebuilt (bench-brands.py, cold
            // build of 1,000 brands with --jobs 1: flushing 2,002 files was a third to half its wall time).
            if !unchanged { try ThemeCompiler.writeAtomically(bytes, to: target, durably: false) }
            if let key {
                let stamp = BuildStamp(
                    version: BuildStamp.version, inputs: key, compiled: BuildDigest.hex(of: bytes), size: bytes.count,
                    summary: summary
                ).encoded()
                let stampPath = BuildStamp.path(output: output, themeName: name)
                if FileManager.default.contents(atPath: stampPath).map({ Array($0) }) != stamp {
                    try ThemeCompiler.writeAtomically(stamp, to: stampPath, durably: false)
                }
            }
        } catch {
            return failed([
                .error(
                    .compileWriteFailed, "cannot write the compiled theme: \(error.localizedDescription)",
                    at: SourceLocation(file: target))
            ])
        }
        return ThemeOutcome(
            path: path, status: unchanged ? .unchanged : .compiled, summary: summary, diagnostics: diagnostics)
    }
}
