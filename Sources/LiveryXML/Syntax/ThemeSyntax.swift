import Foundation
import LiveryModel

/// A typed object as written in a file: a literal, a `ref` to a constant, or an array.
struct TypedObject {
    enum Content {
        case literal(Value)
        case reference(String)
        case array([TypedObject])
        /// A colour with modifiers (format 1.3, section 9.1); its base is a literal or a reference.
        case derived(DerivedColorSyntax)
    }

    // Field order is memory layout: the one-byte type fills the content's tag padding, so a
    // typed object is 40 bytes rather than 48 (there is one per param and constant).
    var content: Content
    var type: ValueType
    /// The element.
    var mark: SourceMark

    init(type: ValueType, content: Content, mark: SourceMark) {
        self.content = content
        self.type = type
        self.mark = mark
    }

    var location: SourceLocation { mark.location }
    /// The value's text for literals other than fonts (where a bad value is), else the element.
    /// Worked out from the element's offset when asked: most values never need it.
    var valueLocation: SourceLocation {
        if case .literal = content, type != .font { return mark.textLocation }
        return mark.location
    }
}

struct ParamSyntax {
    var name: String
    var object: TypedObject
    /// The `<param>` element's offset; its source is the object's (one reference per param, not two).
    private var offset: Int32

    init(name: String, object: TypedObject, mark: SourceMark) {
        self.name = name
        self.object = object
        self.offset = mark.offset
    }

    var mark: SourceMark { SourceMark(object.mark.source, Int(offset)) }
    var location: SourceLocation { mark.location }
}

/// Syntax nodes that the resolver passes around by the thousand are classes: sharing one is a
/// single retain, where copying a struct of strings and arrays cost a retain per field.
final class OperationSyntax {
    // Stored compactly, in an order that leaves no padding: there is one of these per operation
    // of every theme file, the largest item of the front end's peak memory.
    private var serialNumber: Int32
    private let identityNumber: Int32
    let name: String
    let params: ParamList
    /// Index into `ControlState.all` (the decoder accepts no other state).
    private let stateIndex: UInt8
    let mark: SourceMark

    /// Unique within a workspace: each folder's operations are numbered from 0 as it is read,
    /// then moved past every folder read before (`rebase`) when the workspace keeps it.
    var serial: Int { Int(serialNumber) }

    /// Only before the folder holding the operation is shared (`DecodedThemeFolder.rebase`).
    func rebase(by offset: Int) { serialNumber += Int32(offset) }
    /// `(name, state)` interned to a number, so identity comparisons hash one integer.
    var identity: Int { Int(identityNumber) }
    var state: ControlState { ControlState.all[Int(stateIndex)] }

    var location: SourceLocation { mark.location }
    /// The `state` attribute, or the element when there is none.
    var stateLocation: SourceLocation { mark.attributeLocation("state") }

    init(serial: Int, name: String, state: ControlState, params: ParamList, mark: SourceMark, identity: Int) {
        guard let index = ControlState.all.firstIndex(of: state) else {
            preconditionFailure("operation state '\(state)' is not one of ControlState.all; the decoder rejects it")
        }
        self.serialNumber = Int32(serial)
        self.identityNumber = Int32(identity)
        self.name = name
        self.params = params
        self.stateIndex = UInt8(index)
        self.mark = mark
    }
}

/// An operation's params. Nearly every operation has exactly one, kept inline in the operation
/// node: an array of one would be a second allocation (about 130 bytes) per operation, the
/// largest single item of the front end's peak memory.
struct ParamList: RandomAccessCollection {
    private enum Storage {
        case none
        case one(ParamSyntax)
        case many([ParamSyntax])
    }

    private var storage = Storage.none

    init() {}

    mutating func append(_ param: ParamSyntax) {
        switch storage {
        case .none: storage = .one(param)
        case .one(let first): storage = .many([first, param])
        case .many(var list):
            storage = .none
            list.append(param)
            storage = .many(list)
        }
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case .none: 0
        case .one: 1
        case .many(let list): list.count
        }
    }

    subscript(position: Int) -> ParamSyntax {
        switch storage {
        case .one(let param):
            precondition(position == 0, "ParamList index out of range")
            return param
        case .many(let list):
            return list[position]
        case .none:
            preconditionFailure("ParamList index out of range")
        }
    }
}

/// Numbers each distinct (operation name, state) pair. Shared by every folder a workspace
/// reads, on whichever thread reads it: the numbering is behind a lock.
final class IdentityTable: @unchecked Sendable {
    private let lock = NSLock()
    private var numbering = OperationKeyNumbering()

    func number(_ key: OperationKey) -> Int {
        lock.lock()
        defer { lock.unlock() }
        return Int(numbering.number(key))
    }
}

final class ConstantSyntax {
    let name: String
    let object: TypedObject
    let mark: SourceMark
    /// `overridable="true"` or `"false"` as written (format 1.3, section 9.2); nil when absent.
    let overridable: Bool?
    var location: SourceLocation { mark.location }

    init(name: String, object: TypedObject, mark: SourceMark, overridable: Bool? = nil) {
        self.name = name
        self.object = object
        self.mark = mark
        self.overridable = overridable
    }
}

final class ClassSyntax {
    let name: String
    let classes: [String]
    let operations: [OperationSyntax]
    let mark: SourceMark
    var location: SourceLocation { mark.location }

    init(name: String, classes: [String], operations: [OperationSyntax], mark: SourceMark) {
        self.name = name
        self.classes = classes
        self.operations = operations
        self.mark = mark
    }
}

final class InstanceSyntax {
    let id: String
    let component: String
    let classes: [String]
    let operations: [OperationSyntax]
    let mark: SourceMark
    var location: SourceLocation { mark.location }
    /// The `class` attribute, or the element when there is none.
    var classLocation: SourceLocation { mark.attributeLocation("class") }

    init(id: String, component: String, classes: [String], operations: [OperationSyntax], mark: SourceMark) {
        self.id = id
        self.component = component
        self.classes = classes
        self.operations = operations
        self.mark = mark
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
    /// Constants this file defines whose value is broken (reported where they are): they count
    /// as defined, so their uses are not reported as unknown as well.
    var brokenConstants: Set<String> = []
    /// Classes and asset names written in elements that failed to decode: their definitions are
    /// not unused, the element that names them is broken (and reported).
    var mentionedClasses: Set<String> = []
    var mentionedAssets: Set<String> = []
    /// Classes whose definition is broken (reported where it is): their uses are not unknown.
    var brokenClasses: Set<String> = []
    /// A section of the file could not be read (a misspelled <constants>): what it defines is unknown.
    var incomplete = false
}
