import LiveryModel

/// A colour's text in the notations a theme file writes (`hex`, `rgb`, `rgba`), read and
/// written the same way by every tool that edits a file in place (the studio, the language
/// server's colour picker): a new value keeps the old text's notation.
public enum ColorNotation {
    /// The colour a `<color>` element's text means in `format` (`hex` when nil); nil when invalid.
    public static func color(_ text: String, format: String?) -> Color? {
        if case .success(let color) = ValueSyntax.color(text.trimmingBlanks, format: format) { return color }
        return nil
    }

    /// A colour given as `#RRGGBB[AA]` in the notation of `format`, written like `old`: hex keeps
    /// the old text's letter case and stays short (`#RGB`, `#RGBA`) when the colour fits; rgb and
    /// rgba keep its separator. Nil when `hex` is not `#RRGGBB` or `#RRGGBBAA`.
    public static func text(_ hex: String, format: String, like old: String) -> String? {
        guard let color = parseHex(hex) else { return nil }
        switch format {
        case "rgb", "rgba":
            var parts = [color.red, color.green, color.blue].map { component(Double($0) / 255) }
            if format == "rgba" { parts.append(component(Double(color.alpha) / 255)) }
            let separator = old.contains(", ") ? ", " : ","
            return parts.joined(separator: separator)
        default:
            let lower =
                old.contains(where: { "abcdef".contains($0) }) && !old.contains(where: { "ABCDEF".contains($0) })
            var digits = [color.red, color.green, color.blue].map { byteHex($0) }
            if color.alpha != 255 || old.count == 9 { digits.append(byteHex(color.alpha)) }
            // Short notation stays short when every channel is a doubled digit.
            var text = "#" + digits.joined()
            if old.count == 4 || old.count == 5, digits.allSatisfy({ $0.first == $0.last }),
                digits.count == 3 || old.count == 5
            {
                text = "#" + digits.map { String($0.first!) }.joined()
            }
            return lower ? text.lowercased() : text
        }
    }

    /// `#RRGGBBAA` (upper case) of a colour, each channel `round(c * 255)`.
    public static func hex(_ color: Color) -> String { color.hexString }

    static func parseHex(_ text: String) -> (red: Int, green: Int, blue: Int, alpha: Int)? {
        let digits = Array(text.hasPrefix("#") ? text.dropFirst() : Substring(text))
        guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit) else { return nil }
        func byte(_ index: Int) -> Int { Int(String(digits[index..<(index + 2)]), radix: 16)! }
        return (byte(0), byte(2), byte(4), digits.count == 8 ? byte(6) : 255)
    }

    /// A component in 0...1 with as many decimals as a byte needs, and no trailing zeros.
    static func component(_ value: Double) -> String {
        var text = String(Int((value * 1_000_000).rounded()))
        while text.count < 7 { text = "0" + text }
        let whole = text.dropLast(6)
        var fraction = String(text.suffix(6))
        while fraction.last == "0" { fraction.removeLast() }
        return fraction.isEmpty ? String(whole) : "\(whole).\(fraction)"
    }

    static func byteHex(_ value: Int) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[value >> 4], digits[value & 0xF]])
    }
}

extension String {
    fileprivate var trimmingBlanks: String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" || first == "\n" || first == "\r" {
            scalars.removeFirst()
        }
        while let last = scalars.last, last == " " || last == "\t" || last == "\n" || last == "\r" {
            scalars.removeLast()
        }
        return String(scalars)
    }
}
