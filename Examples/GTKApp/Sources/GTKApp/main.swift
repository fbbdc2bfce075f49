import Foundation
import Livery
import LiveryDevelopment
import LiveryGTK

// A window with a title and a button, styled from Themes/Hello.theme and following the desktop.
// GTK's C API comes with `import LiveryGTK`.

let arguments = Array(CommandLine.arguments.dropFirst())
let screenshot = arguments.firstIndex(of: "--screenshot").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }

guard gtk_init_check() != 0 else {
    print("GTK could not open a display (DISPLAY=\(ProcessInfo.processInfo.environment["DISPLAY"] ?? "unset"))")
    exit(1)
}
GLibMainQueue.install()

// The configuration beside Package.swift, wherever the app is run from.
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let manager = ThemeManager.development(configurationFile: root.appendingPathComponent("Livery.xml").path)
let findings = manager.diagnostics.observe { print("[\($0.severity.rawValue)] \($0.message)") }
let applicator = Applicator(manager: manager, bindings: GTKBindings.register(in:))
guard manager.currentThemeID != nil else {
    print("no theme could be activated")
    exit(1)
}

let window = gtk_window_new()!
gtk_window_set_title(livery_window(window), "Hello, Livery")
gtk_window_set_default_size(livery_window(window), 320, 160)
let column = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
for margin in [
    gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end,
] {
    margin(column, 16)
}
let title = gtk_label_new("Hello")!
let button = gtk_button_new_with_label("Say hello")!
gtk_box_append(livery_box(column), title)
gtk_box_append(livery_box(column), button)
gtk_window_set_child(livery_window(window), column)

applicator.style(column, as: "view_root")
applicator.style(title, as: "label_title")
applicator.style(button, as: "button_hello")
// Dark mode, high contrast, text scaling and the scale factor, as the desktop sets them.
let system = GTKSystemTraits.follow(manager, window: window)

gtk_window_present(livery_window(window))

if let screenshot {
    GTKBindings.flushStyles()
    Offscreen.waitForFrames(of: window, count: 2)
    let written = Offscreen.savePNG(column, to: screenshot)
    print(written ? "wrote \(screenshot)" : "could not write \(screenshot)")
    exit(written ? 0 : 1)
}

let loop = g_main_loop_new(nil, 0)
let closed: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> gboolean = { _, loop in
    g_main_loop_quit(OpaquePointer(loop))
    return 0
}
livery_signal_connect(window, "close-request", unsafeBitCast(closed, to: GCallback.self), UnsafeMutableRawPointer(loop))
g_main_loop_run(loop)
withExtendedLifetime((findings, system)) {}
