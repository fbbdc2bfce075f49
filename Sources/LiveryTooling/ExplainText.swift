import LiveryModel
import LiveryXML

/// `livery explain` output: each effective operation of an instance with where it is written
/// (theme, file:line, instance or class, layer), the constants its value comes through, and
/// what it overrode.
public enum ExplainText {
    public static func render(_ explanation: InstanceExplanation) -> String {
        var lines: [String] = []
        let traits =
            explanation.traits.isEmpty
            ? "no traits" : "traits \(explanation.dimensions.description(of: explanation.traits))"
        lines.append("\(explanation.id) (\(explanation.component)) in \(explanation.theme.id), \(traits)")
        lines.append("defined in:")
        for definition in explanation.definitions {
            let classes = definition.classes.isEmpty ? "" : ", class=\"\(definition.classes.joined(separator: " "))\""
            lines.append("  \(definition.location)  (\(definition.themeID), layer \(definition.layer)\(classes))")
        }
        lines.append("effective operations, in order:")
        for (index, explained) in explanation.operations.enumerated() {
            let operation = explained.operation
            lines.append("\(index + 1). \(operation.key) = \(ValueText.describe(operation.params))")
            lines += chain(of: explained).map { "     " + $0 }
        }
        if explanation.operations.isEmpty { lines.append("  (none)") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where one effective operation comes from, a line each: the place it is written, the
    /// constants its value comes through, what it overrode (each with `file:line`).
    public static func chain(of explained: ExplainedOperation) -> [String] {
        var lines = ["from \(origin(explained.origin))"]
        for trail in explained.constants { lines.append("value \(describe(trail))") }
        for earlier in explained.overridden {
            let value = earlier.params.map(ValueText.describe) ?? "(unresolved)"
            lines.append("overrides \(value) from \(origin(earlier.origin))")
        }
        return lines
    }

    static func origin(_ origin: OperationOrigin) -> String {
        let source: String
        switch origin.source {
        case .instance: source = "instance"
        case .class(_, let path): source = "class " + path.joined(separator: " > ")
        }
        return "\(source) at \(origin.location)  (\(origin.themeID), layer \(origin.layer))"
    }

    static func describe(_ trail: ConstantTrail) -> String {
        let steps = trail.steps.map { "\($0.constant) (\($0.location), \($0.themeID))" }.joined(separator: " -> ")
        let derived = trail.derivations.map { "\n      derived: " + $0 }.joined()
        return (trail.steps.isEmpty ? "\(trail.param): derived" : "\(trail.param): ref " + steps) + derived
    }

    /// The same as JSON, for editors.
    public static func json(_ explanation: InstanceExplanation) -> JSONValue {
        let empty = ResolvedTheme(info: explanation.theme, traits: explanation.traits, instances: [], assets: .empty)
        func params(_ params: [Param]?) -> JSONValue {
            guard let params else { return .null }
            return .object(params.map { ($0.name, CanonicalJSON.value($0.value, theme: empty, scale: 1)) })
        }
        func location(_ location: SourceLocation) -> JSONValue {
            .object([
                ("file", .string(location.file)), ("line", location.line.map { .integer(Int64($0)) } ?? .null),
                ("column", location.column.map { .integer(Int64($0)) } ?? .null),
            ])
        }
        func origin(_ origin: OperationOrigin) -> JSONValue {
            var members: [(String, JSONValue)] = [
                ("theme", .string(origin.themeID)), ("layer", .string(origin.layer)),
                ("location", location(origin.location)),
            ]
            switch origin.source {
            case .instance: members.append(("source", .string("instance")))
            case .class(let name, let path):
                members.append(("source", .string("class")))
                members.append(("class", .string(name)))
                members.append(("classPath", .array(path.map(JSONValue.string))))
            }
            return .object(members)
        }
        func trails(_ trails: [ConstantTrail]) -> JSONValue {
            .object(
                trails.map { trail in
                    (
                        trail.param,
                        .array(
                            trail.steps.map {
                                .object([
                                    ("constant", .string($0.constant)), ("theme", .string($0.themeID)),
                                    ("location", location($0.location)),
                                ])
                            } + trail.derivations.map { .object([("derivation", .string($0))]) })
                    )
                })
        }
        return .object([
            ("theme", .string(explanation.theme.id)),
            ("traits", .array(explanation.dimensions.tags(of: explanation.traits).map(JSONValue.string))),
            ("id", .string(explanation.id)),
            ("component", .string(explanation.component)),
            (
                "operations",
                .array(
                    explanation.operations.map { explained in
                        .object([
                            ("name", .string(explained.operation.name)),
                            ("state", .string(explained.operation.state.rawValue)),
                            ("params", params(explained.operation.params)),
                            ("origin", origin(explained.origin)),
                            ("constants", trails(explained.constants)),
                            (
                                "overrides",
                                .array(
                                    explained.overridden.map { earlier in
                                        .object([
                                            ("params", params(earlier.params)), ("origin", origin(earlier.origin)),
                                            ("constants", trails(earlier.constants)),
                                        ])
                                    })
                            ),
                        ])
                    })
            ),
        ])
    }
}
