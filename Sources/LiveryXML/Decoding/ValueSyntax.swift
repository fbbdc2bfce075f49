import LiveryModel

/// The text syntax of typed objects (section 2.1 of the format). Pure functions: each returns the
/// value or a message that tells the designer what the text should look like.
enum ValueSyntax {
    typealias Parsed<T> = Result<T, Problem>

    struct Problem: Error, Equatable {
        var message: String
    }

    static func trimmed(_ text: String) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let start = text.firstIndex { !isBlank($0) } ?? text.endIndex
        let end = text.lastIndex { !isBlank($0) }.map { text.index(after: $0) } ?? start
        return text[start..<max(start, end)]
    }

    /// `-?d+(.d+)?([eE][+-]?d+)?`, finite only: no `NaN`, `inf`, hex floats, `1,5` or `.5`.
    static func float(_ text: some StringProtocol) -> Parsed<Double> {
        let body = trimmed(String(text))
        let bytes = Array(body.utf8)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
            return index - start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        var valid = digits() > 0
        if valid, index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            valid = digits() > 0
        }
        if valid, index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            valid = digits() > 0
        }
        guard valid, index == bytes.count else {
            return .failure(Problem(message: "'\(body)' is not a number; write digits with an optional '-', '.' fraction and exponent, e.g. 8, -0.5, 1.5e3"))
        }
        guard let value = Double(body), value.isFinite else {
            return .failure(Problem(message: "'\(body)' is out of range; numbers must be finite"))
        }
        return .success(value)
    }

    /// `-?d+`, within 64 bits.
    static func integer(_ text: String) -> Parsed<Int64> {
        let body = trimmed(text)
        let digits = body.hasPrefix("-") ? body.dropFirst() : body[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return .failure(Problem(message: "'\(body)' is not an integer; write digits with an optional '-', e.g. 3"))
        }
        guard let value = Int64(body) else {
            return .failure(Problem(message: "'\(body)' does not fit in a 64-bit integer"))
        }
        return .success(value)
    }

    static func bool(_ text: String) -> Parsed<Bool> {
        switch trimmed(text) {
        case "true": .success(true)
        case "false": .success(false)
        case let other: .failure(Problem(message: "'\(other)' is not a bool; write true or false"))
        }
    }

    /// `count` comma-separated numbers, named for the message (e.g. `["x", "y"]`).
    static func numbers(_ text: String, names: [String]) -> Parsed<[Double]> {
        let parts = trimmed(text).split(separator: ",", omittingEmptySubsequences: false)
        let expected = names.joined(separator: ",")
        guard parts.count == names.count else {
            return .failure(Problem(message: "expected \(names.count) numbers '\(expected)', found \(parts.count) in '\(trimmed(text))'"))
        }
        var values: [Double] = []
        for (part, name) in zip(parts, names) {
            switch float(part) {
            case .success(let value): values.append(value)
            case .failure(let problem): return .failure(Problem(message: "\(name): \(problem.message)"))
            }
        }
        return .success(values)
    }

    static func color(_ text: String, format: String?) -> Parsed<Color> {
        switch format ?? "hex" {
        case "hex": return hexColor(text)
        case "rgb", "rgba":
            let names = format == "rgb" ? ["r", "g", "b"] : ["r", "g", "b", "a"]
            return numbers(text, names: names).flatMap { components in
                if let index = components.firstIndex(where: { $0 < 0 || $0 > 1 }) {
                    return .failure(Problem(message: "\(names[index]) is \(JSONValue.format(components[index])); \(format!) components are between 0 and 1"))
                }
                return .success(Color(red: components[0], green: components[1], blue: components[2],
                                      alpha: components.count == 4 ? components[3] : 1))
            }
        case let other:
            return .failure(Problem(message: "unknown color format '\(other)'; use hex, rgb or rgba"))
        }
    }

    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
    static func hexColor(_ text: String) -> Parsed<Color> {
        let body = trimmed(text)
        let problem = Problem(message: "'\(body)' is not a hex color; write #RGB, #RRGGBB or #RRGGBBAA")
        guard body.hasPrefix("#") else { return .failure(problem) }
        let digits = body.dropFirst().map { $0.isASCII ? $0.hexDigitValue : nil }
        guard [3, 6, 8].contains(digits.count), digits.allSatisfy({ $0 != nil }) else { return .failure(problem) }
        let values = digits.map { $0! }
        let channels: [Int] = values.count == 3
            ? values.map { $0 * 17 } + [255]
            : stride(from: 0, to: values.count, by: 2).map { values[$0] * 16 + values[$0 + 1] } + (values.count == 6 ? [255] : [])
        let unit = channels.map { Double($0) / 255 }
        return .success(Color(red: unit[0], green: unit[1], blue: unit[2], alpha: unit[3]))
    }

    static func point(_ text: String) -> Parsed<Point> {
        numbers(text, names: ["x", "y"]).map { Point(x: $0[0], y: $0[1]) }
    }

    static func size(_ text: String) -> Parsed<Size> {
        numbers(text, names: ["w", "h"]).flatMap { values in
            guard values.allSatisfy({ $0 >= 0 }) else {
                return .failure(Problem(message: "a size cannot be negative: '\(trimmed(text))'"))
            }
            return .success(Size(width: values[0], height: values[1]))
        }
    }

    static func rect(_ text: String) -> Parsed<Rect> {
        numbers(text, names: ["x", "y", "w", "h"]).flatMap { values in
            guard values[2] >= 0, values[3] >= 0 else {
                return .failure(Problem(message: "a rect's width and height cannot be negative: '\(trimmed(text))'"))
            }
            return .success(Rect(x: values[0], y: values[1], width: values[2], height: values[3]))
        }
    }

    static func insets(_ text: String) -> Parsed<Insets> {
        numbers(text, names: ["top", "left", "bottom", "right"]).map {
            Insets(top: $0[0], left: $0[1], bottom: $0[2], right: $0[3])
        }
    }

    /// `[A-Za-z][A-Za-z0-9_]*`; which values are allowed is the operation's business.
    static func enumeration(_ text: String) -> Parsed<String> {
        let body = trimmed(text)
        guard isIdentifier(body) else {
            return .failure(Problem(message: "'\(body)' is not an enum value; use a letter followed by letters, digits or '_'"))
        }
        return .success(String(body))
    }

    static func isIdentifier(_ text: some StringProtocol) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }

    /// An asset name: a relative path inside `assets/` without qualifiers or extension.
    /// Anything that could leave the theme folder is refused.
    static func assetName(_ text: String) -> Parsed<String> {
        let body = String(trimmed(text))
        guard !body.isEmpty else { return .failure(Problem(message: "an image needs an asset name, e.g. <image>bubble</image>")) }
        let segments = body.split(separator: "/", omittingEmptySubsequences: false)
        let allowed: (Character) -> Bool = { $0.isLetter || $0.isNumber || "_-. ".contains($0) }
        guard !body.hasPrefix("/"), segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.allSatisfy(allowed) }) else {
            return .failure(Problem(message: "'\(body)' is not an asset name; name a file in assets/ without extension, scale or qualifiers, e.g. bubble or icons/send"))
        }
        return .success(body)
    }

    static func font(family: String?, size: String?, weight: String?) -> Parsed<Font> {
        guard let family, !trimmed(family).isEmpty else {
            return .failure(Problem(message: "a font needs a family, e.g. <font family=\"Helvetica\" size=\"17\"/>"))
        }
        var points: Double?
        if let size {
            switch float(size) {
            case .success(let value) where value > 0: points = value
            case .success: return .failure(Problem(message: "a font size must be greater than 0, found '\(trimmed(size))'"))
            case .failure(let problem): return .failure(Problem(message: "size: \(problem.message)"))
            }
        }
        var fontWeight = FontWeight.regular
        if let weight {
            guard let parsed = FontWeight(rawValue: String(trimmed(weight))) else {
                let names = FontWeight.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(Problem(message: "unknown font weight '\(weight)'; use one of \(names)"))
            }
            fontWeight = parsed
        }
        return .success(Font(family: String(trimmed(family)), size: points, weight: fontWeight))
    }
}
