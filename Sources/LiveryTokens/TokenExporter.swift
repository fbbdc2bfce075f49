import LiveryModel

/// A theme constant to export: its resolved value and, when it is a reference, the constant it names.
public struct ExportedConstant: Hashable, Sendable {
    public var name: String
    public var value: Value
    public var reference: String?
    /// A derived colour's modifier as Tokens Studio writes it, and the constant the colour
    /// starts from (nil: its own colour); `value` is the resolved colour (format 1.3, 9.3).
    public var modifier: StudioModifier?
    public var modifierBase: String?
    /// `overridable="true"` (format 1.3, section 9.2), kept in Livery's `$extensions` record.
    public var overridable = false
    public init(name: String, value: Value, reference: String?) {
        self.name = name
        self.value = value
        self.reference = reference
    }
}

/// Theme constants to DTCG JSON: `$type` on every token, references kept as aliases.
public struct TokenExporter {
    public static let formatSchema = "https://www.designtokens.org/schemas/2025.10/format.json"
    public static let resolverSchema = "https://www.designtokens.org/schemas/2025.10/resolver.json"

    /// Constants with no DTCG type (bool, string, geometry, image, array, non-weight enum), by type.
    public private(set) var skipped: [(type: String, name: String)] = []

    public init() {}

    /// The DTCG type and `$value` of a literal, or nil when the format has no type for it.
    static func token(_ value: Value) -> (TokenType, JSONValue)? {
        switch value {
        case .color(let color):
            var members: [(String, JSONValue)] = [
                ("colorSpace", .string("srgb")),
                ("components", .array([color.red, color.green, color.blue].map { .number(Self.round($0)) })),
            ]
            if color.alpha != 1 { members.append(("alpha", .number(Self.round(color.alpha)))) }
            members.append(("hex", .string("#" + color.hexString.dropFirst().prefix(6).lowercased())))
            return (.color, .object(members))
        case .float(let number):
            return (.dimension, .object([("value", .number(Self.round(number))), ("unit", .string("px"))]))
        case .integer(let number):
            return (.number, .integer(number))
        case .font(let font):
            // Format 1.2, section 8: a font with only a family is a fontFamily; one with a size or
            // typography a typography, a missing member written as its neutral value (recorded
            // by `extensions(_:)`).
            guard font.size != nil || font.letterSpacing != nil || font.lineHeight != nil else {
                return (.fontFamily, .string(font.family))
            }
            return (
                .typography,
                .object([
                    ("fontFamily", .string(font.family)),
                    ("fontSize", Self.pixels(font.size ?? 0)),
                    ("fontWeight", .number(TokenImporter.number(of: font.weight))),
                    ("letterSpacing", Self.pixels(font.letterSpacing ?? 0)),
                    ("lineHeight", .number(Self.round(font.lineHeight ?? 1))),
                ])
            )
        case .enumeration(let word):
            guard let weight = FontWeight(rawValue: word) else { return nil }
            return (.fontWeight, .number(TokenImporter.number(of: weight)))
        // No DTCG type holds these: the exporter reports them as skipped.
        case .bool, .string, .point, .size, .rect, .insets, .image, .array:
            return nil
        }
    }

    private static func round(_ value: Double) -> Double {
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        return rounded == 0 ? 0 : rounded
    }

    private static func pixels(_ value: Double) -> JSONValue {
        .object([("value", .number(Self.round(value))), ("unit", .string("px"))])
    }

    /// The token's `$extensions`: for a typography token, the members its font lacks
    /// (`TypographyExtension`); nil for everything else.
    static func extensions(_ value: Value) -> JSONValue? {
        guard case .font(let font) = value, token(value)?.0 == .typography else { return nil }
        var absent: [String] = []
        if font.letterSpacing == nil { absent.append("letterSpacing") }
        if font.lineHeight == nil { absent.append("lineHeight") }
        return TypographyExtension.extensions(absent: absent)
    }

    /// The token path of a constant name: its `.`-separated segments, plus `$root` when other
    /// names continue it (`brand` beside `brand.dark` is `brand.$root`) or `roots` holds it.
    static func paths(_ names: [String], roots: Set<String> = []) -> [String: [String]] {
        // Every group a name opens ("a" and "a.b" for "a.b.c"): a name that is one is a $root.
        var groups = Set<Substring>()
        for name in names {
            var end = name.startIndex
            while let dot = name[end...].firstIndex(of: ".") {
                groups.insert(name[..<dot])
                end = name.index(after: dot)
            }
        }
        var result: [String: [String]] = [:]
        for name in names {
            var path = name.split(separator: ".", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "_" : String($0)
            }
            if groups.contains(Substring(name)) || roots.contains(name) { path.append("$root") }
            result[name] = path
        }
        return result
    }

    /// The DTCG document of `constants` (sorted by name). `elsewhere` are constants written to
    /// another file of the same resolver (a layer's file refers to the base file's tokens).
    /// `roots` names constants that were `$root` tokens when imported (`TokenRoots`): they are
    /// written as `$root` again even where no other name continues them. `numbers` names float
    /// constants that were `number` tokens (`TokenRoots.numbers`): they are `number` again, not
    /// a `dimension` in px.
    public mutating func document(
        _ constants: [ExportedConstant], elsewhere: [ExportedConstant] = [],
        roots: Set<String> = [], numbers: Set<String> = []
    ) -> JSONValue {
        let sorted = constants.sorted { $0.name < $1.name }
        let byName = Dictionary(
            (sorted + elsewhere.filter { Self.token($0.value) != nil }).map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first })
        var tokens: [([String], JSONValue)] = []
        var exported: [ExportedConstant] = []
        for constant in sorted {
            guard Self.token(constant.value) != nil else {
                skipped.append((constant.value.type.rawValue, constant.name))
                continue
            }
            exported.append(constant)
        }
        let paths = Self.paths(Array(byName.keys), roots: roots)
        for constant in exported {
            guard var (type, literal) = Self.token(constant.value), let path = paths[constant.name] else { continue }
            if case .float(let number) = constant.value, numbers.contains(constant.name) {
                (type, literal) = (.number, .number(Self.round(number)))
            }
            var value = literal
            var members: [(String, JSONValue)] = []
            var livery: [(String, JSONValue)] = []
            if constant.overridable { livery.append(("overridable", .bool(true))) }
            if let modifier = constant.modifier {
                // The resolved colour as $value; the modifier, and what it starts from, beside it.
                func alias(_ name: String) -> String? { paths[name].map { "{" + $0.joined(separator: ".") + "}" } }
                var modify: [(String, JSONValue)] = [
                    ("type", .string(modifier.kind.rawValue)), ("value", .string(JSONValue.format(modifier.value))),
                    ("space", .string(modifier.space?.rawValue ?? "p3")),
                ]
                if let color = modifier.color { modify.append(("color", .string(alias(color) ?? color))) }
                var extensions: [(String, JSONValue)] = [
                    (StudioModifier.vendor, .object([("modify", .object(modify))]))
                ]
                if let base = constant.modifierBase, let path = alias(base) { livery.append(("base", .string(path))) }
                if !livery.isEmpty { extensions.append((TypographyExtension.vendor, .object(livery))) }
                members.append(("$extensions", .object(extensions)))
            } else if !livery.isEmpty {
                members.append(("$extensions", .object([(TypographyExtension.vendor, .object(livery))])))
            }
            if constant.modifier != nil {
            } else if let target = constant.reference, let targetPath = paths[target], byName[target] != nil {
                value = .string("{" + targetPath.joined(separator: ".") + "}")
            } else if let extensions = Self.extensions(constant.value) {
                members.append(("$extensions", extensions))
            }
            tokens.append((path, .object([("$type", .string(type.rawValue)), ("$value", value)] + members)))
        }
        return .object([("$schema", .string(Self.formatSchema))] + Self.tree(tokens))
    }

    /// Nests `(path, token)` pairs into groups, keeping first-seen order.
    static func tree(_ tokens: [([String], JSONValue)]) -> [(String, JSONValue)] {
        var order: [String] = []
        var seen = Set<String>()
        var leaves: [String: JSONValue] = [:]
        var children: [String: [([String], JSONValue)]] = [:]
        for (path, token) in tokens {
            let head = path[0]
            if seen.insert(head).inserted { order.append(head) }
            if path.count == 1 {
                leaves[head] = token
            } else {
                children[head, default: []].append((Array(path.dropFirst()), token))
            }
        }
        return order.map { head in
            if let leaf = leaves[head] { return (head, leaf) }
            return (head, .object(tree(children[head] ?? [])))
        }
    }

    /// The warning listing constants left out of the export (one finding).
    public var skippedWarning: Diagnostic? {
        guard !skipped.isEmpty else { return nil }
        var byType: [String: [String]] = [:]
        for (type, name) in skipped where !(byType[type]?.contains(name) ?? false) {
            byType[type, default: []].append(name)
        }
        let list = byType.keys.sorted().map { "\($0) (\(byType[$0]!.joined(separator: ", ")))" }.joined(separator: "; ")
        return .warning(.tokenSkipped, "skipped constants of types DTCG has no token type for: \(list)", at: nil)
    }

    /// The resolver document for exported layers: a `base` set, and one modifier per trait
    /// dimension of the table (named like it: `appearance`, `textSize`, an app's `density`) whose
    /// contexts, named like the values, add that layer's file.
    public static func resolver(
        name: String, baseFile: String, layers: [(traits: TraitSet, file: String)],
        dimensions: TraitDimensions = .standard
    ) -> JSONValue {
        var modifiers: [(String, JSONValue)] = []
        for (index, dimension) in dimensions.all.enumerated() {
            let contexts = layers.compactMap { layer in
                layer.traits[index].map { (dimension.values[$0], layer.file) }
            }
            guard !contexts.isEmpty else { continue }
            let members: [(String, JSONValue)] =
                [("default", .array([]))]
                + contexts.map { context, file in
                    (context, .array([.object([("$ref", .string(file))])]))
                }
            modifiers.append(
                (dimension.name, .object([("contexts", .object(members)), ("default", .string("default"))])))
        }
        return .object([
            ("$schema", .string(resolverSchema)),
            ("name", .string(name)),
            ("version", .string("2025.10")),
            ("sets", .object([("base", .object([("sources", .array([.object([("$ref", .string(baseFile))])]))]))])),
            ("modifiers", .object(modifiers)),
            (
                "resolutionOrder",
                .array(
                    [.object([("$ref", .string("#/sets/base"))])]
                        + modifiers.map { .object([("$ref", .string("#/modifiers/\($0.0)"))]) })
            ),
        ])
    }
}
