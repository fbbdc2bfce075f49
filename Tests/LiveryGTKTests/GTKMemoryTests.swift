import CGTK
import Foundation
import Livery
import Testing

@testable import LiveryGTK

/// Every standard widget kind styled, laid out, painted and its object data read by name: what
/// `bash Scripts/sanitizers.sh address` runs under AddressSanitizer (`G_SLICE=always-malloc`, a
/// large quarantine), where a C string GLib keeps past the call that handed it over is reported.
@MainActor
@Suite(.serialized) struct GTKMemoryTests {
    /// One widget of each kind the standard schema binds, with the instance that styles it.
    static func standardWidgets() -> [(widget: UnsafeMutablePointer<GtkWidget>, instance: ResolvedInstance)] {
        let color = rgb(0x2060A0), text = rgb(0xF0F0F0)
        let font = Font(family: "DejaVu Sans", size: 15, weight: .semibold)
        func instance(_ id: String, _ component: String, _ operations: [ResolvedOperation]) -> ResolvedInstance {
            ResolvedInstance(
                id: id, component: component,
                operations: operations + [op("backgroundColor", .color(color)), op("cornerRadius", .float(6))])
        }
        let textView = gtk_text_view_new()!
        gtk_text_buffer_set_text(gtk_text_view_get_buffer(livery_text_view(textView)), "Some text\nover lines", -1)
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(livery_entry(entry), "Placeholder")
        return [
            (
                gtk_label_new("Label")!,
                instance("label", "uilabel", [op("textColor", .color(text)), op("font", .font(font))])
            ),
            (
                gtk_button_new_with_label("Button")!,
                instance("button", "uibutton", [op("titleColor", .color(text)), op("title", .string("Send"))])
            ),
            (
                gtk_picture_new()!,
                instance("picture", "uiimageview", [op("contentMode", .enumeration("scaleAspectFit"))])
            ),
            (gtk_switch_new()!, instance("switch", "uiswitch", [op("onTintColor", .color(text))])),
            (
                gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, 0, 1, 0.1)!,
                instance("scale", "uislider", [op("minimumTrackTintColor", .color(text))])
            ),
            (gtk_progress_bar_new()!, instance("progress", "uiprogressview", [op("progressTintColor", .color(text))])),
            (
                entry,
                instance(
                    "entry", "uitextfield",
                    [op("textColor", .color(text)), op("placeholderColor", .color(text)), op("font", .font(font))])
            ),
            (
                textView,
                instance(
                    "textView", "uitextview",
                    [
                        op("textColor", .color(text)), op("font", .font(font)),
                        op("textAlignment", .enumeration("center")),
                    ])
            ),
            (gtk_header_bar_new()!, instance("headerBar", "uinavigationbar", [op("barTintColor", .color(color))])),
            (gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!, instance("view", "uiview", [op("alpha", .float(0.9))])),
        ]
    }

    @Test func everyStandardWidgetKindIsStyledLaidOutAndReadByName() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow(width: 360, height: 640)
        defer { window.destroy() }
        let widgets = Self.standardWidgets()
        let manager = ThemeManager()
        manager.add(theme("t", widgets.map(\.instance)))
        manager.add(theme("plain", []))
        manager.activate(themeID: "t")
        let applicator = Applicator(manager: manager, bindings: GTKBindings.register(in:))
        for (widget, instance) in widgets {
            // An empty picture or box has no size of its own, and nothing to draw without one.
            gtk_widget_set_size_request(widget, 40, 24)
            window.add(widget)
            applicator.style(widget, as: instance.id)
        }
        window.settle()
        for (widget, instance) in widgets {
            let object = livery_object(widget)
            // The app's own data, by name, beside Livery's handle.
            var marker = 7
            withUnsafeMutablePointer(to: &marker) { pointer in
                g_object_set_data(object, "app-data", pointer)
                #expect(g_object_get_data(object, "app-data") == UnsafeMutableRawPointer(pointer), "\(instance.id)")
            }
            g_object_set_data(object, "app-data", nil)
            // Livery's handle, read by its name as any GLib code may (GTK itself does for a text view).
            let handle = g_object_get_data(object, "livery-widget-handle")
            #expect(
                handle == Unmanaged.passUnretained(LiveryGTK.Widget.wrapping(widget)).toOpaque(),
                "\(instance.id): the handle is found by name")
            #expect(Offscreen.render(widget) != nil, "\(instance.id) was laid out and drawn")
        }
        // A new text view styled after the others: GTK looks data up by name while making it.
        let late = gtk_text_view_new()!
        window.add(late)
        applicator.style(late, as: "textView")
        manager.activate(themeID: "plain")
        window.settle()
        manager.activate(themeID: "t")
        window.settle()
        #expect(g_object_get_data(livery_object(late), "livery-widget-handle") != nil)
        let name = try #require(g_quark_to_string(g_quark_try_string("livery-widget-handle")))
        #expect(String(cString: name) == "livery-widget-handle", "GLib's copy of the key is intact")
    }
}
