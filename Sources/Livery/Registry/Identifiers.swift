// The typed numbers the runtime passes around. Each wraps the `Int32` its tables are indexed
// by, so storage stays compact, but one kind of number cannot be passed where another is
// meant; "none" is `Optional`, never a sentinel value.

/// Where the registry holds one component (`ComponentRegistry`).
struct ComponentSlot: RawRepresentable, Hashable {
    let rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }
    init(_ index: Int) { rawValue = Int32(index) }
    var index: Int { Int(rawValue) }
}

/// The components of one scope styled as one identifier (`ComponentRegistry`).
struct GroupID: RawRepresentable, Hashable {
    let rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }
    init(_ index: Int) { rawValue = Int32(index) }
    var index: Int { Int(rawValue) }
}

/// A scope of the applicator; the root scope is the app's.
struct ScopeID: RawRepresentable, Hashable {
    let rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }
    init(_ index: Int) { rawValue = Int32(index) }
    var index: Int { Int(rawValue) }
    static let root = ScopeID(rawValue: 0)
}

/// An identifier string's number in the applicator's `IdentifierTable`.
struct IdentifierNumber: RawRepresentable, Hashable {
    let rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }
    init(_ index: Int) { rawValue = Int32(index) }
    var index: Int { Int(rawValue) }
}

/// An instance of one prepared theme: an index into `PreparedTheme.instances`.
struct PreparedInstanceID: RawRepresentable, Hashable, Sendable {
    let rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }
    init(_ index: Int) { rawValue = Int32(index) }
    var index: Int { Int(rawValue) }
}

/// The shape of the blocks of originals of a full-apply plan (`OriginalLayouts`).
struct LayoutID: RawRepresentable, Hashable {
    let rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }
    init(_ index: Int) { rawValue = Int32(index) }
    var index: Int { Int(rawValue) }
}

/// Where an instance is in an `InstanceSource`: its index in a resolved theme, or its handle in
/// a compiled file (the same for every trait set).
struct SourcePosition: RawRepresentable, Hashable, Sendable {
    let rawValue: Int32
    init(rawValue: Int32) { self.rawValue = rawValue }
    init(_ index: Int) { rawValue = Int32(index) }
    var index: Int { Int(rawValue) }
}
