import LiveryModel

// A designer's habits from CSS and other formats: what such text means, offered as the fix.
extension ValueSyntax {
    /// `0,5`, a decimal comma where the point is meant.
    static func decimalComma(_ body: String) -> Problem? {
        let parts = body.split(separator: ",", omittingEmptySubsequences: false)
        let digit: (Character) -> Bool = { $0.isASCII && $0.isNumber }
        guard parts.count == 2, let whole = parts.first, let fraction = parts.last, !fraction.isEmpty,
            whole.drop(while: { $0 == "-" }).allSatisfy(digit), !whole.drop(while: { $0 == "-" }).isEmpty,
            fraction.allSatisfy(digit)
        else { return nil }
        let meant = "\(whole).\(fraction)"
        return Problem(
            message: "'\(body)' is not a number: a number takes a decimal point, not a comma; write \(meant)",
            fix: Diagnostic.Fix(replacing: body, with: meant))
    }

    /// `rgb(0, 98, 204)` or `rgba(0, 98, 204, 0.5)`, CSS's colour functions (0-255, alpha 0-1):
    /// the hex colour they mean.
    static func cssColor(_ body: String) -> Problem? {
        let lowered = body.lowercased()
        guard lowered.hasPrefix("rgb(") || lowered.hasPrefix("rgba("), body.hasSuffix(")"),
            let open = body.firstIndex(of: "(")
        else { return nil }
        let parts = body[body.index(after: open)..<body.index(before: body.endIndex)]
            .split(separator: ",").map { String($0).trimmingCharacters(in: " ") }
        guard parts.count == 3 || parts.count == 4 else { return nil }
        var channels: [Int] = []
        for part in parts.prefix(3) {
            guard let value = Int(part), (0...255).contains(value) else { return nil }
            channels.append(value)
        }
        if parts.count == 4 {
            guard case .success(let alpha) = float(parts[3]), (0...1).contains(alpha) else { return nil }
            channels.append(Int((alpha * 255).rounded()))
        }
        let hex =
            "#" + channels.map { String($0, radix: 16, uppercase: true) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined()
        return Problem(
            message: "'\(body)' is CSS; a hex color is written #RRGGBB or #RRGGBBAA: write \(hex)",
            fix: Diagnostic.Fix(replacing: body, with: hex))
    }

    /// `0062CC`: hex digits without the `#`.
    /// CSS's `#RGBA`: each digit doubled, `#RRGGBBAA`.
    static func shortHexWithAlpha(_ body: String) -> Problem? {
        guard body.utf8.count == 5, body.hasPrefix("#"), body.utf8.dropFirst().allSatisfy({ ASCII.hexValue($0) != nil })
        else { return nil }
        let long = "#" + body.dropFirst().map { "\($0)\($0)" }.joined()
        return Problem(
            message: "'\(body)' is CSS's #RGBA; Livery writes a colour with alpha as #RRGGBBAA: write \(long)",
            fix: Diagnostic.Fix(replacing: body, with: long))
    }

    /// CSS's and SwiftUI's colour keywords Livery has no names for, as hex.
    static let namedColors: [String: String] = [
        "white": "#FFFFFF", "black": "#000000", "red": "#FF0000", "green": "#008000", "blue": "#0000FF",
        "yellow": "#FFFF00", "gray": "#808080", "grey": "#808080", "orange": "#FFA500", "purple": "#800080",
        "transparent": "#00000000", "clear": "#00000000",
    ]

    static func namedColor(_ body: String) -> Problem? {
        guard let hex = namedColors[body.lowercased()] else { return nil }
        return Problem(
            message: "'\(body)' is a colour keyword of CSS; Livery writes colours in hex: write \(hex)",
            fix: Diagnostic.Fix(replacing: body, with: hex))
    }

    static func hexWithoutHash(_ body: String) -> Problem? {
        guard [3, 6, 8].contains(body.utf8.count), body.utf8.allSatisfy({ ASCII.hexValue($0) != nil }),
            body.utf8.contains(where: { !ASCII.isDigit($0) }) || body.utf8.count == 6
        else { return nil }
        return Problem(
            message: "'\(body)' is missing its '#'; write #\(body)",
            fix: Diagnostic.Fix(replacing: body, with: "#" + body))
    }

    /// A CSS line height where Livery's multiple of the size is meant: `120%` is 1.2, `1.2em`
    /// is 1.2, `24px` of a 20-point font is 1.2. Nil when the text is no such habit, or a length
    /// has no size to divide by.
    static func lineHeightMeant(_ text: String, size: Double?) -> Problem? {
        guard let value = UnitNumber(text) else { return nil }
        let multiple: Double
        let reason: String
        switch value.unit {
        case "%":
            multiple = value.number / 100
            reason = "\(value.written) is \(written(multiple)) times the size"
        case "em", "rem":
            multiple = value.number
            reason = "\(value.written) is \(written(multiple)) times the size"
        default:
            guard let size, size > 0 else {
                return Problem(
                    message:
                        "line-height is a multiple of the font's size, not a length; divide \(value.written) by the size, e.g. 1.2"
                )
            }
            multiple = value.number / size
            reason = "\(value.written) of a \(ValueText.number(size))-point font is \(written(multiple)) times its size"
        }
        guard multiple >= 0 else { return nil }
        let meant = written(multiple)
        return Problem(
            message: "line-height is a multiple of the font's size, not a CSS length: \(reason); write \(meant)",
            fix: Diagnostic.Fix(replacing: value.written, with: meant))
    }
}
