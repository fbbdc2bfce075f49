import ArgumentParser
import Foundation
import LiveryBinary
import LiveryCompiler
import LiveryModel
import LiveryTooling
import LiveryXML

/// The main job in one command: every theme of a folder validated, compiled, checked against its
/// source, and summed up in a table.
package struct Build: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
        abstract: "Validate and compile every theme in a folder, proving each compiled file dumps like its source.",
        discussion: """
            Writes OUTPUT/<ThemeFolderName>.livery for each valid theme (atomically), checks that the compiled \
            file dumps exactly like the folder for every trait set at scales 1-3, and prints a summary. Themes \
            with errors are reported and not written. Exits 0 when every theme compiled, 1 otherwise.
            """)

    @Argument(help: ArgumentHelp("A folder of theme folders (or one theme folder).", valueName: "DIR"))
    var folder: String

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Where the compiled files go (created if needed).", valueName: "DIR"))
    var output: String

    @OptionGroup var themes: ThemeOptions

    @OptionGroup var report: ReportOptions

    @OptionGroup var strictness: StrictOption

    package func run() throws {
        let workspace = themes.workspace()
        let reporter = Reporter(options: report, strict: strictness.strict)
        let progress = ProgressLine.forStandardError()
        // One report for the whole run, printed at the end: one JSON or SARIF document.
        var diagnostics = reporter.configured(
            workspace.validate(paths: [folder]) { done, total, path in
                if total > 1 { progress.update(done, of: total, "validating \(path)") }
            }, paths: [folder])
        progress.finish()
        let failed = Set(diagnostics.filter { $0.severity == .error }.compactMap { $0.location?.file })
        let paths = workspace.isNamedTheme(folder) ? [folder] : workspace.themeFolders(in: folder)
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)

        var rows: [[String]] = [
            [
                "theme", "parent", "instances", "variants", "XML bytes*", "compiled bytes*", "ratio", "assets",
                "dump check",
            ]
        ]
        var allCompiled = !diagnostics.hasErrors
        for (index, path) in paths.enumerated() {
            if paths.count > 1 { progress.update(index, of: paths.count, "compiling \(path)") }
            defer { progress.finish() }
            // a theme whose own files have errors is not compiled (its parent's errors count too)
            if failed.contains(where: { $0.hasPrefix(path + "/") || $0 == path })
                || (strictness.strict && diagnostics.contains { $0.location?.file.hasPrefix(path + "/") ?? false })
            {
                allCompiled = false
                continue
            }
            let result = ThemeCompiler.compile(themeAt: path, workspace: workspace)
            guard let bytes = result.value, let variants = workspace.variants(ofThemeAt: path).value else {
                // a parent's error was reported by validation already: report only what is new
                let known = Set(diagnostics.map(\.withoutNotes))
                diagnostics += result.diagnostics.filter { $0.severity == .error && !known.contains($0.withoutNotes) }
                allCompiled = false
                continue
            }
            let mismatch = Compile.firstMismatch(bytes, themeAt: path, workspace: workspace)
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let target = (output as NSString).appendingPathComponent(name + ".livery")
            if let mismatch {
                diagnostics.append(.error(.compiledInvalid, mismatch, at: SourceLocation(file: path)))
                allCompiled = false
                continue
            }
            try ThemeCompiler.writeAtomically(bytes, to: target)
            let xmlBytes = xmlSize(of: path, workspace: workspace)
            let assetBytes = (try? CompiledTheme(bytes: bytes))?.assets.reduce(0) { $0 + $1.length } ?? 0
            let themeBytes = bytes.count - assetBytes
            let generic = variants.variants[.none]?.count ?? 0
            rows.append([
                variants.info.id, variants.info.parent ?? "-", "\(generic)", "\(variants.variants.count)",
                "\(xmlBytes)", "\(themeBytes)", String(format: "%.2f", Double(themeBytes) / Double(max(xmlBytes, 1))),
                "\(assetBytes)", "identical",
            ])
        }
        let reportFailed = reporter.finish(diagnostics.mergingNotes())
        if report.format == .text {
            print(Self.table(rows), terminator: "")
            print(
                "* XML of the theme and its parents, which the compiled file resolves; compiled size without asset bytes"
            )
            print("\(rows.count - 1) of \(paths.count) theme\(paths.count == 1 ? "" : "s") compiled into \(output)")
        }
        if !allCompiled || reportFailed { throw ExitCode.failure }
    }

    /// The XML files of the theme and its ancestors, in bytes: everything the compiled file
    /// stands for, assets excluded (as the size targets are stated).
    private func xmlSize(of path: String, workspace: ThemeWorkspace) -> Int {
        let folders = workspace.chain(ofThemeAt: path).value ?? []
        return folders.reduce(0) { total, folder in
            folder.sourceFiles.filter { $0.hasSuffix(".xml") }.reduce(total) { sum, file in
                let attributes = try? FileManager.default.attributesOfItem(
                    atPath: (folder.path as NSString).appendingPathComponent(file))
                return sum + ((attributes?[.size] as? Int) ?? 0)
            }
        }
    }

    static func table(_ rows: [[String]]) -> String {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == 0 || index == 1
                    ? cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[index] - cell.count) + cell
            }.joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }
}
