import LiveryModel

// Components drawn with HTML and CSS: the box their operations style, and each standard control.
extension PreviewPage {
    /// The component drawn with HTML and CSS: operations of `state` on top of the normal ones.
    static func drawing(_ instance: ResolvedInstance, state: ControlState, side: PreviewSide) -> String {
        var values: [String: Value] = [:]
        for operation in instance.operations where operation.state == .normal {
            values[operation.name] = operation.params.first?.value
        }
        if state != .normal {
            for operation in instance.operations where operation.state == state {
                values[operation.name] = operation.params.first?.value
            }
        }
        let read = DrawnValues(values: values, side: side)

        var style: [String] = []
        var width = 220.0, height = 44.0
        if case .rect(let frame)? = values["frame"] {
            width = min(max(frame.width, 24), 320)
            height = min(max(frame.height, 16), 140)
        }
        let component = instance.component
        style += boxStyle(read, component: component)
        let tint = read.color("tintColor")
        var inner = ""
        switch component {
        case "uilabel":
            inner = MarkupText.escaped(read.text("text") ?? "Label text for \(instance.id)")
            height = max(height, 24)
        case "uibutton":
            if let icon = read.image("image") { inner += "<img src=\"\(icon)\" alt=\"\" class=\"icon\">" }
            inner += MarkupText.escaped(read.text("title") ?? (read.image("image") == nil ? "Button" : ""))
            style.append("display:flex;align-items:center;justify-content:center;gap:6px")
        case "uiimageview":
            if let picture = read.image("image") {
                let fit =
                    ["scaleAspectFit": "contain", "scaleAspectFill": "cover", "scaleToFill": "fill", "center": "none"][
                        read.text("contentMode") ?? ""] ?? "contain"
                inner = "<img src=\"\(picture)\" alt=\"\" style=\"width:100%;height:100%;object-fit:\(fit)\">"
            }
        case "uiswitch":
            let on = read.color("onTintColor") ?? tint ?? Color(red: 0.2, green: 0.78, blue: 0.35)
            let thumb = read.color("thumbTintColor") ?? Color(red: 1, green: 1, blue: 1)
            return
                "<div class=\"switch\" style=\"\(style.joined(separator: ";"));background:\(css(on))\"><span style=\"background:\(css(thumb))\"></span></div>"
        case "uislider":
            let minimum = read.color("minimumTrackTintColor") ?? tint ?? Color(red: 0, green: 0.48, blue: 1)
            let maximum = read.color("maximumTrackTintColor") ?? Color(red: 0.8, green: 0.8, blue: 0.8)
            let thumb =
                read.image("thumbImage").map { "background-image:url(\($0));background-size:cover" }
                ?? "background:\(css(read.color("thumbTintColor") ?? Color(red: 1, green: 1, blue: 1)))"
            return
                "<div class=\"slider\" style=\"width:\(px(width))\"><span class=\"min\" style=\"background:\(css(minimum))\"></span><span class=\"max\" style=\"background:\(css(maximum))\"></span><span class=\"thumb\" style=\"\(thumb)\"></span></div>"
        case "uiprogressview":
            let progress = read.color("progressTintColor") ?? tint ?? Color(red: 0, green: 0.48, blue: 1)
            let track = read.color("trackTintColor") ?? Color(red: 0.85, green: 0.85, blue: 0.85)
            return
                "<div class=\"progress\" style=\"width:\(px(width));background:\(css(track))\"><span style=\"background:\(css(progress))\"></span></div>"
        case "uitextfield":
            let placeholder = read.color("placeholderColor").map(css) ?? "#999"
            switch read.text("borderStyle") {
            case "line"?: style.append("border:1px solid #000")
            case "bezel"?: style.append("border:2px inset #888")
            case "roundedRect"?: style.append("border:1px solid #ccc;border-radius:6px")
            default: break
            }
            inner = "<span style=\"color:\(placeholder)\">Placeholder</span>"
            style.append("padding:0 8px;display:flex;align-items:center")
        case "uitextview":
            inner = "Text view for \(MarkupText.escaped(instance.id)).<br>A second line of text."
        case "uinavigationbar":
            if case .bool(true)? = values["translucent"] { style.append("backdrop-filter:blur(8px)") }
            let back = tint.map { "<span class=\"back\" style=\"color:\(css($0))\">‹ Back</span>" } ?? ""
            inner = "\(back)<span class=\"nav-title\">Title</span>"
            style.append("display:flex;align-items:center;justify-content:center;position:relative")
        default:
            // uiview and custom components: a box; enums and strings the component sets are shown inside.
            let notes = instance.operations.filter { $0.state == .normal }.compactMap { operation -> String? in
                guard let value = operation.params.first?.value else { return nil }
                switch value {
                case .enumeration(let text), .string(let text): return "\(operation.name): \(text)"
                default: return nil
                }
            }
            inner = notes.map(MarkupText.escaped).joined(separator: "<br>")
            if !notes.isEmpty {
                style.append("font-size:12px")
                if values["contentEdgeInsets"] == nil && values["textInsets"] == nil {
                    style.append("padding:6px 10px")
                }
                // text on the fill: black or white, whichever reads better
                if read.color("textColor") == nil,
                    let fill = read.color("backgroundColor") ?? firstCustomColor(values, component: component)
                {
                    let luminance = 0.2126 * fill.red + 0.7152 * fill.green + 0.0722 * fill.blue
                    style.append("color:\(fill.alpha > 0.4 && luminance < 0.5 ? "#fff" : "#000")")
                }
            }
        }
        style.insert("width:\(px(width));min-height:\(px(height))", at: 0)
        return
            "<div class=\"component \(MarkupText.escaped(component))\" style=\"\(MarkupText.escaped(style.joined(separator: ";")))\">\(inner)</div>"
    }

    /// The box every component is: fill, corners, border, shadow, text and padding.
    private static func boxStyle(_ read: DrawnValues, component: String) -> [String] {
        var style: [String] = []
        if let background = read.color("backgroundColor") ?? read.color("barTintColor")
            ?? firstCustomColor(read.values, component: component)
        {
            style.append("background-color:\(css(background))")
        }
        if let radius = read.number("cornerRadius") { style.append("border-radius:\(px(radius))") }
        if let borderWidth = read.number("borderWidth"), borderWidth > 0 {
            style.append("border:\(px(borderWidth)) solid \(read.color("borderColor").map(css) ?? "#000")")
        }
        if let alpha = read.number("alpha") { style.append("opacity:\(alpha)") }
        if case .bool(true)? = read.values["hidden"] { style.append("opacity:0.25;outline:1px dashed #999") }
        if case .bool(true)? = read.values["clipsToBounds"] { style.append("overflow:hidden") }
        if let shadow = read.color("shadowColor") {
            var tinted = shadow
            tinted.alpha *= read.number("shadowOpacity") ?? 0
            var offset = (0.0, -3.0)
            if case .size(let size)? = read.values["shadowOffset"] { offset = (size.width, size.height) }
            style.append(
                "box-shadow:\(px(offset.0)) \(px(offset.1)) \(px(read.number("shadowRadius") ?? 3)) \(css(tinted))")
        }
        if let textColor = read.color("textColor") ?? read.color("titleColor") {
            style.append("color:\(css(textColor))")
        }
        if let font = read.font("font") ?? read.font("titleFont") { style.append(fontCSS(font)) }
        if let alignment = read.text("textAlignment") {
            style.append("text-align:\(["natural": "start", "justified": "justify"][alignment] ?? alignment)")
        }
        if let lines = read.number("numberOfLines"), lines > 0 {
            style.append(
                "display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:\(Int(lines));overflow:hidden")
        }
        if case .insets(let insets)? = read.values["contentEdgeInsets"] ?? read.values["textContainerInset"]
            ?? read.values["textInsets"]
        {
            style.append("padding:\(px(insets.top)) \(px(insets.right)) \(px(insets.bottom)) \(px(insets.left))")
        }
        if let background = read.image("backgroundImage") {
            style.append("background-image:url(\(background));background-size:cover")
        }
        return style
    }

    /// For custom components (`chatbubble`'s `bubbleColor`): the first colour operation that is
    /// not a standard view property stands for the fill.
    private static func firstCustomColor(_ values: [String: Value], component: String) -> Color? {
        let standard: Set<String> = [
            "borderColor", "tintColor", "shadowColor", "textColor", "titleColor", "onTintColor",
            "thumbTintColor", "minimumTrackTintColor", "maximumTrackTintColor", "progressTintColor",
            "trackTintColor", "placeholderColor",
        ]
        for name in values.keys.sorted() where !standard.contains(name) {
            if case .color(let color)? = values[name] { return color }
        }
        return nil
    }
}

/// What one component's operations set for the state drawn, by operation name, read as the
/// kinds of value a drawing uses.
private struct DrawnValues {
    let values: [String: Value]
    let side: PreviewSide

    func color(_ name: String) -> Color? { if case .color(let c)? = values[name] { return c } else { return nil } }
    func number(_ name: String) -> Double? {
        switch values[name] {
        case .float(let value)?: return value
        case .integer(let value)?: return Double(value)
        default: return nil
        }
    }
    func text(_ name: String) -> String? {
        switch values[name] {
        case .string(let value)?, .enumeration(let value)?: return value
        default: return nil
        }
    }
    func font(_ name: String) -> Font? { if case .font(let f)? = values[name] { return f } else { return nil } }
    func image(_ name: String) -> String? {
        if case .image(let i)? = values[name] { return PreviewPage.dataURI(i.name, side: side) } else { return nil }
    }
}
