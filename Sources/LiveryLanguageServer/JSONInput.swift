import Foundation
import LiveryModel

/// A JSON text decoded into `JSONValue` (Foundation's strict decoder: `true` is never `1`).
struct DecodedJSON: Decodable {
    let value: JSONValue

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            value = .null
        } else if let bool = try? container.decode(Bool.self) {
            value = .bool(bool)
        } else if let integer = try? container.decode(Int64.self) {
            value = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            value = .number(number)
        } else if let string = try? container.decode(String.self) {
            value = .string(string)
        } else if let array = try? container.decode([DecodedJSON].self) {
            value = .array(array.map(\.value))
        } else {
            let object = try container.decode([String: DecodedJSON].self)
            value = .object(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value.value) })
        }
    }

    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(DecodedJSON.self, from: Data(bytes)).value
    }
}

extension JSONValue {
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var int: Int? {
        switch self {
        case .integer(let value): return Int(exactly: value)
        case .number(let value): return Int(exactly: value)
        default: return nil
        }
    }

    var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// An object from members whose value may be absent (absent members are left out).
    static func members(_ members: [(String, JSONValue?)]) -> JSONValue {
        .object(members.compactMap { key, value in value.map { (key, $0) } })
    }

    static func int(_ value: Int) -> JSONValue { .integer(Int64(value)) }
}
