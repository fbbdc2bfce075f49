import Foundation
import LiveryModel
import LiveryXML
import Testing

@testable import LiveryLanguageServer

/// What the language server checks again after an edit: the themes whose own check the edit may
/// change, and no other; the findings are still those of `validate` of every theme.
@Suite struct ThemeProjectTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The sample themes copied to a folder of their own, with a project on them.
    final class Workspace {
        let root: String
        let project: ThemeProject

        init() throws {
            root =
                FileManager.default.temporaryDirectory.appendingPathComponent("livery-project-\(UUID().uuidString)")
                .path
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                atPath: ThemeProjectTests.repository.appendingPathComponent("Themes").path, toPath: root + "/Themes")
            let roots = [LanguageServer.standardized(root)]
            project = ThemeProject(
                roots: roots,
                settings: ProjectSettings(options: LanguageServerOptions(), initializationOptions: .null, roots: roots))
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        func theme(_ name: String) -> String { LanguageServer.standardized(root + "/Themes/" + name) }

        /// Holds `file`'s text with `old` replaced by `new`, and checks.
        func edit(_ file: String, _ old: String, _ new: String) throws -> (checked: [String], findings: [Diagnostic]) {
            let path = LanguageServer.standardized(root + "/Themes/" + file)
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(old), "\(file) holds no \(old)")
            project.hold(text.replacingOccurrences(of: old, with: new), at: path)
            return project.checkDirtyThemes()
        }

        /// `validate` of the themes' folder afresh, reading the same buffers.
        func validated() -> [Diagnostic] {
            let fresh = ThemeWorkspace(
                searchPaths: project.workspace.searchPaths, schemaFiles: [], overlay: project.overlay)
            return fresh.validate(paths: [LanguageServer.standardized(root + "/Themes")])
        }
    }

    @Test func anEditChecksAgainOnlyTheThemesItMayChangeAndFindsWhatValidateFinds() throws {
        let workspace = try Workspace()
        let (all, first) = workspace.project.checkDirtyThemes()
        #expect(all.count == 5)
        #expect(first == workspace.validated())

        // A leaf's value: that theme alone.
        var (checked, found) = try workspace.edit("Light.theme/Chat.xml", "<enum>left</enum>", "<enum>lefty</enum>")
        #expect(checked == [workspace.theme("Light.theme")])
        #expect(found == workspace.validated())

        // A child's colour read by its parent's operations: the child and its own child, and the
        // findings in the parent's files (contrast-low in Base's Chat.xml) as validate has them.
        (checked, found) = try workspace.edit(
            "Dark.theme/Palette.xml", "<color name=\"textPrimary\">#EDEDED</color>",
            "<color name=\"textPrimary\">#2D2D2D</color>")
        #expect(checked == ["Dark.theme", "HighContrast.theme"].map(workspace.theme))
        #expect(
            found.contains { $0.code == .contrastLow && $0.location?.file.hasSuffix("Base.theme/Chat.xml") == true })
        #expect(found == workspace.validated())

        // A parent's id: the parent, its descendants, and nothing else (Light's parent is Tokens).
        (checked, found) = try workspace.edit(
            "Base.theme/Info.xml", "id=\"com.livery.base\"", "id=\"com.livery.based\"")
        #expect(
            checked
                == ["Base.theme", "Dark.theme", "HighContrast.theme", "Light.theme", "Tokens.theme"].map(
                    workspace.theme))
        #expect(found.filter { $0.code == .parentMissing }.count == 2)
        #expect(found == workspace.validated())

        // A missing parent's finding suggests the closest id: a theme whose parent is missing is
        // checked again when any id changes.
        (checked, found) = try workspace.edit(
            "Light.theme/Info.xml", "parent=\"com.livery.tokens\"", "parent=\"com.livery.darkz\"")
        #expect(checked == [workspace.theme("Light.theme")])
        func lightsParent(_ found: [Diagnostic]) -> String? {
            found.first { $0.code == .parentMissing && $0.location?.file.hasSuffix("Light.theme/Info.xml") == true }?
                .message
        }
        #expect(lightsParent(found)?.contains("'com.livery.dark'") == true, "\(lightsParent(found) ?? "none")")
        (checked, found) = try workspace.edit("Dark.theme/Info.xml", "id=\"com.livery.dark\"", "id=\"com.livery.dusk\"")
        #expect(checked.contains(workspace.theme("Light.theme")))
        #expect(lightsParent(found)?.contains("'com.livery.dark'") == false, "\(lightsParent(found) ?? "none")")
        #expect(found == workspace.validated())
    }
}
