import Foundation
import Testing

/// Docs that cannot drift: every command the README shows is run, generically
/// (other work adds commands to the README, and this test follows without edits), in a scratch
/// folder holding a copy of Themes/, and must exit 0; where the README shows output after
/// `== livery ...`, the first line must match. Synopses with placeholders (`PATH...`, `FILE`) are
/// checked against `--help`: the subcommand exists and takes every option shown.
@Suite struct ReadmeTests {
    /// What is not run, and why: the one place to look.
    static let skipped: [(prefix: String, reason: String)] = [
        ("bash Scripts/test.sh", "the test run itself (.ci/run)"),
        ("bash Scripts/build-themes.sh", "Scripts/test.sh runs it before the tests"),
        ("swift build", "the binary under test is given as $LIVERY and on PATH"),
        (
            "$LIVERY serve",
            "a server on the fixed port 8080, which parallel tests cannot own (StoreCommandTests serve on free ports)"
        ),
        ("$LIVERY install http", "needs the server above"),
        ("$LIVERY list", "lists what the install above installed"),
        ("$LIVERY uninstall", "removes what the install above installed"),
        ("kill %1", "stops the server above"),
        ("livery watch", "runs until interrupted (ToolingCommandTests and ReportingTests run it with --max-runs)"),
    ]

    static let readme: String = (try? String(contentsOfFile: Livery.root + "/README.md", encoding: .utf8)) ?? ""

    static func isSkipped(_ command: String) -> Bool {
        skipped.contains { command.hasPrefix($0.prefix) }
    }

    /// The commands of the ```sh blocks, comments removed, lines ending in `\` joined to the next;
    /// `swift run livery` runs the binary under test (the scratch folder has no Package.swift).
    static var shellCommands: [String] {
        var commands: [String] = []
        var inShell = false
        var pending = ""
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inShell = line == "```sh"
                pending = ""
                continue
            }
            guard inShell else { continue }
            var command = String(line)
            if let comment = command.range(of: #"\s+#\s.*$"#, options: .regularExpression) {
                command.removeSubrange(comment)
            }
            command = command.trimmingCharacters(in: .whitespaces)
            if command.hasSuffix("\\") {
                pending += command.dropLast() + " "
                continue
            }
            command = pending + command
            pending = ""
            if command.hasPrefix("swift run livery ") {
                command = "livery " + command.dropFirst("swift run livery ".count)
            }
            if !command.isEmpty, !command.hasPrefix("#") { commands.append(command) }
        }
        return commands
    }

    /// The first cell of every table row that is a `livery` command.
    static var tableCommands: [String] {
        readme.split(separator: "\n").compactMap { line -> String? in
            guard let match = line.firstMatch(of: /^\| `(livery[^`]*)` \|/) else { return nil }
            return String(match.1).replacingOccurrences(of: "\\|", with: "|")
        }
    }

    /// Runs one line in bash, in a copy of Themes/'s folder, finding `livery` on PATH and as $LIVERY.
    static func shell(_ script: String, in copy: ThemesCopy) throws -> LiveryRun {
        let path =
            Livery.executable.deletingLastPathComponent().path + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try Livery.run(
            URL(fileURLWithPath: "/bin/bash"), ["-euo", "pipefail", "-c", script], in: copy.path,
            environment: ["LIVERY": Livery.executable.path, "PATH": path])
    }

    @Test func theReadmeShowsCommandsToCheck() {
        #expect(Self.shellCommands.count >= 5)
        #expect(Self.tableCommands.count >= 10)
    }

    @Test func everyShellCommandRuns() throws {
        let scratch = try ThemesCopy()
        // in order, in one folder: later lines use what earlier ones made
        for command in Self.shellCommands where !Self.isSkipped(command) {
            let run = try Self.shell(command, in: scratch)
            #expect(run.status == 0, "README command failed: \(command)\n\(run.stderr)")
        }
    }

    @Test func everyTableCommandRunsOrMatchesItsHelp() throws {
        let scratch = try ThemesCopy()
        try FileManager.default.createDirectory(atPath: scratch.path + "/out", withIntermediateDirectories: true)
        for command in Self.tableCommands where !Self.isSkipped(command) {
            let isSynopsis =
                command.contains("...") || command.range(of: #"\b[A-Z]{3,}\b"#, options: .regularExpression) != nil
            if isSynopsis {
                // The command's words up to its first argument: `livery tokens import FILE...`
                // is checked against `livery tokens import --help`.
                let words = command.split(separator: " ").dropFirst()
                    .prefix { $0.first?.isLowercase == true && !$0.contains("|") }
                let help = try Self.shell("livery \(words.joined(separator: " ")) --help", in: scratch)
                #expect(help.status == 0, "no subcommand: \(command)")
                for option in command.matches(of: /--[a-z-]+/) {
                    #expect(help.stdout.contains(String(option.0)), "'\(command)': --help lists no \(option.0)")
                }
                for values in command.matches(of: /--format ([a-z|]+)/) {
                    for value in values.1.split(separator: "|") {
                        let run = try Self.shell("livery \(words[1]) --help | grep -q -- '\(value)'", in: scratch)
                        #expect(run.status == 0, "'\(command)': --format \(value) not in --help")
                    }
                }
            } else {
                let runnable = command.replacingOccurrences(
                    of: #"\s*\[[^\]]*\]"#, with: "", options: .regularExpression)
                let run = try Self.shell(runnable, in: scratch)
                #expect(run.status == 0, "README command failed: \(runnable)\n\(run.stderr)")
            }
        }
    }

    @Test func shownOutputMatches() throws {
        let scratch = try ThemesCopy()
        let lines = Self.readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var checked = 0
        for (index, line) in lines.enumerated() where line.hasPrefix("== livery ") && index + 1 < lines.count {
            let command = String(line.dropFirst(3))
            let run = try Self.shell(command, in: scratch)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            let first = run.stdout.split(separator: "\n").first.map { $0.split(separator: " ").joined(separator: " ") }
            #expect(
                first == lines[index + 1].split(separator: " ").joined(separator: " "),
                "\(command) prints \(first ?? "nothing")")
            checked += 1
        }
        #expect(checked >= 2)
    }

    /// "Here is a complete, small theme": its files, as shown, validate on their own.
    @Test func theSmallThemeValidatesOnItsOwn() throws {
        let section = try #require(Self.readme.range(of: "Here is a complete, small theme"))
        let rest = Self.readme[section.upperBound...]
        let blocks = rest.split(separator: "```xml\n", omittingEmptySubsequences: false).dropFirst().prefix(2)
            .map { String($0[..<($0.range(of: "```")?.lowerBound ?? $0.endIndex)]) }
        #expect(blocks.count == 2)
        let copy = try ThemesCopy()
        let theme = copy.path + "/Small/Dark.theme"
        try FileManager.default.createDirectory(atPath: theme + "/assets", withIntermediateDirectories: true)
        try blocks[0].write(toFile: theme + "/Info.xml", atomically: true, encoding: .utf8)
        try blocks[1].write(toFile: theme + "/Chat.xml", atomically: true, encoding: .utf8)
        // the image the README names beside the two files
        try FileManager.default.copyItem(
            atPath: copy.path + "/Themes/Base.theme/assets/send.png", toPath: theme + "/assets/send.png")
        let run = try Livery.run(["validate", "Small/Dark.theme"], in: copy.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }
}
