import Foundation
import LiveryModel

/// The composed screen of a preview (format 1.1 work, docs/Accessibility.md): a theme's instances
/// laid out by their `frame` operations in a device outline chosen by idiom, drawn with their
/// colours, fonts, images and corner radii, once per trait set side by side (the trait matrix).
/// Every text and background pair carries a contrast badge; a text-scale control (1x, 1.5x, 2x, 3x)
/// resizes scaled fonts up to their `max-size` in CSS, without a script; font families the browser
/// cannot show are named.
public enum PreviewScreen {
    /// The text scales the control offers.
    public static let textScales: [Double] = [1, 1.5, 2, 3]

    /// The trait sets of the matrix for an app running with `traits`: light and dark, dark with
    /// high contrast, and light with large text (idiom kept).
    public static func matrix(for traits: TraitSet) -> [TraitSet] {
        let idiom = traits.idiom
        return [
            TraitSet(idiom: idiom, appearance: .light),
            TraitSet(idiom: idiom, appearance: .dark),
            TraitSet(idiom: idiom, appearance: .dark, contrast: .highcontrast),
            TraitSet(idiom: idiom, appearance: .light, textSize: .largetext),
        ]
    }

    /// The section: controls, then one device per side. Empty when no instance has a frame.
    /// `schema` says which colours paint text and backgrounds (`role`), for drawing and badges.
    public static func section(_ sides: [PreviewSide], schema: Schema, textScale: Double = 1) -> String {
        guard let first = sides.first, sides.contains(where: { !framed($0.theme).isEmpty }) else { return "" }
        var html =
            "<section class=\"screens\"><h2>Screen <small>\(sides.count) trait set\(sides.count == 1 ? "" : "s")</small></h2>\n"
        // The control: radio buttons whose :checked state sets --text-scale for the devices after them.
        for (index, scale) in textScales.enumerated() {
            let id = "text-scale-\(index)"
            let selected = scale == (textScales.contains(textScale) ? textScale : 1)
            html +=
                "<input type=\"radio\" name=\"text-scale\" id=\"\(id)\" class=\"text-scale\"\(selected ? " checked" : "")>"
        }
        html += "<div class=\"text-scale-control\">Text scale: "
        for (index, scale) in textScales.enumerated() {
            html += "<label for=\"text-scale-\(index)\">\(ValueText.number(scale))x</label>"
        }
        html += " <span class=\"note\">fonts grow up to their max-size; fixed fonts stay</span></div>\n"
        html += fontReport(sides)
        html += "<div class=\"devices\">\n"
        for side in sides { html += device(side, schema: schema) }
        html += "</div>\n"
        let unframed = first.theme.instances.count - framed(first.theme).count
        if unframed > 0 {
            html +=
                "<p class=\"note\">\(unframed) instance\(unframed == 1 ? "" : "s") without a frame operation are not on the screen; they are drawn one by one below.</p>\n"
        }
        html += "</section>\n"
        return html
    }

    static func framed(_ theme: ResolvedTheme) -> [(ResolvedInstance, Rect)] {
        theme.instances.compactMap { instance in
            guard
                case .rect(let rect)? = instance.operations.first(where: { $0.name == "frame" && $0.state == .normal })?
                    .params.first?.value
            else { return nil }
            return (instance, rect)
        }
    }

    // MARK: - Device

    private static func device(_ side: PreviewSide, schema: Schema) -> String {
        let items = framed(side.theme)
        // The screen is the largest frame's extent (the background view), at least the idiom's size.
        let idiomSize: (Double, Double) = side.theme.traits.idiom == .ipad ? (1024, 1366) : (375, 667)
        let width = max(idiomSize.0, items.map { $0.1.x + $0.1.width }.max() ?? 0)
        let height = max(idiomSize.1, items.map { $0.1.y + $0.1.height }.max() ?? 0)
        let zoom = min(1, 380 / width)
        let traits = side.theme.traits.isEmpty ? "no traits" : side.theme.dimensions.description(of: side.theme.traits)
        var html = "<figure class=\"device \(side.theme.traits.idiom == .ipad ? "ipad" : "iphone")\">"
        html += "<figcaption>\(MarkupText.escaped(traits))</figcaption>"
        html += "<div class=\"bezel\" style=\"width:\(px(width * zoom))px;height:\(px(height * zoom))px\">"
        html +=
            "<div class=\"screen\" style=\"width:\(px(width))px;height:\(px(height))px;transform:scale(\(ValueText.number(zoom)))\">"
        // Drawn in frame order by area, largest first, so containers stay behind their content.
        for (instance, rect) in items.sorted(by: { $0.1.width * $0.1.height > $1.1.width * $1.1.height }) {
            html += element(instance, rect: rect, side: side, schema: schema)
        }
        html += "</div></div></figure>\n"
        return html
    }

    private static func element(_ instance: ResolvedInstance, rect: Rect, side: PreviewSide, schema: Schema) -> String {
        var values: [String: Value] = [:]
        var roles: [ColorRole: Color] = [:]
        for operation in instance.operations where operation.state == .normal {
            guard let value = operation.params.first?.value else { continue }
            values[operation.name] = value
            if case .color(let color) = value,
                let role = schema.operation(operation.name, of: instance.component)?.params.first?.role
            {
                roles[role] = roles[role] ?? color
            }
        }
        if case .bool(true)? = values["hidden"] { return "" }
        // A label grows with its text (a device wraps it onto more lines) rather than cutting it off;
        // buttons and one-line labels keep their frame.
        let lines: Int64? = if case .integer(let count)? = values["numberOfLines"] { count } else { nil }
        let grows =
            (values["text"] != nil || values["textColor"] != nil) && instance.component != "uibutton" && lines != 1
        var style = [
            "left:\(px(rect.x))px", "top:\(px(rect.y))px", "width:\(px(rect.width))px",
            grows ? "min-height:\(px(rect.height))px" : "height:\(px(rect.height))px",
        ]
        let background = roles[.backgroundColor] ?? color(values["barTintColor"])
        if let background { style.append("background-color:\(PreviewPage.css(background))") }
        if case .float(let radius)? = values["cornerRadius"] { style.append("border-radius:\(px(radius))px") }
        if case .float(let width)? = values["borderWidth"], width > 0 {
            style.append("border:\(px(width))px solid \(color(values["borderColor"]).map(PreviewPage.css) ?? "#000")")
        }
        if case .float(let alpha)? = values["alpha"] { style.append("opacity:\(ValueText.number(alpha))") }
        // A background image covers the component; a button's `image` is its content, drawn at
        // its own aspect beside the title (it is not stretched over the button).
        var content: String?
        if let image = image(values["image"], side: side), instance.component != "uiimageview" {
            content = "<img class=\"content\" alt=\"\" src=\"\(image)\">"
        }
        if let image = image(
            values["backgroundImage"] ?? (instance.component == "uiimageview" ? values["image"] : nil), side: side)
        {
            let mode: String =
                switch values["contentMode"] {
                case .enumeration("scaleAspectFit")?: "contain"
                case .enumeration("scaleAspectFill")?: "cover"
                case .enumeration("center")?: "auto"
                default: "100% 100%"
                }
            style.append(
                "background-image:url(\(image));background-size:\(mode);background-position:center;background-repeat:no-repeat"
            )
        }
        let foreground = roles[.textColor]
        if let foreground { style.append("color:\(PreviewPage.css(foreground))") }
        let font = self.font(values["font"] ?? values["titleFont"])
        if let font { style.append(fontStyle(font)) }
        if case .enumeration(let alignment)? = values["textAlignment"] {
            style.append(
                "justify-content:\(alignment == "center" ? "center" : alignment == "right" ? "flex-end" : "flex-start")"
            )
        }
        if case .integer(let lines)? = values["numberOfLines"], lines == 1 { style.append("white-space:nowrap") }
        var html =
            "<div class=\"element \(MarkupText.escaped(instance.component))\(grows ? " grows" : "")\" title=\"\(MarkupText.escaped(instance.id))\" style=\"\(style.joined(separator: ";"))\">"
        if let content { html += content }
        if let text = text(instance, values) { html += "<span class=\"text\">\(MarkupText.escaped(text))</span>" }
        if foreground != nil, let background {
            html += badge(foreground: foreground!, background: background, font: font, traits: side.theme.traits)
        }
        html += "</div>"
        return html
    }

    /// What a component of this kind would show: its own text, else a sample line for text views.
    private static func text(_ instance: ResolvedInstance, _ values: [String: Value]) -> String? {
        if case .string(let text)? = values["text"] ?? values["title"] { return text }
        if values["placeholderColor"] != nil { return "Message" }
        // A label without text of its own shows its id, so the layout can be read.
        if values["textColor"] != nil { return instance.id.replacingOccurrences(of: "_", with: " ") }
        return nil
    }

    /// The contrast badge of a text and background pair, as `validate` would judge it.
    private static func badge(foreground: Color, background: Color, font: Font?, traits: TraitSet) -> String {
        guard background.alpha >= 1 else {
            return "<span class=\"badge unchecked\" title=\"translucent background: not checked\">?</span>"
        }
        let ratio = ContrastRatio.ratio(foreground, on: background)
        let required = ContrastRatio.required(
            largeText: ContrastRatio.isLargeText(font), highContrast: traits.contrast != nil)
        let pass = ratio >= required
        return
            "<span class=\"badge \(pass ? "pass" : "fail")\" title=\"needs \(ValueText.number(required)):1\">\(ContrastRatio.text(ratio, required: required)):1 \(pass ? "✓" : "✗")</span>"
    }

    /// `font-size` follows `--text-scale` up to `max-size`; a fixed font does not. Letter
    /// spacing is written in `em` (spacing / size), so it grows with the applied size as the
    /// engine's does; line height is unitless, a multiple of whatever size applies.
    static func fontStyle(_ font: Font) -> String {
        var plain = font
        plain.size = nil
        guard let size = font.size else { return PreviewPage.fontCSS(plain) }
        var style: String
        if size > 0, let spacing = font.letterSpacing {
            plain.letterSpacing = nil
            let em = (spacing / size * 1_000_000).rounded() / 1_000_000
            style = PreviewPage.fontCSS(plain) + ";letter-spacing:\(ValueText.number(em))em"
        } else {
            style = PreviewPage.fontCSS(plain)
        }
        if !font.followsTextScale {
            style += ";font-size:\(px(size))px"
        } else if let maxSize = font.maxSize {
            style += ";font-size:min(calc(\(px(size))px * var(--text-scale)), \(px(maxSize))px)"
        } else {
            style += ";font-size:calc(\(px(size))px * var(--text-scale))"
        }
        return style
    }

    // MARK: - Fonts

    /// Lists the families used; a small script measures which the browser lacks and names them
    /// (without scripts the list says which families to check).
    private static func fontReport(_ sides: [PreviewSide]) -> String {
        var families: [String] = []
        for side in sides {
            for instance in side.theme.instances {
                for operation in instance.operations {
                    for param in operation.params {
                        if case .font(let font) = param.value, !families.contains(font.family) {
                            families.append(font.family)
                        }
                    }
                }
            }
        }
        guard !families.isEmpty else { return "" }
        let list = families.map { "<code>\(MarkupText.escaped($0))</code>" }.joined(separator: ", ")
        let json =
            "[" + families.map { JSONValue.string($0).rendered() }.joined(separator: ",")
            + "]"
            .replacingOccurrences(of: "<", with: "\\u003c")
        return """
            <p class="fonts" id="font-report">Fonts used: \(list). Families the browser does not have are drawn in its fallback font.</p>
            <script>(function(){var f=\(json.replacingOccurrences(of: "<", with: "\\u003c"));var c=document.createElement("canvas").getContext("2d");
            function w(x){c.font="40px "+x;return c.measureText("mmmmmmmmmmlli WQ@#").width;}
            var m=f.filter(function(n){var q="'"+n.replace(/'/g,"")+"'";return w(q+",monospace")===w("monospace")&&w(q+",serif")===w("serif");});
            var p=document.getElementById("font-report");p.textContent=m.length?"Fonts this browser cannot load, drawn in its fallback: "+m.join(", ")+".":"Every font family used is available in this browser: "+f.join(", ")+".";
            if(m.length)p.className="fonts missing";})();</script>

            """
    }

    // MARK: - Helpers

    private static func color(_ value: Value?) -> Color? {
        if case .color(let color)? = value { return color }
        return nil
    }

    private static func font(_ value: Value?) -> Font? {
        if case .font(let font)? = value { return font }
        return nil
    }

    private static func image(_ value: Value?, side: PreviewSide) -> String? {
        if case .image(let image)? = value { return PreviewPage.dataURI(image.name, side: side) }
        return nil
    }

    private static func px(_ value: Double) -> String { ValueText.number(value) }

    static let css = """
        .screens .text-scale{display:none}
        .text-scale-control{margin:8px 0 12px}
        .text-scale-control label{display:inline-block;padding:3px 10px;margin-right:4px;border:1px solid #999;border-radius:12px;cursor:pointer}
        #text-scale-0:checked~.text-scale-control label[for=text-scale-0],#text-scale-1:checked~.text-scale-control label[for=text-scale-1],
        #text-scale-2:checked~.text-scale-control label[for=text-scale-2],#text-scale-3:checked~.text-scale-control label[for=text-scale-3]{background:#222;color:#fff}
        .screens{--text-scale:1}
        #text-scale-1:checked~.devices{--text-scale:1.5}
        #text-scale-2:checked~.devices{--text-scale:2}
        #text-scale-3:checked~.devices{--text-scale:3}
        .devices{display:flex;gap:24px;flex-wrap:wrap;align-items:flex-start}
        .device{margin:0}
        .device figcaption{font:600 13px system-ui,sans-serif;margin-bottom:6px}
        .bezel{position:relative;overflow:hidden;border:10px solid #111;border-radius:28px;background:#fff;box-sizing:content-box}
        .screen{position:absolute;left:0;top:0;transform-origin:0 0;overflow:hidden}
        .element{position:absolute;box-sizing:border-box;display:flex;align-items:center;overflow:hidden;padding:0 4px}
        .element .text{overflow:hidden;text-overflow:ellipsis}
        .element.grows{overflow:visible;align-items:flex-start;padding-top:4px;padding-bottom:4px}
        .element.uibutton{justify-content:center;gap:6px}
        .element img.content{display:block;max-width:70%;max-height:70%;object-fit:contain}
        .screen{overflow:visible}
        .badge{position:absolute;right:0;bottom:100%;margin-bottom:2px;font:600 10px/1.4 system-ui,sans-serif;padding:0 4px;border-radius:6px;color:#fff;z-index:2;white-space:nowrap}
        .badge.pass{background:#1b7f3b}.badge.fail{background:#c62828}.badge.unchecked{background:#777}
        .fonts.missing{color:#b00020;font-weight:600}
        """
}
