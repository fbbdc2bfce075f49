import Foundation
import LiveryModel
import LiveryXML

/// One column of a preview: a theme resolved for a trait set, its constants, and a way to read
/// its asset files (they are inlined, so the page stands alone).
public struct PreviewSide {
    public var title: String
    public var theme: ResolvedTheme
    public var constants: [ResolvedConstant]
    public var scale: Int
    /// The bytes of an asset file, or nil when it cannot be read.
    public var readAsset: (AssetVariant) -> [UInt8]?
    /// Errors and warnings of a theme previewed as far as it resolves, listed at the top.
    public var findings: [Diagnostic] = []

    public init(
        title: String, theme: ResolvedTheme, constants: [ResolvedConstant], scale: Int = 1,
        readAsset: @escaping (AssetVariant) -> [UInt8]?
    ) {
        self.title = title
        self.theme = theme
        self.constants = constants
        self.scale = scale
        self.readAsset = readAsset
    }

    /// A theme folder through a workspace: resolved, its constants, assets read from its chain's folders.
    /// With `keepingWhatResolves`, a theme with errors gives a side too: what resolves, with its
    /// findings.
    public static func load(
        themeAt path: String, traits: TraitSet, scale: Int, workspace: ThemeWorkspace,
        keepingWhatResolves: Bool = false
    ) -> Checked<PreviewSide> {
        let resolved = workspace.resolve(themeAt: path, traits: traits, keepingWhatResolves: keepingWhatResolves)
        guard let theme = resolved.value else { return Checked(value: nil, diagnostics: resolved.diagnostics) }
        let constants = workspace.constants(ofThemeAt: path, traits: traits, keepingWhatResolves: keepingWhatResolves)
        let folders = Dictionary(
            workspace.ancestorFolders(ofThemeAt: path).compactMap { folder in
                workspace.chain(ofThemeAt: folder).value?.last.map { ($0.info.id, $0.path) }
            }, uniquingKeysWith: { $1 })
        let side = PreviewSide(
            title: "\(theme.info.name) (\(theme.info.id) \(theme.info.version))", theme: theme,
            constants: constants.value ?? [], scale: scale
        ) { variant in
            guard let folder = folders[variant.themeID],
                let data = FileManager.default.contents(
                    atPath: (folder as NSString).appendingPathComponent(variant.file))
            else { return nil }
            return [UInt8](data)
        }
        var withFindings = side
        withFindings.findings = resolved.diagnostics
        return Checked(value: withFindings, diagnostics: resolved.diagnostics)
    }
}

/// A self-contained HTML page showing a theme the way its components would look: the constants
/// as a palette, then every instance drawn as its component type (background, border, corner
/// radius, shadow, text colour and font, images, per-state variants), grouped by component type,
/// with its values beside it. With two sides, the columns stand side by side and what differs is
/// highlighted. No scripts and no external resources: images are data URIs.
public enum PreviewPage {
    /// `screen` is a composed screen to show first (`PreviewScreen.section`), or empty.
    public static func render(_ sides: [PreviewSide], screen: String = "") -> String {
        precondition(!sides.isEmpty && sides.count <= 2, "one theme, or two to compare")
        let compare = sides.count == 2
        var html = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
        html += "<title>Livery preview: \(MarkupText.escaped(sides.map(\.title).joined(separator: " vs ")))</title>\n"
        html += "<style>\(css)\(screen.isEmpty ? "" : PreviewScreen.css)</style></head>\n<body>\n"
        html += "<header><h1>\(MarkupText.escaped(compare ? "Compare" : "Preview"))</h1>"
        for side in sides {
            let traits =
                side.theme.traits.isEmpty ? "no traits" : side.theme.dimensions.description(of: side.theme.traits)
            html +=
                "<div class=\"side-title\"><b>\(MarkupText.escaped(side.title))</b> · \(MarkupText.escaped(traits)) · @\(side.scale)x</div>"
        }
        html += "</header>\n"
        html += findingsSection(sides)

        // summary of differences
        let ids = orderedUnion(sides.map { $0.theme.instances.map(\.id) })
        var differing: Set<String> = []
        if compare {
            for id in ids where sides[0].theme.instance(id) != sides[1].theme.instance(id) { differing.insert(id) }
            let onlyLeft = ids.filter { sides[1].theme.instance($0) == nil }.count
            let onlyRight = ids.filter { sides[0].theme.instance($0) == nil }.count
            let changedConstants = orderedUnion(sides.map { $0.constants.map(\.name) }).filter { name in
                sides[0].constants.first { $0.name == name }?.value
                    != sides[1].constants.first { $0.name == name }?.value
            }.count
            html +=
                "<p class=\"summary\">\(differing.count) of \(ids.count) instances differ (\(onlyLeft) only left, \(onlyRight) only right); \(changedConstants) constants differ. Differences are outlined in orange.</p>\n"
        } else {
            html += "<p class=\"summary\">\(ids.count) instances, \(sides[0].constants.count) constants.</p>\n"
        }

        html += screen
        html += palette(sides)

        // instances by component type
        let components = orderedUnion(sides.map { $0.theme.instances.map(\.component) }).sorted()
        for component in components {
            let members = ids.filter { id in sides.contains { $0.theme.instance(id)?.component == component } }
            html += "<section><h2>\(MarkupText.escaped(component)) <small>\(members.count)</small></h2>\n"
            for id in members {
                html += "<div class=\"row\(compare ? " compare" : "")\">"
                let instances = sides.map { $0.theme.instance(id) }
                for (index, side) in sides.enumerated() {
                    let other = compare ? instances[1 - index] : nil
                    html += card(id: id, instance: instances[index], other: other, compare: compare, side: side)
                }
                html += "</div>\n"
            }
            html += "</section>\n"
        }
        html +=
            "<footer>Generated by livery preview. Fonts fall back to the browser's when the family is not installed.</footer>\n"
        html += "</body></html>\n"
        return html
    }

    // MARK: - Palette

    private static func palette(_ sides: [PreviewSide]) -> String {
        let names = orderedUnion(sides.map { $0.constants.map(\.name) }).sorted()
        guard !names.isEmpty else { return "" }
        var html = "<section><h2>Constants <small>\(names.count)</small></h2>\n<div class=\"palette\">\n"
        for name in names {
            let values = sides.map { side in side.constants.first { $0.name == name } }
            let differs = sides.count == 2 && values[0]?.value != values[1]?.value
            html +=
                "<div class=\"constant\(differs ? " differs" : "")\"><div class=\"constant-name\">\(MarkupText.escaped(name))</div>"
            for (index, constant) in values.enumerated() {
                guard let constant else {
                    html += "<div class=\"constant-value missing\">not defined</div>"
                    continue
                }
                let place = "\(constant.themeID) \(constant.location)"
                html += "<div class=\"constant-value\" title=\"\(MarkupText.escaped(place))\">"
                html += specimen(of: constant.value, side: sides[index])
                html += "<span class=\"value\">\(MarkupText.escaped(ValueText.describe(constant.value)))</span>"
                if let reference = constant.reference {
                    html += " <span class=\"ref\">→ \(MarkupText.escaped(reference))</span>"
                }
                html += "</div>"
            }
            html += "</div>\n"
        }
        return html + "</div></section>\n"
    }

    private static func specimen(of value: Value, side: PreviewSide) -> String {
        switch value {
        case .color(let color):
            return "<span class=\"swatch\"><span style=\"background:\(css(color))\"></span></span>"
        case .font(let font):
            return "<span class=\"font-sample\" style=\"\(fontCSS(font))\">Aa</span>"
        case .image(let image):
            guard let uri = dataURI(image.name, side: side) else { return "" }
            return "<img class=\"thumb\" src=\"\(uri)\" alt=\"\">"
        // Shown by their text alone.
        case .float, .integer, .bool, .string, .point, .size, .rect, .insets, .enumeration, .array:
            return ""
        }
    }

    // MARK: - Instances

    private static func card(
        id: String, instance: ResolvedInstance?, other: ResolvedInstance?, compare: Bool, side: PreviewSide
    ) -> String {
        guard let instance else {
            return
                "<div class=\"card absent\"><div class=\"card-id\">\(MarkupText.escaped(id))</div><p>not in this theme</p></div>"
        }
        let differs = compare && instance != other
        var html =
            "<div class=\"card\(differs ? " differs" : "")\" id=\"\(MarkupText.escaped(id))\"><div class=\"card-id\">\(MarkupText.escaped(id))"
        if compare && other == nil { html += " <span class=\"badge\">only here</span>" }
        html += "</div><div class=\"card-body\"><div class=\"stage\(needsDarkStage(instance) ? " dark" : "")\">"
        for state in states(of: instance) {
            html += "<figure>" + drawing(instance, state: state, side: side)
            html += "<figcaption>\(MarkupText.escaped(state.rawValue))</figcaption></figure>"
        }
        html += "</div><table class=\"values\">"
        for operation in instance.operations {
            let changed = compare && other?.operations.first { $0.key == operation.key }?.params != operation.params
            let state = operation.state == .normal ? "" : " <i>\(MarkupText.escaped(operation.state.rawValue))</i>"
            html +=
                "<tr\(changed ? " class=\"changed\"" : "")><th>\(MarkupText.escaped(operation.name))\(state)</th><td>"
            for param in operation.params {
                html +=
                    specimen(of: param.value, side: side)
                    + "<span>\(MarkupText.escaped(ValueText.describe(param.value)))</span> "
            }
            html += "</td></tr>"
        }
        if instance.operations.isEmpty { html += "<tr><td>no operations</td></tr>" }
        return html + "</table></div></div>"
    }

    /// Light text with no fill of its own (a dark theme's labels) is drawn on a dark backdrop.
    private static func needsDarkStage(_ instance: ResolvedInstance) -> Bool {
        var colors: [String: Color] = [:]
        for operation in instance.operations where operation.state == .normal {
            if case .color(let color)? = operation.params.first?.value { colors[operation.name] = color }
        }
        if let fill = colors["backgroundColor"] ?? colors["barTintColor"], fill.alpha > 0.3 { return false }
        guard let text = colors["textColor"] ?? colors["titleColor"] else { return false }
        return 0.2126 * text.red + 0.7152 * text.green + 0.0722 * text.blue > 0.6
    }

    /// `normal` and every other state some operation sets.
    private static func states(of instance: ResolvedInstance) -> [ControlState] {
        var states = [ControlState.normal]
        for operation in instance.operations where !states.contains(operation.state) { states.append(operation.state) }
        return states
    }

    // MARK: - Helpers

    public static func dataURI(_ name: String, side: PreviewSide) -> String? {
        guard let variant = side.theme.assets.select(name, traits: side.theme.traits, scale: side.scale),
            let bytes = side.readAsset(variant)
        else { return nil }
        let lower = variant.file.lowercased()
        let type =
            lower.hasSuffix(".jpg") || lower.hasSuffix(".jpeg")
            ? "image/jpeg"
            : lower.hasSuffix(".gif")
                ? "image/gif"
                : lower.hasSuffix(".svg")
                    ? "image/svg+xml"
                    : lower.hasSuffix(".webp") ? "image/webp" : "image/png"
        return "data:\(type);base64," + Data(bytes).base64EncodedString()
    }

    static func css(_ color: Color) -> String {
        func byte(_ value: Double) -> Int { Int((min(max(value, 0), 1) * 255).rounded()) }
        let alpha = (min(max(color.alpha, 0), 1) * 1000).rounded() / 1000
        return "rgba(\(byte(color.red)),\(byte(color.green)),\(byte(color.blue)),\(alpha))"
    }

    static func fontCSS(_ font: Font) -> String {
        let weights: [FontWeight: Int] = [
            .ultralight: 100, .thin: 200, .light: 300, .regular: 400, .medium: 500,
            .semibold: 600, .bold: 700, .heavy: 800, .black: 900,
        ]
        let family = font.family.replacingOccurrences(of: "'", with: "")
        return "font-family:'\(family)',system-ui,sans-serif;font-weight:\(weights[font.weight] ?? 400)"
            + (font.size.map { ";font-size:\(px($0))" } ?? "") + typographyCSS(font)
    }

    /// CSS `letter-spacing` (points as px) and `line-height` (unitless: CSS reads it, as the
    /// theme does, as a multiple of the font size); nothing for what the theme leaves out.
    static func typographyCSS(_ font: Font) -> String {
        (font.letterSpacing.map { ";letter-spacing:\(px($0))" } ?? "")
            + (font.lineHeight.map { ";line-height:\(ValueText.number($0))" } ?? "")
    }

    static func px(_ value: Double) -> String { ValueText.number(value) + "px" }

    private static func orderedUnion(_ lists: [[String]]) -> [String] {
        var seen: Set<String> = []
        var out: [String] = []
        for list in lists { for item in list where seen.insert(item).inserted { out.append(item) } }
        return out
    }

    static let css = """
        body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;padding:24px;background:#fafafa;color:#222}
        header{display:flex;gap:24px;align-items:baseline;flex-wrap:wrap;border-bottom:1px solid #ddd;padding-bottom:8px}
        h1{margin:0;font-size:22px} h2{font-size:17px;margin:28px 0 10px} h2 small{color:#888;font-weight:normal}
        .side-title{color:#444} .summary{color:#555}
        .palette{display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:6px}
        .constant{background:#fff;border:1px solid #e3e3e3;border-radius:6px;padding:6px 8px;display:flex;flex-wrap:wrap;gap:4px 12px;align-items:center}
        .constant-name{font-weight:600;min-width:110px}
        .constant-value{display:flex;align-items:center;gap:6px;font-family:ui-monospace,monospace;font-size:12px}
        .constant.differs,.card.differs{outline:3px solid #ff9500;outline-offset:-1px}
        .missing{color:#b00}
        .swatch{display:inline-block;width:22px;height:22px;border-radius:4px;border:1px solid #0003;background:repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/8px 8px;overflow:hidden}
        .swatch span{display:block;width:100%;height:100%}
        .font-sample{font-size:18px;line-height:1} .ref{color:#888} .thumb{max-height:24px;max-width:48px;vertical-align:middle}
        .row{margin:8px 0} .row.compare{display:grid;grid-template-columns:1fr 1fr;gap:12px}
        .card{background:#fff;border:1px solid #e3e3e3;border-radius:8px;padding:10px}
        .card.absent{color:#999;border-style:dashed}
        .card-id{font-family:ui-monospace,monospace;font-weight:600;margin-bottom:6px}
        .badge{background:#ff9500;color:#fff;border-radius:4px;padding:0 5px;font-size:11px;font-family:system-ui}
        .card-body{display:flex;gap:14px;align-items:flex-start;flex-wrap:wrap}
        .stage{display:flex;gap:10px;flex-wrap:wrap;padding:12px;border-radius:6px;background:repeating-conic-gradient(#eee 0 25%,#f8f8f8 0 50%) 0 0/16px 16px}
        .stage.dark{background:repeating-conic-gradient(#262626 0 25%,#303030 0 50%) 0 0/16px 16px}
        .stage.dark figcaption{color:#aaa}
        figure{margin:0;display:flex;flex-direction:column;align-items:flex-start;gap:4px}
        figcaption{font-size:11px;color:#777}
        .component{box-sizing:border-box;position:relative}
        .icon{height:1.2em}
        .values{border-collapse:collapse;font-size:12px}
        .values th{text-align:left;font-weight:500;padding:2px 10px 2px 0;white-space:nowrap;vertical-align:top}
        .values td{font-family:ui-monospace,monospace;padding:2px 0}
        .values td .swatch{width:14px;height:14px;vertical-align:middle;margin-right:4px}
        .values tr.changed{background:#fff1d6}
        .switch{width:51px;height:31px;border-radius:16px;position:relative}
        .switch span{position:absolute;right:2px;top:2px;width:27px;height:27px;border-radius:50%;box-shadow:0 1px 3px #0004}
        .slider{position:relative;height:28px}
        .slider .min,.slider .max{position:absolute;top:12px;height:4px;border-radius:2px}
        .slider .min{left:0;width:60%} .slider .max{left:60%;right:0}
        .slider .thumb{position:absolute;left:calc(60% - 14px);top:0;width:28px;height:28px;border-radius:50%;box-shadow:0 1px 4px #0005}
        .progress{height:4px;border-radius:2px;overflow:hidden} .progress span{display:block;height:100%;width:60%}
        .back{position:absolute;left:8px} .nav-title{font-weight:600}
        footer{margin-top:32px;color:#999;font-size:12px}
        """
}
