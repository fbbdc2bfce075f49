/// The state an operation targets (`normal`, `highlighted`...), the `state` attribute of
/// `<operation>`: the theme's model, the compiled file and the setters an app writes
/// (`for: .highlighted`) all speak this one type. A struct rather than an enum so that apps can
/// add states of their own without touching the engine; the XML front end accepts `all`.
public struct ControlState: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    public static func < (lhs: ControlState, rhs: ControlState) -> Bool { lhs.rawValue < rhs.rawValue }

    /// What an operation without `state` means.
    public static let normal = ControlState(rawValue: "normal")
    public static let highlighted = ControlState(rawValue: "highlighted")
    public static let disabled = ControlState(rawValue: "disabled")
    public static let selected = ControlState(rawValue: "selected")
    public static let focused = ControlState(rawValue: "focused")

    /// The states of the theme format (section 3), in the order the format lists them.
    public static let all: [ControlState] = [.normal, .highlighted, .disabled, .selected, .focused]
}

/// An operation's identity within an instance: a later operation with the same (name, state)
/// replaces an earlier one, diffs pair operations by it, and the runtime interns it to a number.
public struct OperationKey: Hashable, Sendable {
    public var name: String
    public var state: ControlState

    public init(name: String, state: ControlState = .normal) {
        self.name = name
        self.state = state
    }

    public init(_ operation: ResolvedOperation) {
        self.init(name: operation.name, state: operation.state)
    }
}

extension ResolvedOperation {
    /// The operation's identity (name, state).
    public var key: OperationKey { OperationKey(name: name, state: state) }
}

extension OperationKey: CustomStringConvertible {
    /// How tools and the runtime name an operation in text: `titleColor`, or
    /// `titleColor[highlighted]` for a state other than normal.
    public var description: String { state == .normal ? name : "\(name)[\(state)]" }
}

/// Numbers operation keys in the order they are first met, so identities compare as one
/// integer: the XML front end's override rule, the runtime's diffs and originals, and the
/// preparers that work off the main actor all intern keys this way.
public struct OperationKeyNumbering: Sendable {
    /// By number.
    public private(set) var keys: [OperationKey] = []
    private var numbers: [OperationKey: Int32] = [:]

    public init() {}

    /// Numbers `keys` in order (a key met twice keeps its first number).
    public init(_ keys: [OperationKey]) {
        for key in keys { number(key) }
    }

    /// The key's number, given the next one when the key is new.
    @discardableResult
    public mutating func number(_ key: OperationKey) -> Int32 {
        if let number = numbers[key] { return number }
        let number = Int32(keys.count)
        numbers[key] = number
        keys.append(key)
        return number
    }
}
