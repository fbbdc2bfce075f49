import Foundation
import Livery
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import LiveryStudioClient

/// `livery-chat-demo --follow ws://127.0.0.1:PORT/follow?token=…`: the chat screen following a
/// running `livery studio` over the network. The studio's files are mirrored into a temporary
/// folder; every edit made in the studio re-applies here and prints what changed; an edit with
/// errors keeps the last good theme and prints the findings.
@MainActor
enum FollowDemo {
    static func run(url: String, themeID: String) async throws {
        let mirror = FileManager.default.temporaryDirectory.appendingPathComponent("livery-chat-follow-\(getpid())")
            .path
        try FileManager.default.createDirectory(atPath: mirror, withIntermediateDirectories: true)
        // A throwaway manager until the files are here: the follower needs a LiveReload to hand them to.
        let bootstrap = LiveReload(
            manager: ThemeManager.development(configuration: LiveryConfiguration(searchPaths: [])))
        try await StudioFollower(url: url, mirror: mirror, reload: bootstrap).mirrorOnce()
        let folders = try FileManager.default.contentsOfDirectory(atPath: mirror).sorted().map { mirror + "/" + $0 }
        let manager = ThemeManager.development(
            configuration: LiveryConfiguration(defaultThemeID: themeID, searchPaths: folders))
        _ = manager.diagnostics.observe { say("  [\($0.severity.rawValue)] \($0.message) [\($0.code)]") }
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        applicator.register(chatBubbleBinding())
        let screen = ChatScreen(applicator: applicator)
        say(
            "Following \(url.split(separator: "?").first ?? "") with \(manager.currentThemeID ?? "no theme"); files in \(mirror)"
        )
        say(screen.describe())
        applicator.onChange = { say("  ~ \($0)") }
        let reload = LiveReload(manager: manager)
        let follower = StudioFollower(url: url, mirror: mirror, reload: reload) { outcome in
            switch outcome {
            case .unchanged: break
            case .reloaded(let files):
                say(
                    "== studio edit applied (\(files.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")))"
                )
            case .kept(_, let errors): say("== studio edit has \(errors.count) error(s): the last good theme stays")
            }
        }
        try await follower.run()
    }
}

/// One line to stdout at once (unbuffered), also when the output is a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
