import CAdwaita
import Foundation
import Livery
import LiveryAdwaita
import LiveryGTK
import Testing

/// libadwaita's dark mode and high contrast followed live: a private D-Bus session bus
/// (`dbus-daemon`) with a stand-in of the XDG settings portal (settings-portal.py) that
/// libadwaita reads, changed while the window shows, checked in pixels; the app's override wins.
@MainActor
@Suite(.serialized) struct AdwaitaFollowTests {
    static let red = Color(red: 0.8, green: 0.1, blue: 0.1), blue = Color(red: 0.1, green: 0.2, blue: 0.8)
    static let yellow = Color(red: 1, green: 0.9, blue: 0)

    /// The session bus and the portal, stopped when released.
    final class Desktop {
        let bus = Process(), portal = Process()
        let portalInput = Pipe(), portalOutput = Pipe()

        init() throws {
            let busOutput = Pipe()
            bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
            bus.arguments = ["--session", "--print-address", "--nofork"]
            bus.standardOutput = busOutput
            // Not the test's own output: a process holding it would keep `swift test` waiting.
            bus.standardError = FileHandle.nullDevice
            try bus.run()
            let address = try #require(Self.line(busOutput.fileHandleForReading), "dbus-daemon printed no address")
            setenv("DBUS_SESSION_BUS_ADDRESS", address, 1)
            // GTK's accessibility bridge would ask this bus to start an AT-SPI bus it has not got.
            setenv("GTK_A11Y", "none", 1)
            unsetenv("ADW_DISABLE_PORTAL")
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("settings-portal.py")
            portal.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            portal.arguments = [script.path]
            portal.standardInput = portalInput
            portal.standardOutput = portalOutput
            try portal.run()
            #expect(Self.line(portalOutput.fileHandleForReading) == "ready", "the portal stand-in started")
        }

        /// Changes a setting as the desktop would; returns once the portal has announced it.
        func set(_ namespace: String, _ key: String, _ type: String, _ value: String) {
            portalInput.fileHandleForWriting.write(Data("\(namespace) \(key) \(type) \(value)\n".utf8))
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
            // The portal exits at the end of its input; dbus-daemon ignores SIGTERM.
            portal.terminate()
            kill(bus.processIdentifier, SIGKILL)
        }
    }

    func followTheme() -> LoadedTheme {
        func button(_ color: Color) -> [ResolvedInstance] {
            [
                ResolvedInstance(
                    id: "send", component: "uibutton",
                    operations: [
                        ResolvedOperation(
                            name: "backgroundColor", state: .normal,
                            params: [Param(name: "color", value: .color(color))])
                    ])
            ]
        }
        var axes = TraitAxes()
        axes.insert(TraitSet(appearance: .dark))
        axes.insert(TraitSet(contrast: .highcontrast))
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        for traits in axes.traitSets {
            variants[traits] = button(
                traits.contrast != nil ? Self.yellow : traits.appearance == .dark ? Self.blue : Self.red)
        }
        variants[.none] = button(Self.red)
        return LoadedTheme(
            variants: ThemeVariants(
                info: ThemeInfo(id: "follow", name: "follow"), ancestors: [], axes: axes, variants: variants,
                assets: .empty))
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

    func close(_ a: Color?, _ b: Color) -> Bool {
        guard let a else { return false }
        return abs(a.red - b.red) * 255 <= 3 && abs(a.green - b.green) * 255 <= 3 && abs(a.blue - b.blue) * 255 <= 3
    }

    /// libadwaita restyles every window of a process once initialised, which would change what
    /// the other GTK suites see: the test runs in a process of its own (this test binary again,
    /// filtered to this suite), and passes when that process does.
    @Test func theWindowFollowsLibadwaitasDarkModeAndHighContrastFromTheSettingsPortal() throws {
        guard ProcessInfo.processInfo.environment["LIVERY_ADWAITA_PROCESS"] != nil else {
            let arguments = [
                CommandLine.arguments[0], "--testing-library", "swift-testing", "--filter", "AdwaitaFollowTests",
            ]
            let pointers = arguments.map { strdup($0) } + [nil]
            defer { pointers.forEach { free($0) } }
            setenv("LIVERY_ADWAITA_PROCESS", "1", 1)
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, arguments[0], nil, nil, pointers, environ)
            unsetenv("LIVERY_ADWAITA_PROCESS")
            try #require(spawned == 0, "could not run \(arguments[0]): \(String(cString: strerror(spawned)))")
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            #expect(status == 0, "the libadwaita test process failed (its output is above): status \(status)")
            return
        }
        try followInItsOwnProcess()
    }

    func followInItsOwnProcess() throws {
        let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        try #require(
            !display.isEmpty, "DISPLAY is unset: run through Scripts/test.sh or after `source Scripts/xvfb.sh`")
        let desktop = try Desktop()
        setenv("GSK_RENDERER", "cairo", 0)
        try #require(gtk_init_check() != 0)
        adw_init()
        let appearance = try #require(AdwaitaAppearance())
        #expect(!appearance.prefersDark, "the portal says no preference")

        let window = gtk_window_new()!
        defer { gtk_window_destroy(livery_window(window)) }
        let button = gtk_button_new_with_label("W")!
        gtk_widget_set_size_request(button, 120, 40)
        gtk_widget_set_halign(button, GTK_ALIGN_START)
        gtk_widget_set_valign(button, GTK_ALIGN_START)
        gtk_window_set_child(livery_window(window), button)
        gtk_window_present(livery_window(window))
        let manager = ThemeManager()
        manager.add(followTheme())
        manager.activate(themeID: "follow")
        let applicator = Applicator(manager: manager, bindings: GTKBindings.register(in:))
        applicator.style(button, as: "send")
        let system = GTKSystemTraits.follow(
            manager, window: window, aspects: [.appearance, .contrast], appearanceSource: appearance)
        func fill() -> Color? {
            GTKBindings.flushStyles()
            Offscreen.waitForFrames(of: window, count: 2)
            let image = Offscreen.render(button)
            return image?.pixel(x: 10, y: (image?.height ?? 0) / 2)
        }
        #expect(close(fill(), Self.red), "light")

        desktop.set("org.freedesktop.appearance", "color-scheme", "u", "1")
        #expect(wait { manager.traits.appearance == .dark }, "libadwaita went dark with the portal's color-scheme")
        #expect(close(fill(), Self.blue), "the window is dark")

        system.appearanceOverride = .light
        #expect(close(fill(), Self.red), "the app's light override wins")
        system.appearanceOverride = nil
        #expect(close(fill(), Self.blue))

        desktop.set("org.freedesktop.appearance", "color-scheme", "u", "0")
        #expect(wait { manager.traits.appearance == nil })
        desktop.set("org.gnome.desktop.a11y.interface", "high-contrast", "b", "true")
        #expect(wait { manager.traits.contrast == .highcontrast }, "libadwaita's high contrast")
        #expect(close(fill(), Self.yellow), "the window is high contrast")
        withExtendedLifetime((desktop, system, applicator)) {}
    }
}
