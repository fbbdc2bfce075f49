import Foundation
import HummingbirdWSClient
import Livery
import LiveryDevelopment
import Logging

/// Lets a debug build follow a `livery studio` over the network: connects to the studio's
/// `/follow` WebSocket, mirrors the theme files it sends into a local folder, and has the app's
/// `LiveReload` check them at once. A mirror with errors is handled as any save with errors:
/// the last good theme stays on screen and the errors go to the manager's diagnostics.
///
/// ```swift
/// // Livery.xml's <search-path> names the mirror folder's copy of the themes (e.g. mirror/Themes).
/// let manager = ThemeManager.development(configurationFile: "Livery.xml")
/// let reload = LiveReload(manager: manager)
/// let follower = StudioFollower(url: "ws://127.0.0.1:8123/follow?token=…", mirror: "/tmp/app-themes", reload: reload)
/// Task { try await follower.run() }
/// ```
public final class StudioFollower: Sendable {
    public let url: String
    /// The folder the studio's files are written into, as `<given folder name>/<path>`.
    public let mirror: String
    public let reload: LiveReload
    /// Called on the main actor after every message has been applied.
    public let onApplied: @MainActor @Sendable (LiveReload.Outcome) -> Void
    /// The largest message accepted from the studio (a snapshot of every theme file).
    public let maxMessageBytes: Int

    public init(
        url: String, mirror: String, reload: LiveReload, maxMessageBytes: Int = 64 * 1024 * 1024,
        onApplied: @escaping @MainActor @Sendable (LiveReload.Outcome) -> Void = { _ in }
    ) {
        self.url = url
        self.mirror = (mirror as NSString).standardizingPath
        self.reload = reload
        self.maxMessageBytes = maxMessageBytes
        self.onApplied = onApplied
    }

    /// Connects and applies messages until the connection closes or the task is cancelled.
    public func run() async throws { try await follow(once: false) }

    /// Connects, writes the studio's files into the mirror and returns: what an app does before
    /// it creates its theme manager on the mirror.
    public func mirrorOnce() async throws { try await follow(once: true) }

    /// Connects and applies the studio's messages; with `once`, only the first (every file, sent
    /// on connecting), without asking live reload to look, and then closes.
    private func follow(once: Bool) async throws {
        var logger = Logger(label: "livery-studio-follower")
        logger.logLevel = .warning
        let maxBytes = maxMessageBytes
        try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: maxBytes), logger: logger) {
            inbound, outbound, _ in
            for try await message in inbound.messages(maxSize: maxBytes) {
                guard case .text(let text) = message else { continue }
                try await self.apply(text, reloading: !once)
                if once {
                    try await outbound.close(.normalClosure, reason: nil)
                    return
                }
            }
        }
    }

    /// Writes the files of one `files` message into the mirror and has live reload look at once.
    func apply(_ text: String, reloading: Bool = true) async throws {
        let started = DispatchTime.now().uptimeNanoseconds
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            object["type"] as? String == "files"
        else { return }
        let files = object["files"] as? [String: String] ?? [:]
        let removed = object["removed"] as? [String] ?? []
        for (path, encoded) in files {
            guard let target = place(path), let data = Data(base64Encoded: encoded) else { continue }
            // The set sent on connecting is mostly what the mirror holds: a file rewritten with
            // the same bytes would still look saved to live reload.
            if FileManager.default.contents(atPath: target) == data { continue }
            try FileManager.default.createDirectory(
                atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let temporary = target + ".livery-follow"
            try data.write(to: URL(fileURLWithPath: temporary))
            _ = Foundation.rename(temporary, target)
        }
        for path in removed {
            if let target = place(path) { try? FileManager.default.removeItem(atPath: target) }
        }
        guard reloading else { return }
        let reload = self.reload
        let onApplied = self.onApplied
        let written = DispatchTime.now().uptimeNanoseconds
        await MainActor.run {
            let scheduled = DispatchTime.now().uptimeNanoseconds
            let outcome = reload.check()
            let checked = DispatchTime.now().uptimeNanoseconds
            onApplied(outcome)
            if Self.tracing {
                func ms(_ from: UInt64, _ to: UInt64) -> String { String(format: "%.2f", Double(to - from) / 1e6) }
                FileHandle.standardError.write(
                    Data(
                        ("follow-trace write \(ms(started, written))\nfollow-trace main-actor-wait \(ms(written, scheduled))\n"
                            + "follow-trace reload \(ms(scheduled, checked))\n").utf8))
            }
        }
    }

    /// `LIVERY_STUDIO_TRACE=1`: timings of each message's phases on standard error.
    static let tracing = ProcessInfo.processInfo.environment["LIVERY_STUDIO_TRACE"] == "1"

    /// The mirror path of a studio path; nil for anything that would leave the mirror.
    func place(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.hasPrefix("/"), !parts.isEmpty, !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty })
        else { return nil }
        return mirror + "/" + path
    }
}
