import CGTK
import Foundation
import Livery
import LiveryGTK
import Testing

/// The desktop's accent colour followed live: a private D-Bus session bus (`dbus-daemon`) with
/// the settings portal stand-in of the LiveryAdwaita tests (settings-portal.py), whose
/// `accent-color` changes while the follower runs; the value reaches the scope's overridable
/// constant, the app's choice wins, and a value the app set itself is never taken back.
@MainActor
@Suite(.serialized) struct GTKAccentTests {
    /// The session bus and the portal stand-in, stopped when released.
    final class Desktop {
        let bus = Process(), portal = Process()
        let portalInput = Pipe(), portalOutput = Pipe()
        let address: String

        init() throws {
            let busOutput = Pipe()
            bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            bus.arguments = ["--session", "--print-address", "--nofork"]
            bus.standardOutput = busOutput
            // Not the test's own output: a process holding it would keep `swift test` waiting.
            bus.standardError = FileHandle.nullDevice
            try bus.run()
            address = try #require(Self.line(busOutput.fileHandleForReading), "dbus-daemon printed no address")
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("LiveryAdwaitaTests/settings-portal.py")
            portal.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            portal.arguments = [script.path]
            portal.environment = ProcessInfo.processInfo.environment.merging(
                ["DBUS_SESSION_BUS_ADDRESS": address]) { $1 }
            portal.standardInput = portalInput
            portal.standardOutput = portalOutput
            try portal.run()
            try #require(Self.line(portalOutput.fileHandleForReading) == "ready", "the portal stand-in started")
        }

        /// Sets the desktop's accent (`R,G,B`; outside 0...1 means none); returns once announced.
        func setAccent(_ components: String) {
            portalInput.fileHandleForWriting.write(
                Data("org.freedesktop.appearance accent-color ddd \(components)\n".utf8))
            _ = Self.line(portalOutput.fileHandleForReading)
        }

        static func line(_ handle: FileHandle) -> String? {
            var bytes = Data()
            while true {
                let byte = handle.readData(ofLength: 1)
                if byte.isEmpty || byte == Data("\n".utf8) { break }
                bytes += byte
            }
            return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
        }

        deinit {
            try? portalInput.fileHandleForWriting.close()
            // Not waited for: Foundation reports the exit on the main queue, which this test holds.
            portal.terminate()
            kill(bus.processIdentifier, SIGKILL)
        }
    }

    /// Starts following with the session bus at `address` (the variable is put back at once:
    /// the follower connects as it starts, and the rest of the process keeps its own bus).
    func follow(
        _ manager: ThemeManager, on desktop: Desktop, scope: ThemeScope
    ) -> GTKSystemTraits {
        let saved = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"]
        setenv("DBUS_SESSION_BUS_ADDRESS", desktop.address, 1)
        defer {
            if let saved { setenv("DBUS_SESSION_BUS_ADDRESS", saved, 1) } else { unsetenv("DBUS_SESSION_BUS_ADDRESS") }
        }
        return GTKSystemTraits.follow(manager, aspects: [.accent], accentScope: scope, accentConstant: "accent")
    }

    /// Runs GLib's loop until `condition` holds or 5 seconds passed.
    func wait(for condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while !condition() {
            if Date() > deadline { return false }
            g_main_context_iteration(nil, 0)
            g_usleep(1000)
        }
        return true
    }

    /// Runs GLib's loop for `seconds`, so that answers on their way arrive.
    func settle(_ seconds: Double = 0.3) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            g_main_context_iteration(nil, 0)
            g_usleep(1000)
        }
    }

    @Test func theDesktopsAccentColourReachesTheScopesConstantLiveAndTheAppsChoiceWins() throws {
        try GTKTestEnvironment.start()
        let desktop = try Desktop()
        let manager = ThemeManager()
        let applicator = Applicator(manager: manager, bindings: GTKBindings.register(in:))
        let root = applicator.rootScope
        func accent(_ scope: ThemeScope) -> Value? { scope.overrides.constants["accent"] }

        // The app's own value, set before following, and a desktop without an accent.
        let appValue = Value.color(rgb(0x112233))
        root.overrides.constants["accent"] = appValue
        let system = follow(manager, on: desktop, scope: root)
        settle()
        #expect(system.system.accent == nil, "the portal has no accent-color")
        #expect(accent(root) == appValue, "without a desktop accent the app's value stays")

        // The desktop picks an accent, then another: followed live through SettingChanged.
        desktop.setAccent("0.2,0.4,0.6")
        let first = Color(red: 0.2, green: 0.4, blue: 0.6)
        #expect(wait { accent(root) == .color(first) }, "the desktop's accent is the constant's value")
        #expect(system.system.accent == first)
        desktop.setAccent("0.9,0.1,0.3")
        let second = Color(red: 0.9, green: 0.1, blue: 0.3)
        #expect(wait { accent(root) == .color(second) }, "a change of the desktop's accent follows")

        // A follower started now reads the accent the desktop has (the portal's Read).
        let contact = applicator.makeScope(ScopeOverrides())
        let other = follow(manager, on: desktop, scope: contact)
        #expect(wait { accent(contact) == .color(second) }, "read at start from the portal")
        #expect(other.accentScope === contact)

        // The app's choice wins, and the desktop's returns when the app lets go.
        let chosen = rgb(0x30A060)
        system.accentOverride = chosen
        #expect(accent(root) == .color(chosen))
        desktop.setAccent("0.1,0.1,0.1")
        settle()
        #expect(accent(root) == .color(chosen), "the desktop's change does not beat the app's choice")
        system.accentOverride = nil
        #expect(accent(root) == .color(Color(red: 0.1, green: 0.1, blue: 0.1)))

        // Components outside 0...1 mean "no accent": the follower takes back what it wrote.
        desktop.setAccent("-1,-1,-1")
        #expect(wait { accent(root) == nil }, "the desktop's accent unset: the theme's own returns")
        #expect(wait { accent(contact) == nil })
        #expect(system.system.accent == nil)

        // A value the app writes itself is the app's: the desktop having none never removes it.
        root.overrides.constants["accent"] = appValue
        desktop.setAccent("1.5,0,0")
        settle()
        #expect(accent(root) == appValue)

        // Stopped, the follower writes nothing more.
        system.stop()
        other.stop()
        desktop.setAccent("0.5,0.5,0.5")
        settle()
        #expect(accent(root) == appValue, "a stopped follower writes the desktop's accent no more")
        #expect(accent(contact) == nil)
        withExtendedLifetime((desktop, applicator)) {}
    }
}
