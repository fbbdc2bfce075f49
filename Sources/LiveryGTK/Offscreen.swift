import CGTK
import Foundation
import Livery

/// Pixels of a rendered widget, 8-bit RGBA, not premultiplied, rows top to bottom.
public struct RenderedImage: Sendable {
    public let width: Int
    public let height: Int
    /// `width * height * 4` bytes: red, green, blue, alpha.
    public let rgba: [UInt8]

    /// The pixel at (x, y) as a colour (channels 0...1), or nil outside the image.
    public func pixel(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        let offset = (y * width + x) * 4
        return Color(
            red: Double(rgba[offset]) / 255, green: Double(rgba[offset + 1]) / 255,
            blue: Double(rgba[offset + 2]) / 255, alpha: Double(rgba[offset + 3]) / 255)
    }
}

/// Renders widgets of a shown window offscreen (GTK's own renderer for the window, into a
/// texture), and waits for GTK's frames: what screenshots, pixel tests and the benchmark use.
/// Works under Xvfb without a window manager.
@MainActor
public enum Offscreen {
    /// Renders `widget` as the window's renderer draws it now, or nil when the widget is not in
    /// a realized window or has no size.
    public static func render(_ widget: UnsafeMutablePointer<GtkWidget>) -> RenderedImage? {
        guard let texture = renderTexture(widget) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let width = Int(gdk_texture_get_width(texture)), height = Int(gdk_texture_get_height(texture))
        var bgra = [UInt8](repeating: 0, count: width * height * 4)
        bgra.withUnsafeMutableBytes { buffer in
            gdk_texture_download(texture, buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), gsize(width * 4))
        }
        // gdk_texture_download writes Cairo's format: premultiplied B, G, R, A in memory order
        // on little-endian machines.
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: bgra.count, by: 4) {
            let alpha = Int(bgra[index + 3])
            func unpremultiply(_ value: UInt8) -> UInt8 {
                alpha == 0 ? 0 : UInt8(min(255, (Int(value) * 255 + alpha / 2) / alpha))
            }
            rgba[index] = unpremultiply(bgra[index + 2])
            rgba[index + 1] = unpremultiply(bgra[index + 1])
            rgba[index + 2] = unpremultiply(bgra[index])
            rgba[index + 3] = UInt8(alpha)
        }
        return RenderedImage(width: width, height: height, rgba: rgba)
    }

    /// Writes `widget` as rendered now to a PNG file; false when it could not be rendered or
    /// written. The file is written beside its path and renamed into place.
    @discardableResult
    public static func savePNG(_ widget: UnsafeMutablePointer<GtkWidget>, to path: String) -> Bool {
        guard let texture = renderTexture(widget) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let temporary = path + ".partial"
        guard gdk_texture_save_to_png(texture, temporary) != 0 else { return false }
        return rename(temporary, path) == 0
    }

    private static func renderTexture(_ widget: UnsafeMutablePointer<GtkWidget>) -> OpaquePointer? {
        guard let native = gtk_widget_get_native(widget), let renderer = gtk_native_get_renderer(native) else {
            return nil
        }
        guard let paintable = gtk_widget_paintable_new(widget) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(paintable)) }
        let width = Double(gdk_paintable_get_intrinsic_width(paintable))
        let height = Double(gdk_paintable_get_intrinsic_height(paintable))
        guard width > 0, height > 0, let snapshot = gtk_snapshot_new() else { return nil }
        gdk_paintable_snapshot(paintable, snapshot, width, height)
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return nil }
        defer { gsk_render_node_unref(node) }
        var bounds = graphene_rect_t()
        bounds.origin = graphene_point_t(x: 0, y: 0)
        bounds.size = graphene_size_t(width: Float(width), height: Float(height))
        return gsk_renderer_render_texture(renderer, node, &bounds)
    }

    /// Runs GLib's main loop until `window`'s frame clock has painted `frames` more frames (style
    /// changes, layout and drawing done), or `timeout` seconds passed; false on timeout.
    @discardableResult
    public static func waitForFrames(
        of window: UnsafeMutablePointer<GtkWidget>, count frames: Int = 1,
        timeout: Double = 5
    ) -> Bool {
        guard let clock = gtk_widget_get_frame_clock(window) else { return false }
        let counter = FrameCounter()
        let handler = counter.connect(to: clock)
        defer { g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), handler) }
        gtk_widget_queue_draw(window)
        let deadline = Date().addingTimeInterval(timeout)
        while counter.painted < frames {
            if Date() > deadline { return false }
            // A frame must follow each paint waited for.
            if counter.painted > 0 { gtk_widget_queue_draw(window) }
            g_main_context_iteration(nil, 0)
            if counter.painted < frames { g_usleep(500) }
        }
        return true
    }

    /// Processes every pending GLib event without blocking.
    public static func drainEvents() {
        while g_main_context_iteration(nil, 0) != 0 {}
    }
}

/// Counts a frame clock's `after-paint` signals.
@MainActor
final class FrameCounter {
    var painted = 0

    func connect(to clock: OpaquePointer) -> gulong {
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            MainActor.assumeIsolated { Unmanaged<FrameCounter>.fromOpaque(data!).takeUnretainedValue().painted += 1 }
        }
        return livery_signal_connect(
            UnsafeMutableRawPointer(clock), "after-paint", unsafeBitCast(callback, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque())
    }
}
