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
    var style = WidgetStyle()
    /// The generated CSS class the widget carries for `style`, if any.
    var cssClass: StyleSheet.Entry?
    /// Whether `style` changed since the style sheet last saw it.
    var needsStyleUpdate = false

    private static let handleQuark = g_quark_from_static_string("livery-widget-handle")

    /// Attaches a new handle to `widget`; `wrapping(_:)` is the public way in.
    public required init(attachingTo widget: UnsafeMutablePointer<GtkWidget>) {
        gtkWidget = widget
        let object = livery_object(widget)
        precondition(g_object_get_qdata(object, Self.handleQuark) == nil, "a GTK widget has one Livery handle")
        let me = Unmanaged.passUnretained(self).toOpaque()
        g_object_weak_ref(
            object,
            { data, _ in
                MainActor.assumeIsolated {
                    Unmanaged<Widget>.fromOpaque(data!).takeUnretainedValue().widgetWasDisposed()
                }
            }, me)
        // The widget owns its handle: the handle is released when the widget is finalized.
        g_object_set_qdata_full(
            object, Self.handleQuark, Unmanaged.passRetained(self).toOpaque(),
            { data in
                Unmanaged<Widget>.fromOpaque(data!).release()
            })
        didAttach(to: widget)
    }

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
        guard style[keyPath: field] != value else { return }
        style[keyPath: field] = value
        styleChanged()
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
