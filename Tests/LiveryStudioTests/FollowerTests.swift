import Foundation
import Livery
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import LiveryStudio
import LiveryStudioClient
import Testing

/// A headless app following a studio over the network: an edit in the studio re-applies in the
/// app; an edit with errors keeps the last good theme.
@MainActor @Suite(.serialized) struct FollowerTests {
    @Test func aConnectedAppAppliesEditsAndKeepsItsLastGoodTheme() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let mirror = FileManager.default.temporaryDirectory.appendingPathComponent("livery-follow-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: mirror) }
        try FileManager.default.createDirectory(atPath: mirror, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: studio.copy.themes, toPath: mirror + "/Themes")

        let manager = ThemeManager.development(
            configuration: LiveryConfiguration(
                defaultThemeID: "com.livery.base",
                searchPaths: [mirror + "/Themes"]))
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let button = Button()
        applicator.style(button, as: "button_send")
        #expect(button.backgroundColor?.hexString == "#0062CCFF")

        let reload = LiveReload(manager: manager)
        final class Outcomes: @unchecked Sendable { var list: [LiveReload.Outcome] = [] }
        let outcomes = Outcomes()
        let follower = StudioFollower(
            url: "ws://127.0.0.1:\(studio.port)/follow?token=\(studio.token)", mirror: mirror,
            reload: reload
        ) { outcome in outcomes.list.append(outcome) }
        let following = Task { try await follower.run() }
        defer { following.cancel() }
        // The snapshot on connecting.
        for _ in 0..<500 where outcomes.list.isEmpty { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!outcomes.list.isEmpty, "the follower received no snapshot")

        // An edit in the studio.
        let explanation = try await studio.session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let target = try #require(explanation.operations.first { $0.name == "backgroundColor" }?.targets.first)
        let result = await studio.session.edit(StudioEditRequest(target: target, slot: "content", text: "#1040A0"))
        #expect(result.ok)
        _ = try await studio.request("/api/state", token: studio.token)  // any request; the poll pushes too
        for _ in 0..<500 where button.backgroundColor?.hexString != "#1040A0FF" {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(button.backgroundColor?.hexString == "#1040A0FF", "the app did not apply the edit")

        // An edit with errors: the app keeps the last good theme.
        var broken = target
        broken.version = ThemeFiles.version(of: try studio.copy.bytes(String(target.file.dropFirst("Themes/".count))))
        let count = outcomes.list.count
        #expect(
            await studio.session.edit(StudioEditRequest(target: broken, slot: "content", text: "#12")).ok == false,
            "a colour that is not #RRGGBB is refused by the editor")
        var nameTarget = broken
        nameTarget.kind = .value
        // A reference to a constant that does not exist: well-formed XML, but the theme has an error.
        let path = studio.copy.themes + "/" + String(target.file.dropFirst("Themes/".count))
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(
            of: "<color name=\"accentStrong\">#1040A0</color>", with: "<color name=\"accentStrong\" ref=\"nowhere\"/>")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        for _ in 0..<500 where outcomes.list.count == count { try await Task.sleep(for: .milliseconds(10)) }
        guard case .kept? = outcomes.list.last else {
            Issue.record(
                "an edit with errors must keep the last good theme, got \(outcomes.list.last.map(String.init(describing:)) ?? "nothing")"
            )
            await studio.stop()
            return
        }
        #expect(button.backgroundColor?.hexString == "#1040A0FF")
        following.cancel()
        await studio.stop()
    }
}
