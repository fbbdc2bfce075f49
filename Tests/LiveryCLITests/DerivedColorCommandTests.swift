import Foundation
import Testing

/// `dump --override` and `explain` on derived colours and overridable constants (format 1.3,
/// sections 9.1 and 9.2).
@Suite struct DerivedColorCommandTests {
    static let colors = """
        <theme>
          <constants>
            <color name="brand" overridable="true">#FF3B30</color>
            <color name="brandPressed" ref="brand" darken="0.15"/>
            <float name="radius" overridable="true">8</float>
          </constants>
          <instances>
            <uibutton id="button_send">
              <operation name="backgroundColor"><param name="color"><color ref="brandPressed"/></param></operation>
              <operation name="cornerRadius"><param name="radius"><float ref="radius"/></param></operation>
            </uibutton>
          </instances>
        </theme>
        """

    /// A folder holding `B.theme`, removed afterwards by the caller.
    static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-derived-\(UUID().uuidString)")
        let theme = folder.appendingPathComponent("B.theme")
        try FileManager.default.createDirectory(at: theme, withIntermediateDirectories: true)
        try Data(#"<theme-info id="b" name="B"/>"#.utf8).write(to: theme.appendingPathComponent("Info.xml"))
        try Data(colors.utf8).write(to: theme.appendingPathComponent("Colors.xml"))
        return folder.path
    }

    @Test func overridesReachDerivedColoursAndUses() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try Livery.run(["dump", "B.theme"], in: folder)
        #expect(plain.status == 0)
        #expect(plain.stdout.contains("#D93229FF"))
        let run = try Livery.run(
            ["dump", "B.theme", "--override", "brand=#3478F6", "--override", "radius=12"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("#D93229FF"))
        #expect(run.stdout.contains("#2C66D1FF"), "#3478F6 darkened 0.15: \(run.stdout)")
        #expect(run.stdout.contains("\"float\": 12"))
    }

    /// The compiled file keeps what overrides need: every dump prints byte for byte what the
    /// folder's does, and a name that is not overridable is the same usage error.
    @Test func aCompiledFileTakesOverridesAsItsFolderDoes() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let compile = try Livery.run(["compile", "B.theme", "-o", "B.livery"], in: folder)
        #expect(compile.status == 0, "\(compile.stderr)")
        for overrides in [[], ["brand=#3478F6"], ["brand=#3478F6", "radius=12"], ["radius=0", "brand=0.1,0.75,0.3"]] {
            let arguments = overrides.flatMap { ["--override", $0] }
            let source = try Livery.run(["dump", "B.theme"] + arguments, in: folder)
            let compiled = try Livery.run(["dump", "B.livery"] + arguments, in: folder)
            #expect(source.status == 0 && compiled.status == 0, "\(source.stderr) \(compiled.stderr)")
            #expect(compiled.stdout == source.stdout, "\(overrides)")
        }
        let wrong = try Livery.run(["dump", "B.livery", "--override", "brandPressed=#000000"], in: folder)
        #expect(wrong.status == 64)
        #expect(wrong.stderr.contains("brand (color), radius (float)"), "\(wrong.stderr)")
    }

    @Test func aNameThatIsNotOverridableIsAUsageError() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Livery.run(["dump", "B.theme", "--override", "brandPressed=#000000"], in: folder)
        #expect(run.status == 64)
        #expect(run.stderr.contains("brand (color), radius (float)"), "\(run.stderr)")
        let bad = try Livery.run(["dump", "B.theme", "--override", "radius=big"], in: folder)
        #expect(bad.status == 64)
        #expect(try Livery.run(["dump", "B.theme", "--override", "radius"], in: folder).status == 64)
    }

    @Test func explainShowsTheDerivation() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try Livery.run(["explain", "B.theme", "button_send"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stdout.contains("`brandPressed` = `brand` #FF3B30 darkened 0.15 in srgb = #D93229"), "\(run.stdout)")
    }
}

/// Format 1.3, section 9.3 end to end: a Tokens Studio file with modifiers imports, exports with
/// the resolved colour as `$value` and the modifier in `$extensions`, and imports back to the same
/// constants; `overridable` survives too.
@Suite struct StudioTokensRoundTripTests {
    @Test func importExportImportKeepsEveryModifier() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-studio-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try Livery.run([
            "tokens", "import", "Tests/Fixtures/ColorModifiers/studio.tokens.json", "--output", folder + "/S.theme",
            "--id", "s",
        ])
        #expect(first.status == 0, "\(first.stderr)")
        // a constant made overridable in the theme keeps it through export and import
        let xml = folder + "/S.theme/Tokens.xml"
        var text = try String(contentsOfFile: xml, encoding: .utf8)
        text = text.replacingOccurrences(of: #"<color name="brand""#, with: #"<color name="brand" overridable="true""#)
        try text.write(toFile: xml, atomically: true, encoding: .utf8)
        let export = try Livery.run(["tokens", "export", folder + "/S.theme", "--output", folder + "/out.json"])
        #expect(export.status == 0, "\(export.stderr)")
        let json = try String(contentsOfFile: folder + "/out.json", encoding: .utf8)
        #expect(json.contains(#""studio.tokens""#) && json.contains(#""base": "{brand}""#))
        #expect(json.contains(##""hex": "#d93229""##), "srgb.darken's resolved colour as $value")
        #expect(json.contains(#""overridable": true"#))
        let again = try Livery.run([
            "tokens", "import", folder + "/out.json", "--output", folder + "/R.theme", "--id", "s",
        ])
        #expect(again.status == 0, "\(again.stderr)")
        func lines(_ path: String) throws -> [String] {
            try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
                .filter { $0.contains("<color") }.sorted()
        }
        #expect(try lines(xml) == lines(folder + "/R.theme/Tokens.xml"))
        #expect(try lines(xml).filter { $0.contains("ref=\"brand\"") }.count == 15)
    }
}
