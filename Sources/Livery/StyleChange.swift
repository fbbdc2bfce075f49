import LiveryModel

/// What one operation did to the components styled with one identifier, as `onChange`
/// observers are told after a switch (the chat example prints these).
public struct StyleChange: Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The theme set a new value.
        case set(Value)
        /// The theme stopped setting the property; its original value came back.
        case reverted
    }

    public var identifier: String
    public var operation: OperationKey
    public var kind: Kind
    /// How many live components received the change.
    public var components: Int

    public var description: String {
        switch kind {
        case .set(let value): return "\(identifier).\(operation) = \(StyleChange.describe(value)) (\(components) component(s))"
        case .reverted: return "\(identifier).\(operation) reverted to its original (\(components) component(s))"
        }
    }

    static func describe(_ value: Value) -> String {
        switch value {
        case .float(let number): return JSONValue.format(number)
        case .integer(let number): return String(number)
        case .bool(let flag): return String(flag)
        case .string(let text): return "\"\(text)\""
        case .enumeration(let text): return text
        case .color(let color): return color.hexString
        case .point(let point): return "(\(point.x), \(point.y))"
        case .size(let size): return "\(size.width)x\(size.height)"
        case .rect(let rect): return "(\(rect.x), \(rect.y), \(rect.width), \(rect.height))"
        case .insets(let insets): return "(\(insets.top), \(insets.left), \(insets.bottom), \(insets.right))"
        case .font(let font): return "\(font.family) \(font.size.map { JSONValue.format($0) } ?? "default") \(font.weight.rawValue)"
        case .image(let image): return "image \(image.name)\(image.cache ? " (cached)" : "")"
        case .array(let items): return "[" + items.map(describe).joined(separator: ", ") + "]"
        }
    }
}

/// Counters of the last apply pass: what tests and the benchmark read.
public struct ApplyStatistics: Hashable, Sendable {
    /// Setter calls that wrote a theme value.
    public var operationsApplied = 0
    /// Setter calls that put an original value back.
    public var operationsReverted = 0
    /// Live components that received at least one change.
    public var componentsUpdated = 0
    /// Identifiers whose effective operations changed.
    public var identifiersChanged = 0
    public init() {}
}
