// The on-disk codes of the model's enumerations, written down case by case. A code is part of the
// file format: it never comes from declaration order (`allCases.firstIndex(of:)`), so sorting or
// extending a model enum cannot change the bytes of a file. A new case gets the next free code
// here, wherever it sits in its enum. docs/BinaryFormat.md lists the same tables.
import LiveryModel

extension FontWeight {
    /// 0-8: a font always has a weight, so 0 is a weight here, not "not given".
    var diskCode: UInt8 {
        switch self {
        case .ultralight: 0
        case .thin: 1
        case .light: 2
        case .regular: 3
        case .medium: 4
        case .semibold: 5
        case .bold: 6
        case .heavy: 7
        case .black: 8
        }
    }
}

extension FontScaling {
    /// 1-2; 0 is "not given".
    var diskCode: UInt8 {
        switch self {
        case .scaled: 1
        case .fixed: 2
        }
    }
}

extension ValueType {
    /// The tag a value of this type is stored under (the codes are `ValueTag`'s raw values): the
    /// one mapping between types and tags, which the value slots and the choices section share.
    var tag: ValueTag {
        switch self {
        case .float: .float
        case .integer: .integer
        case .bool: .bool
        case .string: .string
        case .color: .color
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .insets: .insets
        case .font: .font
        case .image: .image
        case .enumeration: .enumeration
        case .array: .array
        }
    }

    /// The type stored under `tag`: `tag` read backwards (every tag is some type's).
    init(tag: ValueTag) { self = Self.typesByTag[tag]! }

    private static let typesByTag = Dictionary(uniqueKeysWithValues: allCases.map { ($0.tag, $0) })
}

/// The reverse of one enumeration's `diskCode`: built once from the written-down codes, so the
/// writer, the reader and the verifier read the same table. Two cases with one code stop the
/// program at the first use (a test reads every table).
struct DiskCodeTable<Value: CaseIterable & Hashable>: Sendable where Value: Sendable {
    /// Index = code; nil where no case has the code.
    let values: [Value?]

    init(_ code: (Value) -> UInt8) {
        let largest = Value.allCases.map { Int(code($0)) }.max() ?? -1
        var values = [Value?](repeating: nil, count: largest + 1)
        for value in Value.allCases {
            precondition(values[Int(code(value))] == nil, "two cases of \(Value.self) share the code \(code(value))")
            values[Int(code(value))] = value
        }
        self.values = values
    }

    /// The case with this code, or nil for a code no case has.
    func value(_ code: Int) -> Value? { code >= 0 && code < values.count ? values[code] : nil }

    /// One more than the largest code: the number of codes a field of this kind can hold.
    var codeCount: Int { values.count }

}

enum DiskCodes {
    static let fontWeights = DiskCodeTable<FontWeight>(\.diskCode)
    static let fontScalings = DiskCodeTable<FontScaling>(\.diskCode)
}
