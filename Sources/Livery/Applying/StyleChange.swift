import LiveryModel

/// What one operation did to the components styled with one identifier, as `onChange`
/// observers are told after a switch (the chat example prints these).
public struct StyleChange: Sendable, CustomStringConvertible {
    /// What happened to the property.
    public enum Kind: Sendable, Hashable {
        /// The theme set a new value.
        case set(Value)
        /// The theme stopped setting the property; its original value came back.
        case reverted
    }

    /// The identifier the components were styled with.
    public var identifier: String
    /// The operation (name and state) that changed.
    public var operation: OperationKey
    /// Whether a value was set or the original came back.
    public var kind: Kind
    /// How many live components received the change.
    public var components: Int

    public var description: String {
        switch kind {
        case .set(let value):
            return "\(identifier).\(operation) = \(ValueText.describe(value)) (\(components) component(s))"
        case .reverted: return "\(identifier).\(operation) reverted to its original (\(components) component(s))"
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
    /// Counters at zero, before any pass.
    public init() {}
}
