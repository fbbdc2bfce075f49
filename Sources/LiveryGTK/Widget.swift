import CGTK
import Livery

/// The Swift handle Livery holds for one GTK widget: what `Applicator.style(_:as:)` registers and
/// what the bindings set properties on.
///
/// GTK apps hold their widgets as `UnsafeMutablePointer<GtkWidget>` (what every `gtk_*_new`
/// returns), and they can keep doing so: `applicator.style(sendButton, as: "button_send")` takes
/// that pointer and finds or makes its handle. One handle exists per widget, attached to the
/// GObject (`g_object_set_qdata_full`), so it lives exactly as long as the widget: the runtime's
/// weak reference to it goes nil when GTK finalizes the widget, and Livery forgets it. The handle
/// never takes a reference on the widget (a GObject weak reference tells it when the widget goes),
/// so Livery never keeps a widget alive, and once the widget is disposed `gtkWidget` is nil and no
/// setter touches it.
///
/// Subclasses follow the standard schema's component types (`Label` is bound to `uilabel`...);
/// `Widget.wrapping(_:)` picks the one that matches the widget's GType.
@MainActor
open class Widget {
    /// The widget, or nil once GTK disposed of it.
    public private(set) var gtkWidget: UnsafeMutablePointer<GtkWidget>?
    /// The CSS-backed properties the theme set; nil fields leave GTK's own style in place.
    var style: WidgetStyle { recordedStyle.value }
    /// Where `style` is kept: shared with the widgets the style sheet found styled alike, copied
    /// on the first change after that (`setStyle`).
    private(set) var recordedStyle = RecordedStyle.unstyled
    /// The generated CSS class the widget carries for `style`, if any.
    var cssClass: StyleSheet.Entry?
    /// Whether `style` changed since the style sheet last saw it.
    var needsStyleUpdate = false

    /// The key of the handle in the widget's object data. `g_quark_from_string` copies the name:
    /// GLib keeps a quark's string for the life of the process and compares it on every lookup by
    /// name (`g_object_get_data`), and a Swift string argument is a temporary, so the
    /// `_static_string` variant would leave GLib a dangling pointer.
    static let handleKey = "livery-widget-handle"
    private static let handleQuark = g_quark_from_string(handleKey)

    /// Attaches a new handle to `widget`; `wrapping(_:)` is the public way in.
    ///
    /// A widget has one handle. Attaching to a widget that already has one (the plain `Widget`
    /// an earlier `applicator.style` made, before the app attached its own component type)
    /// replaces it: the old handle lets go of the widget (its generated CSS class is removed,
    /// so its CSS-backed look goes), the applicator forgets it, and the app styles the widget
    /// again through the new handle. A diagnostic-free, documented replace, never a crash.
    public required init(attachingTo widget: UnsafeMutablePointer<GtkWidget>) {
        gtkWidget = widget
        let object = livery_object(widget)
        if let existing = g_object_get_qdata(object, Self.handleQuark) {
            Unmanaged<Widget>.fromOpaque(existing).takeUnretainedValue().detach()
        }
        g_object_weak_ref(object, Self.widgetDisposed, Unmanaged.passUnretained(self).toOpaque())
        // The widget owns its handle: the handle is released when the widget is finalized, or
        // when another handle replaces it (GLib calls the destroy function of the old data).
        g_object_set_qdata_full(
            object, Self.handleQuark, Unmanaged.passRetained(self).toOpaque(),
            { data in
                Unmanaged<Widget>.fromOpaque(data!).release()
            })
        didAttach(to: widget)
    }

    /// The weak-reference callback; with the handle as data it identifies the reference.
    private static let widgetDisposed: GWeakNotify = { data, _ in
        nonisolated(unsafe) let data = data
        MainActor.assumeIsolated {
            Unmanaged<Widget>.fromOpaque(data!).takeUnretainedValue().widgetWasDisposed()
        }
    }

    /// Lets go of the widget for a handle replacing this one: no weak reference, no class.
    private func detach() {
        guard let widget = gtkWidget else { return }
        g_object_weak_unref(livery_object(widget), Self.widgetDisposed, Unmanaged.passUnretained(self).toOpaque())
        if let entry = cssClass {
            gtk_widget_remove_css_class(widget, entry.name)
        }
        widgetWillDetach(from: widget)
        widgetWasDisposed()
    }

    /// Subclasses disconnect the signal handlers they connected in `didAttach(to:)` (their data
    /// is the handle, which a replaced handle no longer outlives).
    func widgetWillDetach(from widget: UnsafeMutablePointer<GtkWidget>) {}

    /// The handle of `widget`: the one already attached, or a new one of the class that matches
    /// its GType (`Label` for a `GtkLabel`, `Widget` for a widget outside the standard schema).
    public static func wrapping(_ widget: UnsafeMutablePointer<GtkWidget>) -> Widget {
        if let existing = g_object_get_qdata(livery_object(widget), handleQuark) {
            return Unmanaged<Widget>.fromOpaque(existing).takeUnretainedValue()
        }
        return handleClass(for: widget).init(attachingTo: widget)
    }

    static func handleClass(for widget: UnsafeMutablePointer<GtkWidget>) -> Widget.Type {
        if livery_is_label(widget) != 0 { return Label.self }
        if livery_is_button(widget) != 0 { return Button.self }
        if livery_is_picture(widget) != 0 { return Picture.self }
        if livery_is_switch(widget) != 0 { return Switch.self }
        if livery_is_scale(widget) != 0 { return Scale.self }
        if livery_is_progress_bar(widget) != 0 { return ProgressBar.self }
        if livery_is_entry(widget) != 0 { return Entry.self }
        if livery_is_text_view(widget) != 0 { return TextView.self }
        if livery_is_header_bar(widget) != 0 { return HeaderBar.self }
        return Widget.self
    }

    /// Called once the handle is attached, for subclasses that follow the widget's signals.
    open func didAttach(to widget: UnsafeMutablePointer<GtkWidget>) {}

    /// The node layout the widget's CSS rules are written for.
    var kind: WidgetKind { .view }

    /// Sets one CSS-backed property; the widget's class follows before the next frame.
    func setStyle<Value: Equatable>(_ field: WritableKeyPath<WidgetStyle, Value>, _ value: Value) {
        guard recordedStyle.value[keyPath: field] != value else { return }
        if !isKnownUniquelyReferenced(&recordedStyle) { recordedStyle = RecordedStyle(recordedStyle.value) }
        recordedStyle.value[keyPath: field] = value
        styleChanged()
    }

    /// Shares `other`, whose style equals this widget's: what the style sheet does for widgets
    /// styled alike, so that they keep one copy of their style.
    func shareStyle(_ other: RecordedStyle) {
        assert(other.value == recordedStyle.value, "only an equal style is shared")
        recordedStyle = other
    }

    private func widgetWasDisposed() {
        gtkWidget = nil
        StyleSheet.shared.forget(self)
        widgetDidDispose()
    }

    /// Subclasses drop what they hold of the widget (its children, its originals).
    func widgetDidDispose() {}

    // MARK: CSS for an app's own components

    /// The widget's background colour through GTK's CSS (what `backgroundColor` sets): for the
    /// bindings of an app's own component types. Nil leaves GTK's own.
    public var cssBackgroundColor: Color? {
        get { style.backgroundColor }
        set { setStyle(\.backgroundColor, newValue) }
    }

    /// The widget's CSS padding, for the bindings of an app's own component types.
    public var cssPadding: Insets? {
        get { style.padding }
        set { setStyle(\.padding, newValue) }
    }

    /// The widget's text colour through GTK's CSS (what `textColor` sets on labels), for the
    /// bindings of an app's own component types. Nil leaves GTK's own.
    public var cssTextColor: Color? {
        get { style.textColor }
        set { setStyle(\.textColor, newValue) }
    }

    /// The widget's font through GTK's CSS (family, size in CSS pixels, weight, letter spacing,
    /// line height; what `font` sets on labels), sized for the text scale by the runtime.
    public var cssFont: Font? {
        get { style.font }
        set { setStyle(\.font, newValue) }
    }

    /// The widget's border colour (what `borderColor` sets).
    public var cssBorderColor: Color? {
        get { style.borderColor }
        set { setStyle(\.borderColor, newValue) }
    }

    /// The widget's solid border width in pixels (what `borderWidth` sets).
    public var cssBorderWidth: Double? {
        get { style.borderWidth }
        set { setStyle(\.borderWidth, newValue) }
    }

    /// The widget's corner radius in pixels (what `cornerRadius` sets).
    public var cssCornerRadius: Double? {
        get { style.cornerRadius }
        set { setStyle(\.cornerRadius, newValue) }
    }

    /// The CSS rules the theme gives this widget now, with `%C` for its class selector; nil when
    /// it sets nothing through CSS. For the benchmark, which hands GTK the same look as one
    /// stylesheet of its own.
    @_spi(Benchmarks) public static var styleStorageSize: Int { MemoryLayout<WidgetStyle>.size }

    @_spi(Benchmarks) public var cssRules: String? { style.isEmpty ? nil : style.rules(kind: kind) }

    /// Marks the CSS-backed style changed; the style sheet catches up before GTK's next frame.
    func styleChanged() {
        guard gtkWidget != nil else { return }
        StyleSheet.shared.needsUpdate(self)
    }

    // MARK: Widget API properties (uiview)

    var frame: Rect {
        guard let widget = gtkWidget else { return Rect(x: 0, y: 0, width: 0, height: 0) }
        // The child's transform, not gtk_fixed_get_child_position, which reads 0, 0 in GTK 4.8.
        var x: Float = 0, y: Float = 0
        if let parent = gtk_widget_get_parent(widget), livery_is_fixed(parent) != 0,
            let transform = gtk_fixed_get_child_transform(livery_fixed(parent), widget)
        {
            gsk_transform_to_translate(transform, &x, &y)
        }
        var width: Int32 = 0, height: Int32 = 0
        gtk_widget_get_size_request(widget, &width, &height)
        return Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height))
    }

    /// Places the widget in its `GtkFixed` parent and sets its size request; false (and nothing
    /// changed) when the parent is not a `GtkFixed`, where coordinates mean nothing.
    func setFrame(_ frame: Rect) -> Bool {
        guard let widget = gtkWidget else { return true }
        guard let parent = gtk_widget_get_parent(widget), livery_is_fixed(parent) != 0 else { return false }
        gtk_fixed_move(livery_fixed(parent), widget, frame.x, frame.y)
        gtk_widget_set_size_request(
            widget, Int32(max(-1, frame.width.rounded())), Int32(max(-1, frame.height.rounded())))
        return true
    }

    var alpha: Double {
        get { gtkWidget.map { gtk_widget_get_opacity($0) } ?? 1 }
        set { if let widget = gtkWidget { gtk_widget_set_opacity(widget, min(max(newValue, 0), 1)) } }
    }

    var isHidden: Bool {
        get { gtkWidget.map { gtk_widget_get_visible($0) == 0 } ?? false }
        set { if let widget = gtkWidget { gtk_widget_set_visible(widget, newValue ? 0 : 1) } }
    }

    var clipsToBounds: Bool {
        get { gtkWidget.map { gtk_widget_get_overflow($0) == GTK_OVERFLOW_HIDDEN } ?? false }
        set {
            if let widget = gtkWidget {
                gtk_widget_set_overflow(widget, newValue ? GTK_OVERFLOW_HIDDEN : GTK_OVERFLOW_VISIBLE)
            }
        }
    }
}

/// Maps a text alignment to GTK's horizontal alignment (0...1) and justification.
extension TextAlignment {
    var xalign: Float {
        switch self {
        case .left, .natural, .justified: 0
        case .center: 0.5
        case .right: 1
        }
    }

    var justification: GtkJustification {
        switch self {
        case .left, .natural: GTK_JUSTIFY_LEFT
        case .center: GTK_JUSTIFY_CENTER
        case .right: GTK_JUSTIFY_RIGHT
        case .justified: GTK_JUSTIFY_FILL
        }
    }
}
