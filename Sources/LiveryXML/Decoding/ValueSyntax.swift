import LiveryModel

/// The text syntax of typed objects (section 2.1 of the format). Pure functions: each returns the
/// value or a message that tells the designer what the text should look like.
enum ValueSyntax {
    typealias Parsed<T> = Result<T, Problem>

    struct Problem: Error, Equatable {
        var message: String
        /// The text to write instead, when the value meant is known (`120%` -> `1.2`).
        var fix: Diagnostic.Fix?

        init(message: String, fix: Diagnostic.Fix? = nil) {
            self.message = message
            self.fix = fix
        }
    }

    /// A number followed by a unit from CSS or Android resources (`120%`, `24px`, `1.5em`,
    /// `16dp`, `14sp`, `12pt`): the habits a designer brings to a theme, whose numbers are plain.
    struct UnitNumber: Equatable {
        var number: Double
        var unit: String
        var written: String

        static let units = ["%", "px", "pt", "em", "rem", "dp", "dip", "sp"]

        init?(_ text: some StringProtocol) {
            let body = ValueSyntax.trimmed(String(text))
            guard
                let unit = Self.units.sorted(by: { $0.count > $1.count }).first(where: {
                    body.lowercased().hasSuffix($0)
                }),
                case .success(let number) = ValueSyntax.float(body.dropLast(unit.count))
            else { return nil }
            self.number = number
            self.unit = unit
            self.written = String(body)
        }

        /// Points and pixels (and Android's density-independent units) are a theme's plain numbers.
        var isLength: Bool { ["px", "pt", "dp", "dip", "sp"].contains(unit) }
    }

    /// A number for a fix: at most three decimals, as a designer would write it.
    static func written(_ value: Double) -> String {
        ValueText.number((value * 1000).rounded() / 1000)
    }

    /// `24px` where a plain number of points is meant: the number, said and offered as the fix.
    static func plainNumber(_ text: String, for name: String) -> Problem? {
        guard let value = UnitNumber(text), value.isLength else { return nil }
        let plain = written(value.number)
        return Problem(
            message: "\(name) is a plain number of points, without a unit: write \(plain), not '\(value.written)'",
            fix: Diagnostic.Fix(replacing: value.written, with: plain))
    }

    /// The text without XML white space at either end. Works on UTF-8 bytes: white space is
    /// ASCII, so the cut points are always character boundaries, and bytes are much faster than
    /// Characters on the hot path of decoding.
    static func trimmed(_ text: String) -> Substring {
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, ASCII.isBlank(utf8[start]) { start = utf8.index(after: start) }
        while end > start, ASCII.isBlank(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        return Substring(utf8[start..<end])
    }

    /// `-?d+(.d+)?([eE][+-]?d+)?`, finite only: no `NaN`, `inf`, hex floats, `1,5` or `.5`.
    static func float(_ text: some StringProtocol) -> Parsed<Double> {
        if let value = quickFloat(Substring(text)) { return .success(value) }
        return slowFloat(text)
    }

    /// The fast path of `float` for the common case, valid text: checks the same grammar on the
    /// UTF-8 bytes without copying them and converts with the same `Double(_:)`, so it returns
    /// exactly what `slowFloat` would. Nil for anything else; the slow path then says what is wrong.
    static func quickFloat(_ text: Substring) -> Double? {
        let utf8 = text.utf8
        var start = utf8.startIndex
        var end = utf8.endIndex
        while start < end, ASCII.isBlank(utf8[start]) { start = utf8.index(after: start) }
        while end > start, ASCII.isBlank(utf8[utf8.index(before: end)]) { end = utf8.index(before: end) }
        var index = start
        func digits() -> Bool {
            let first = index
            while index < end, ASCII.isDigit(utf8[index]) { index = utf8.index(after: index) }
            return index != first
        }
        if index < end, utf8[index] == UInt8(ascii: "-") { index = utf8.index(after: index) }
        guard digits() else { return nil }
        if index < end, utf8[index] == UInt8(ascii: ".") {
            index = utf8.index(after: index)
            guard digits() else { return nil }
        }
        if index < end, utf8[index] == UInt8(ascii: "e") || utf8[index] == UInt8(ascii: "E") {
            index = utf8.index(after: index)
            if index < end, utf8[index] == UInt8(ascii: "+") || utf8[index] == UInt8(ascii: "-") {
                index = utf8.index(after: index)
            }
            guard digits() else { return nil }
        }
        guard index == end, let value = Double(Substring(utf8[start..<end])), value.isFinite else { return nil }
        return value
    }

    static func slowFloat(_ text: some StringProtocol) -> Parsed<Double> {
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
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            valid = digits() > 0
        }
        if let comma = decimalComma(String(body)) { return .failure(comma) }
        guard valid, index == bytes.count else {
            return .failure(
                Problem(
                    message:
                        "'\(body)' is not a number; write digits with an optional '-', '.' fraction and exponent, e.g. 8, -0.5, 1.5e3"
                ))
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
        guard !digits.isEmpty, digits.utf8.allSatisfy(ASCII.isDigit) else {
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
        case let other:
            switch other.lowercased() {
            case "true", "yes", "on", "1":
                .failure(
                    Problem(
                        message: "'\(other)' is not a bool; write true",
                        fix: Diagnostic.Fix(replacing: String(other), with: "true")))
            case "false", "no", "off", "0":
                .failure(
                    Problem(
                        message: "'\(other)' is not a bool; write false",
                        fix: Diagnostic.Fix(replacing: String(other), with: "false")))
            default: .failure(Problem(message: "'\(other)' is not a bool; write true or false"))
            }
        }
    }

    static let pointNames = ["x", "y"]
    static let sizeNames = ["w", "h"]
    static let rectNames = ["x", "y", "w", "h"]
    static let insetsNames = ["top", "left", "bottom", "right"]
    static let rgbNames = ["r", "g", "b"]
    static let rgbaNames = ["r", "g", "b", "a"]

    /// `count` comma-separated numbers, named for the message (e.g. `["x", "y"]`).
    static func numbers(_ text: String, names: [String]) -> Parsed<[Double]> {
        // Fast path: split on the bytes and parse each part in place; any problem goes to the
        // slow path, which finds the same values or says what is wrong.
        var values: [Double] = []
        values.reserveCapacity(names.count)
        let whole = Substring(text)
        let utf8 = whole.utf8
        var partStart = utf8.startIndex
        var index = utf8.startIndex
        var valid = true
        while valid {
            if index == utf8.endIndex || utf8[index] == UInt8(ascii: ",") {
                if values.count == names.count {
                    valid = false
                    break
                }
                guard let value = quickFloat(Substring(utf8[partStart..<index])) else {
                    valid = false
                    break
                }
                values.append(value)
                if index == utf8.endIndex { break }
                partStart = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if valid, values.count == names.count { return .success(values) }
        return slowNumbers(text, names: names)
    }

    static func slowNumbers(_ text: String, names: [String]) -> Parsed<[Double]> {
        let parts = trimmed(text).split(separator: ",", omittingEmptySubsequences: false)
        let expected = names.joined(separator: ",")
        guard parts.count == names.count else {
            return .failure(
                Problem(
                    message: "expected \(names.count) numbers '\(expected)', found \(parts.count) in '\(trimmed(text))'"
                ))
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
            let names = format == "rgb" ? rgbNames : rgbaNames
            return numbers(text, names: names).flatMap { components in
                if let index = components.firstIndex(where: { $0 < 0 || $0 > 1 }) {
                    return .failure(
                        Problem(
                            message:
                                "\(names[index]) is \(ValueText.number(components[index])); \(format!) components are between 0 and 1"
                        ))
                }
                return .success(
                    Color(
                        red: components[0], green: components[1], blue: components[2],
                        alpha: components.count == 4 ? components[3] : 1))
            }
        case let other:
            return .failure(Problem(message: "unknown color format '\(other)'; use hex, rgb or rgba"))
        }
    }

    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA`.
    static func hexColor(_ text: String) -> Parsed<Color> {
        if let color = quickHexColor(text) { return .success(color) }
        return slowHexColor(text)
    }

    /// The fast path of `hexColor`: digits packed into one integer, no intermediate arrays; the
    /// same arithmetic, so the same colour.
    static func quickHexColor(_ text: String) -> Color? {
        var packed = 0
        var count = 0
        var sawHash = false
        for byte in text.utf8 {
            if !sawHash {
                if ASCII.isBlank(byte) { continue }
                guard byte == UInt8(ascii: "#") else { return nil }
                sawHash = true
                continue
            }
            guard count < 8, let value = ASCII.hexValue(byte) else { return nil }
            packed = packed << 4 | value
            count += 1
        }
        func byte(_ shift: Int) -> Int { (packed >> shift) & 0xFF }
        func nibble(_ shift: Int) -> Int { ((packed >> shift) & 0xF) * 17 }
        let channels: (Int, Int, Int, Int)
        switch count {
        case 3: channels = (nibble(8), nibble(4), nibble(0), 255)
        case 6: channels = (byte(16), byte(8), byte(0), 255)
        case 8: channels = (byte(24), byte(16), byte(8), byte(0))
        default: return nil
        }
        return Color(
            red: Double(channels.0) / 255, green: Double(channels.1) / 255,
            blue: Double(channels.2) / 255, alpha: Double(channels.3) / 255)
    }

    static func slowHexColor(_ text: String) -> Parsed<Color> {
        let body = trimmed(text)
        if let meant = cssColor(String(body)) ?? hexWithoutHash(String(body)) ?? shortHexWithAlpha(String(body))
            ?? namedColor(String(body))
        {
            return .failure(meant)
        }
        let problem = Problem(message: "'\(body)' is not a hex color; write #RGB, #RRGGBB or #RRGGBBAA")
        let bytes = body.utf8
        guard bytes.first == UInt8(ascii: "#"), [4, 7, 9].contains(bytes.count) else { return .failure(problem) }
        var values: [Int] = []
        values.reserveCapacity(8)
        for byte in bytes.dropFirst() {
            guard let value = ASCII.hexValue(byte) else { return .failure(problem) }
            values.append(value)
        }
        let channels: [Int] =
            values.count == 3
            ? values.map { $0 * 17 } + [255]
            : stride(from: 0, to: values.count, by: 2).map { values[$0] * 16 + values[$0 + 1] }
                + (values.count == 6 ? [255] : [])
        let unit = channels.map { Double($0) / 255 }
        return .success(Color(red: unit[0], green: unit[1], blue: unit[2], alpha: unit[3]))
    }

    static func point(_ text: String) -> Parsed<Point> {
        numbers(text, names: pointNames).map { Point(x: $0[0], y: $0[1]) }
    }

    static func size(_ text: String) -> Parsed<Size> {
        numbers(text, names: sizeNames).flatMap { values in
            guard values.allSatisfy({ $0 >= 0 }) else {
                return .failure(Problem(message: "a size cannot be negative: '\(trimmed(text))'"))
            }
            return .success(Size(width: values[0], height: values[1]))
        }
    }

    static func rect(_ text: String) -> Parsed<Rect> {
        numbers(text, names: rectNames).flatMap { values in
            guard values[2] >= 0, values[3] >= 0 else {
                return .failure(Problem(message: "a rect's width and height cannot be negative: '\(trimmed(text))'"))
            }
            return .success(Rect(x: values[0], y: values[1], width: values[2], height: values[3]))
        }
    }

    static func insets(_ text: String) -> Parsed<Insets> {
        numbers(text, names: insetsNames).map {
            Insets(top: $0[0], left: $0[1], bottom: $0[2], right: $0[3])
        }
    }

    /// `[A-Za-z][A-Za-z0-9_]*`; which values are allowed is the operation's business.
    static func enumeration(_ text: String) -> Parsed<String> {
        let body = trimmed(text)
        guard isIdentifier(body) else {
            return .failure(
                Problem(message: "'\(body)' is not an enum value; use a letter followed by letters, digits or '_'"))
        }
        return .success(String(body))
    }

    /// `[A-Za-z][A-Za-z0-9_]*`
    static func isIdentifier(_ text: some StringProtocol) -> Bool {
        guard let first = text.utf8.first, ASCII.isLetter(first) else { return false }
        return text.utf8.allSatisfy { ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// An asset name: a relative path inside `assets/` without qualifiers or extension.
    /// Anything that could leave the theme folder is refused.
    static func assetName(_ text: String) -> Parsed<String> {
        let body = String(trimmed(text))
        guard !body.isEmpty else {
            return .failure(Problem(message: "an image needs an asset name, e.g. <image>bubble</image>"))
        }
        let segments = body.split(separator: "/", omittingEmptySubsequences: false)
        let allowed: (Character) -> Bool = { $0.isLetter || $0.isNumber || "_-. ".contains($0) }
        guard !body.hasPrefix("/"),
            segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.allSatisfy(allowed) })
        else {
            return .failure(
                Problem(
                    message:
                        "'\(body)' is not an asset name; name a file in assets/ without extension, scale or qualifiers, e.g. bubble or icons/send"
                ))
        }
        return .success(body)
    }
}

/// Byte classes of the ASCII subset the format's names and numbers are made of.
enum ASCII {
    static func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    static func hexValue(_ byte: UInt8) -> Int? {
        if isDigit(byte) { return Int(byte - 0x30) }
        let lower = byte | 0x20
        return lower >= 0x61 && lower <= 0x66 ? Int(lower - 0x61 + 10) : nil
    }

    /// Every byte is a letter, a digit or one of `extra`.
    static func isWord(_ text: some StringProtocol, extra: StaticString) -> Bool {
        text.utf8.allSatisfy { byte in
            isLetter(byte) || isDigit(byte)
                || UnsafeBufferPointer(start: extra.utf8Start, count: extra.utf8CodeUnitCount).contains(byte)
        }
    }
}
