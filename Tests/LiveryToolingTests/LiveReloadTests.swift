import Foundation
import Livery
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import Testing

/// Live reload in the runtime: a save re-applies; a save with errors keeps the last good theme
/// on screen and reports the findings.
@MainActor @Suite struct LiveReloadTests {
    static func chat(_ color: String) -> String {
        """
        <theme><instances><uilabel id="label_title">
          <operation name="textColor"><param name="color"><color>\(color)</color></param></operation>
        </uilabel></instances></theme>
        """
    }

    let scratch: Scratch
    let manager: ThemeManager
    let applicator: Applicator
    let label = Label()

    init() throws {
        scratch = try Scratch(["App.theme/Info.xml": Scratch.info("app"), "App.theme/Chat.xml": Self.chat("#FF0000")])
        manager = ThemeManager.development(
            configuration: LiveryConfiguration(defaultThemeID: "app", searchPaths: [scratch.path]))
        applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        applicator.style(label, as: "label_title")
    }

    @Test func aSaveReappliesAndABrokenSaveKeepsTheLastGoodTheme() throws {
        let reload = LiveReload(manager: manager)
        #expect(label.textColor?.hexString == "#FF0000FF")
        #expect(reload.check() == .unchanged)

        try scratch.write(["App.theme/Chat.xml": Self.chat("#00FF00")])
        #expect(reload.check() == .reloaded(changedFiles: [scratch("App.theme/Chat.xml")]))
        #expect(label.textColor?.hexString == "#00FF00FF")

        try scratch.write(["App.theme/Chat.xml": Self.chat("#00FF0")])
        guard case .kept(let files, let errors) = reload.check() else {
            Issue.record("a broken save must not reload")
            return
        }
        #expect(files == [scratch("App.theme/Chat.xml")])
        #expect(errors.map(\.code) == ["value-invalid"])
        #expect(label.textColor?.hexString == "#00FF00FF", "the last good theme stays on screen")
        #expect(manager.currentThemeID == "app")
        #expect(manager.diagnostics.reported.contains { $0.code == "value-invalid" })
        #expect(
            manager.diagnostics.reported.last?.message.contains("'app' stays on screen until a save fixes them") == true
        )

        try scratch.write(["App.theme/Chat.xml": Self.chat("#0000FF")])
        #expect(reload.check() == .reloaded(changedFiles: [scratch("App.theme/Chat.xml")]))
        #expect(label.textColor?.hexString == "#0000FFFF")
    }

    @Test func pollsWhileStarted() async throws {
        let reload = LiveReload(manager: manager, interval: 0.02)
        var outcomes: [LiveReload.Outcome] = []
        reload.onChange = { outcomes.append($0) }
        reload.start()
        #expect(reload.isRunning)
        try scratch.write(["App.theme/Chat.xml": Self.chat("#123456")])
        for _ in 0..<250 where label.textColor?.hexString != "#123456FF" {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        reload.stop()
        #expect(!reload.isRunning)
        #expect(label.textColor?.hexString == "#123456FF")
        #expect(outcomes.count == 1, "one save, one reload")
    }
}
