/// The canonical JSON of a resolved theme (section 6.1 of the format): what `livery dump` prints
/// for a theme folder and for a compiled file alike.
public enum CanonicalJSON {
    /// `textScale` sizes every font as applied at that text scale (section 7.2).
    public static func dump(_ theme: ResolvedTheme, scale: Int = 1, textScale: Double = TextScale.standard) -> String {
        document(theme, scale: scale, textScale: textScale).rendered() + "\n"
    }

    public static func document(_ theme: ResolvedTheme, scale: Int = 1, textScale: Double = TextScale.standard)
        -> JSONValue
    {
        let instances = theme.instances.map { instance -> (String, JSONValue) in
            let operations = instance.operations.map { operation -> JSONValue in
                .object([
                    ("name", .string(operation.name)),
                    ("state", .string(operation.state.rawValue)),
                    (
                        "params",
                        .object(
                            operation.params.map {
                                ($0.name, value($0.value, theme: theme, scale: scale, textScale: textScale))
                            })
                    ),
                ])
            }
            return (
                instance.id,
                .object([
                    ("component", .string(instance.component)),
                    ("operations", .array(operations)),
                ])
            )
        }
        return .object([
            ("id", .string(theme.info.id)),
            ("name", .string(theme.info.name)),
            ("version", .string(theme.info.version)),
            ("parent", theme.info.parent.map(JSONValue.string) ?? .null),
            ("traits", .array(theme.dimensions.tags(of: theme.traits).map(JSONValue.string))),
            ("scale", .integer(Int64(scale))),
            ("instances", .object(instances)),
        ])
    }

    /// A value as a one-key object naming its type, e.g. `{"color": "#FF0000FF"}`.
    public static func value(
        _ value: Value, theme: ResolvedTheme, scale: Int,
        textScale: Double = TextScale.standard
    ) -> JSONValue {
        .object([(value.type.rawValue, payload(value, theme: theme, scale: scale, textScale: textScale))])
    }

    private static func payload(_ value: Value, theme: ResolvedTheme, scale: Int, textScale: Double) -> JSONValue {
        func numbers(_ values: Double...) -> JSONValue { .array(values.map(JSONValue.number)) }
        switch value {
        case .float(let number): return .number(number)
        case .integer(let number): return .integer(number)
        case .bool(let flag): return .bool(flag)
        case .string(let text), .enumeration(let text): return .string(text)
        case .color(let color): return .string(color.hexString)
        case .point(let point): return numbers(point.x, point.y)
        case .size(let size): return numbers(size.width, size.height)
        case .rect(let rect): return numbers(rect.x, rect.y, rect.width, rect.height)
        case .insets(let insets): return numbers(insets.top, insets.left, insets.bottom, insets.right)
        case .font(let font):
            var fields: [(String, JSONValue)] = [
                ("family", .string(font.family)),
                ("size", font.appliedSize(textScale: textScale).map(JSONValue.number) ?? .null),
                ("weight", .string(font.weight.rawValue)),
            ]
            // Only where the source gives them (section 7.2), so 1.0 themes dump as before.
            if let maxSize = font.maxSize { fields.append(("maxSize", .number(maxSize))) }
            if let scaling = font.scaling { fields.append(("scaling", .string(scaling.rawValue))) }
            // Format 1.2 (section 8): only where given, 0 included; spacing as applied.
            if let spacing = font.appliedLetterSpacing(textScale: textScale) {
                fields.append(("letterSpacing", .number(spacing)))
            }
            if let lineHeight = font.lineHeight { fields.append(("lineHeight", .number(lineHeight))) }
            return .object(fields)
        case .image(let image):
            let file = theme.assets.select(image.name, traits: theme.traits, scale: scale)
            return .object([
                ("name", .string(image.name)),
                ("cache", .bool(image.cache)),
                ("theme", file.map { .string($0.themeID) } ?? .null),
                ("file", file.map { .string($0.file) } ?? .null),
            ])
        case .array(let items):
            return .array(items.map { Self.value($0, theme: theme, scale: scale, textScale: textScale) })
        }
    }
}
