import Foundation
import LiveryModel

/// A theme constant as `tokens import` writes it: a literal or a reference to another constant.
public struct ThemeConstant: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        case literal(Value)
        case reference(String)
    }

    public var name: String
    public var type: ValueType
    public var content: Content
    /// The token's `$description` (and deprecation), written as an XML comment above it.
    public var comment: String?
    /// A colour's modifiers (format 1.3, section 9.1), from a Tokens Studio modifier.
    public var derivation: ColorDerivationAttributes?
    /// `overridable="true"` (format 1.3, section 9.2).
    public var overridable = false

    public init(name: String, type: ValueType, content: Content, comment: String? = nil) {
        self.name = name
        self.type = type
        self.content = content
        self.comment = comment
    }

    /// The constant's element, e.g. `<float name="space.small">8</float>`.
    public var element: String {
        let open =
            "<\(type.rawValue) name=\"\(MarkupText.escaped(name))\""
            + (overridable ? " overridable=\"true\"" : "") + (derivation?.text ?? "")
        switch content {
        case .reference(let target):
            return open + " ref=\"\(MarkupText.escaped(target))\"/>"
        case .literal(let value):
            switch value {
            case .color(let color):
                let parts = [color.red, color.green, color.blue, color.alpha].map { XMLText.number($0) }
                return open + " format=\"rgba\">\(parts.joined(separator: ","))</color>"
            case .font(let font):
                var attributes = " family=\"\(MarkupText.escaped(font.family))\""
                if let size = font.size { attributes += " size=\"\(XMLText.number(size))\"" }
                if font.weight != .regular { attributes += " weight=\"\(font.weight.rawValue)\"" }
                if let spacing = font.letterSpacing { attributes += " letter-spacing=\"\(XMLText.number(spacing))\"" }
                if let lineHeight = font.lineHeight { attributes += " line-height=\"\(XMLText.number(lineHeight))\"" }
                return open + attributes + "/>"
            case .float(let number): return open + ">\(XMLText.number(number))</float>"
            case .integer(let number): return open + ">\(number)</integer>"
            case .bool(let flag): return open + ">\(flag)</bool>"
            case .string(let text): return open + ">\(MarkupText.escaped(text))</string>"
            case .enumeration(let word): return open + ">\(word)</enum>"
            default: return open + "/>"
            }
        }
    }
}

/// Text for XML files: numbers and comments (escaping is `MarkupText`).
enum XMLText {
    /// Six decimals at most: enough for any colour channel or point size, and stable when a theme
    /// is exported and imported again.
    static func number(_ value: Double) -> String {
        let rounded = (value * 1_000_000).rounded() / 1_000_000
        return JSONValue.format(rounded == 0 ? 0 : rounded)
    }

    /// A comment's text cannot hold `--`.
    static func comment(_ text: String) -> String {
        var cleaned = text.replacingOccurrences(of: "--", with: "- -")
        if cleaned.hasSuffix("-") { cleaned += " " }
        return cleaned
    }
}
