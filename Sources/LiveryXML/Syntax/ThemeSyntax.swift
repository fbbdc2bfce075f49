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
    /// The element.
    var location: SourceLocation
    /// The value's text for literals (where a bad value is), else the element.
    var valueLocation: SourceLocation
}

struct ParamSyntax {
    var name: String
    var object: TypedObject
    var location: SourceLocation
}

/// Syntax nodes that the resolver passes around by the thousand are classes: sharing one is a
/// single retain, where copying a struct of strings and arrays cost a retain per field.
final class OperationSyntax {
    /// Unique within a workspace, numbered from 0: indexes the caches of checks done once.
    let serial: Int
    let name: String
    let state: String
    let params: [ParamSyntax]
    let location: SourceLocation
    /// The `state` attribute, or the element when there is none.
    let stateLocation: SourceLocation
    /// `(name, state)` interned to a number, so identity comparisons hash one integer.
    let identity: Int

    init(serial: Int, name: String, state: String, params: [ParamSyntax], location: SourceLocation,
         stateLocation: SourceLocation, identity: Int) {
        self.serial = serial
        self.name = name
        self.state = state
        self.params = params
        self.location = location
        self.stateLocation = stateLocation
        self.identity = identity
    }
}

/// Numbers each distinct (operation name, state) pair.
final class IdentityTable {
    private var numbers: [OperationIdentity: Int] = [:]

    func number(name: String, state: String) -> Int {
        let key = OperationIdentity(name: name, state: state)
        if let number = numbers[key] { return number }
        numbers[key] = numbers.count
        return numbers.count - 1
    }
}

struct OperationIdentity: Hashable {
    var name: String
    var state: String
}

final class ConstantSyntax {
    let name: String
    let object: TypedObject
    let location: SourceLocation

    init(name: String, object: TypedObject, location: SourceLocation) {
        self.name = name
        self.object = object
        self.location = location
    }
}

final class ClassSyntax {
    let name: String
    let classes: [String]
    let operations: [OperationSyntax]
    let location: SourceLocation

    init(name: String, classes: [String], operations: [OperationSyntax], location: SourceLocation) {
        self.name = name
        self.classes = classes
        self.operations = operations
        self.location = location
    }
}

final class InstanceSyntax {
    let id: String
    let component: String
    let classes: [String]
    let operations: [OperationSyntax]
    let location: SourceLocation
    let classLocation: SourceLocation

    init(id: String, component: String, classes: [String], operations: [OperationSyntax],
         location: SourceLocation, classLocation: SourceLocation) {
        self.id = id
        self.component = component
        self.classes = classes
        self.operations = operations
        self.location = location
        self.classLocation = classLocation
    }
}

/// One configuration file: a layer of its theme.
struct ConfigurationFile {
    var fileName: String
    var qualifiers: TraitSet
    var constants: [ConstantSyntax] = []
    var classes: [ClassSyntax] = []
    var instances: [InstanceSyntax] = []
    /// Every constant named by a `ref`, including references that failed to decode, so a broken
    /// reference does not also make its constant look unused.
    var mentionedConstants: Set<String> = []
}
