// Composite token values: stroke styles, borders, transitions, shadows, gradients and typography.
import LiveryModel

extension TokenResolver {
    static let strokeKeywords: Set<String> = [
        "solid", "dashed", "dotted", "double", "groove", "ridge", "outset", "inset",
    ]

    mutating func strokeStyle(_ node: JSONNode, _ source: Int) -> StrokeStyle? {
        if let keyword = node.string {
            guard Self.strokeKeywords.contains(keyword) else {
                return fail(
                    "'\(keyword)' is not a stroke style; use one of \(Self.strokeKeywords.sorted().joined(separator: ", ")) or {dashArray, lineCap}",
                    node, source)
            }
            return .keyword(keyword)
        }
        guard node.members != nil else {
            return fail("a stroke style is a keyword or an object, not \(node.kindName)", node, source)
        }
        guard only(["dashArray", "lineCap"], in: node, source, what: "a stroke style") else { return nil }
        guard let dashNode = node["dashArray"] else {
            return fail("a stroke style object needs 'dashArray'", node, source)
        }
        guard let (items, itemsSource) = literalArray(dashNode, source) else {
            return fail("dashArray is an array of dimensions, not \(dashNode.kindName)", dashNode, source)
        }
        guard !items.isEmpty else { return fail("dashArray is empty; give at least one dimension", dashNode, source) }
        var dashes: [Aliased<Dimension>] = []
        for item in items {
            guard let value = typed(item, as: .dimension, source: itemsSource, aliasAllowed: true),
                case .dimension(let dimension) = value.value
            else { return nil }
            dashes.append(Aliased(dimension, alias: value.alias))
        }
        guard let capNode = node["lineCap"] else {
            return fail("a stroke style object needs 'lineCap' (round, butt or square)", node, source)
        }
        guard let cap = literalString(capNode, source), ["round", "butt", "square"].contains(cap) else {
            return fail(
                "lineCap is round, butt or square, not \(capNode.string.map { "'\($0)'" } ?? capNode.kindName)",
                capNode, source)
        }
        return .dashes(dashes, lineCap: cap)
    }

    mutating func border(_ node: JSONNode, _ source: Int) -> Border? {
        guard node.members != nil else {
            return fail("a border is an object {color, width, style}, not \(node.kindName)", node, source)
        }
        guard only(["color", "width", "style"], in: node, source, what: "a border"),
            let color = part(
                node, "color", as: .color, source, in: "a border", { if case .color(let c) = $0 { c } else { nil } }),
            let width = part(
                node, "width", as: .dimension, source, in: "a border",
                { if case .dimension(let d) = $0 { d } else { nil } }),
            let style = part(
                node, "style", as: .strokeStyle, source, in: "a border",
                { if case .strokeStyle(let s) = $0 { s } else { nil } })
        else { return nil }
        return Border(color: color, width: width, style: style)
    }

    mutating func transition(_ node: JSONNode, _ source: Int) -> Transition? {
        guard node.members != nil else {
            return fail(
                "a transition is an object {duration, delay, timingFunction}, not \(node.kindName)", node, source)
        }
        guard only(["duration", "delay", "timingFunction"], in: node, source, what: "a transition"),
            let duration = part(
                node, "duration", as: .duration, source, in: "a transition",
                { if case .duration(let d) = $0 { d } else { nil } }),
            let delay = part(
                node, "delay", as: .duration, source, in: "a transition",
                { if case .duration(let d) = $0 { d } else { nil } }),
            let timing = part(
                node, "timingFunction", as: .cubicBezier, source, in: "a transition",
                { if case .cubicBezier(let c) = $0 { c } else { nil } })
        else { return nil }
        return Transition(duration: duration, delay: delay, timingFunction: timing)
    }

    mutating func shadows(_ node: JSONNode, _ source: Int) -> [Shadow]? {
        guard let items = node.array else { return shadow(node, source).map { [$0] } }
        guard !items.isEmpty else { return fail("a shadow array is empty; give at least one shadow", node, source) }
        var result: [Shadow] = []
        for item in items {
            if pointerObject(item) != nil || Self.aliasPath(item) != nil {
                guard let value = typed(item, as: .shadow, source: source, aliasAllowed: true),
                    case .shadow(let layers) = value.value
                else { return nil }
                result += layers
            } else {
                guard let layer = shadow(item, source) else { return nil }
                result.append(layer)
            }
        }
        return result
    }

    private mutating func shadow(_ node: JSONNode, _ source: Int) -> Shadow? {
        guard node.members != nil else {
            return fail(
                "a shadow is an object {color, offsetX, offsetY, blur, spread}, not \(node.kindName)", node, source)
        }
        func dimensionPart(_ key: String) -> Aliased<Dimension>? {
            part(node, key, as: .dimension, source, in: "a shadow") {
                if case .dimension(let d) = $0 { d } else { nil }
            }
        }
        guard only(["color", "offsetX", "offsetY", "blur", "spread", "inset"], in: node, source, what: "a shadow"),
            let color = part(
                node, "color", as: .color, source, in: "a shadow", { if case .color(let c) = $0 { c } else { nil } }),
            let offsetX = dimensionPart("offsetX"), let offsetY = dimensionPart("offsetY"),
            let blur = dimensionPart("blur"), let spread = dimensionPart("spread")
        else { return nil }
        var inset = false
        if let insetNode = node["inset"] {
            guard let flag = insetNode.bool else {
                return fail("inset is true or false, not \(insetNode.kindName)", insetNode, source)
            }
            inset = flag
        }
        return Shadow(color: color, offsetX: offsetX, offsetY: offsetY, blur: blur, spread: spread, inset: inset)
    }

    mutating func gradient(_ node: JSONNode, _ source: Int) -> [GradientStop]? {
        guard let items = node.array else {
            return fail("a gradient is an array of stops, not \(node.kindName)", node, source)
        }
        guard !items.isEmpty else {
            return fail("a gradient has no stops; give at least one {color, position}", node, source)
        }
        var stops: [GradientStop] = []
        for item in items {
            var stopNode = item
            var stopSource = source
            if let pointer = pointerObject(item) {
                guard let (target, targetSource, _) = follow(pointer, in: source) else { return nil }
                (stopNode, stopSource) = (target, targetSource)
            }
            guard stopNode.members != nil else {
                return fail("a gradient stop is an object {color, position}, not \(stopNode.kindName)", item, source)
            }
            guard only(["color", "position"], in: stopNode, stopSource, what: "a gradient stop"),
                let color = part(
                    stopNode, "color", as: .color, stopSource, in: "a gradient stop",
                    { if case .color(let c) = $0 { c } else { nil } }),
                let position = part(
                    stopNode, "position", as: .number, stopSource, in: "a gradient stop",
                    { if case .number(let n) = $0 { n } else { nil } })
            else { return nil }
            guard (0...1).contains(position.value) else {
                return fail(
                    "a gradient stop's position is in [0, 1], not \(ValueText.number(position.value))", stopNode,
                    stopSource)
            }
            stops.append(GradientStop(color: color, position: position))
        }
        return stops
    }

    mutating func typography(_ node: JSONNode, _ source: Int) -> Typography? {
        guard node.members != nil else {
            return fail(
                "a typography is an object {fontFamily, fontSize, fontWeight, letterSpacing, lineHeight}, not \(node.kindName)",
                node, source)
        }
        guard
            only(
                ["fontFamily", "fontSize", "fontWeight", "letterSpacing", "lineHeight"], in: node, source,
                what: "a typography"),
            let family = part(
                node, "fontFamily", as: .fontFamily, source, in: "a typography",
                { if case .fontFamily(let f) = $0 { f } else { nil } }),
            let size = part(
                node, "fontSize", as: .dimension, source, in: "a typography",
                { if case .dimension(let d) = $0 { d } else { nil } }),
            let weight = part(
                node, "fontWeight", as: .fontWeight, source, in: "a typography",
                { if case .fontWeight(let w) = $0 { w } else { nil } }),
            let spacing = part(
                node, "letterSpacing", as: .dimension, source, in: "a typography",
                { if case .dimension(let d) = $0 { d } else { nil } }),
            let lineHeight = part(
                node, "lineHeight", as: .number, source, in: "a typography",
                { if case .number(let n) = $0 { n } else { nil } })
        else { return nil }
        return Typography(
            fontFamily: family, fontSize: size, fontWeight: weight, letterSpacing: spacing, lineHeight: lineHeight)
    }
}
