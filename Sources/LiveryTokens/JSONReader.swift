/// A JSON value with the place it starts in its file. Foundation's `JSONSerialization` gives no
/// positions, and no JSON library in the mirror does either, so tokens files are read by this small
/// reader: every diagnostic about a token can then point at `file:line:column`.
public struct JSONNode: Sendable {
    public indirect enum Content: Sendable {
        case null
        case bool(Bool)
        case number(Double)
        case string(String)
        case array([JSONNode])
        case object([JSONMember])
    }

    public var content: Content
    /// 1-based line and column (columns count Unicode scalars) of the value's first character.
    public var line: Int
    public var column: Int

    public init(_ content: Content, line: Int, column: Int) {
        self.content = content
        self.line = line
        self.column = column
    }

    public func member(_ key: String) -> JSONMember? {
        guard case .object(let members) = content else { return nil }
        return members.first { $0.key == key }
    }

    public subscript(key: String) -> JSONNode? { member(key)?.value }

    public var string: String? { if case .string(let value) = content { value } else { nil } }
    public var number: Double? { if case .number(let value) = content { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = content { value } else { nil } }
    public var array: [JSONNode]? { if case .array(let items) = content { items } else { nil } }
    public var members: [JSONMember]? { if case .object(let members) = content { members } else { nil } }

    /// What the value is, for messages: "a string", "an object"...
    public var kindName: String {
        switch content {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The same JSON without positions, so two definitions can be compared for equality.
    public var canonicalText: String {
        switch content {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return "\(value)"
        case .string(let value):
            return "\"" + value.unicodeScalars.map { $0 == "\"" || $0 == "\\" ? "\\\($0)" : "\($0)" }.joined() + "\""
        case .array(let items): return "[" + items.map(\.canonicalText).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.map { "\"\($0.key)\":" + $0.value.canonicalText }.joined(separator: ",") + "}"
        }
    }
}

/// An object member: its key (with where the key is) and its value.
public struct JSONMember: Sendable {
    public var key: String
    public var line: Int
    public var column: Int
    public var value: JSONNode
}

/// Why a file is not JSON, and where.
public struct JSONSyntaxError: Error, Sendable, Equatable {
    public var message: String
    public var line: Int
    public var column: Int
}

/// Caps that keep hostile input (deep nesting, huge files) from exhausting the stack or memory.
public struct JSONLimits: Sendable {
    public var maxDepth: Int
    public var maxBytes: Int
    public init(maxDepth: Int = 64, maxBytes: Int = 32 << 20) {
        self.maxDepth = maxDepth
        self.maxBytes = maxBytes
    }
}

/// RFC 8259 JSON, strictly: no comments, no trailing commas, no NaN, duplicate keys rejected
/// (DTCG gives them no meaning, and silently keeping one would lose the other).
public struct JSONReader {
    private let bytes: [UInt8]
    private let limits: JSONLimits
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    public static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONSyntaxError) -> JSONNode {
        var reader = JSONReader(bytes: bytes, limits: limits)
        return try reader.document()
    }

    private init(bytes: [UInt8], limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    private mutating func document() throws(JSONSyntaxError) -> JSONNode {
        guard bytes.count <= limits.maxBytes else {
            throw JSONSyntaxError(
                message: "the file is larger than \(limits.maxBytes) bytes, the limit for a tokens file", line: 1,
                column: 1)
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
        skipWhitespace()
        let node = try value()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected \(describe(bytes[index])) after the JSON value") }
        return node
    }

    /// The last column worked out on the current line, so a long line (minified JSON is one line)
    /// is counted once, not once per value.
    private var columnMark = (position: 0, column: 1)

    /// Column of `position` on the current line, counting scalars (UTF-8 lead bytes).
    private mutating func column(at position: Int) -> Int {
        var (cursor, column) =
            columnMark.position >= lineStart && columnMark.position <= position ? columnMark : (lineStart, 1)
        while cursor < position {
            if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
            cursor += 1
        }
        columnMark = (position, column)
        return column
    }

    private mutating func error(_ message: String, at position: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(message: message, line: line, column: column(at: min(position ?? index, bytes.count)))
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONNode {
        guard index < bytes.count else { throw error("the file ends where a value should be") }
        let startLine = line
        let startColumn = column(at: index)
        func node(_ content: JSONNode.Content) -> JSONNode { JSONNode(content, line: startLine, column: startColumn) }
        switch bytes[index] {
        case UInt8(ascii: "{"): return node(try object())
        case UInt8(ascii: "["): return node(try array())
        case UInt8(ascii: "\""): return node(.string(try string()))
        case UInt8(ascii: "t"):
            try literal("true")
            return node(.bool(true))
        case UInt8(ascii: "f"):
            try literal("false")
            return node(.bool(false))
        case UInt8(ascii: "n"):
            try literal("null")
            return node(.null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return node(.number(try number()))
        default: throw error("unexpected \(describe(bytes[index])) where a value should be")
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > limits.maxDepth { throw error("values nest more than \(limits.maxDepth) deep") }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONNode.Content {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members: [JSONMember] = []
        var seen = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error(
                    index < bytes.count
                        ? "expected a key in quotes, found \(describe(bytes[index]))" : "the file ends inside an object"
                )
            }
            let keyLine = line
            let keyColumn = column(at: index)
            let keyStart = index
            let key = try string()
            guard seen.insert(key).inserted else {
                throw error("the key '\(key)' appears twice in one object", at: keyStart)
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after the key '\(key)'")
            }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key: key, line: keyLine, column: keyColumn, value: try value()))
            skipWhitespace()
            guard index < bytes.count else { throw error("the file ends inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw error("expected ',' or '}' in an object, found \(describe(bytes[index]))")
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONNode.Content {
        try enter()
        defer { depth -= 1 }
        index += 1
        var items: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw error("the file ends inside an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            throw error("expected ',' or ']' in an array, found \(describe(bytes[index]))")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count, Array(bytes[index..<index + utf8.count]) == utf8 else {
            throw error("unexpected \(describe(bytes[index])) where a value should be")
        }
        index += utf8.count
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw error("a number needs digits after '-'", at: start) }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw error("numbers do not start with 0 (write 7, not 07)", at: start)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("a number needs digits after '.'", at: start) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits() > 0 else { throw error("a number needs digits in its exponent", at: start) }
        }
        // A number this long is an attack, not a design value; Double would round it anyway.
        guard index - start <= 64 else {
            throw error("a number of \(index - start) characters; write at most 64", at: start)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("the number \(text) is out of range", at: start)
        }
        return value
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        var scratch: [UInt8] = []
        var plainFrom = index
        while true {
            guard index < bytes.count else { throw error("the file ends inside a string", at: start) }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                scratch.append(contentsOf: bytes[plainFrom..<index])
                index += 1
                break
            }
            if byte < 0x20 { throw error("a control character (\(describe(byte))) inside a string; escape it") }
            if byte == UInt8(ascii: "\\") {
                scratch.append(contentsOf: bytes[plainFrom..<index])
                try escape(into: &scratch)
                plainFrom = index
                continue
            }
            index += 1
        }
        guard let text = String(validating: scratch, as: UTF8.self) else {
            throw error("a string that is not valid UTF-8; save the file as UTF-8", at: start)
        }
        return text
    }

    private mutating func escape(into scratch: inout [UInt8]) throws(JSONSyntaxError) {
        let at = index
        index += 1
        guard index < bytes.count else { throw error("the file ends inside a string", at: at) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(byte)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var code = try hex4(at: at)
            if (0xD800...0xDBFF).contains(code) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw error("a lone UTF-16 surrogate \\u\(String(code, radix: 16)) in a string", at: at)
                }
                index += 2
                let low = try hex4(at: at)
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("a lone UTF-16 surrogate in a string", at: at)
                }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(code) {
                throw error("a lone UTF-16 surrogate \\u\(String(code, radix: 16)) in a string", at: at)
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape", at: at) }
            scratch.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
            throw error("an invalid escape \\\(Character(Unicode.Scalar(byte))) in a string", at: at)
        }
    }

    private mutating func hex4(at: Int) throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("an incomplete \\u escape", at: at) }
        var code: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = hexValue(byte) else { throw error("an invalid \\u escape", at: at) }
            code = code << 4 | digit
        }
        index += 4
        return code
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
