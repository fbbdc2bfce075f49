import Foundation
import PackagePlugin

/// For a target holding `.theme` folders: validates and compiles every theme (`build`,
/// incrementally, with the proof that each compiled file dumps like its source), and generates
/// Swift identifiers for their instances, classes and constants, on every build where a theme
/// file changed. A theme with errors fails the build with `file:line:col: error: ...` lines.
///
/// Outputs, in the plugin's work folder: `ThemeIdentifiers.swift` (compiled into the target)
/// and `<Name>.livery` for each theme (bundled as resources of the target, found with
/// `Bundle.module.url(forResource: "Dark", withExtension: "livery")`).
@main
struct LiveryThemePlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        // The lean tool, not the `livery` CLI: the app's build compiles it, and it has no server.
        let livery = try context.tool(named: "livery-build-tool").url
        let themes = Self.themeFolders(in: URL(fileURLWithPath: target.directory.string))
        guard !themes.isEmpty else { return [] }
        let inputs = themes.flatMap(Self.files(in:))
        let output = context.pluginWorkDirectoryURL
        // parents may live in any folder of themes in the target
        let searchFolders = Array(Set(themes.map { $0.deletingLastPathComponent().path })).sorted()
        let searchArguments = searchFolders.flatMap { ["--themes", $0] }

        let identifiers = output.appendingPathComponent("ThemeIdentifiers.swift")
        var commands: [Command] = [
            .buildCommand(
                displayName:
                    "Livery: validating \(themes.count) theme(s) and generating identifiers for \(target.name)",
                executable: livery,
                arguments: ["generate-swift"] + themes.map(\.path) + ["--output", identifiers.path] + searchArguments,
                inputFiles: inputs,
                outputFiles: [identifiers])
        ]
        // The incremental build, one theme per command (SwiftPM runs them in parallel): a command
        // runs whenever any theme file changed, and then compiles only a theme whose sources,
        // parents, schema or options changed, and rewrites its file only when its bytes change,
        // so what depends on the compiled files (the bundle) sees nothing to do.
        for theme in themes {
            let compiled = output.appendingPathComponent(theme.deletingPathExtension().lastPathComponent + ".livery")
            commands.append(
                .buildCommand(
                    displayName: "Livery: building \(theme.lastPathComponent)",
                    executable: livery,
                    arguments: ["build", theme.path, "--output", output.path, "--jobs", "1"] + searchArguments,
                    inputFiles: inputs,
                    outputFiles: [compiled]))
        }
        return commands
    }

    /// `*.theme` folders anywhere in the target (not inside another theme).
    static func themeFolders(in directory: URL) -> [URL] {
        var found: [URL] = []
        let manager = FileManager.default
        func visit(_ url: URL, depth: Int) {
            guard depth < 6, let entries = try? manager.contentsOfDirectory(atPath: url.path) else { return }
            for entry in entries.sorted() where !entry.hasPrefix(".") {
                let child = url.appendingPathComponent(entry)
                var isFolder: ObjCBool = false
                guard manager.fileExists(atPath: child.path, isDirectory: &isFolder), isFolder.boolValue else {
                    continue
                }
                if entry.hasSuffix(".theme") { found.append(child) } else { visit(child, depth: depth + 1) }
            }
        }
        visit(directory, depth: 0)
        return found
    }

    static func files(in folder: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [URL] = []
        while let relative = enumerator.nextObject() as? String {
            let url = folder.appendingPathComponent(relative)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
