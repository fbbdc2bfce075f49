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
