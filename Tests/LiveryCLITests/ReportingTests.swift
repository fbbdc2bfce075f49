import Foundation
import Testing

/// The reporting options, end to end through the built binary, on copies of the samples.
@Suite struct ReportingTests {
    /// An attribute the format does not have, near no allowed name: one warning, ignored. (A
    /// misspelled allowed attribute, `clas`, is an error read as meant.)
    static func misspellClass(_ copy: ThemesCopy) throws {
        try copy.edit(
            "Themes/Base.theme/Chat.xml", "<uilabel id=\"label_timestamp\" class=",
            "<uilabel id=\"label_timestamp\" note=\"draft\" class=")
    }

    @Test func printsTheVersion() throws {
        let run = try Livery.run(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("livery 0."), "\(run.stdout)")
    }

    @Test func strictFailsOnWarnings() throws {
        let copy = try ThemesCopy()
        try Self.misspellClass(copy)
        let lenient = try Livery.run(["validate", "Themes"], in: copy.path)
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(
            lenient.stderr.contains("warning: <uilabel> has no attribute 'note'; it is ignored [attribute-unknown]"),
            "\(lenient.stderr)")
        let strict = try Livery.run(["validate", "Themes", "--strict"], in: copy.path)
        #expect(strict.status == 1)
        #expect(strict.stdout.hasPrefix("failed: 5 themes checked, 0 errors"))
        // compile --strict writes nothing
        let compile = try Livery.run(["compile", "Themes/Base.theme", "-o", "Base.livery", "--strict"], in: copy.path)
        #expect(compile.status == 1)
        #expect(!FileManager.default.fileExists(atPath: copy.path + "/Base.livery"))
        let build = try Livery.run(["build", "Themes", "-o", "out", "--strict"], in: copy.path)
        #expect(build.status == 1)
    }

    @Test func theSeverityConfigurationBesideTheThemesApplies() throws {
        let copy = try ThemesCopy()
        try Self.misspellClass(copy)
        try copy.write("Themes/.livery-diagnostics", "# team policy\nattribute-unknown: error\nclass-unused: off\n")
        let run = try Livery.run(["validate", "Themes"], in: copy.path)
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: <uilabel> has no attribute 'note'"), "\(run.stderr)")
        #expect(!run.stderr.contains("[class-unused]"), "\(run.stderr)")
        try copy.write("Themes/.livery-diagnostics", "attribute-unknwn: off\nnonsense\n")
        let bad = try Livery.run(["validate", "Themes"], in: copy.path)
        #expect(bad.status == 1)
        #expect(
            bad.stderr.contains(
                "Themes/.livery-diagnostics:1:1: warning: unknown code 'attribute-unknwn'; did you mean 'attribute-unknown'? [config-invalid]"
            ), "\(bad.stderr)")
        #expect(
            bad.stderr.contains("Themes/.livery-diagnostics:2:1: error: 'nonsense' is not a setting"), "\(bad.stderr)")
    }

    @Test func aBaselineHidesKnownFindingsEvenWhenLinesMove() throws {
        let copy = try ThemesCopy()
        try Self.misspellClass(copy)
        let write = try Livery.run(["validate", "Themes", "--write-baseline", "baseline.json"], in: copy.path)
        #expect(write.status == 0, "\(write.stderr)")
        #expect(try copy.read("baseline.json").contains("\"code\":\"attribute-unknown\""))
        let clean = try Livery.run(["validate", "Themes", "--baseline", "baseline.json", "--strict"], in: copy.path)
        #expect(clean.status == 0, "\(clean.stderr)")
        #expect(clean.stderr.isEmpty, "\(clean.stderr)")
        // lines inserted above the findings: still known
        try copy.edit("Themes/Base.theme/Chat.xml", "<theme>", "<theme>\n\n\n")
        let moved = try Livery.run(["validate", "Themes", "--baseline", "baseline.json", "--strict"], in: copy.path)
        #expect(moved.status == 0, "\(moved.stderr)")
        // a new mistake is reported
        try copy.edit(
            "Themes/Base.theme/Chat.xml", "<uilabel id=\"label_title\">", "<uilabel id=\"label_title\" draft=\"x\">")
        let new = try Livery.run(["validate", "Themes", "--baseline", "baseline.json", "--strict"], in: copy.path)
        #expect(new.status == 1)
        #expect(
            new.stderr.split(separator: "\n").filter { $0.contains("[attribute-unknown]") }.count == 1, "\(new.stderr)")
    }

    @Test func outputWritesTheReportToAFile() throws {
        let copy = try ThemesCopy()
        try copy.edit(
            "Themes/Base.theme/Chat.xml", "<uilabel id=\"label_timestamp\" class=",
            "<uilabel id=\"label_timestamp\" clas=")
        let run = try Livery.run(["validate", "Themes", "--format", "json", "--output", "report.json"], in: copy.path)
        #expect(run.status == 1)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout.isEmpty)
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(copy.read("report.json").utf8)) as? [[String: Any]])
        let typo = try #require(array.first { $0["code"] as? String == "attribute-unknown" })
        let fix = try #require(typo["fix"] as? [String: Any])
        #expect(fix["title"] as? String == "Replace 'clas' with 'class'")
        // each edit with its own place
        let edits = try #require(fix["edits"] as? [[String: Any]])
        #expect(edits.count == 1)
        #expect(edits.first?["replace"] as? String == "clas" && edits.first?["with"] as? String == "class")
        #expect((edits.first?["file"] as? String)?.hasSuffix("Base.theme/Chat.xml") == true)
        #expect(edits.first?["line"] as? Int == typo["line"] as? Int)
    }

    @Test func buildPrintsOneJSONDocumentAndEachErrorOnce() throws {
        let copy = try ThemesCopy()
        try copy.edit("Themes/Base.theme/Chat.xml", "<image>nav_background</image>", "<image>header_art</image>")
        let run = try Livery.run(["build", "Themes", "-o", "out", "--format", "json"], in: copy.path)
        #expect(run.status == 1)
        let array = try #require(
            try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], "\(run.stdout)")
        #expect(
            array.filter { $0["severity"] as? String == "error" }.map { $0["code"] as? String } == ["asset-missing"],
            "\(run.stdout)")
        let text = try Livery.run(["build", "Themes", "-o", "out"], in: copy.path)
        #expect(text.stderr.components(separatedBy: "[asset-missing]").count == 2, "\(text.stderr)")
    }

    @Test func sarifHasRelativeURIsRulesFingerprintsAndFixes() throws {
        let copy = try ThemesCopy()
        try copy.edit("Themes/Base.theme/Chat.xml", "<image>nav_background</image>", "<image>nav_backgrund</image>")
        func result() throws -> [String: Any] {
            let run = try Livery.run(["validate", "Themes", "--format", "sarif"], in: copy.path)
            let log = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let runs = try #require(log["runs"] as? [[String: Any]])
            #expect(runs.count == 1)
            let rules = try #require(
                ((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
            #expect(rules.first?["fullDescription"] != nil)
            #expect((rules.first?["helpUri"] as? String)?.hasSuffix("docs/Diagnostics.md#asset-missing") == true)
            return try #require((runs[0]["results"] as? [[String: Any]])?.first)
        }
        let first = try result()
        let physical = try #require(
            ((first["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        let artifact = try #require(physical["artifactLocation"] as? [String: Any])
        #expect(artifact["uri"] as? String == "Themes/Base.theme/Chat.xml")
        #expect(artifact["uriBaseId"] as? String == "%SRCROOT%")
        let fixes = try #require(first["fixes"] as? [[String: Any]])
        let change = try #require((fixes.first?["artifactChanges"] as? [[String: Any]])?.first)
        let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
        #expect((replacement["insertedContent"] as? [String: Any])?["text"] as? String == "nav_background")
        #expect(
            replacement["deletedRegion"] as? [String: Int] == ["startLine": 33, "startColumn": 36, "endColumn": 49])
        // the fingerprint survives lines inserted above
        try copy.edit("Themes/Base.theme/Chat.xml", "<theme>", "<theme>\n\n")
        let moved = try result()
        #expect(
            (first["partialFingerprints"] as? [String: String]) == (moved["partialFingerprints"] as? [String: String]))
        #expect(first["partialFingerprints"] != nil)
    }

    @Test func watchSeesAParentFixedAfterAFailedRun() throws {
        let copy = try ThemesCopy()
        // a syntax error in the parent: the chain cannot be formed, the run fails
        try copy.edit(
            "Themes/Base.theme/Chat.xml", "<uiview id=\"chat_background\">", "<uiview id=\"chat_background\">&")
        let out = copy.path + "/watch.out"
        FileManager.default.createFile(atPath: out, contents: nil)
        let process = Process()
        process.executableURL = Livery.executable
        process.arguments = ["watch", "Themes/Dark.theme", "--interval", "0.05", "--max-runs", "2"]
        process.currentDirectoryURL = URL(fileURLWithPath: copy.path)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        func output() -> String { (try? String(contentsOfFile: out, encoding: .utf8)) ?? "" }
        let deadline = Date().addingTimeInterval(30)
        while !output().contains("failed: 1 theme checked"), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(output().contains("failed: 1 theme checked, 1 error"), "\(output())")
        try copy.edit(
            "Themes/Base.theme/Chat.xml", "<uiview id=\"chat_background\">&", "<uiview id=\"chat_background\">")
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning, "the parent's fix was not seen")
        #expect(process.terminationStatus == 0)
        #expect(output().contains("] changed: Base.theme/Chat.xml\nok: 1 theme checked, 0 errors"), "\(output())")
    }

    @Test func previewOfAThemeWithErrorsListsThemAndRendersTheRest() throws {
        let copy = try ThemesCopy()
        try copy.edit("Themes/Base.theme/Chat.xml", "<image>nav_background</image>", "<image>header_art</image>")
        let run = try Livery.run(["preview", "Themes/Base.theme", "-o", "preview.html"], in: copy.path)
        #expect(run.status == 1, "errors still fail the command")
        let html = try copy.read("preview.html")
        #expect(html.contains("class=\"findings\""))
        #expect(
            html.contains("no asset &#39;header_art&#39;") || html.contains("no asset 'header_art'"), "findings listed")
        #expect(html.contains("nav_bar_main"), "the instance with the broken image still renders")
        #expect(html.contains("label_title"))
    }

    @Test func everyCodeTheCodeBaseDeclaresIsDocumented() throws {
        let docs = try String(contentsOfFile: Livery.root + "/docs/Diagnostics.md", encoding: .utf8)
        var declared: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: Livery.root + "/Sources")
        while let file = enumerator?.nextObject() as? String {
            guard file.hasSuffix(".swift") else { continue }
            let text = try String(contentsOfFile: Livery.root + "/Sources/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.contains(": DiagnosticCode = \"") {
                declared.append(String(line.split(separator: "\"")[1]))
            }
        }
        #expect(declared.count > 60, "the scan finds the declarations")
        for code in Set(declared) {
            #expect(docs.contains("| `\(code)` |"), "docs/Diagnostics.md has no row for \(code)")
        }
    }

    @Test func thePreCommitHookRefusesAStagedWarning() throws {
        let copy = try ThemesCopy()
        func shell(_ command: String) throws -> Int32 {
            try Livery.run(
                URL(fileURLWithPath: "/bin/bash"), ["-c", command], in: copy.path,
                environment: ["LIVERY": Livery.executable.path]
            ).status
        }
        let hook = Livery.root + "/Scripts/pre-commit"
        #expect(
            try shell("git init -q . && git add Themes && git -c user.name=t -c user.email=t@t commit -qm themes") == 0)
        #expect(try shell("bash '\(hook)'") == 0, "nothing staged")
        try copy.edit("Themes/Light.theme/Palette.xml", "<theme/>", "<theme/>\n")
        #expect(try shell("git add Themes && bash '\(hook)'") == 0, "a clean change passes")
        try Self.misspellClass(copy)
        #expect(try shell("git add Themes && bash '\(hook)'") == 1, "a staged typo is refused")
    }
}
