import CGTK
import Foundation
import Livery
import LiveryGTK
import Testing

/// GTK for the tests: initialised once per process, on the main actor, which runs every GTK
/// call of these tests (GTK is single-threaded; the suites are `.serialized` and `@MainActor`).
@MainActor
enum GTKTestEnvironment {
    private static var started: Bool?

    /// Initialises GTK once; records a failure (never a silent skip) when there is no display.
    static func start() throws {
        if let started {
            try #require(started, "GTK could not start (see the first failure)")
            return
        }
        let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        guard !display.isEmpty else {
            started = false
            Issue.record(
                """
                DISPLAY is unset: the GTK pixel tests need an X display. Run them through \
                Scripts/test.sh, or `source Scripts/xvfb.sh` first (it starts a private Xvfb).
                """)
            throw GTKUnavailable()
        }
        setenv("GSK_RENDERER", "cairo", 0)
        setenv("GDK_BACKEND", "x11", 0)
        started = gtk_init_check() != 0
        try #require(started == true, "gtk_init_check failed on DISPLAY=\(display)")
    }

    struct GTKUnavailable: Error {}
}

func rgb(_ hex: UInt32) -> Color {
    Color(red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255, blue: Double(hex & 0xFF) / 255)
}

func op(_ name: String, _ value: Value, state: ControlState = .normal, param: String = "value") -> ResolvedOperation {
    ResolvedOperation(name: name, state: state, params: [Param(name: param, value: value)])
}

func theme(_ id: String, _ instances: [ResolvedInstance]) -> LoadedTheme {
    return LoadedTheme(
        variants: ThemeVariants(
            info: ThemeInfo(id: id, name: id), ancestors: [], axes: TraitAxes(),
            variants: [.none: instances], assets: .empty))
}

/// A shown top-level window holding widgets in a vertical box, destroyed when released.
@MainActor
final class TestWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let box: UnsafeMutablePointer<GtkWidget>

    init(width: Int32 = 320, height: Int32 = 240) {
        window = gtk_window_new()
        gtk_window_set_default_size(livery_window(window), width, height)
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_widget_set_margin_top(box, 8)
        gtk_widget_set_margin_start(box, 8)
        gtk_widget_set_margin_end(box, 8)
        gtk_window_set_child(livery_window(window), box)
        gtk_window_present(livery_window(window))
    }

    func add(_ widget: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(livery_box(box), widget)
    }

    /// Applies pending styles and waits until GTK painted them.
    func settle() {
        GTKBindings.flushStyles()
        #expect(Offscreen.waitForFrames(of: window, count: 2), "the window painted no frame")
    }

    func destroy() {
        gtk_window_destroy(livery_window(window))
        Offscreen.drainEvents()
    }
}

/// Whether two colours match within `tolerance` per channel (0...255 steps).
func close(_ a: Color?, _ b: Color, tolerance: Double = 3) -> Bool {
    guard let a else { return false }
    return abs(a.red - b.red) * 255 <= tolerance && abs(a.green - b.green) * 255 <= tolerance
        && abs(a.blue - b.blue) * 255 <= tolerance
}

extension RenderedImage {
    /// Whether any pixel in the rectangle is within `tolerance` of `color`.
    func contains(_ color: Color, inX xs: Range<Int>, y ys: Range<Int>, tolerance: Double = 8) -> Bool {
        for y in ys { for x in xs where close(pixel(x: x, y: y), color, tolerance: tolerance) { return true } }
        return false
    }
}
