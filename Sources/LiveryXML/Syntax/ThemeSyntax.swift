import LiveryModel

/// A typed object as written in a file: a literal, a `ref` to a constant, or an array.
struct TypedObject {
    enum Content {
        case literal(Value)
        case reference(String)
        case array([TypedObject])
    }

    var type: ValueType
    var content: Content
    var location: SourceLocation
}

struct ParamSyntax {
    var name: String
    var object: TypedObject
    var location: SourceLocation
}

struct OperationSyntax {
    /// Unique within a workspace: keys the caches of checks done once per operation.
    var serial: Int
    var name: String
    var state: String
    var params: [ParamSyntax]
    var location: SourceLocation

    var identity: OperationIdentity { OperationIdentity(name: name, state: state) }
}

struct OperationIdentity: Hashable {
    var name: String
    var state: String
}

struct ConstantSyntax {
    var name: String
    var object: TypedObject
    var location: SourceLocation
}

struct ClassSyntax {
    var name: String
    var classes: [String]
    var operations: [OperationSyntax]
    var location: SourceLocation
}

struct InstanceSyntax {
    var id: String
    var component: String
    var classes: [String]
    var operations: [OperationSyntax]
    var location: SourceLocation
    var classLocation: SourceLocation
}

/// One configuration file: a layer of its theme.
struct ConfigurationFile {
    var fileName: String
    var qualifiers: TraitSet
    var constants: [ConstantSyntax] = []
    var classes: [ClassSyntax] = []
    var instances: [InstanceSyntax] = []
}
