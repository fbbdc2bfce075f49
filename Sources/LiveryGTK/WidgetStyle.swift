import Foundation
import Livery

/// The node layout a widget's CSS rules are written for: GTK 4 draws parts of some widgets on
/// child nodes (a scale's `trough > highlight`, a switch's `slider`), which rules reach by
/// selector from the widget's generated class.
enum WidgetKind: Sendable {
    case view, label, button, picture, toggle, scale, progress, entry, textView, headerBar
}

/// A widget's recorded `WidgetStyle`, kept by reference so that widgets styled alike share one
/// (a style is some 600 bytes; a chat screen's thirty bubbles have two). A shared one is never
/// changed: `Widget.setStyle` copies it first, unless the widget holds the only reference.
@MainActor
final class RecordedStyle {
    var value: WidgetStyle
    /// The style of a widget the theme has not styled, shared by all of them.
    static let unstyled = RecordedStyle(WidgetStyle())

    init(_ value: WidgetStyle) {
        self.value = value
    }
}

/// The CSS-backed properties a theme set on one widget. Nil leaves GTK's own style (the GTK
/// theme's, the app's CSS) in place, so reverting a property is setting it back to nil.
///
/// Two widgets with equal styles share one generated class: `rules(kind:)` is the text the
/// style sheet interns.
struct WidgetStyle: Hashable, Sendable {
    var backgroundColor: Color?
    var cornerRadius: Double?
    var borderColor: Color?
    var borderWidth: Double?
    var tintColor: Color?
    var shadowColor: Color?
    var shadowOpacity: Double?
    var shadowRadius: Double?
    var shadowOffset: Size?
    /// Text colour; a button's is its normal-state title colour.
    var textColor: Color?
    /// A button's title colours for the states other than normal.
    var stateTextColors: [ControlState: Color] = [:]
    var font: Font?
    var padding: Insets?
    var placeholderColor: Color?
    var borderStyle: BorderStyle?
    /// A switch's on colour, a scale's minimum track, a progress bar's progress.
    var fillColor: Color?
    /// A scale's maximum track, a progress bar's track.
    var trackColor: Color?
    /// A switch's or a scale's thumb.
    var thumbColor: Color?
    /// A header bar's bar colour (drawn over `backgroundColor`).
    var barColor: Color?

    var isEmpty: Bool { self == WidgetStyle() }

    /// The CSS rules of this style, with `%C` standing for the widget's generated class selector.
    func rules(kind: WidgetKind) -> String {
        var rules = CSSRules()
        // The widget's own node.
        var own: [String] = []
        if let borderStyle, kind == .entry { own += Self.declarations(of: borderStyle) }
        if let backgroundColor, kind != .textView {
            own += ["background-color: \(Self.css(backgroundColor))", "background-image: none"]
        }
        if let barColor { own += ["background-color: \(Self.css(barColor))", "background-image: none"] }
        if let cornerRadius { own.append("border-radius: \(Self.css(cornerRadius))px") }
        if let borderWidth {
            own.append("border-style: solid")
            own.append("border-width: \(Self.css(borderWidth))px")
        }
        if let borderColor { own.append("border-color: \(Self.css(borderColor))") }
        if let tintColor { own += ["outline-color: \(Self.css(tintColor))", "caret-color: \(Self.css(tintColor))"] }
        if let shadow = shadowDeclaration { own.append("box-shadow: \(shadow)") }
        if let padding {
            own.append(
                "padding: \(Self.css(padding.top))px \(Self.css(padding.right))px \(Self.css(padding.bottom))px \(Self.css(padding.left))px"
            )
        }
        if kind != .headerBar {
            if let textColor { own.append("color: \(Self.css(textColor))") }
            if let font { own += Self.declarations(of: font) }
        }
        rules.add("%C", own)

        // Child nodes.
        switch kind {
        case .textView:
            if let backgroundColor {
                let color = ["background-color: \(Self.css(backgroundColor))", "background-image: none"]
                rules.add("%C", color)
                rules.add("%C > text", color)
            }
        case .headerBar:
            var title: [String] = []
            // GTK dims an unfocused window's title (`headerbar:backdrop .title { filter:
            // opacity(0.5) }`): the theme's colour is the colour on screen.
            if let textColor { title += ["color: \(Self.css(textColor))", "filter: none"] }
            if let font { title += Self.declarations(of: font) }
            rules.add("%C .title", title)
        case .entry:
            // GTK dims the placeholder (`opacity: 0.55`): the theme's colour is the colour on screen.
            if let placeholderColor {
                rules.add("%C > text > placeholder", ["color: \(Self.css(placeholderColor))", "opacity: 1"])
            }
        case .toggle:
            if let fillColor { rules.add("%C:checked", Self.fill(fillColor)) }
            if let thumbColor { rules.add("%C > slider", Self.fill(thumbColor)) }
        case .scale:
            if let trackColor { rules.add("%C > trough", Self.fill(trackColor)) }
            if let fillColor { rules.add("%C > trough > highlight", Self.fill(fillColor)) }
            if let thumbColor { rules.add("%C > trough > slider", Self.fill(thumbColor)) }
        case .progress:
            if let trackColor { rules.add("%C > trough", Self.fill(trackColor)) }
            if let fillColor { rules.add("%C > trough > progress", Self.fill(fillColor)) }
        case .view, .label, .button, .picture:
            break
        }
        // Per-state title colours, in the format's state order so equal styles give equal text.
        for state in ControlState.all where state != .normal {
            guard let color = stateTextColors[state], let pseudo = GTKState.pseudoClass(of: state) else { continue }
            rules.add("%C\(pseudo)", ["color: \(Self.css(color))"])
        }
        return rules.text
    }

    private var shadowDeclaration: String? {
        guard let opacity = shadowOpacity, opacity > 0 else { return nil }
        var color = shadowColor ?? Color(red: 0, green: 0, blue: 0)
        color.alpha *= min(max(opacity, 0), 1)
        let offset = shadowOffset ?? Size(width: 0, height: -3)
        let radius = shadowRadius ?? 3
        return "\(Self.css(offset.width))px \(Self.css(offset.height))px \(Self.css(radius))px \(Self.css(color))"
    }

    private static func fill(_ color: Color) -> [String] {
        ["background-color: \(css(color))", "background-image: none"]
    }

    /// A font as CSS, which GTK hands to Pango. The family falls back to the generic sans-serif
    /// when the machine lacks it; the size is in CSS pixels (a UIKit point).
    ///
    /// Every font field the theme format defines is turned into a declaration here, in one place:
    /// a new field (letter spacing becomes `letter-spacing: Npx`, line height `line-height: N`,
    /// both supported by GTK 4.8's CSS) is one more line.
    static func declarations(of font: Font) -> [String] {
        var declarations: [String] = []
        let family = font.family.trimmingCharacters(in: .whitespaces)
        if !family.isEmpty {
            let quoted = family.replacingOccurrences(of: "\\", with: "").replacingOccurrences(of: "\"", with: "")
            declarations.append("font-family: \"\(quoted)\", sans-serif")
        }
        if let size = font.size, size.isFinite, size > 0 { declarations.append("font-size: \(css(size))px") }
        declarations.append("font-weight: \(cssWeight(font.weight))")
        // Typography as the theme gives it, already scaled for the text scale by the runtime;
        // absent means GTK's own spacing and line height.
        if let spacing = font.letterSpacing, spacing.isFinite {
            declarations.append("letter-spacing: \(css(spacing))px")
        }
        if let lineHeight = font.lineHeight, lineHeight.isFinite, lineHeight >= 0 {
            declarations.append("line-height: \(css(lineHeight))")
        }
        return declarations
    }

    static func cssWeight(_ weight: FontWeight) -> Int {
        switch weight {
        case .ultralight: 100
        case .thin: 200
        case .light: 300
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        case .heavy: 800
        case .black: 900
        }
    }

    /// A text field's border styles as GTK borders: `roundedRect` is GTK's own entry look.
    static func declarations(of style: BorderStyle) -> [String] {
        switch style {
        case .none: ["border-color: transparent", "box-shadow: none", "outline-style: none"]
        case .line: ["border: 1px solid currentColor", "border-radius: 0", "box-shadow: none"]
        case .bezel: ["border: 2px inset alpha(currentColor, 0.5)", "border-radius: 0", "box-shadow: none"]
        case .roundedRect: []
        }
    }

    static func css(_ color: Color) -> String {
        func byte(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
        let alpha = (min(max(color.alpha, 0), 1) * 1000).rounded() / 1000
        return "rgba(\(byte(color.red)),\(byte(color.green)),\(byte(color.blue)),\(css(alpha)))"
    }

    /// A number as CSS: no exponent, at most three decimals, non-finite as 0.
    static func css(_ number: Double) -> String {
        guard number.isFinite else { return "0" }
        let rounded = (number * 1000).rounded() / 1000
        if rounded == rounded.rounded(.towardZero), abs(rounded) < 1e9 { return String(Int(rounded)) }
        return String(format: "%.3f", rounded)
    }
}

/// CSS rules being written: a selector and its declarations, skipped when empty.
private struct CSSRules {
    var text = ""

    mutating func add(_ selector: String, _ declarations: [String]) {
        guard !declarations.isEmpty else { return }
        text += selector + " { " + declarations.joined(separator: "; ") + "; }\n"
    }
}

/// The standard control states as GTK's state flags and pseudo-classes.
enum GTKState {
    static func pseudoClass(of state: ControlState) -> String? {
        switch state {
        case .highlighted: ":active"
        case .disabled: ":disabled"
        case .selected: ":checked"
        case .focused: ":focus"
        default: nil
        }
    }
}
