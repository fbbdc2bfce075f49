import LiveryModel

/// Checks one operation against a component's schema: the operation exists for the type (or one
/// it extends), `state` only where declared, every param present once with the declared type.
enum SchemaChecker {
    static func check(_ operation: OperationSyntax, component: String, schema: Schema,
                      report: (Diagnostic) -> Void) -> Bool {
        guard let signature = schema.operation(operation.name, of: component) else {
            let (hint, fix) = Suggestions.suggest(operation.name, in: schema.operationNames(of: component))
            report(.error(.operationUnknown, "unknown operation '\(operation.name)' for \(component)\(hint)", at: operation.location, fix: fix))
            return false
        }
        var valid = true
        if operation.state != .normal, !signature.allowsStates {
            report(.error(.stateNotAllowed, "operation '\(operation.name)' of \(component) takes no state; remove state=\"\(operation.state)\"",
                          at: operation.stateLocation))
            valid = false
        }
        // Operations have one or two params: a small array beats a Set here.
        var seen: [String] = []
        seen.reserveCapacity(operation.params.count)
        for param in operation.params {
            guard let declared = signature.params.first(where: { $0.name == param.name }) else {
                let (hint, fix) = Suggestions.suggest(param.name, in: signature.params.map(\.name))
                let names = signature.params.map { "'\($0.name)'" }.joined(separator: ", ")
                report(.error(.paramUnknown, "operation '\(operation.name)' has no param '\(param.name)'\(hint.isEmpty ? "; its params: \(names)" : hint)",
                              at: param.location, fix: fix))
                valid = false
                continue
            }
            guard !seen.contains(param.name) else {
                report(.error(.paramDuplicate, "param '\(param.name)' of '\(operation.name)' is given twice; keep one", at: param.location))
                valid = false
                continue
            }
            seen.append(param.name)
            if param.object.type != declared.type {
                report(.error(.paramType, "param '\(param.name)' of '\(operation.name)' takes \(Phrasing.a(declared.type.rawValue)), not \(Phrasing.a(param.object.type.rawValue))",
                              at: param.object.location))
                valid = false
            }
        }
        // A misspelled param is reported once, as unknown (with its suggestion), not also as missing.
        let misspelled = operation.params.contains { param in !signature.params.contains { $0.name == param.name } }
        for declared in signature.params where !misspelled && !seen.contains(declared.name)
            && !operation.params.contains(where: { $0.name == declared.name }) {
            report(.error(.paramMissing, "operation '\(operation.name)' needs param '\(declared.name)' (\(Phrasing.a(declared.type.rawValue))), e.g. <param name=\"\(declared.name)\">...</param>",
                          at: operation.location))
            valid = false
        }
        return valid
    }
}
