import Foundation
import LiveryModel
import LiveryStudio
import Testing

/// The session as the page drives it: explain, edit where the value comes from, see findings
/// follow, undo byte for byte, refuse stale edits.
@Suite struct StudioSessionTests {
    /// Byte offsets where two files differ: one run for a one-value edit.
    static func changedRun(_ a: [UInt8], _ b: [UInt8]) -> (prefix: Int, oldMiddle: String, newMiddle: String) {
        var prefix = 0
        while prefix < min(a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(a.count, b.count) - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] {
            suffix += 1
        }
        return (
            prefix, String(decoding: a[prefix..<(a.count - suffix)], as: UTF8.self),
            String(decoding: b[prefix..<(b.count - suffix)], as: UTF8.self)
        )
    }

    @Test func editingTheConstantChangesExactlyThatValueAndUndoRestoresTheFile() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes])
        let explanation = try await session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let background = try #require(
            explanation.operations.first { $0.name == "backgroundColor" && $0.state == "normal" })
        #expect(background.origin.source == "class primaryButton")
        #expect(background.constants.first == "accentStrong")
        let target = try #require(background.targets.first)
        #expect(
            target.kind == .value && target.ownerKind == "constant",
            "the default target is the constant the value comes through")
        let file = String(target.file.dropFirst("Themes/".count))
        let original = try copy.bytes(file)

        let result = await session.edit(StudioEditRequest(target: target, slot: "content", text: "#F2F2F2"))
        #expect(result.ok, "\(result.message)")
        let edited = try copy.bytes(file)
        let run = Self.changedRun(original, edited)
        #expect(!run.oldMiddle.contains("\n") && !run.newMiddle.contains("\n") && run.newMiddle.count <= 8, "\(run)")
        // White title on near-white: the finding appears.
        let state = await session.state(themeID: "com.livery.base", traits: nil)
        #expect(
            state.diagnostics.contains {
                $0.code == "contrast-low" && $0.message.contains("button_send") || $0.code == "contrast-low"
            })
        let send = try #require(state.screens.first?.elements.first { $0.id == "button_send" })
        #expect(send.background == "#F2F2F2FF")
        #expect(send.contrast?.pass == false)

        // Fixed: the finding for the button goes.
        var fixed = target
        fixed.version = ThemeFiles.version(of: edited)
        #expect(await session.edit(StudioEditRequest(target: fixed, slot: "content", text: "#1040A0")).ok)
        let after = await session.state(themeID: "com.livery.base", traits: nil)
        #expect(after.screens.first?.elements.first { $0.id == "button_send" }?.contrast?.pass == true)

        #expect(await session.undo().ok)
        #expect(await session.undo().ok)
        #expect(try copy.bytes(file) == original, "undo restores the file byte for byte")
        #expect(await session.redo().ok)
        #expect(try copy.bytes(file) == edited)
    }

    /// The font editor starts from every attribute the theme gives, typography included.
    @Test func theFontEditorShowsLetterSpacingAndLineHeight() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes])
        let title = try await session.explain(themeID: "com.livery.base", traits: "", id: "label_title")
        let font = try #require(title.operations.first { $0.name == "font" })
        #expect(font.fields["line-height"] == "1.2", "\(font.fields)")
        #expect(font.fields["letter-spacing"] == nil, "the title gives no letter spacing")
        let caption = try await session.explain(themeID: "com.livery.base", traits: "", id: "label_timestamp")
        let captionFont = try #require(caption.operations.first { $0.name == "font" })
        #expect(captionFont.fields["letter-spacing"] == "0.3", "\(captionFont.fields)")
    }

    @Test func anEditBasedOnAStaleFileIsRefused() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes])
        let explanation = try await session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let target = try #require(explanation.operations.first { $0.name == "backgroundColor" }?.targets.first)
        let file = copy.themes + "/" + String(target.file.dropFirst("Themes/".count))
        // Someone else saves the file (a text editor, git pull).
        var changed = try copy.bytes(String(target.file.dropFirst("Themes/".count)))
        changed += Array("<!-- saved elsewhere -->\n".utf8)
        try Data(changed).write(to: URL(fileURLWithPath: file))
        let result = await session.edit(StudioEditRequest(target: target, slot: "content", text: "#102030"))
        #expect(!result.ok && result.refusal == "stale")
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: file))) == changed)
        // Two tabs: the second edit, based on the version the first replaced, is refused too.
        let fresh = try #require(
            try await session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
                .operations.first { $0.name == "backgroundColor" }?.targets.first)
        #expect(await session.edit(StudioEditRequest(target: fresh, slot: "content", text: "#102030")).ok)
        let second = await session.edit(StudioEditRequest(target: fresh, slot: "content", text: "#405060"))
        #expect(!second.ok && second.refusal == "stale")
    }

    @Test func anOverrideInAChildThemeIsOneIndentedElement() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes])
        let explanation = try await session.explain(themeID: "com.livery.light", traits: "dark", id: "label_title")
        let textColor = try #require(explanation.operations.first { $0.name == "textColor" })
        let override = try #require(textColor.targets.first { $0.kind == .override && $0.layer.contains("~dark") })
        #expect(override.file.hasPrefix("Themes/Light.theme/"))
        #expect(override.version == nil, "Light.theme has no Chat~dark.xml yet")
        let result = await session.edit(StudioEditRequest(target: override, slot: "content", text: "#ABCDEF"))
        #expect(result.ok, "\(result.message)")
        let path = copy.themes + "/" + String(override.file.dropFirst("Themes/".count))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
            text.contains(
                "<operation name=\"textColor\"><param name=\"color\"><color format=\"hex\">#ABCDEF</color></param></operation>"
            ))
        let after = try await session.explain(themeID: "com.livery.light", traits: "dark", id: "label_title")
        #expect(after.operations.first { $0.name == "textColor" }?.value == "#ABCDEFFF")
        #expect(await session.undo().ok)
        #expect(!FileManager.default.fileExists(atPath: path), "undo removes the file the override created")
    }

    @Test func tokenGeneratedThemesNameTheirOwner() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes])
        let tokens = try #require(await session.themes().first { $0.id == "com.livery.tokens" })
        #expect(tokens.readOnly?.contains("livery tokens import") == true)
        #expect(tokens.readOnly?.contains("tokens.resolver.json") == true)
    }

    /// A value `validate` refuses is not written: the file stays byte for byte, and the refusal
    /// says why, at the line of the value.
    @Test func aValueValidateRefusesIsNotWritten() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes])
        let title = try await session.explain(themeID: "com.livery.base", traits: "", id: "label_title")
        let font = try #require(title.operations.first { $0.name == "font" })
        let target = try #require(font.targets.first)
        #expect(target.ownerKind == "constant" && target.ownerName == "fontTitle")
        let original = try copy.bytes("Base.theme/Constants.xml")
        for (slot, text) in [("size", "-3"), ("line-height", "-1"), ("ref", "noSuchFont")] {
            let result = await session.edit(StudioEditRequest(target: target, slot: slot, text: text))
            #expect(!result.ok && result.refusal == "invalid", "\(slot)=\(text): \(result.message)")
            #expect(result.message.contains("nothing was written"), "\(result.message)")
            #expect(result.message.contains("Themes/Base.theme/Constants.xml:32"), "\(result.message)")
            #expect(try copy.bytes("Base.theme/Constants.xml") == original, "\(slot)=\(text) was written")
        }
        // A colour that only lowers contrast is a warning of validate: it is written.
        let send = try await session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let fill = try #require(send.operations.first { $0.name == "backgroundColor" }?.targets.first)
        #expect(await session.edit(StudioEditRequest(target: fill, slot: "content", text: "#F4F4F4")).ok)
        // An override of a value of the wrong kind is refused too, and no file is created.
        let titleDark = try await session.explain(themeID: "com.livery.base", traits: "dark", id: "label_title")
        let dark = try #require(
            titleDark.operations.first { $0.name == "font" }?.targets.first {
                $0.kind == .override && $0.layer == "Chat~dark.xml"
            })
        let darkLayer = try copy.bytes("Base.theme/Chat~dark.xml")
        let result = await session.edit(
            StudioEditRequest(
                target: dark, slot: "size", text: "-3",
                fields: ["family": "Helvetica Neue", "size": "-3", "weight": "regular"]))
        #expect(!result.ok && result.refusal == "invalid", "\(result.message)")
        #expect(try copy.bytes("Base.theme/Chat~dark.xml") == darkLayer)
    }

    /// `livery studio Themes/Dark.theme --themes Themes`: Dark, given as PATH, is editable though
    /// the --themes folder holds it too; its parent there is not.
    @Test func aThemeGivenAsPathIsEditableInsideAThemesFolder() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes + "/Dark.theme"], readOnlyFolders: [copy.themes])
        let themes = await session.themes()
        #expect(themes.first { $0.id == "com.livery.dark" }?.readOnly == nil, "\(themes)")
        #expect(themes.first { $0.id == "com.livery.base" }?.readOnly != nil)
        let explanation = try await session.explain(themeID: "com.livery.dark", traits: "", id: "button_send")
        let own = explanation.operations.flatMap(\.targets).filter { $0.file.hasPrefix("Dark.theme/") }
        #expect(!own.isEmpty && own.allSatisfy { $0.readOnly == nil }, "\(own.map(\.readOnly))")
        let value = try #require(own.first { $0.kind == .value && $0.version != nil })
        let result = await session.edit(StudioEditRequest(target: value, slot: "content", text: "#123456"))
        #expect(result.ok, "\(result.message)")
    }

    /// The inspector: the hex field starts from the file's own notation, each value says where
    /// the constant it goes through is defined, and no path is an absolute path of the machine.
    @Test func theInspectorShowsTheFilesNotationAndWhereTheConstantIsDefined() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes])
        let send = try await session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let fill = try #require(send.operations.first { $0.name == "backgroundColor" && $0.state == "normal" })
        #expect(fill.fields["content"] == "#0062CC")
        #expect(fill.definedAt?.file == "Themes/Base.theme/Constants.xml", "\(String(describing: fill.definedAt))")
        #expect(fill.definedAt?.line == 13, "\(String(describing: fill.definedAt))")
        let title = try #require(send.operations.first { $0.name == "titleColor" && $0.state == "normal" })
        #expect(title.fields["content"] == "#FFF", "the file writes onAccent as #FFF")
        // Given a theme alone, its parent is found beside it, outside the folders given.
        let alone = StudioSession(paths: [copy.themes + "/Dark.theme"])
        let dark = try await alone.explain(themeID: "com.livery.dark", traits: "", id: "button_send")
        let data = try JSONEncoder().encode(dark)
        let text = String(decoding: data, as: UTF8.self)
        #expect(!text.contains(copy.path), "an absolute path in the inspector: \(text.prefix(400))")
        let state = await alone.state(themeID: "com.livery.dark", traits: nil)
        let stateText = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
        #expect(!stateText.contains(copy.path), "an absolute path in the state")
    }
}
