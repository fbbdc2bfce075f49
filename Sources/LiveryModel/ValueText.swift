/// Values in one line of text: the one way `explain`, `diff`, the preview page, the runtime's
/// `StyleChange` (what `onChange` observers print) and findings print a value.
///
/// Every number, string and colour is spelled as `livery dump` spells it (`JSONValue.format`,
/// a JSON string literal, `#RRGGBBAA`), so a value reads the same in a dump and in the line
/// that explains it. Only the shape differs, and must: a dump is a JSON document whose bytes the
/// format fixes (section 6.1), with a font's size at the dumped text scale and an image's chosen
/// file, while this is one line about the value as the theme resolved it:
/// `#FF3B30FF`, `"Send"`, `Helvetica Neue 16 semibold`, `0, 0, 375, 44`.
public enum ValueText {
    public static func describe(_ value: Value) -> String {
        switch value {
        case .float(let number): return self.number(number)
        case .integer(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .string(let text): return JSONValue.string(text).rendered(pretty: false)
        case .enumeration(let text): return text
        case .color(let color): return color.hexString
        case .point(let point): return numbers(point.x, point.y)
        case .size(let size): return numbers(size.width, size.height)
        case .rect(let rect): return numbers(rect.x, rect.y, rect.width, rect.height)
        case .insets(let insets): return numbers(insets.top, insets.left, insets.bottom, insets.right)
        case .font(let font):
            var words = [font.family, font.size.map(number) ?? "default size", font.weight.rawValue]
            if let maxSize = font.maxSize { words.append("max " + number(maxSize)) }
            if let scaling = font.scaling { words.append(scaling.rawValue) }
            if let spacing = font.letterSpacing { words.append("spacing " + number(spacing)) }
            if let lineHeight = font.lineHeight { words.append("line-height " + number(lineHeight)) }
            return words.joined(separator: " ")
        case .image(let image): return image.name + (image.cache ? " (cached)" : "")
        case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        }
    }

    /// `color #FF3B30FF` for one param, `color=#.. radius=8` for several.
    public static func describe(_ params: [Param]) -> String {
        if params.count == 1 { return params[0].value.type.rawValue + " " + describe(params[0].value) }
        return params.map { "\($0.name)=\(describe($0.value))" }.joined(separator: " ")
    }

    /// A number as a dump prints it: `8` rather than `8.0`.
    public static func number(_ value: Double) -> String { JSONValue.format(value) }

    private static func numbers(_ values: Double...) -> String { values.map(number).joined(separator: ", ") }
}
