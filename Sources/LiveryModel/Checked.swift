/// A result with the findings that came with it: what the XML front end, the compiler and the
/// runtime's loaders all return. `value` is nil when the result is unusable (errors).
public struct Checked<Value> {
    public var value: Value?
    public var diagnostics: [Diagnostic]

    public init(value: Value?, diagnostics: [Diagnostic] = []) {
        self.value = value
        self.diagnostics = diagnostics
    }
}

extension Checked: Sendable where Value: Sendable {}
