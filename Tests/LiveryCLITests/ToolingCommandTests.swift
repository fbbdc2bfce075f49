import Foundation
import Testing

/// End to end: the designer and reviewer commands, their output and exit codes.
@Suite struct ToolingCommandTests {
    /// A temporary folder of themes from strings.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-cli-tooling-\(UUID().uuidString)"
        ).path
        init(_ files: [String: String]) throws { try write(files) }
        func write(_ files: [String: String]) throws {
            for (relative, contents) in files {
                let url = URL(fileURLWithPath: path).appendingPathComponent(relative)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url)
            }
        }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    static let goodChat = """
        <theme><instances><uiview id="panel"><operation name="alpha"><param name="value"><float>0.5</float></param></operation></uiview></instances></theme>
        """
    static let badChat = """
        <theme><instances><uiview id="panel"><operation name="alpha"><param name="value"><float>NaN</float></param></operation></uiview></instances></theme>
        """

    @Test func explainShowsProvenanceAndExitCodes() throws {
        let run = try Livery.run(["explain", "Themes/Dark.theme", "button_send", "--traits", "dark"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "button_send (uibutton) in com.livery.dark, traits dark")
        #expect(
            lines.contains(
                "  Themes/Base.theme/Chat.xml:180:5  (com.livery.base, layer Chat.xml, class=\"primaryButton\")"))
        #expect(lines.contains("6. titleColor = color #0A84FFFF"))
        // Dark's outlined button derives its title from the user's accent, kept readable on its surface
        #expect(
            lines.contains(
                "      derived: `color` = `accent` #0A84FF, already 4.57:1 on `surface` #1E1E1E = #0A84FF"),
            "\(lines)")
        let bubble = try Livery.run(["explain", "Themes/Dark.theme", "bubble_incoming", "--traits", "ipad,dark"])
        #expect(
            bubble.stdout.contains(
                """
                12. tailStyle = enum none
                     from instance at Themes/Dark.theme/Chat~ipad.xml:16:7  (com.livery.dark, layer Chat~ipad.xml)
                     overrides enum round from instance at Themes/Base.theme/Chat.xml:102:7  (com.livery.base, layer Chat.xml)
                """), "\(bubble.stdout)")

        let json = try Livery.run(["explain", "Themes/Dark.theme", "button_send", "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((object["operations"] as? [Any])?.count == 14)

        let typo = try Livery.run(["explain", "Themes/Dark.theme", "button_snd"])
        #expect(typo.status == 1)
        #expect(
            typo.stderr
                == "error: no instance 'button_snd' in Themes/Dark.theme with no traits; did you mean 'button_send'?\n")
        #expect(try Livery.run(["explain", "Themes/Dark.theme", "x", "--traits", "dork"]).status == 64)
    }

    @Test func diffListsChangesForReview() throws {
        let run = try Livery.run(["diff", "Themes/Light.theme", "Themes/Dark.theme", "--traits", "dark"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(3) == [
                "--- Themes/Light.theme (com.livery.light 1.0.0)", "+++ Themes/Dark.theme (com.livery.dark 1.0.0)",
                "traits: dark",
            ])
        #expect(lines.contains("~ chat_background.backgroundColor: color #000000FF -> color #121212FF  [dark]"))
        #expect(lines.last?.contains(" changes: ") == true)

        let same = try Livery.run(["diff", "Themes/Dark.theme", "Themes/Dark.theme", "--exit-code"])
        #expect(same.status == 0 && same.stdout.hasSuffix("no differences\n"))
        let differ = try Livery.run([
            "diff", "Themes/Light.theme", "Themes/Dark.theme", "--exit-code", "--format", "json",
        ])
        #expect(differ.status == 2)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(differ.stdout.utf8)) as? [String: Any])
        #expect(((object["changes"] as? [Any])?.count ?? 0) > 10)

        // a compiled file against its own folder: nothing differs
        let folder = try Folder([:])
        let compiled = folder.path + "/Dark.livery"
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        #expect(try Livery.run(["compile", "Themes/Dark.theme", "--output", compiled]).status == 0)
        let mixed = try Livery.run(["diff", compiled, "Themes/Dark.theme"])
        #expect(
            mixed.status == 0 && mixed.stdout.hasSuffix("compared 32 trait sets\nno differences\n"), "\(mixed.stdout)")

        let missing = try Livery.run(["diff", "Themes/Nope.theme", "Themes/Dark.theme"])
        #expect(missing.status == 1 && missing.stderr.contains("Themes/Nope.theme: error:"))
    }

    @Test func generateSwiftWritesIdentifiersOnlyForValidThemes() throws {
        let folder = try Folder([:])
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let output = folder.path + "/ThemeIdentifiers.swift"
        let run = try Livery.run(["generate-swift", "Themes", "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("wrote \(output): "))
        let source = try String(contentsOfFile: output, encoding: .utf8)
        #expect(source.contains("    enum UIButton {"))
        #expect(source.contains("        static let buttonSend = \"button_send\""))
        #expect(source.contains("    static let buttonSend = ThemeIdentifiers.UIButton.buttonSend"))
        #expect(source.contains("enum Chatbubble {"))

        let broken = try Folder([
            "Broken.theme/Info.xml": "<theme-info id=\"b\" name=\"B\"/>", "Broken.theme/Chat.xml": Self.badChat,
        ])
        let none = broken.path + "/Out.swift"
        let failed = try Livery.run(["generate-swift", "Broken.theme", "--output", none], in: broken.path)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("Broken.theme/Chat.xml:1:"), "\(failed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: none))
    }

    /// The composed screen: one device per trait set of the matrix, contrast badges,
    /// the text-scale control, fonts sized with max-size in CSS, and the font report.
    @Test func previewDrawsTheComposedScreenForEachTraitSet() throws {
        let folder = try Folder([:])
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let page = folder.path + "/screen.html"
        let run = try Livery.run(["preview", "Themes/Light.theme", "--text-scale", "2", "--output", page])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        for caption in ["light", "dark", "dark,highcontrast", "light,largetext"] {
            #expect(html.contains("<figcaption>\(caption)</figcaption>"), "no device for \(caption)")
        }
        #expect(html.components(separatedBy: "<figure class=\"device iphone\">").count == 5)
        // Light's white Send title on teal: 5.17:1 passes 4.5; under highcontrast the tokens give a
        // deeper teal (teal.900), 8.26:1 against the 7 it needs.
        #expect(html.contains("<span class=\"badge pass\" title=\"needs 4.5:1\">5.17:1 ✓</span>"))
        #expect(html.contains("<span class=\"badge pass\" title=\"needs 7:1\">8.26:1 ✓</span>"))
        #expect(
            html.contains("<input type=\"radio\" name=\"text-scale\" id=\"text-scale-2\" class=\"text-scale\" checked>")
        )
        // fontBody: 16 points, max-size 34.
        #expect(html.contains("font-size:min(calc(16px * var(--text-scale)), 34px)"))
        #expect(html.contains("Fonts used: <code>Helvetica Neue</code>"))
        #expect(try Livery.run(["preview", "Themes/Light.theme", "--text-scale", "4", "--output", page]).status == 64)
        let plain = try Livery.run(["preview", "Themes/Light.theme", "--no-screen", "--output", page])
        #expect(plain.status == 0)
        #expect(!(try String(contentsOfFile: page, encoding: .utf8)).contains("<figure class=\"device"))
    }

    @Test func previewWritesASelfContainedPage() throws {
        let folder = try Folder([:])
        try FileManager.default.createDirectory(atPath: folder.path, withIntermediateDirectories: true)
        let page = folder.path + "/dark.html"
        let run = try Livery.run(["preview", "Themes/Light.theme", "--compare", "dark", "--output", page])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("wrote \(page): 18 instances, 39 constants, 2 columns"))
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(
            html.contains(
                "<title>Livery preview: Light (com.livery.light 1.0.0) vs Light (com.livery.light 1.0.0)</title>"))
        #expect(html.contains("data:image/png;base64,"))
        #expect(html.contains("class=\"card differs\""))

        let themes = try Livery.run([
            "preview", "Themes/Light.theme", "--compare", "Themes/Dark.theme", "--output", page,
        ])
        #expect(themes.status == 0)
        #expect(
            try Livery.run(["preview", "Themes/Light.theme", "--compare", "Nowhere", "--output", page]).status == 64)
        #expect(try Livery.run(["preview", "Themes/Nope.theme", "--output", page]).status == 1)
    }

    @Test func sarifDiagnostics() throws {
        let folder = try Folder([
            "Broken.theme/Info.xml": "<theme-info id=\"b\" name=\"B\"/>", "Broken.theme/Chat.xml": Self.badChat,
        ])
        let run = try Livery.run(["validate", "Broken.theme", "--format", "sarif"], in: folder.path)
        #expect(run.status == 1)
        #expect(run.stderr.isEmpty)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["version"] as? String == "2.1.0")
        let results = try #require(((object["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        #expect(results.first?["ruleId"] as? String == "value-invalid")
        #expect(results.first?["level"] as? String == "error")
    }

    @Test func watchRevalidatesOnEverySave() throws {
        let folder = try Folder([
            "A.theme/Info.xml": "<theme-info id=\"a\" name=\"A\"/>", "A.theme/Chat.xml": Self.goodChat,
        ])
        let out = folder.path + "/watch.out"
        let err = folder.path + "/watch.err"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = Livery.executable
        process.arguments = ["watch", "A.theme", "--interval", "0.05", "--max-runs", "2"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        func output() -> String { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(30)
        while !output().contains("ok: 1 theme checked"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(output().contains("] checking\nok: 1 theme checked, 0 errors, 0 warnings\n"))
        try folder.write(["A.theme/Chat.xml": Self.badChat])
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 1, "the last run had errors")
        #expect(
            output().contains("] changed: A.theme/Chat.xml\nfailed: 1 theme checked, 1 error, 0 warnings\n"),
            "\(output())")
        let errors = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
        #expect(errors.contains("A.theme/Chat.xml:1:") && errors.contains("[value-invalid]"), "\(errors)")
    }

    @Test func newCommandsAreListedInHelp() throws {
        let run = try Livery.run(["--help"])
        for command in ["watch", "preview", "explain", "diff", "generate-swift"] {
            #expect(run.stdout.contains("  \(command) "), "\(command)")
        }
    }
}
