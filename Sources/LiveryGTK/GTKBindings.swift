import CGTK
import Livery

extension DiagnosticCode {
    /// A theme uses an operation that GTK has no equivalent for on the widget it styles
    /// (docs/GTK.md lists them); reported once per operation, and the widget is left as it was.
    public static let gtkNoMeaning: DiagnosticCode = "gtk-no-meaning"
}

/// The standard schema bound to GTK 4 widgets: register these on an applicator, and style
/// widgets with `applicator.style(widget, as: "identifier")`.
///
/// ```swift
/// let applicator = Applicator(manager: manager, bindings: GTKBindings.register(in:))
/// applicator.style(sendButton, as: "button_send")   // sendButton: UnsafeMutablePointer<GtkWidget>
/// ```
///
/// Colours, borders, corners, shadows, padding and fonts go through GTK's CSS (`StyleSheet`);
/// text, alignment, line counts, images, opacity, visibility and positions through the
/// widgets' own API. Operations GTK has no meaning for are bound to a setter that reports a
/// `gtk-no-meaning` warning once and changes nothing.
@MainActor
public enum GTKBindings {
    /// Registers every binding and the image decoder that turns assets into GDK textures.
    public static func register(in applicator: Applicator) {
        let diagnostics = applicator.diagnostics
        applicator.imageDecoder = imageDecoder
        applicator.register(view(diagnostics))
        applicator.register(label)
        applicator.register(button)
        applicator.register(picture)
        applicator.register(switchBinding)
        applicator.register(scale(diagnostics))
        applicator.register(progressBar)
        applicator.register(entry)
        applicator.register(textView)
        applicator.register(headerBar(diagnostics))
    }

    /// Decodes theme images into `Texture`s (PNG, JPEG, TIFF), once per cached image.
    public static let imageDecoder: ImageDecoder = { data, variant in Texture(data: data, scale: variant.scale) }

    /// Applies every style change recorded so far to the widgets now, instead of before GTK's
    /// next frame: for code that measures or renders a widget right after a switch.
    public static func flushStyles() {
        StyleSheet.shared.flush()
    }

    /// How many times the generated style sheet was parsed, and how many distinct looks it
    /// holds: for the benchmark.
    @_spi(Benchmarks) public static var styleSheetStatistics: (reloads: Int, looks: Int) {
        (StyleSheet.shared.reloadCount, StyleSheet.shared.lookCount)
    }

    /// The operations of the standard schema that GTK has no meaning for, as `component.operation`
    /// (`uiview.frame` only outside a `GtkFixed`).
    public static let operationsWithoutMeaning = [
        "uislider.thumbImage", "uinavigationbar.backgroundImage", "uinavigationbar.translucent",
    ]

    static func reportNoMeaning(_ diagnostics: DiagnosticHook, _ operation: String, _ reason: String) {
        diagnostics.report(
            .warning(
                .gtkNoMeaning, "'\(operation)' has no meaning on GTK: \(reason); the widget is left as it was", at: nil),
            key: DiagnosticKey(GTKFinding.noMeaning(operation: operation)))
    }

    static func view(_ diagnostics: DiagnosticHook) -> ComponentBinding<Widget> {
        var binding = ComponentBinding<Widget>("uiview")
        binding.bind(
            "frame", get: { $0.frame },
            set: { widget, frame in
                if !widget.setFrame(frame) {
                    reportNoMeaning(
                        diagnostics, "uiview.frame",
                        "only the children of a GtkFixed are placed by coordinates; GTK's containers lay the others out"
                    )
                }
            })
        binding.bind("backgroundColor", get: { $0.style.backgroundColor }, set: { $0.setStyle(\.backgroundColor, $1) })
        binding.bind("cornerRadius", get: { $0.style.cornerRadius }, set: { $0.setStyle(\.cornerRadius, $1) })
        binding.bind("borderColor", get: { $0.style.borderColor }, set: { $0.setStyle(\.borderColor, $1) })
        binding.bind("borderWidth", get: { $0.style.borderWidth }, set: { $0.setStyle(\.borderWidth, $1) })
        binding.bind("alpha", get: { $0.alpha }, set: { $0.alpha = $1 })
        binding.bind("hidden", get: { $0.isHidden }, set: { $0.isHidden = $1 })
        binding.bind("tintColor", get: { $0.style.tintColor }, set: { $0.setStyle(\.tintColor, $1) })
        binding.bind("clipsToBounds", get: { $0.clipsToBounds }, set: { $0.clipsToBounds = $1 })
        binding.bind("shadowColor", get: { $0.style.shadowColor }, set: { $0.setStyle(\.shadowColor, $1) })
        binding.bind("shadowOpacity", get: { $0.style.shadowOpacity }, set: { $0.setStyle(\.shadowOpacity, $1) })
        binding.bind("shadowRadius", get: { $0.style.shadowRadius }, set: { $0.setStyle(\.shadowRadius, $1) })
        binding.bind("shadowOffset", get: { $0.style.shadowOffset }, set: { $0.setStyle(\.shadowOffset, $1) })
        return binding
    }

    static var label: ComponentBinding<Label> {
        var binding = ComponentBinding<Label>("uilabel", extends: "uiview")
        binding.bind("textColor", get: { $0.style.textColor }, set: { $0.setStyle(\.textColor, $1) })
        binding.bind("font", get: { $0.style.font }, set: { $0.setStyle(\.font, $1) })
        binding.bind("textAlignment", get: { $0.textAlignment }, set: { $0.setTextAlignment($1) })
        binding.bind("numberOfLines", get: { $0.numberOfLines }, set: { $0.setNumberOfLines($1) })
        binding.bind("text", get: { $0.text }, set: { $0.text = $1 })
        return binding
    }

    static var button: ComponentBinding<Button> {
        var binding = ComponentBinding<Button>("uibutton", extends: "uiview")
        binding.bindPerState(
            "titleColor",
            get: { button, state -> Color? in
                state == .normal ? button.style.textColor : button.style.stateTextColors[state]
            },
            set: { button, color, state in
                if state == .normal {
                    button.setStyle(\.textColor, color)
                } else {
                    button.setStyle(\.stateTextColors[state], color)
                }
            })
        binding.bindPerState("title", get: { $0.titles[$1] }, set: { $0.setTitle($1, for: $2) })
        binding.bindPerState("image", get: { $0.images[$1] }, set: { $0.setImage($1, for: $2) })
        binding.bindPerState(
            "backgroundImage", get: { $0.backgroundImages[$1] }, set: { $0.setBackgroundImage($1, for: $2) })
        binding.bind("titleFont", get: { $0.style.font }, set: { $0.setStyle(\.font, $1) })
        binding.bind("contentEdgeInsets", get: { $0.style.padding }, set: { $0.setStyle(\.padding, $1) })
        return binding
    }

    static var picture: ComponentBinding<Picture> {
        var binding = ComponentBinding<Picture>("uiimageview", extends: "uiview")
        binding.bind("image", get: { $0.image }, set: { $0.setImage($1) })
        binding.bind("contentMode", get: { $0.contentMode }, set: { $0.setContentMode($1) })
        return binding
    }

    static var switchBinding: ComponentBinding<Switch> {
        var binding = ComponentBinding<Switch>("uiswitch", extends: "uiview")
        binding.bind("onTintColor", get: { $0.style.fillColor }, set: { $0.setStyle(\.fillColor, $1) })
        binding.bind("thumbTintColor", get: { $0.style.thumbColor }, set: { $0.setStyle(\.thumbColor, $1) })
        return binding
    }

    static func scale(_ diagnostics: DiagnosticHook) -> ComponentBinding<Scale> {
        var binding = ComponentBinding<Scale>("uislider", extends: "uiview")
        binding.bind("minimumTrackTintColor", get: { $0.style.fillColor }, set: { $0.setStyle(\.fillColor, $1) })
        binding.bind("maximumTrackTintColor", get: { $0.style.trackColor }, set: { $0.setStyle(\.trackColor, $1) })
        binding.bind("thumbTintColor", get: { $0.style.thumbColor }, set: { $0.setStyle(\.thumbColor, $1) })
        binding.bindPerState(
            "thumbImage", get: { _, _ -> ThemeImage? in nil },
            set: { _, image, _ in
                guard image != nil else { return }
                reportNoMeaning(
                    diagnostics, "uislider.thumbImage",
                    "GtkScale draws its slider from CSS alone, and CSS images cannot come from a theme's bytes")
            })
        return binding
    }

    static var progressBar: ComponentBinding<ProgressBar> {
        var binding = ComponentBinding<ProgressBar>("uiprogressview", extends: "uiview")
        binding.bind("progressTintColor", get: { $0.style.fillColor }, set: { $0.setStyle(\.fillColor, $1) })
        binding.bind("trackTintColor", get: { $0.style.trackColor }, set: { $0.setStyle(\.trackColor, $1) })
        return binding
    }

    static var entry: ComponentBinding<Entry> {
        var binding = ComponentBinding<Entry>("uitextfield", extends: "uiview")
        binding.bind("textColor", get: { $0.style.textColor }, set: { $0.setStyle(\.textColor, $1) })
        binding.bind("font", get: { $0.style.font }, set: { $0.setStyle(\.font, $1) })
        binding.bind("textAlignment", get: { $0.textAlignment }, set: { $0.setTextAlignment($1) })
        binding.bind(
            "placeholderColor", get: { $0.style.placeholderColor }, set: { $0.setStyle(\.placeholderColor, $1) })
        binding.bind("borderStyle", get: { $0.style.borderStyle }, set: { $0.setStyle(\.borderStyle, $1) })
        return binding
    }

    static var textView: ComponentBinding<TextView> {
        var binding = ComponentBinding<TextView>("uitextview", extends: "uiview")
        binding.bind("textColor", get: { $0.style.textColor }, set: { $0.setStyle(\.textColor, $1) })
        binding.bind("font", get: { $0.style.font }, set: { $0.setStyle(\.font, $1) })
        binding.bind("textAlignment", get: { $0.textAlignment }, set: { $0.setTextAlignment($1) })
        binding.bind("textContainerInset", get: { $0.textContainerInset }, set: { $0.textContainerInset = $1 })
        return binding
    }

    static func headerBar(_ diagnostics: DiagnosticHook) -> ComponentBinding<HeaderBar> {
        var binding = ComponentBinding<HeaderBar>("uinavigationbar", extends: "uiview")
        binding.bind("barTintColor", get: { $0.style.barColor }, set: { $0.setStyle(\.barColor, $1) })
        binding.bind("titleColor", get: { $0.style.textColor }, set: { $0.setStyle(\.textColor, $1) })
        binding.bind("titleFont", get: { $0.style.font }, set: { $0.setStyle(\.font, $1) })
        binding.bind(
            "backgroundImage", get: { _ -> ThemeImage? in nil },
            set: { _, image in
                guard image != nil else { return }
                reportNoMeaning(
                    diagnostics, "uinavigationbar.backgroundImage",
                    "a GtkHeaderBar's background is CSS, and CSS images cannot come from a theme's bytes")
            })
        binding.bind(
            "translucent", get: { _ -> Bool? in nil },
            set: { _, value in
                guard value != nil else { return }
                reportNoMeaning(
                    diagnostics, "uinavigationbar.translucent",
                    "GTK header bars are opaque and blur nothing behind them")
            })
        return binding
    }
}

extension Applicator {
    /// Styles a GTK widget as the theme's instance `identifier` (see `style(_:as:)`): the widget
    /// is held weakly, through its handle (`Widget.wrapping(_:)`).
    public func style(_ widget: UnsafeMutablePointer<GtkWidget>, as identifier: String) {
        style(Widget.wrapping(widget), as: identifier)
    }

    /// Stops styling a GTK widget and puts back what the theme changed.
    public func unstyle(_ widget: UnsafeMutablePointer<GtkWidget>) {
        unstyle(Widget.wrapping(widget))
    }
}

extension ThemeScope {
    /// Styles a GTK widget in this scope (a dialog that keeps its own theme).
    public func style(_ widget: UnsafeMutablePointer<GtkWidget>, as identifier: String) {
        style(Widget.wrapping(widget), as: identifier)
    }
}

/// What the GTK adapter's findings are about, for de-duplication.
private enum GTKFinding: Hashable {
    case noMeaning(operation: String)
}
