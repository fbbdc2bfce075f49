import Foundation
import LiveryModel
import LiveryTokens
import Testing

/// The folder is written whole or not at all.
struct ThemeFolderWriterTests {
    let theme = TokenTheme(
        id: "test.tokens", name: "Tokens", parent: nil,
        layers: [("Tokens.xml", [ThemeConstant(name: "gap", type: .float, content: .literal(.float(8)))])],
        sources: ["tokens.json"])

    func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "livery-tokens-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func entries(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func writesTheFolderAfterTheCheckSawIt() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var checked: [String] = []
        let findings = ThemeFolderWriter.write(theme, to: root + "/Tokens.theme") { staged in
            checked = entries(staged)
            return [.warning("some-warning", "seen", at: SourceLocation(file: staged + "/Tokens.xml", line: 3))]
        }
        #expect(checked == ["Info.xml", "Tokens.xml"])
        #expect(findings.map(\.location?.file) == [root + "/Tokens.theme/Tokens.xml"])
        #expect(entries(root) == ["Tokens.theme"])
        let xml = try String(contentsOfFile: root + "/Tokens.theme/Tokens.xml", encoding: .utf8)
        #expect(xml.contains(#"<float name="gap">8</float>"#))
    }

    @Test func anErrorInTheCheckWritesNothingAndKeepsTheOldFolder() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/Tokens.theme"
        #expect(!ThemeFolderWriter.write(theme, to: target) { _ in [] }.hasErrors)
        let before = try String(contentsOfFile: target + "/Tokens.xml", encoding: .utf8)
        var changed = theme
        changed.layers = [("Tokens.xml", [ThemeConstant(name: "gap", type: .float, content: .literal(.float(99)))])]
        let findings = ThemeFolderWriter.write(changed, to: target) { staged in
            [.error("bad", "no", at: SourceLocation(file: staged))]
        }
        #expect(findings.hasErrors)
        #expect(entries(root) == ["Tokens.theme"])  // no staging folder left behind
        #expect(try String(contentsOfFile: target + "/Tokens.xml", encoding: .utf8) == before)
        // Without the error the new contents replace the old ones.
        #expect(!ThemeFolderWriter.write(changed, to: target) { _ in [] }.hasErrors)
        #expect(try String(contentsOfFile: target + "/Tokens.xml", encoding: .utf8).contains(">99<"))
        #expect(entries(root) == ["Tokens.theme"])
    }

    @Test func aFolderWithFilesImportDidNotWriteIsNotReplaced() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let target = root + "/Hand.theme"
        try FileManager.default.createDirectory(atPath: target + "/assets", withIntermediateDirectories: true)
        try Data("<theme/>".utf8).write(to: URL(fileURLWithPath: target + "/Chat.xml"))
        let findings = ThemeFolderWriter.write(theme, to: target) { _ in [] }
        #expect(findings.map(\.code) == [.tokensWriteFailed])
        #expect(findings.first?.message.contains("Chat.xml, assets") == true)
        #expect(entries(target) == ["Chat.xml", "assets"])
    }
}
