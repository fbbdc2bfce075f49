// The typed numbers the runtime passes around. Each wraps the `Int32` its tables are indexed
// by, so storage stays compact, but one kind of number cannot be passed where another is
// meant; "none" is `Optional`, never a sentinel value.

/// A number that indexes one kind of table: its `Int32`, and the `Int` a table is subscripted with.
protocol TableIndex: RawRepresentable, Hashable where RawValue == Int32 {
    init(rawValue: Int32)
}

extension TableIndex {
    init(_ index: Int) { self.init(rawValue: Int32(index)) }
    var index: Int { Int(rawValue) }
}

/// Where the registry holds one component (`ComponentRegistry`).
struct ComponentSlot: TableIndex {
    let rawValue: Int32
}

/// The components of one scope styled as one identifier (`ComponentRegistry`).
struct GroupID: TableIndex {
    let rawValue: Int32
}

/// A scope of the applicator; the root scope is the app's.
struct ScopeID: TableIndex {
    let rawValue: Int32
    static let root = ScopeID(rawValue: 0)
}

/// An identifier string's number in the applicator's `IdentifierTable`.
struct IdentifierNumber: TableIndex {
    let rawValue: Int32
}

/// An instance of one prepared theme: an index into `PreparedTheme.instances`.
struct PreparedInstanceID: TableIndex, Sendable {
    let rawValue: Int32
}

/// An operation's (name, state) interned in the applicator's `OperationKeys` (or, while a
/// preparer works off the main actor, in its own numbering, which `KeyTranslation` maps).
struct OperationKeyNumber: TableIndex, Sendable {
    let rawValue: Int32
}

/// A binding's index in the bindings a theme was prepared with (`BindingSnapshot.bindings`).
struct BindingIndex: TableIndex, Sendable {
    let rawValue: Int32
}

/// Instances of one shape (binding, and operation keys in order) share a full-apply plan; a
/// preparer numbers the shapes it meets (`PreparedInstance.shape`).
struct ShapeNumber: TableIndex, Sendable {
    let rawValue: Int32
}

/// The shape of the blocks of originals of a full-apply plan (`OriginalLayouts`).
struct LayoutID: TableIndex {
    let rawValue: Int32
}

/// Where an instance is in an `InstanceSource`: its index in a resolved theme, or its handle in
/// a compiled file (the same for every trait set).
struct SourcePosition: TableIndex, Sendable {
    let rawValue: Int32
}
