import Foundation
import LiveryBinary
import LiveryModel
import LiveryXML
import Testing

@testable import LiveryCompiler

/// Tests/Fixtures/Typography (format 1.2, section 8): the folder and its compiled file both dump
/// exactly the expected JSON at each recorded text scale, and the rules the files show hold.
@Suite struct TypographyFixtureTests {
    static let folder = Repository.root + "/Tests/Fixtures/Typography"
    static let theme = folder + "/Typography.theme"
    static let textScales: [Double] = [1, 1.25, 2]

    static func expectedFile(_ textScale: Double) -> String {
        folder + "/expected/none_s1_t\(ValueText.number(textScale)).json"
    }

    @Test(arguments: textScales)
    func folderAndCompiledFileDumpAsExpected(_ textScale: Double) throws {
        let text = try String(contentsOfFile: Self.expectedFile(textScale), encoding: .utf8)
        let workspace = ThemeWorkspace()
        let folder = try #require(workspace.resolve(themeAt: Self.theme, traits: .none).value)
        #expect(CanonicalJSON.dump(folder, scale: 1, textScale: textScale) == text)
        let bytes = try #require(ThemeCompiler.compile(themeAt: Self.theme, workspace: workspace).value)
        let compiled = try CompiledTheme(bytes: bytes).materialize().resolved(for: .none)
        #expect(CanonicalJSON.dump(compiled, scale: 1, textScale: textScale) == text)
        #expect(workspace.validate(paths: [Self.theme]).isEmpty)
    }

    /// The contract's rules, read from the expected files, so a wrong regeneration cannot hide them.
    @Test func theExpectedFilesFollowTheContract() throws {
        func font(_ textScale: Double, _ id: String) throws -> [String: Any] {
            let data = try #require(FileManager.default.contents(atPath: Self.expectedFile(textScale)))
            let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let instance = try #require((root["instances"] as? [String: Any])?[id] as? [String: Any])
            let operation = try #require((instance["operations"] as? [[String: Any]])?.first)
            let param = try #require((operation["params"] as? [String: Any])?.values.first as? [String: Any])
            return try #require(param["font"] as? [String: Any])
        }
        func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
        // Given: both present; letter spacing as applied (x applied / size), line height as written.
        #expect(number(try font(1, "label_heading")["letterSpacing"]) == -0.5)
        #expect(number(try font(1.25, "label_heading")["letterSpacing"]) == -0.625)
        #expect(number(try font(2, "label_heading")["letterSpacing"]) == -0.75)  // size capped at 30
        for scale in Self.textScales { #expect(number(try font(scale, "label_heading")["lineHeight"]) == 1.2) }
        // A reference carries them to another operation.
        #expect(number(try font(2, "button_send")["letterSpacing"]) == -0.75)
        // Written as 0: kept at every scale.
        #expect(number(try font(2, "label_zero")["letterSpacing"]) == 0)
        #expect(number(try font(2, "label_zero")["lineHeight"]) == 0)
        // Absent: no member.
        #expect(try font(2, "label_plain")["letterSpacing"] == nil)
        #expect(try font(2, "label_plain")["lineHeight"] == nil)
        #expect(try font(2, "label_inline")["lineHeight"] == nil)
        #expect(number(try font(2, "label_inline")["letterSpacing"]) == -0.5)
        // Fixed and unsized fonts keep both as written.
        #expect(number(try font(2, "label_badge")["letterSpacing"]) == 0.5)
        #expect(number(try font(2, "text_code")["letterSpacing"]) == 1)
        #expect(number(try font(2, "text_code")["lineHeight"]) == 1.4)
    }
}
