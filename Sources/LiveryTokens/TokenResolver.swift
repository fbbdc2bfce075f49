import LiveryModel

/// A token whose value was resolved and validated against its type.
public struct ResolvedToken: Sendable {
    public var raw: RawToken
    public var type: TokenType
    public var value: TokenValue
    /// The token path this token's whole value aliases (`{a.b}`, or a `$ref` to `#/a/b/$value`).
    public var alias: [String]?
    public var path: [String] { raw.path }
}

/// Resolves aliases (`{group.token}`) and JSON Pointer references (`$ref`) and validates every
/// value against its type (sections 7-9). Every problem is one located diagnostic; a token with
/// one is left out, so nothing invalid reaches a theme.
public struct TokenResolver {
    public let sources: [TokenSource]
    private var tokens: [RawToken] = []
    private var byKey: [String: Int] = [:]
    private var results: [Int: ResolvedToken?] = [:]
    private var inProgress: [Int] = []
    private var pointersInProgress: [String] = []
    public private(set) var diagnostics: [Diagnostic] = []
    /// Tokens that aliases used, for `$deprecated` warnings at the place of use.
    private var reportedDeprecations: Set<String> = []

    /// How many aliases in a row a token may be reached through.
    public static let maxAliasDepth = 256

    public init(sources: [TokenSource], tokens: [RawToken]) {
        self.sources = sources
        for token in tokens {
            if let existing = byKey[token.key] {
                self.tokens[existing] = token
            } else {
                byKey[token.key] = self.tokens.count
                self.tokens.append(token)
            }
        }
    }

    /// Parses every source, merges them in order (a later file's token replaces an earlier one
    /// with the same path) and resolves the result.
    public static func resolve(_ sources: [TokenSource]) -> (tokens: [ResolvedToken], diagnostics: [Diagnostic]) {
        var raw: [RawToken] = []
        var diagnostics: [Diagnostic] = []
        for (index, source) in sources.enumerated() {
            var parser = TokenParser(source: source, sourceIndex: index)
            raw += parser.parse()
            diagnostics += parser.diagnostics
        }
        var resolver = TokenResolver(sources: sources, tokens: raw)
        let resolved = resolver.resolveAll()
        return (resolved, diagnostics + resolver.diagnostics)
    }

    public mutating func resolveAll() -> [ResolvedToken] {
        (0..<tokens.count).compactMap { resolve($0) }
    }

    private mutating func error(_ code: DiagnosticCode, _ message: String, at: SourceLocation) {
        diagnostics.append(.error(code, message, at: at))
    }

    private func location(_ node: JSONNode, in source: Int) -> SourceLocation {
        SourceLocation(file: sources[source].file, line: node.line, column: node.column)
    }

    // MARK: - Tokens

    private mutating func resolve(_ index: Int) -> ResolvedToken? {
        if let done = results[index] { return done }
        let token = tokens[index]
        if let start = inProgress.firstIndex(of: index) {
            let cycle = (inProgress[start...] + [index]).map { tokens[$0].key }.joined(separator: " -> ")
            error(.tokenReferenceCycle, "token '\(token.key)' refers to itself: \(cycle)", at: token.location)
            return nil
        }
        // A chain of aliases longer than this is refused rather than followed (each link is a
        // level of recursion, and a hostile file could hold a chain as long as its size allows).
        guard inProgress.count < Self.maxAliasDepth else {
            error(
                .tokenReferenceCycle,
                "token '\(token.key)' is reached through more than \(Self.maxAliasDepth) aliases in a row; shorten the chain",
                at: token.location)
            results[index] = .some(nil)
            return nil
        }
        inProgress.append(index)
        defer { inProgress.removeLast() }
        let result = compute(token)
        results[index] = result
        return result
    }

    private mutating func compute(_ token: RawToken) -> ResolvedToken? {
        if let pointer = token.pointer {
            guard let (target, source, aliasPath) = follow(pointer, in: token.source) else { return nil }
            var type = token.type
            // A pointer to another token's whole $value may leave the type to that token.
            if type == nil, let aliasPath, let index = byKey[aliasPath.joined(separator: ".")] {
                type = resolve(index)?.type
            }
            guard let type else {
                error(
                    .tokenType, "token '\(token.key)' has no $type and its group gives none; add \"$type\"",
                    at: token.location)
                return nil
            }
            pointersInProgress.append(pointer.string ?? "")
            defer { pointersInProgress.removeLast() }
            guard let value = typed(target, as: type, source: source, aliasAllowed: true) else { return nil }
            return ResolvedToken(raw: token, type: type, value: value.value, alias: aliasPath ?? value.alias)
        }
        guard let node = token.value else { return nil }
        if let aliasPath = Self.aliasPath(node) {
            guard let target = targetToken(aliasPath, at: location(node, in: token.source)) else { return nil }
            if let type = token.type, type != target.type {
                error(
                    .tokenReferenceType,
                    "token '\(token.key)' is a \(type.rawValue) but aliases '\(target.raw.key)', a \(target.type.rawValue)",
                    at: location(node, in: token.source))
                return nil
            }
            return ResolvedToken(raw: token, type: target.type, value: target.value, alias: target.path)
        }
        guard let type = token.type else {
            error(
                .tokenType, "token '\(token.key)' has no $type and its group gives none; add \"$type\"",
                at: token.location)
            return nil
        }
        guard let value = typed(node, as: type, source: token.source, aliasAllowed: false) else { return nil }
        return ResolvedToken(raw: token, type: type, value: value.value, alias: nil)
    }

    /// `{a.b.c}` as a path, or nil when the string is not an alias at all. A string that starts
    /// with `{` but is not a well-formed alias is reported where it is typed.
    static func aliasPath(_ node: JSONNode) -> [String]? {
        guard let text = node.string, text.count > 2, text.hasPrefix("{"), text.hasSuffix("}") else { return nil }
        let inner = text.dropFirst().dropLast()
        let parts = inner.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard
            parts.allSatisfy({ part in
                !part.isEmpty && !part.contains("{") && !part.contains("}") && part.first?.isWhitespace != true
                    && part.last?.isWhitespace != true
            })
        else { return nil }
        return parts
    }

    private mutating func targetToken(_ path: [String], at: SourceLocation) -> ResolvedToken? {
        let key = path.joined(separator: ".")
        guard let index = byKey[key] else {
            let parent = byKey.keys.first { key.hasPrefix($0 + ".") }
            let why =
                parent.map {
                    "; '\($0)' is a token, and aliases cannot reach into a token's value (use a $ref JSON Pointer)"
                } ?? ""
            error(.tokenReference, "the alias {\(key)} names no token\(why)", at: at)
            return nil
        }
        guard let target = resolve(index) else {
            if inProgress.contains(index) { return nil }
            error(.tokenReference, "the alias {\(key)} names a token that is itself invalid", at: at)
            return nil
        }
        if let message = tokens[index].deprecated, reportedDeprecations.insert("\(at)").inserted {
            diagnostics.append(
                .warning(.tokenDeprecated, "'\(key)' is deprecated\(message.isEmpty ? "" : ": \(message)")", at: at))
        }
        return target
    }

    // MARK: - JSON Pointers

    /// The node a `$ref` names, the source it is in, and (when it names a token's whole `$value`)
    /// that token's path.
    private mutating func follow(_ pointer: JSONNode, in source: Int) -> (JSONNode, Int, [String]?)? {
        let at = location(pointer, in: source)
        guard let text = pointer.string else {
            error(
                .tokenReference,
                "$ref is \(pointer.kindName); write a JSON Pointer string such as \"#/colors/blue/$value\"", at: at)
            return nil
        }
        guard text.hasPrefix("#/"), text.count > 2 else {
            error(
                .tokenReference,
                "'\(text)' is not a JSON Pointer into this file; write \"#/\" then the path, e.g. \"#/colors/blue/$value\"",
                at: at)
            return nil
        }
        if pointersInProgress.contains(text) {
            error(.tokenReferenceCycle, "the JSON Pointer '\(text)' leads back to itself", at: at)
            return nil
        }
        guard pointersInProgress.count < Self.maxAliasDepth else {
            error(
                .tokenReferenceCycle,
                "'\(text)' is reached through more than \(Self.maxAliasDepth) JSON Pointers in a row; shorten the chain",
                at: at)
            return nil
        }
        let segments = text.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map(
            JSONPointer.unescape)
        var node = sources[source].root
        var insideValue = false
        var tokenPath: [String] = []
        var walked: [String] = []
        for (position, segment) in segments.enumerated() {
            walked.append(segment)
            if let members = node.members {
                if !insideValue, segment.hasPrefix("$"), segment != "$value", segment != "$root" {
                    error(
                        .tokenReference, "'\(text)' points at \(segment), metadata; point at a token's $value", at: at)
                    return nil
                }
                guard let next = members.first(where: { $0.key == segment })?.value else {
                    error(
                        .tokenReference,
                        "'\(text)' names nothing: there is no '\(segment)' at #/\(walked.dropLast().joined(separator: "/"))",
                        at: at)
                    return nil
                }
                if !insideValue {
                    if segment == "$value" {
                        insideValue = true
                        if position == segments.count - 1 {
                            node = next
                            return (node, source, tokenPath)
                        }
                    } else {
                        tokenPath.append(segment)
                    }
                }
                node = next
            } else if let items = node.array, insideValue {
                guard let number = Int(segment), number >= 0, String(number) == segment, number < items.count else {
                    error(
                        .tokenReference,
                        "'\(text)' uses '\(segment)' as an index into an array of \(items.count); write 0 to \(items.count - 1)",
                        at: at)
                    return nil
                }
                node = items[number]
            } else {
                error(
                    .tokenReference,
                    "'\(text)' names nothing: #/\(walked.dropLast().joined(separator: "/")) is \(node.kindName)", at: at
                )
                return nil
            }
        }
        guard insideValue else {
            let what = Self.isTokenNode(node) ? "a token" : "a group"
            error(
                .tokenReference,
                "'\(text)' points at \(what), not a value; end the pointer at the token's /$value (or inside it)",
                at: at)
            return nil
        }
        return (node, source, nil)
    }

    static func isTokenNode(_ node: JSONNode) -> Bool { node.member("$value") != nil || node.member("$ref") != nil }

    /// Resolves a `{"$ref": ...}` object found inside a value.
    private mutating func pointerObject(_ node: JSONNode) -> JSONNode? {
        guard let members = node.members, members.count == 1, members[0].key == "$ref" else { return nil }
        return members[0].value
    }

    // MARK: - Typed values

    private mutating func fail<T>(_ message: String, _ node: JSONNode, _ source: Int) -> T? {
        error(.tokenValue, message, at: location(node, in: source))
        return nil
    }

    /// A value of `type` at `node`: literal, `$ref` object, or (where the format allows one) an alias.
    private mutating func typed(_ node: JSONNode, as type: TokenType, source: Int, aliasAllowed: Bool) -> Aliased<
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
    private mutating func part<T>(
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

    private mutating func only(_ keys: Set<String>, in node: JSONNode, _ source: Int, what: String) -> Bool {
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

    private mutating func literalNumber(_ node: JSONNode, _ source: Int) -> Double? {
        literal(node, source) { node, _ in node.number }
    }
    private mutating func literalString(_ node: JSONNode, _ source: Int) -> String? {
        literal(node, source) { node, _ in node.string }
    }
    private mutating func literalArray(_ node: JSONNode, _ source: Int) -> (items: [JSONNode], source: Int)? {
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

    static let strokeKeywords: Set<String> = [
        "solid", "dashed", "dotted", "double", "groove", "ridge", "outset", "inset",
    ]

    private mutating func strokeStyle(_ node: JSONNode, _ source: Int) -> StrokeStyle? {
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

    private mutating func border(_ node: JSONNode, _ source: Int) -> Border? {
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

    private mutating func transition(_ node: JSONNode, _ source: Int) -> Transition? {
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

    private mutating func shadows(_ node: JSONNode, _ source: Int) -> [Shadow]? {
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

    private mutating func gradient(_ node: JSONNode, _ source: Int) -> [GradientStop]? {
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

    private mutating func typography(_ node: JSONNode, _ source: Int) -> Typography? {
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
