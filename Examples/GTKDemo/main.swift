import CGTK
import Foundation
import Livery
import LiveryAdwaita
import LiveryDevelopment
import LiveryGTK

// The chat demo as a GTK 4 app: the chat screen styled from Themes/, a theme picker,
// toggles for dark, high contrast and large text, and colour buttons for the user's accent (the
// whole app) and one contact's bubble colour (the chat's scope), all switching live.
//
//   swift run livery-gtk-demo                        # the window
//   swift run livery-gtk-demo --screenshots DIR      # every sample theme in each trait set, to PNG
//   swift run livery-gtk-demo --follow URL           # follow a running `livery studio` (its follow URL)
//         [--follow-screenshots DIR]                 # ... and write the window to PNG after each change
//   swift run livery-gtk-demo --system-screenshots DIR   # the window following desktop changes, to PNG
//   swift run livery-gtk-demo --adwaita ...          # as a libadwaita app: dark mode and high contrast
//                                                    # from AdwStyleManager (the settings portal)
//   swift run livery-gtk-demo --accent-screenshots DIR   # Light with a light, a dark and a saturated
//                                                    # accent and a contact's own colour, to PNG
//
// The window follows the desktop's dark mode, high contrast, text scaling, scale factor and accent
// colour (GTKSystemTraits); a checked toggle is the app's override, an unchecked one follows the
// desktop. The accent button is the app's override of the desktop's accent (the themes'
// overridable `accent`); the contact button gives the chat's scope its own `bubbleIncoming`.
//
// Run from the repository root (the configuration names Themes/ relatively).

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).map { index in index + 1 < arguments.count ? arguments[index + 1] : "" }
}
let screenshotFolder = option("--screenshots")
let followURL = option("--follow")
let followScreenshots = option("--follow-screenshots")
let systemScreenshots = option("--system-screenshots")
let accentScreenshots = option("--accent-screenshots")
let usesAdwaita = arguments.contains("--adwaita")
if [screenshotFolder, followURL, followScreenshots, systemScreenshots, accentScreenshots].contains("") {
    print(
        "usage: livery-gtk-demo [--screenshots DIR | --system-screenshots DIR | --accent-screenshots DIR | --follow URL [--follow-screenshots DIR]] [configuration.xml]"
    )
    exit(64)
}
let optionValues = [screenshotFolder, followURL, followScreenshots, systemScreenshots, accentScreenshots].compactMap {
    $0
}
let configuration =
    arguments.first { !$0.hasPrefix("-") && !optionValues.contains($0) } ?? "Examples/GTKDemo/Livery.xml"

guard gtk_init_check() != 0 else {
    print(
        "GTK could not open a display (DISPLAY=\(ProcessInfo.processInfo.environment["DISPLAY"] ?? "unset")); under no display, run `source Scripts/xvfb.sh` first."
    )
    exit(1)
}
// GLib's loop runs this thread from here on: let it drain the main queue too (the preloading
// task below, and live reload, are scheduled there).
GLibMainQueue.install()
if usesAdwaita { adw_init() }

let manager: ThemeManager
if let followURL {
    guard let following = StudioFollow.manager(url: followURL, themeID: "com.livery.light") else { exit(1) }
    manager = following
} else {
    manager = ThemeManager.development(configurationFile: configuration)
}
let findings = manager.diagnostics.observe { print("  [\($0.severity.rawValue)] \($0.message) [\($0.code)]") }
let applicator = Applicator(manager: manager) { applicator in
    GTKBindings.register(in: applicator)
    applicator.register(chatBubbleBinding())
}
guard manager.currentThemeID != nil else {
    print("No theme could be activated from \(configuration); run from the repository root.")
    exit(1)
}
let themeIDs = manager.themes.keys.sorted()

let window = gtk_window_new()!
gtk_window_set_title(livery_window(window), "Livery GTK demo")
let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)!
gtk_window_set_child(livery_window(window), column)
let controls = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 8)!
for margin in [gtk_widget_set_margin_top, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
    margin(controls, 8)
}
gtk_box_append(livery_box(column), controls)
// The chat with one contact: a scope of its own, so the contact's colour reaches only it.
let contact = applicator.makeScope(ScopeOverrides())
let screen = ChatScreen(applicator: applicator, scope: contact)
gtk_box_append(livery_box(column), screen.root)

/// The demo's controls: a theme picker and three trait toggles, each switching live.
@MainActor
enum Controls {
    static var dark: UnsafeMutablePointer<GtkWidget>!
    static var highContrast: UnsafeMutablePointer<GtkWidget>!
    static var largeText: UnsafeMutablePointer<GtkWidget>!
    static var picker: UnsafeMutablePointer<GtkWidget>!
    static var accent: UnsafeMutablePointer<GtkWidget>!
    static var contactColor: UnsafeMutablePointer<GtkWidget>!

    static func build(in box: UnsafeMutablePointer<GtkWidget>) {
        let names = themeIDs.map { strdup(manager.themes[$0]?.info.name ?? $0) } + [nil]
        let constant = names.map { $0.map { UnsafePointer($0) } }
        picker = constant.withUnsafeBufferPointer { gtk_drop_down_new_from_strings($0.baseAddress) }
        names.forEach { free($0) }
        if let current = manager.currentThemeID, let index = themeIDs.firstIndex(of: current) {
            gtk_drop_down_set_selected(OpaquePointer(picker), guint(index))
        }
        gtk_box_append(livery_box(box), picker)
        connect(picker, "notify::selected")
        dark = toggle("Dark", in: box)
        highContrast = toggle("High contrast", in: box)
        largeText = toggle("Large text", in: box)
        accent = colorButton("Accent", in: box)
        contactColor = colorButton("Contact", in: box)
    }

    /// A colour button (GTK 4.8's GtkColorButton) after a label; "color-set" applies the pick.
    private static func colorButton(_ title: String, in box: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<
        GtkWidget
    > {
        gtk_box_append(livery_box(box), gtk_label_new(title))
        var initial = GdkRGBA(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
        let button = gtk_color_button_new_with_rgba(&initial)!
        gtk_color_chooser_set_use_alpha(livery_color_chooser(button), 0)
        gtk_box_append(livery_box(box), button)
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { button, _ in
            nonisolated(unsafe) let button = button
            MainActor.assumeIsolated {
                var rgba = GdkRGBA()
                gtk_color_chooser_get_rgba(livery_color_chooser(button), &rgba)
                let color = Color(red: Double(rgba.red), green: Double(rgba.green), blue: Double(rgba.blue))
                if button == UnsafeMutableRawPointer(Controls.accent) {
                    pickAccent(color)
                } else {
                    pickContactColor(color)
                }
            }
        }
        livery_signal_connect(button, "color-set", unsafeBitCast(callback, to: GCallback.self), nil)
        return button
    }

    private static func toggle(_ title: String, in box: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<
        GtkWidget
    > {
        let button = gtk_check_button_new_with_label(title)!
        gtk_box_append(livery_box(box), button)
        connect(button, "toggled")
        return button
    }

    private static func connect(_ widget: UnsafeMutablePointer<GtkWidget>, _ signal: String) {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
            MainActor.assumeIsolated { Controls.changed() }
        }
        livery_signal_connect(widget, signal, unsafeBitCast(callback, to: GCallback.self), nil)
    }

    static func isOn(_ button: UnsafeMutablePointer<GtkWidget>) -> Bool {
        gtk_check_button_get_active(UnsafeMutableRawPointer(button).assumingMemoryBound(to: GtkCheckButton.self)) != 0
    }

    static func changed() {
        let selected = Int(gtk_drop_down_get_selected(OpaquePointer(picker)))
        if selected < themeIDs.count { manager.activate(themeID: themeIDs[selected]) }
        // A checked toggle overrides the desktop; an unchecked one follows it.
        system.appearanceOverride = isOn(dark) ? .dark : nil
        system.highContrastOverride = isOn(highContrast) ? true : nil
        system.textScaleOverride = isOn(largeText) ? 1.5 : nil
    }
}
Controls.build(in: controls)
// The desktop's dark mode, high contrast, text scaling, the window's scale factor and the
// desktop's accent colour (into the themes' overridable `accent`, for the whole app), live.
let system = GTKSystemTraits.follow(
    manager, window: window, appearanceSource: usesAdwaita ? AdwaitaAppearance() : nil,
    accentScope: applicator.rootScope, accentConstant: "accent")

/// The user's accent for the whole app: the app's choice, over the desktop's accent colour.
@MainActor func pickAccent(_ color: Color?) {
    system.accentOverride = color
}

/// One contact's bubble colour: a value of the overridable `bubbleIncoming` for the chat's scope.
@MainActor func pickContactColor(_ color: Color?) {
    contact.overrides.constants["bubbleIncoming"] = color.map(Value.color)
}

/// The trait sets the screenshots show: light, dark, high contrast, large text, right to left,
/// and compact, a value of the app's own `density` dimension (declared by the schema file the
/// configuration names).
let traitSets: [(name: String, traits: TraitSet, textScale: Double)] =
    [
        ("light", TraitSet(), 1),
        ("dark", TraitSet(appearance: .dark), 1),
        ("highcontrast", TraitSet(contrast: .highcontrast), 1),
        ("largetext", TraitSet(textSize: .largetext), 1.5),
        ("rtl", TraitSet(direction: .rtl), 1),
    ] + ((try? manager.dimensions.traits(tags: ["compact"])).map { [("compact", $0, 1)] } ?? [])

// The themes the picker switches between, prepared on other threads; the task resumes on the
// main queue, which only GLibMainQueue lets run under GLib's loop.
nonisolated(unsafe) var preloaded = false
Task { @MainActor in
    await applicator.preload(themeIDs)
    preloaded = true
}

gtk_window_present(livery_window(window))

if let followURL {
    StudioFollow.start(
        url: followURL, manager: manager, window: window, root: screen.root, screenshots: followScreenshots)
}

if let folder = systemScreenshots {
    // The desktop changing, as GTK sees it: the same GtkSettings properties a settings daemon
    // (XSETTINGS, the settings portal) sets, set here in the process.
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let settings = UnsafeMutableRawPointer(gtk_settings_get_default()!)
    livery_set_int_property(settings, "gtk-xft-dpi", 96 * 1024)
    let steps: [(name: String, change: () -> Void)] = [
        ("system-before", {}),
        ("system-dark", { livery_set_bool_property(settings, "gtk-application-prefer-dark-theme", 1) }),
        (
            "system-highcontrast",
            {
                livery_set_bool_property(settings, "gtk-application-prefer-dark-theme", 0)
                livery_set_string_property(settings, "gtk-theme-name", "HighContrast")
            }
        ),
        (
            "system-largetext",
            {
                livery_set_string_property(settings, "gtk-theme-name", "Default")
                livery_set_int_property(settings, "gtk-xft-dpi", 144 * 1024)
            }
        ),
    ]
    var written = 0
    for step in steps {
        var name = step.name
        if usesAdwaita {
            // libadwaita reads dark mode and high contrast from the settings portal: whoever runs
            // the demo (Scripts/gtk-adwaita-screenshots.py) changes it, then answers with a line.
            name = "adwaita" + step.name.dropFirst("system".count)
            FileHandle.standardOutput.write(Data("change \(name)\n".utf8))
            _ = readLine()
            let settled = Date().addingTimeInterval(0.5)
            while Date() < settled {
                g_main_context_iteration(nil, 0)
                g_usleep(1000)
            }
            // Text scaling is GTK's own setting in a libadwaita app too.
            if step.name == "system-largetext" { step.change() }
        } else {
            step.change()
        }
        GTKBindings.flushStyles()
        Offscreen.waitForFrames(of: window, count: 2)
        if Offscreen.savePNG(screen.root, to: folder + "/" + name + ".png") { written += 1 }
        print("\(name): traits \(manager.traits), text scale \(manager.textScale)")
    }
    print("wrote \(written) screenshots to \(folder)")
    gtk_window_destroy(livery_window(window))
    exit(written == steps.count ? 0 : 1)
}

if let folder = accentScreenshots {
    // The user's choices on the Light theme: a light, a dark and a saturated accent (the outgoing
    // bubble, progress), then a contact's own bubble colour beside a saturated accent. The follower
    // keeps running: the picks are the app's choice, which wins over the desktop's accent.
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    manager.activate(themeID: "com.livery.light")
    manager.setTraits(TraitSet())
    let picks: [(name: String, accent: Color?, contact: Color?)] = [
        ("accent-none", nil, nil),
        ("accent-light", Color(red: 1, green: 0.85, blue: 0.4), nil),
        ("accent-dark", Color(red: 0.1, green: 0.14, blue: 0.4), nil),
        ("accent-saturated", Color(red: 1, green: 0, blue: 0.6), nil),
        ("accent-contact", Color(red: 1, green: 0, blue: 0.6), Color(red: 0.35, green: 0.1, blue: 0.55)),
    ]
    var written = 0
    for pick in picks {
        pickAccent(pick.accent)
        pickContactColor(pick.contact)
        GTKBindings.flushStyles()
        Offscreen.waitForFrames(of: window, count: 2)
        if Offscreen.savePNG(screen.root, to: folder + "/" + pick.name + ".png") { written += 1 }
        func hex(_ value: Value?) -> String {
            if case .color(let color) = value { return color.hexString }
            return "the theme's"
        }
        print(
            "\(pick.name): accent \(hex(applicator.rootScope.overrides.constants["accent"])), contact's bubbleIncoming \(hex(contact.overrides.constants["bubbleIncoming"]))"
        )
    }
    print("wrote \(written) screenshots to \(folder)")
    gtk_window_destroy(livery_window(window))
    exit(written == picks.count ? 0 : 1)
}

if let folder = screenshotFolder {
    // The screenshots set their own traits: the desktop's are not followed.
    system.stop()
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    // The preloading task finishing shows that the main queue runs under GLib's loop.
    let deadline = Date().addingTimeInterval(20)
    while !preloaded, Date() < deadline { g_main_context_iteration(nil, 1) }
    print(
        preloaded
            ? "main queue: drained under GLib's loop (themes preloaded)" : "main queue: NOT drained under GLib's loop")
    var written = 0
    for id in themeIDs {
        manager.activate(themeID: id)
        for set in traitSets {
            // GTK lays the window out right to left as it would for an RTL language; the theme's
            // ~rtl layers say what else changes.
            gtk_widget_set_default_direction(set.traits.direction == .rtl ? GTK_TEXT_DIR_RTL : GTK_TEXT_DIR_LTR)
            manager.setTraits(set.traits)
            manager.setTextSize(scale: set.textScale, largeText: set.traits.textSize == .largetext)
            GTKBindings.flushStyles()
            Offscreen.waitForFrames(of: window, count: 2)
            let name = (id.split(separator: ".").last.map(String.init) ?? id) + "-" + set.name + ".png"
            if Offscreen.savePNG(screen.root, to: folder + "/" + name) {
                written += 1
            } else {
                print("could not write \(folder)/\(name)")
            }
        }
    }
    print("wrote \(written) screenshots to \(folder)")
    gtk_window_destroy(livery_window(window))
    exit(preloaded && written == themeIDs.count * traitSets.count ? 0 : 1)
}

let loop = g_main_loop_new(nil, 0)
let closed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, loop in
    g_main_loop_quit(OpaquePointer(loop))
    return 0
}
livery_signal_connect(window, "close-request", unsafeBitCast(closed, to: GCallback.self), UnsafeMutableRawPointer(loop))
g_main_loop_run(loop)
