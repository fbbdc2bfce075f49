import LiveryModel

/// Values as a designer reads them, in one line: `#FF3B30FF`, `Helvetica Neue 16 semibold`,
/// `0, 0, 375, 44`. Used by `explain`, `diff` and the preview page alike.
public enum ValueText {
    public static func describe(_ value: Value) -> String {
        switch value {
        case .float(let number): return number_(number)
        case .integer(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .string(let text): return "\"" + text + "\""
        case .enumeration(let text): return text
        case .color(let color): return color.hexString
        case .point(let point): return "\(number_(point.x)), \(number_(point.y))"
        case .size(let size): return "\(number_(size.width)), \(number_(size.height))"
        case .rect(let rect): return "\(number_(rect.x)), \(number_(rect.y)), \(number_(rect.width)), \(number_(rect.height))"
        case .insets(let insets):
            return "\(number_(insets.top)), \(number_(insets.left)), \(number_(insets.bottom)), \(number_(insets.right))"
        case .font(let font):
            return [font.family, font.size.map(number_) ?? "default size", font.weight.rawValue].joined(separator: " ")
        case .image(let image): return image.name + (image.cache ? " (cached)" : "")
        case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        }
    }

    /// `color #FF3B30FF` for one param, `color=#.. radius=8` for several.
    public static func describe(_ params: [Param]) -> String {
        if params.count == 1 { return params[0].value.type.rawValue + " " + describe(params[0].value) }
        return params.map { "\($0.name)=\(describe($0.value))" }.joined(separator: " ")
    }

    /// `8` rather than `8.0`; at most four decimals.
    static func number_(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String((value * 10_000).rounded() / 10_000)
    }
}
