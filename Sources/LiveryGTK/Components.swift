import CGTK
import Livery

/// The handle of a `GtkLabel` (`uilabel`).
@MainActor
public final class Label: Widget {
    override var kind: WidgetKind { .label }
    private var originalAlignment: (xalign: Float, justify: GtkJustification)?
    private var originalLines: (lines: Int32, wrap: Bool, ellipsize: PangoEllipsizeMode)?
    private(set) var textAlignment: TextAlignment?
    private(set) var numberOfLines: Int?

    private var label: OpaquePointer? { gtkWidget.map { livery_label($0) } }

    var text: String? {
        get { label.flatMap { gtk_label_get_text($0) }.map { String(cString: $0) } }
        set { if let label { gtk_label_set_text(label, newValue ?? "") } }
    }

    func setTextAlignment(_ alignment: TextAlignment?) {
        guard let label else { return }
        if originalAlignment == nil, alignment != nil {
            originalAlignment = (gtk_label_get_xalign(label), gtk_label_get_justify(label))
        }
        textAlignment = alignment
        if let alignment {
            gtk_label_set_xalign(label, alignment.xalign)
            gtk_label_set_justify(label, alignment.justification)
        } else if let original = originalAlignment {
            gtk_label_set_xalign(label, original.xalign)
            gtk_label_set_justify(label, original.justify)
            originalAlignment = nil
        }
    }

    /// 1: one line, ellipsized; 0: as many lines as the text needs; n: wraps, at most n lines.
    func setNumberOfLines(_ count: Int?) {
        guard let label else { return }
        if originalLines == nil, count != nil {
            originalLines = (gtk_label_get_lines(label), gtk_label_get_wrap(label) != 0, gtk_label_get_ellipsize(label))
        }
        numberOfLines = count
        if let count {
            gtk_label_set_wrap(label, count == 1 ? 0 : 1)
            gtk_label_set_lines(label, count <= 0 ? -1 : Int32(clamping: count))
            gtk_label_set_ellipsize(label, count == 0 ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END)
        } else if let original = originalLines {
            gtk_label_set_wrap(label, original.wrap ? 1 : 0)
            gtk_label_set_lines(label, original.lines)
            gtk_label_set_ellipsize(label, original.ellipsize)
            originalLines = nil
        }
    }
}

/// The handle of a `GtkButton` (`uibutton`). Titles and images per state are not CSS: the
/// button follows its own state flags (`state-flags-changed`) and shows the title and image of
/// the state it is in, falling back to the normal state's.
@MainActor
public final class Button: Widget {
    override var kind: WidgetKind { .button }
    private(set) var titles: [ControlState: String] = [:]
    private(set) var images: [ControlState: ThemeImage] = [:]
    private(set) var backgroundImages: [ControlState: ThemeImage] = [:]
    /// The button's child before the theme gave it content (one reference held).
    private var originalChild: UnsafeMutablePointer<GtkWidget>?
    private var hasOriginalChild = false
    /// The content the theme's titles and images show in (one reference held on each).
    private var content:
        (
            overlay: UnsafeMutablePointer<GtkWidget>, background: UnsafeMutablePointer<GtkWidget>,
            box: UnsafeMutablePointer<GtkWidget>, icon: UnsafeMutablePointer<GtkWidget>,
            label: UnsafeMutablePointer<GtkWidget>
        )?

    private var stateHandler: gulong = 0

    override func widgetWillDetach(from widget: UnsafeMutablePointer<GtkWidget>) {
        g_signal_handler_disconnect(widget, stateHandler)
    }

    override public func didAttach(to widget: UnsafeMutablePointer<GtkWidget>) {
        let callback: @convention(c) (UnsafeMutableRawPointer?, GtkStateFlags, UnsafeMutableRawPointer?) -> Void = {
            _, _, data in
            MainActor.assumeIsolated { Unmanaged<Button>.fromOpaque(data!).takeUnretainedValue().showCurrentState() }
        }
        // The handle lives as long as the widget, which disconnects its handlers when disposed;
        // a handle replacing this one disconnects it first (`widgetWillDetach`).
        stateHandler = livery_signal_connect(
            widget, "state-flags-changed", unsafeBitCast(callback, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque())
    }

    /// The standard state the button shows: disabled, then pressed, then checked, then focused.
    var displayedState: ControlState {
        guard let widget = gtkWidget else { return .normal }
        let flags = gtk_widget_get_state_flags(widget).rawValue
        if flags & GTK_STATE_FLAG_INSENSITIVE.rawValue != 0 { return .disabled }
        if flags & GTK_STATE_FLAG_ACTIVE.rawValue != 0 { return .highlighted }
        if flags & GTK_STATE_FLAG_CHECKED.rawValue != 0 { return .selected }
        if flags & GTK_STATE_FLAG_FOCUSED.rawValue != 0 { return .focused }
        return .normal
    }

    func setTitle(_ title: String?, for state: ControlState) {
        titles[state] = title
        showCurrentState()
    }

    func setImage(_ image: ThemeImage?, for state: ControlState) {
        images[state] = image
        showCurrentState()
    }

    func setBackgroundImage(_ image: ThemeImage?, for state: ControlState) {
        backgroundImages[state] = image
        showCurrentState()
    }

    /// Shows the title and images of the displayed state; with none themed, the app's content.
    func showCurrentState() {
        guard let widget = gtkWidget else { return }
        let button = livery_button(widget)!
        if titles.isEmpty, images.isEmpty, backgroundImages.isEmpty {
            restoreOriginalChild(button)
            return
        }
        let state = displayedState
        let content = makeContent(button)
        let title = titles[state] ?? titles[.normal]
        gtk_label_set_text(livery_label(content.label), title ?? originalTitle ?? "")
        gtk_widget_set_visible(content.label, (title ?? originalTitle) == nil ? 0 : 1)
        let icon = (images[state] ?? images[.normal]).flatMap(Texture.of)
        gtk_picture_set_paintable(
            livery_picture(content.icon), icon.map { livery_paintable(UnsafeMutableRawPointer($0.paintable)) })
        gtk_widget_set_visible(content.icon, icon == nil ? 0 : 1)
        let background = (backgroundImages[state] ?? backgroundImages[.normal]).flatMap(Texture.of)
        gtk_picture_set_paintable(
            livery_picture(content.background),
            background.map { livery_paintable(UnsafeMutableRawPointer($0.paintable)) })
    }

    /// The title the button shows now: the theme's for its state, else its own label's.
    public var shownTitle: String? {
        if let content {
            return gtk_widget_get_visible(content.label) != 0
                ? gtk_label_get_text(livery_label(content.label)).map { String(cString: $0) } : nil
        }
        return gtkWidget.flatMap { gtk_button_get_label(livery_button($0)) }.map { String(cString: $0) }
    }

    /// The app's label text, when the button's own child was a label.
    private var originalTitle: String?

    private func makeContent(_ button: UnsafeMutablePointer<GtkButton>) -> (
        overlay: UnsafeMutablePointer<GtkWidget>, background: UnsafeMutablePointer<GtkWidget>,
        box: UnsafeMutablePointer<GtkWidget>, icon: UnsafeMutablePointer<GtkWidget>,
        label: UnsafeMutablePointer<GtkWidget>
    ) {
        if let content { return content }
        if !hasOriginalChild {
            hasOriginalChild = true
            originalChild = gtk_button_get_child(button)
            if let child = originalChild {
                g_object_ref(UnsafeMutableRawPointer(child))
                if livery_is_label(child) != 0, let text = gtk_label_get_text(livery_label(child)) {
                    originalTitle = String(cString: text)
                }
            }
        }
        let overlay = gtk_overlay_new()!
        let background = gtk_picture_new()!
        gtk_picture_set_content_fit(livery_picture(background), GTK_CONTENT_FIT_FILL)
        gtk_picture_set_can_shrink(livery_picture(background), 1)
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_halign(box, GTK_ALIGN_CENTER)
        let icon = gtk_picture_new()!
        // The icon keeps its size: GtkFixed gives children their minimum size.
        gtk_picture_set_can_shrink(livery_picture(icon), 0)
        let label = gtk_label_new(nil)!
        gtk_box_append(livery_box(box), icon)
        gtk_box_append(livery_box(box), label)
        gtk_overlay_set_child(livery_overlay(overlay), background)
        gtk_overlay_add_overlay(livery_overlay(overlay), box)
        gtk_overlay_set_measure_overlay(livery_overlay(overlay), box, 1)
        for part in [overlay, background, box, icon, label] { g_object_ref_sink(UnsafeMutableRawPointer(part)) }
        gtk_button_set_child(button, overlay)
        let made = (overlay, background, box, icon, label)
        content = made
        return made
    }

    private func restoreOriginalChild(_ button: UnsafeMutablePointer<GtkButton>) {
        guard hasOriginalChild else { return }
        gtk_button_set_child(button, originalChild)
        releaseContent()
        if let child = originalChild { g_object_unref(UnsafeMutableRawPointer(child)) }
        originalChild = nil
        hasOriginalChild = false
        originalTitle = nil
    }

    private func releaseContent() {
        guard let content else { return }
        for part in [content.overlay, content.background, content.box, content.icon, content.label] {
            g_object_unref(UnsafeMutableRawPointer(part))
        }
        self.content = nil
    }

    override func widgetDidDispose() {
        releaseContent()
        if let child = originalChild { g_object_unref(UnsafeMutableRawPointer(child)) }
        originalChild = nil
    }
}

/// The handle of a `GtkPicture` (`uiimageview`).
@MainActor
public final class Picture: Widget {
    override var kind: WidgetKind { .picture }
    private(set) var image: ThemeImage?
    private(set) var contentMode: ContentMode?
    /// The app's paintable before the theme's image (one reference held), and whether saved.
    private var originalPaintable: OpaquePointer?
    private var savedPaintable = false
    private var originalFit: GtkContentFit?

    private var picture: OpaquePointer? { gtkWidget.map { livery_picture($0) } }

    func setImage(_ image: ThemeImage?) {
        guard let picture else { return }
        self.image = image
        if let image {
            if !savedPaintable {
                savedPaintable = true
                originalPaintable = gtk_picture_get_paintable(picture)
                if let original = originalPaintable { g_object_ref(UnsafeMutableRawPointer(original)) }
            }
            let texture = Texture.of(image)
            gtk_picture_set_paintable(picture, texture.map { livery_paintable(UnsafeMutableRawPointer($0.paintable)) })
        } else if savedPaintable {
            gtk_picture_set_paintable(picture, originalPaintable)
            if let original = originalPaintable { g_object_unref(UnsafeMutableRawPointer(original)) }
            originalPaintable = nil
            savedPaintable = false
        }
    }

    /// UIKit's modes as GTK's content fits. GTK centres what it does not scale, so `center`,
    /// `top`, `bottom`, `left` and `right` all show the image unscaled (shrunk only to fit), centred.
    func setContentMode(_ mode: ContentMode?) {
        guard let picture else { return }
        if originalFit == nil, mode != nil { originalFit = gtk_picture_get_content_fit(picture) }
        contentMode = mode
        if let mode {
            let fit: GtkContentFit =
                switch mode {
                case .scaleToFill: GTK_CONTENT_FIT_FILL
                case .scaleAspectFit: GTK_CONTENT_FIT_CONTAIN
                case .scaleAspectFill: GTK_CONTENT_FIT_COVER
                case .center, .top, .bottom, .left, .right: GTK_CONTENT_FIT_SCALE_DOWN
                }
            gtk_picture_set_content_fit(picture, fit)
        } else if let original = originalFit {
            gtk_picture_set_content_fit(picture, original)
            originalFit = nil
        }
    }

    override func widgetDidDispose() {
        if let original = originalPaintable { g_object_unref(UnsafeMutableRawPointer(original)) }
        originalPaintable = nil
    }
}

/// The handle of a `GtkSwitch` (`uiswitch`).
@MainActor
public final class Switch: Widget {
    override var kind: WidgetKind { .toggle }
}

/// The handle of a `GtkScale` (`uislider`).
@MainActor
public final class Scale: Widget {
    override var kind: WidgetKind { .scale }
}

/// The handle of a `GtkProgressBar` (`uiprogressview`).
@MainActor
public final class ProgressBar: Widget {
    override var kind: WidgetKind { .progress }
}

/// The handle of a `GtkEntry` (`uitextfield`).
@MainActor
public final class Entry: Widget {
    override var kind: WidgetKind { .entry }
    private(set) var textAlignment: TextAlignment?
    private var originalXAlign: Float?

    func setTextAlignment(_ alignment: TextAlignment?) {
        guard let widget = gtkWidget else { return }
        let entry = livery_entry(widget)
        if originalXAlign == nil, alignment != nil { originalXAlign = gtk_entry_get_alignment(entry) }
        textAlignment = alignment
        if let alignment {
            gtk_entry_set_alignment(entry, alignment.xalign)
        } else if let original = originalXAlign {
            gtk_entry_set_alignment(entry, original)
            originalXAlign = nil
        }
    }
}

/// The handle of a `GtkTextView` (`uitextview`).
@MainActor
public final class TextView: Widget {
    override var kind: WidgetKind { .textView }
    private(set) var textAlignment: TextAlignment?
    private var originalJustification: GtkJustification?

    func setTextAlignment(_ alignment: TextAlignment?) {
        guard let widget = gtkWidget else { return }
        let view = livery_text_view(widget)
        if originalJustification == nil, alignment != nil {
            originalJustification = gtk_text_view_get_justification(view)
        }
        textAlignment = alignment
        if let alignment {
            gtk_text_view_set_justification(view, alignment.justification)
        } else if let original = originalJustification {
            gtk_text_view_set_justification(view, original)
            originalJustification = nil
        }
    }

    var textContainerInset: Insets {
        get {
            guard let widget = gtkWidget else { return Insets(top: 0, left: 0, bottom: 0, right: 0) }
            let view = livery_text_view(widget)
            return Insets(
                top: Double(gtk_text_view_get_top_margin(view)), left: Double(gtk_text_view_get_left_margin(view)),
                bottom: Double(gtk_text_view_get_bottom_margin(view)),
                right: Double(gtk_text_view_get_right_margin(view)))
        }
        set {
            guard let widget = gtkWidget else { return }
            let view = livery_text_view(widget)
            func pixels(_ value: Double) -> Int32 { Int32(clamping: Int(max(0, value.isFinite ? value : 0).rounded())) }
            gtk_text_view_set_top_margin(view, pixels(newValue.top))
            gtk_text_view_set_left_margin(view, pixels(newValue.left))
            gtk_text_view_set_bottom_margin(view, pixels(newValue.bottom))
            gtk_text_view_set_right_margin(view, pixels(newValue.right))
        }
    }
}

/// The handle of a `GtkHeaderBar` (`uinavigationbar`).
@MainActor
public final class HeaderBar: Widget {
    override var kind: WidgetKind { .headerBar }
}
