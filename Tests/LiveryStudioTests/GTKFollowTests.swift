import Foundation
import LiveryStudio
import Testing

/// The GTK demo following a studio: real GTK 4 widgets (under Xvfb) change after an edit made in
/// the studio. Needs a display, as the GTK tests do (Scripts/test.sh starts Xvfb).
@Suite(.serialized) struct GTKFollowTests {
    /// `livery-gtk-demo`, built beside the test bundle (`swift build` builds every product).
    static let demo: String? = {
        var directory = Bundle.main.bundleURL
        while directory.pathComponents.count > 1 {
            let candidate = directory.appendingPathComponent("livery-gtk-demo").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    @Test func theGTKWindowChangesAfterAStudioEdit() async throws {
        guard ProcessInfo.processInfo.environment["DISPLAY"] != nil else {
            Issue.record("no DISPLAY: run the tests under Xvfb (`source Scripts/xvfb.sh`, as Scripts/test.sh does)")
            return
        }
        let demo = try #require(Self.demo, "livery-gtk-demo is not built beside the tests; run `swift build` first")
        let studio = try RunningStudio()
        try await studio.start()
        let shots = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-gtk-follow-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: shots) }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: demo)
        process.arguments = [
            "--follow", "ws://127.0.0.1:\(studio.port)/follow?token=\(studio.token)", "--follow-screenshots", shots,
        ]
        let output = LineCollector()
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        try process.run()
        // SIGKILL: the demo inherits the test process's signal mask, in which SIGTERM is blocked.
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        #expect(await output.wait(for: "== following"), "the demo did not start following: \(output.text)")
        let before = shots + "/follow-0.png"
        #expect(FileManager.default.fileExists(atPath: before), "no first screenshot: \(output.text)")

        // The send button's background in the light theme the demo shows, at the first place the
        // studio may write (the value comes from the generated Tokens theme: an override in Light).
        let explanation = try await studio.session.explain(themeID: "com.livery.light", traits: "", id: "button_send")
        let background = try #require(
            explanation.operations.first { $0.name == "backgroundColor" && $0.state == "normal" })
        let target = try #require(background.targets.first { $0.readOnly == nil })
        let result = await studio.session.edit(StudioEditRequest(target: target, slot: "content", text: "#10A040"))
        #expect(result.ok, "\(result.message)")
        #expect(await output.wait(for: "== studio edit applied"), "the demo did not apply the edit: \(output.text)")
        #expect(await output.wait(for: "follow-1.png"), "no screenshot after the edit: \(output.text)")
        let after = shots + "/follow-1.png"
        #expect(try pixels(of: "#10A040", in: before) == 0)
        #expect(try pixels(of: "#10A040", in: after) > 100, "the GTK window shows no button of the new colour")
        await studio.stop()
    }

    /// How many pixels of a PNG are exactly `colour`, counted by ImageMagick.
    func pixels(of colour: String, in png: String) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "convert", png, "-alpha", "off", "-fill", "black", "+opaque", colour, "-fill", "white", "-opaque", colour,
            "-format", "%[fx:round(mean*w*h)]", "info:",
        ]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}

/// A child's output as it arrives, searchable while it runs.
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) {
        lock.lock()
        data.append(more)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }

    /// Waits up to `seconds` for `needle` to appear.
    func wait(for needle: String, seconds: Double = 20) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if text.contains(needle) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return text.contains(needle)
    }
}
