import CGTK
import Foundation
import Livery
import LiveryDevelopment
import LiveryGTK
import LiveryStudioClient

/// `livery-gtk-demo --follow ws://127.0.0.1:PORT/follow?token=…`: the GTK window following a
/// running `livery studio` over the network. The studio's files are mirrored into a temporary
/// folder before the window opens; every edit made in the studio re-applies to the real widgets
/// at once and prints what changed; an edit with errors keeps the last good theme.
/// `--follow-screenshots DIR` also writes the window's content as `follow-0.png` once it is
/// drawn, and `follow-N.png` after the N-th change applied.
@MainActor
enum StudioFollow {
    static var mirror = ""
    static var shots: String?
    static var window: UnsafeMutablePointer<GtkWidget>?
    static var root: UnsafeMutablePointer<GtkWidget>?
    static var changes = 0

    /// Mirrors the studio's files (the thread waits: the window needs a theme to open with) and
    /// makes the theme manager on the mirror; nil when the studio cannot be reached.
    static func manager(url: String, themeID: String) -> ThemeManager? {
        mirror = FileManager.default.temporaryDirectory.appendingPathComponent("livery-gtk-follow-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: mirror, withIntermediateDirectories: true)
        // A throwaway manager until the files are here: the follower needs a LiveReload to hand them to.
        let bootstrap = LiveReload(
            manager: ThemeManager.development(configuration: LiveryConfiguration(searchPaths: [])))
        let follower = StudioFollower(url: url, mirror: mirror, reload: bootstrap)
        final class Outcome: @unchecked Sendable { var error: Error? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { try await follower.mirrorOnce() } catch { outcome.error = error }
            done.signal()
        }
        done.wait()
        if let error = outcome.error {
            say("Could not follow \(url.split(separator: "?").first ?? ""): \(error)")
            return nil
        }
        let folders = ((try? FileManager.default.contentsOfDirectory(atPath: mirror)) ?? []).sorted().map {
            mirror + "/" + $0
        }
        // The chat screen's own components, as Livery.xml names them.
        let schema = folders.map { $0 + "/Base.theme/Components.xml" }.filter {
            FileManager.default.fileExists(atPath: $0)
        }
        return ThemeManager.development(
            configuration: LiveryConfiguration(
                defaultThemeID: themeID, searchPaths: folders, themeExtensions: ["theme", "purchasedTheme"],
                schemaFiles: schema))
    }

    /// Follows the studio from now on: each change re-applies through `LiveReload` on the main
    /// queue, which GLib's loop drains.
    static func start(
        url: String, manager: ThemeManager, window: UnsafeMutablePointer<GtkWidget>,
        root: UnsafeMutablePointer<GtkWidget>, screenshots: String?
    ) {
        self.window = window
        self.root = root
        shots = screenshots
        if let screenshots {
            try? FileManager.default.createDirectory(atPath: screenshots, withIntermediateDirectories: true)
        }
        let reload = LiveReload(manager: manager)
        let follower = StudioFollower(url: url, mirror: mirror, reload: reload) { outcome in
            switch outcome {
            case .unchanged: return
            case .reloaded(let files):
                say(
                    "== studio edit applied (\(files.map { ($0 as NSString).lastPathComponent }.joined(separator: ", ")))"
                )
            case .kept(_, let errors):
                say("== studio edit has \(errors.count) error(s): the last good theme stays")
            }
            changes += 1
            screenshot()
        }
        DispatchQueue.main.async {
            screenshot()
            say(
                "== following \(url.split(separator: "?").first ?? "") with \(manager.currentThemeID ?? "no theme"); files in \(mirror)"
            )
            Task.detached {
                do { try await follower.run() } catch { say("== the studio's connection ended: \(error)") }
            }
        }
    }

    /// The window's content after the styles of the last change are painted.
    static func screenshot() {
        guard let shots, let window, let root else { return }
        GTKBindings.flushStyles()
        _ = Offscreen.waitForFrames(of: window, count: 2)
        let path = shots + "/follow-\(changes).png"
        say(Offscreen.savePNG(root, to: path) ? "wrote \(path)" : "could not write \(path)")
    }
}

/// One line to stdout at once (unbuffered), also when the output is a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
