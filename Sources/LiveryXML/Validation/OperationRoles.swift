import LiveryModel

/// What an operation sets, in a designer's words ("text colour", "font"), so that an operation
/// written on the wrong component can be answered with this component's operation of the same
/// role: `titleColor` on a label is a label's `textColor`.
public enum OperationRoles {
    /// The roles of the standard schema's operations that have a counterpart on other components.
    static let standard: [String: String] = [
        "textColor": "text colour", "titleColor": "text colour",
        "font": "font", "titleFont": "font",
        "text": "text", "title": "text",
        "backgroundColor": "background colour", "barTintColor": "background colour",
        "image": "image", "backgroundImage": "background image", "thumbImage": "thumb image",
        "onTintColor": "filled track colour", "minimumTrackTintColor": "filled track colour",
        "progressTintColor": "filled track colour",
        "maximumTrackTintColor": "track colour", "trackTintColor": "track colour",
        "contentEdgeInsets": "content insets", "textContainerInset": "content insets",
    ]

    /// The role of `operation` as `component` declares it: the standard table, else the role the
    /// schema gives its colour param (`role="text-color"`), else the single param's type for insets.
    public static func role(of operation: String, on component: String, in schema: Schema) -> String? {
        if let role = standard[operation] { return role }
        guard let signature = schema.operation(operation, of: component) else { return nil }
        for param in signature.params {
            switch param.role {
            case .textColor?: return "text colour"
            case .backgroundColor?: return "background colour"
            case nil: break
            }
        }
        if signature.params.count == 1, signature.params[0].type == .insets { return "content insets" }
        return nil
    }

    /// The components that declare `operation` themselves, sorted.
    static func owners(of operation: String, in schema: Schema) -> [String] {
        schema.components.values.filter { $0.operations[operation] != nil }.map(\.name).sorted()
    }

    /// For an operation `component` does not have: the components it belongs to, and this
    /// component's operation of the same role, if it has exactly one.
    static func counterpart(of operation: String, for component: String, in schema: Schema) -> (
        owners: [String], same: String?
    ) {
        let owners = owners(of: operation, in: schema)
        guard let owner = owners.first, let wanted = role(of: operation, on: owner, in: schema) else {
            return (owners, nil)
        }
        let same = schema.operationNames(of: component).filter { role(of: $0, on: component, in: schema) == wanted }
        return (owners, same.count == 1 ? same[0] : nil)
    }
}
