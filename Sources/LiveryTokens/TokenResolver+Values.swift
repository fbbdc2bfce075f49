// Typed token values: the rules of each type's literal, and aliases and `$ref`s where they may stand.
import LiveryModel

extension TokenResolver {
    mutating func fail<T>(_ message: String, _ node: JSONNode, _ source: Int) -> T? {
        error(.tokenValue, message, at: location(node, in: source))
        return nil
    }

    /// A value of `type` at `node`: literal, `$ref` object, or (where the format allows one) an alias.
    mutating func typed(_ node: JSONNode, as type: TokenType, source: Int, aliasAllowed: Bool) -> Aliased<
        TokenValue
    >? {
        if let pointer = pointerObject(node) {
            guard let (target, targetSource, path) = follow(pointer, in: source) else { return nil }
            let key = pointer.string ?? ""
            pointersInProgress.append(key)
            defer { pointersInProgress.removeLast() }
            guard let value = typed(target, as: type, source: targetSource, aliasAllowed: true) else { return nil }
            return Aliased(value.value, alias: path ?? value.alias)
        }
        if let path = Self.aliasPath(node) {
            guard aliasAllowed else {
                return fail(
                    "a reference is not allowed here: inside a \(type.rawValue) value only JSON Pointer objects ({\"$ref\": ...}) may stand for parts",
                    node, source)
            }
            guard let target = targetToken(path, at: location(node, in: source)) else { return nil }
            guard target.type == type else {
                error(
                    .tokenReferenceType,
                    "the alias {\(path.joined(separator: "."))} names a \(target.type.rawValue); a \(type.rawValue) is needed here",
                    at: location(node, in: source))
                return nil
            }
            return Aliased(target.value, alias: target.path)
        }
        if let text = node.string, text.hasPrefix("{"), type != .fontFamily, type != .fontWeight, type != .strokeStyle {
            return fail(
                "'\(text)' is not a valid alias; write {group.token} with no spaces, e.g. {colors.blue}", node, source)
        }
        let value: TokenValue?
        switch type {
        case .color: value = color(node, source).map(TokenValue.color)
        case .dimension: value = dimension(node, source).map(TokenValue.dimension)
        case .number:
            guard let number = literalNumber(node, source) else {
                return fail("a number token's value is a JSON number, not \(node.kindName)", node, source)
            }
            value = .number(number)
        case .fontFamily: value = fontFamily(node, source).map(TokenValue.fontFamily)
        case .fontWeight: value = fontWeight(node, source).map(TokenValue.fontWeight)
        case .duration: value = duration(node, source).map(TokenValue.duration)
        case .cubicBezier: value = cubicBezier(node, source).map(TokenValue.cubicBezier)
        case .strokeStyle: value = strokeStyle(node, source).map(TokenValue.strokeStyle)
        case .border: value = border(node, source).map(TokenValue.border)
        case .transition: value = transition(node, source).map(TokenValue.transition)
        case .shadow: value = shadows(node, source).map(TokenValue.shadow)
        case .gradient: value = gradient(node, source).map(TokenValue.gradient)
        case .typography: value = typography(node, source).map(TokenValue.typography)
        }
        return value.map { Aliased($0) }
    }

    /// A part of a composite: same rules as a whole value, aliases allowed.
    mutating func part<T>(
        _ object: JSONNode, _ key: String, as type: TokenType, _ source: Int, in composite: String,
        _ extract: (TokenValue) -> T?
    ) -> Aliased<T>? {
        guard let node = object[key] else {
            return fail("\(composite) needs '\(key)' (a \(type.rawValue))", object, source)
        }
        guard let value = typed(node, as: type, source: source, aliasAllowed: true), let inner = extract(value.value)
        else { return nil }
        return Aliased(inner, alias: value.alias)
    }

    mutating func only(_ keys: Set<String>, in node: JSONNode, _ source: Int, what: String) -> Bool {
        for member in node.members ?? [] where !keys.contains(member.key) {
            error(
                .tokenValue,
                "\(what) has no property '\(member.key)'; it takes \(keys.sorted().joined(separator: ", "))",
                at: SourceLocation(file: sources[source].file, line: member.line, column: member.column))
            return false
        }
        return true
    }

    /// A plain JSON value, directly or through `$ref` objects (each followed once: a pointer that
    /// leads back to itself is a cycle error, not endless recursion).
    private mutating func literal<T>(_ node: JSONNode, _ source: Int, _ extract: (JSONNode, Int) -> T?) -> T? {
        guard let pointer = pointerObject(node) else { return extract(node, source) }
        guard let (target, targetSource, _) = follow(pointer, in: source) else { return nil }
        pointersInProgress.append(pointer.string ?? "")
        defer { pointersInProgress.removeLast() }
        return literal(target, targetSource, extract)
    }

    mutating func literalNumber(_ node: JSONNode, _ source: Int) -> Double? {
        literal(node, source) { node, _ in node.number }
    }
    mutating func literalString(_ node: JSONNode, _ source: Int) -> String? {
        literal(node, source) { node, _ in node.string }
    }
    mutating func literalArray(_ node: JSONNode, _ source: Int) -> (items: [JSONNode], source: Int)? {
        literal(node, source) { node, source in node.array.map { ($0, source) } }
    }

    private mutating func color(_ node: JSONNode, _ source: Int) -> TokenColor? {
        guard node.members != nil else {
            return fail("a color is an object with colorSpace and components, not \(node.kindName)", node, source)
        }
        guard only(["colorSpace", "components", "alpha", "hex"], in: node, source, what: "a color") else { return nil }
        guard let spaceNode = node["colorSpace"] else {
            return fail("a color needs 'colorSpace', e.g. \"srgb\"", node, source)
        }
        guard let spaceName = literalString(spaceNode, source) else {
            return fail("colorSpace is \(spaceNode.kindName); write a name such as \"srgb\"", spaceNode, source)
        }
        guard let space = ColorSpace(rawValue: spaceName) else {
            return fail(
                "unknown colorSpace '\(spaceName)'; use one of \(ColorSpace.allCases.map(\.rawValue).joined(separator: ", "))",
                spaceNode, source)
        }
        guard let componentsNode = node["components"] else {
            return fail("a color needs 'components', an array of 3 numbers", node, source)
        }
        guard let (items, itemsSource) = literalArray(componentsNode, source) else {
            return fail("components is \(componentsNode.kindName); write an array of 3 numbers", componentsNode, source)
        }
        guard items.count == 3 else {
            return fail("\(space.rawValue) takes 3 components, found \(items.count)", componentsNode, source)
        }
        var components: [Double?] = []
        for (position, item) in items.enumerated() {
            if item.string == "none" {
                components.append(nil)
                continue
            }
            guard let number = literalNumber(item, itemsSource) else {
                return fail("a colour component is a number or \"none\", not \(item.kindName)", item, itemsSource)
            }
            let range = ColorConversion.range(of: space, component: position)
            guard range.contains(number) else {
                return fail(
                    "component \(position + 1) of a \(space.rawValue) colour is \(ValueText.number(number)); it must be in \(range.text)",
                    item, itemsSource)
            }
            components.append(number)
        }
        var alpha = 1.0
        if let alphaNode = node["alpha"] {
            guard let value = literalNumber(alphaNode, source) else {
                return fail("alpha is \(alphaNode.kindName); write a number from 0 to 1", alphaNode, source)
            }
            guard (0...1).contains(value) else {
                return fail("alpha is \(ValueText.number(value)); it must be in [0, 1]", alphaNode, source)
            }
            alpha = value
        }
        var hex: String?
        if let hexNode = node["hex"] {
            guard let text = literalString(hexNode, source) else {
                return fail("hex is \(hexNode.kindName); write \"#rrggbb\"", hexNode, source)
            }
            guard text.count == 7, text.first == "#", text.dropFirst().allSatisfy(\.isHexDigit) else {
                return fail("hex '\(text)' is not 6-digit #rrggbb (alpha goes in 'alpha')", hexNode, source)
            }
            hex = text
        }
        return TokenColor(space: space, components: components, alpha: alpha, hex: hex)
    }

    private mutating func unitValue(_ node: JSONNode, _ source: Int, what: String, units: [String]) -> (Double, String)?
    {
        guard node.members != nil else {
            return fail(
                "a \(what) is an object {\"value\": 16, \"unit\": \"\(units[0])\"}, not \(node.kindName)", node, source)
        }
        guard only(["value", "unit"], in: node, source, what: "a \(what)") else { return nil }
        guard let valueNode = node["value"] else { return fail("a \(what) needs 'value', a number", node, source) }
        guard let value = literalNumber(valueNode, source) else {
            return fail("a \(what)'s value is a number, not \(valueNode.kindName)", valueNode, source)
        }
        guard let unitNode = node["unit"] else {
            return fail("a \(what) needs 'unit', one of \(units.joined(separator: ", "))", node, source)
        }
        guard let unit = literalString(unitNode, source), units.contains(unit) else {
            return fail(
                "a \(what)'s unit is one of \(units.joined(separator: ", ")), not \(unitNode.string.map { "'\($0)'" } ?? unitNode.kindName)",
                unitNode, source)
        }
        return (value, unit)
    }

    private mutating func dimension(_ node: JSONNode, _ source: Int) -> Dimension? {
        guard let (value, unit) = unitValue(node, source, what: "dimension", units: ["px", "rem"]) else { return nil }
        return Dimension(value, DimensionUnit(rawValue: unit) ?? .px)
    }

    private mutating func duration(_ node: JSONNode, _ source: Int) -> Duration? {
        guard let (value, unit) = unitValue(node, source, what: "duration", units: ["ms", "s"]) else { return nil }
        return Duration(value: value, unit: DurationUnit(rawValue: unit) ?? .ms)
    }

    private mutating func fontFamily(_ node: JSONNode, _ source: Int) -> [String]? {
        if let name = node.string { return [name] }
        guard let (items, itemsSource) = literalArray(node, source), !items.isEmpty else {
            return fail("a font family is a name or a non-empty array of names, not \(node.kindName)", node, source)
        }
        var names: [String] = []
        for item in items {
            guard let name = literalString(item, itemsSource) else {
                return fail("font family names are strings, not \(item.kindName)", item, itemsSource)
            }
            names.append(name)
        }
        return names
    }

    private mutating func fontWeight(_ node: JSONNode, _ source: Int) -> Double? {
        if let number = node.number {
            guard (1...1000).contains(number) else {
                return fail("a font weight is from 1 to 1000, not \(ValueText.number(number))", node, source)
            }
            return number
        }
        if let keyword = node.string {
            guard let number = FontWeightKeyword.values[keyword] else {
                return fail(
                    "'\(keyword)' is not a font weight; use a number 1-1000 or one of \(FontWeightKeyword.values.keys.sorted().joined(separator: ", ")) (lower case)",
                    node, source)
            }
            return number
        }
        return fail("a font weight is a number or a keyword, not \(node.kindName)", node, source)
    }

    private mutating func cubicBezier(_ node: JSONNode, _ source: Int) -> [Double]? {
        guard let (items, itemsSource) = literalArray(node, source) else {
            return fail("a cubicBezier is an array of 4 numbers, not \(node.kindName)", node, source)
        }
        guard items.count == 4 else {
            return fail("a cubicBezier has 4 numbers [x1, y1, x2, y2], found \(items.count)", node, source)
        }
        var numbers: [Double] = []
        for (position, item) in items.enumerated() {
            guard let number = literalNumber(item, itemsSource) else {
                return fail("cubicBezier values are numbers, not \(item.kindName)", item, itemsSource)
            }
            if position % 2 == 0, !(0...1).contains(number) {
                return fail(
                    "x\(position / 2 + 1) of a cubicBezier is \(ValueText.number(number)); x values must be in [0, 1]",
                    item, itemsSource)
            }
            numbers.append(number)
        }
        return numbers
    }
}
