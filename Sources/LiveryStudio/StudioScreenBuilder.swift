import LiveryModel
import LiveryTooling
import LiveryXML

/// The composed screen as data for the page to draw: each framed instance's normal-state values
/// (what a device applies), with the contrast of its text on its background as `validate`
/// judges it. The page draws a button's `image` as its content at its own aspect, a
/// `backgroundImage` over the whole component, lets labels grow with the text scale, and puts
/// contrast badges outside the text they measure. What a device would draw: text a label gets
/// from the app is drawn as sample content (never the instance's id), and a container the app
/// fills as it fills another of its kind (a chat bubble holding a message label) is drawn with
/// that content in it, not empty.
enum StudioScreenBuilder {
    static func screen(themeAt folder: String, traits: TraitSet, workspace: ThemeWorkspace) -> StudioScreen? {
        guard
            let side = PreviewSide.load(
                themeAt: folder, traits: traits, scale: 2, workspace: workspace, keepingWhatResolves: true
            ).value,
            let schema = workspace.schema(forThemeAt: folder)
        else { return nil }
        let idiom = traits.idiom == .ipad ? "ipad" : "iphone"
        var elements: [StudioElement] = []
        for instance in side.theme.instances {
            guard
                case .rect(let rect)? = instance.operations.first(where: { $0.name == "frame" && $0.state == .normal })?
                    .params.first?.value
            else { continue }
            if let element = element(instance, rect: rect, side: side, schema: schema) { elements.append(element) }
        }
        elements += filledContainers(elements)
        // Largest first, so containers stay behind their content.
        elements.sort { $0.width * $0.height > $1.width * $1.height }
        let size: (Double, Double) = idiom == "ipad" ? (1024, 1366) : (375, 667)
        let width = max(size.0, elements.map { $0.x + $0.width }.max() ?? 0)
        let height = max(size.1, elements.map { $0.y + $0.height }.max() ?? 0)
        return StudioScreen(
            themeID: side.theme.info.id, traits: side.theme.dimensions.tags(of: traits).joined(separator: ","),
            width: width, height: height,
            idiom: idiom,
            elements: elements)
    }

    static func element(_ instance: ResolvedInstance, rect: Rect, side: PreviewSide, schema: Schema) -> StudioElement? {
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
        if case .bool(true)? = values["hidden"] { return nil }
        var element = StudioElement(
            id: instance.id, component: instance.component, x: rect.x, y: rect.y, width: rect.width, height: rect.height
        )
        let background = roles[.backgroundColor] ?? color(values["barTintColor"])
        element.background = background.map(css)
        let foreground = roles[.textColor]
        element.textColor = foreground.map(css)
        if case .float(let radius)? = values["cornerRadius"] { element.cornerRadius = radius }
        if case .float(let width)? = values["borderWidth"], width > 0 {
            element.borderWidth = width
            element.borderColor = color(values["borderColor"]).map(css) ?? "#000"
        }
        if case .float(let alpha)? = values["alpha"] { element.alpha = alpha }
        if case .image(let image)? = values["image"] { element.image = PreviewPage.dataURI(image.name, side: side) }
        if case .image(let image)? = values["backgroundImage"] {
            element.backgroundImage = PreviewPage.dataURI(image.name, side: side)
        }
        if case .enumeration(let mode)? = values["contentMode"] { element.contentMode = mode }
        var font: Font?
        if case .font(let value)? = values["font"] ?? values["titleFont"] {
            font = value
            element.fontFamily = value.family
            element.fontSize = value.size
            element.fontWeight = weights[value.weight] ?? 400
            element.fontMaxSize = value.maxSize
            element.fontFixed = !value.followsTextScale
        }
        if case .enumeration(let alignment)? = values["textAlignment"] { element.alignment = alignment }
        if case .integer(let lines)? = values["numberOfLines"] { element.lines = Int(lines) }
        if case .string(let text)? = values["text"] ?? values["title"] {
            element.text = text
        } else if values["placeholderColor"] != nil {
            element.text = "Message"
        } else if values["textColor"] != nil {
            // Text the app sets: sample content, one short line where the label holds one line.
            element.text = holdsOneLine(element, rect: rect) ? sampleLine : sampleText
        }
        if let foreground, let background, background.alpha >= 1 {
            let ratio = ContrastRatio.ratio(foreground, on: background)
            let required = ContrastRatio.required(
                largeText: ContrastRatio.isLargeText(font), highContrast: side.theme.traits.contrast != nil)
            element.contrast = StudioContrast(
                ratio: ratio, required: required, pass: ratio >= required,
                text: ContrastRatio.text(ratio, required: required))
        }
        return element
    }

    /// One line: `numberOfLines` 1, or a frame less than two lines of its font high.
    static func holdsOneLine(_ element: StudioElement, rect: Rect) -> Bool {
        element.lines == 1 || rect.height < 2 * (element.fontSize ?? 17)
    }

    /// What a label whose text comes from the app shows on the composed screen.
    static let sampleText = "See you at the station at nine?"
    static let sampleLine = "Today 09:41"

    /// Containers that hold no text while another of the same component holds a text element
    /// (a label inside its frame): drawn with a copy of that element at the same place inside
    /// them, as the app fills every one of them. The copy is the same instance (clicking it
    /// explains it); it carries no contrast badge, which `validate` gives the original alone.
    static func filledContainers(_ elements: [StudioElement]) -> [StudioElement] {
        func inside(_ inner: StudioElement, _ outer: StudioElement) -> Bool {
            inner.id != outer.id && inner.x >= outer.x && inner.y >= outer.y
                && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height
        }
        let texts = elements.filter { $0.text != nil && $0.component != "uibutton" }
        var copies: [StudioElement] = []
        for container in elements where container.text == nil {
            guard !texts.contains(where: { inside($0, container) }) else { continue }
            for other in elements
            where other.component == container.component && other.id != container.id && other.text == nil {
                guard let content = texts.first(where: { inside($0, other) }) else { continue }
                var copy = content
                copy.x = container.x + (content.x - other.x)
                copy.y = container.y + (content.y - other.y)
                copy.width = min(content.width, container.x + container.width - copy.x)
                copy.contrast = nil
                copy.text = content.text == sampleLine ? sampleLine : "On my way, ten minutes."
                copies.append(copy)
                break
            }
        }
        return copies
    }

    static let weights: [FontWeight: Int] = [
        .ultralight: 100, .thin: 200, .light: 300, .regular: 400, .medium: 500,
        .semibold: 600, .bold: 700, .heavy: 800, .black: 900,
    ]

    static func color(_ value: Value?) -> Color? {
        if case .color(let color)? = value { return color }
        return nil
    }

    /// `#RRGGBBAA`, which browsers read as CSS.
    static func css(_ color: Color) -> String { color.hexString }
}
