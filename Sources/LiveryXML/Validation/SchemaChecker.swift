import LiveryModel

/// Checks one operation against a component's schema: the operation exists for the type (or one
/// it extends), `state` only where declared, every param present once with the declared type.
enum SchemaChecker {
    static func check(
        _ operation: OperationSyntax, component: String, schema: Schema,
        report: (Diagnostic) -> Void
    ) -> Bool {
        guard let signature = schema.operation(operation.name, of: component) else {
            report(unknownOperation(operation, component: component, schema: schema))
            return false
        }
        var valid = true
        if operation.state != .normal, !signature.allowsStates {
            report(
                .error(
                    .stateNotAllowed,
                    "operation '\(operation.name)' of \(component) takes no state; remove state=\"\(operation.state)\"",
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
                report(
                    .error(
                        .paramUnknown,
                        "operation '\(operation.name)' has no param '\(param.name)'\(hint.isEmpty ? "; its params: \(names)" : hint)",
                        at: param.location, fix: fix))
                valid = false
                continue
            }
            guard !seen.contains(param.name) else {
                report(
                    .error(
                        .paramDuplicate, "param '\(param.name)' of '\(operation.name)' is given twice; keep one",
                        at: param.location))
                valid = false
                continue
            }
            seen.append(param.name)
            if param.object.type != declared.type {
                report(
                    .error(
                        .paramType,
                        "param '\(param.name)' of '\(operation.name)' takes \(Phrasing.a(declared.type.rawValue)), not \(Phrasing.a(param.object.type.rawValue))",
                        at: param.object.location))
                valid = false
            }
        }
        // A misspelled param is reported once, as unknown (with its suggestion), not also as missing.
        let misspelled = operation.params.contains { param in !signature.params.contains { $0.name == param.name } }
        for declared in signature.params
        where !misspelled && !seen.contains(declared.name)
            && !operation.params.contains(where: { $0.name == declared.name })
        {
            report(
                .error(
                    .paramMissing,
                    "operation '\(operation.name)' needs param '\(declared.name)' (\(Phrasing.a(declared.type.rawValue))), e.g. <param name=\"\(declared.name)\">...</param>",
                    at: operation.location))
            valid = false
        }
        return valid
    }

    /// An operation the component does not have. One another component has is answered with where
    /// it belongs and this component's operation of the same role; otherwise the nearest spelling.
    static func unknownOperation(_ operation: OperationSyntax, component: String, schema: Schema) -> Diagnostic {
        let name = operation.name
        let (owners, same) = OperationRoles.counterpart(of: name, for: component, in: schema)
        if !owners.isEmpty {
            let list =
                owners.count == 1 ? owners[0] : owners.dropLast().joined(separator: ", ") + " and " + owners.last!
            var message = "unknown operation '\(name)' for \(component): it belongs to \(list)"
            var fix: Diagnostic.Fix?
            if let same, let role = OperationRoles.role(of: same, on: component, in: schema) {
                message += "; \(Phrasing.a(component))'s \(role) is '\(same)'"
                fix = Diagnostic.Fix(replacing: name, with: same)
            }
            return .error(.operationUnknown, message, at: operation.location, fix: fix)
        }
        let (hint, fix) = Suggestions.suggest(name, in: schema.operationNames(of: component))
        return .error(
            .operationUnknown, "unknown operation '\(name)' for \(component)\(hint)", at: operation.location, fix: fix)
    }
}
