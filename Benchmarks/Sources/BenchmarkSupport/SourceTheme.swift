import Foundation
import LiveryModel

/// A theme's source as the comparison loaders see it: the same information as the XML files
/// (layers with qualifiers, constants, classes, instances, operations, typed values), as plain
/// `Codable` structs. The JSON and property-list forms of a generated theme are this struct
/// encoded; the `XMLParser` loader builds it from the XML. `SourceResolver` turns it into the
/// same `ResolvedInstance`s our front end produces, so every loader ends at the same model.
public struct SourceTheme: Codable, Hashable, Sendable {
    public var id: String
    public var name: String
    public var parent: String?
    /// One per configuration file, in file-name order.
    public var files: [SourceFile]
}

public struct SourceFile: Codable, Hashable, Sendable {
    /// The file name, e.g. `Screen003~ipad.xml`.
    public var name: String
    public var constants: [SourceConstant] = []
    public var classes: [SourceClass] = []
    public var instances: [SourceInstance] = []
}

public struct SourceConstant: Codable, Hashable, Sendable {
    public var name: String
    public var value: SourceValue
}

public struct SourceClass: Codable, Hashable, Sendable {
    public var name: String
    public var classes: [String]
    public var operations: [SourceOperation]
}

public struct SourceInstance: Codable, Hashable, Sendable {
    public var id: String
    public var component: String
    public var classes: [String]
    public var operations: [SourceOperation]
}

public struct SourceOperation: Codable, Hashable, Sendable {
    public var name: String
    public var state: String?
    public var params: [SourceParam]

    /// The operation's identity, as the front end keys it.
    var key: OperationKey {
        OperationKey(name: name, state: state.map(ControlState.init(rawValue:)) ?? .normal)
    }
}

public struct SourceParam: Codable, Hashable, Sendable {
    public var name: String
    public var value: SourceValue
}

/// A typed value as written: its type, then either a reference to a constant or its text
/// (fonts carry their attributes instead).
public struct SourceValue: Codable, Hashable, Sendable {
    public var type: String
    public var ref: String?
    public var text: String?
    public var format: String?
    public var family: String?
    public var size: String?
    public var weight: String?

    public init(
        type: String, ref: String? = nil, text: String? = nil, format: String? = nil,
        family: String? = nil, size: String? = nil, weight: String? = nil
    ) {
        self.type = type
        self.ref = ref
        self.text = text
        self.format = format
        self.family = family
        self.size = size
        self.weight = weight
    }

    static func ref(_ type: String, _ name: String) -> SourceValue { SourceValue(type: type, ref: name) }
    static func literal(_ type: String, _ text: String) -> SourceValue { SourceValue(type: type, text: text) }
}

extension SourceOperation {
    static func op(_ name: String, _ param: String, _ value: SourceValue, state: String? = nil) -> SourceOperation {
        SourceOperation(name: name, state: state, params: [SourceParam(name: param, value: value)])
    }
}
