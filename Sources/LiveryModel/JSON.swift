/// A JSON value with ordered object keys, written deterministically. Canonical output matters:
/// the dump of a theme folder and of its compiled file are compared byte for byte.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.rendered() == rhs.rendered() }
    public func hash(into hasher: inout Hasher) { hasher.combine(rendered()) }

    /// Pretty-printed with two-space indentation, or on one line.
    public func rendered(pretty: Bool = true) -> String {
        var output = ""
        write(to: &output, indent: pretty ? 0 : nil)
        return output
    }

    private func write(to output: inout String, indent: Int?) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .integer(let value): output += String(value)
        case .number(let value): output += JSONValue.format(value)
        case .string(let value): JSONValue.writeString(value, to: &output)
        case .array(let items):
            guard !items.isEmpty else { return output += "[]" }
            let inner = indent.map { $0 + 2 }
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                if let inner { JSONValue.newline(indent: inner, to: &output) }
                item.write(to: &output, indent: inner)
            }
            if let indent { JSONValue.newline(indent: indent, to: &output) }
            output += "]"
        case .object(let members):
            guard !members.isEmpty else { return output += "{}" }
            let inner = indent.map { $0 + 2 }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                if let inner { JSONValue.newline(indent: inner, to: &output) }
                JSONValue.writeString(member.0, to: &output)
                output += inner == nil ? ":" : ": "
                member.1.write(to: &output, indent: inner)
            }
            if let indent { JSONValue.newline(indent: indent, to: &output) }
            output += "}"
        }
    }

    private static func newline(indent: Int, to output: inout String) {
        output += "\n"
        for _ in 0..<indent { output += " " }
    }

    /// Whole numbers print without a fraction (`8`, not `8.0`); others in Swift's shortest
    /// round-trip form, which is valid JSON for finite values.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        defer { output += "\"" }
        // Most strings need no escaping: copy them whole instead of scalar by scalar.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += value
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
    }
}
