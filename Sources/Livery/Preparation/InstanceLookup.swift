import LiveryModel

/// Which prepared instance each identifier names, in one prepared theme; `PreparedTheme` asks
/// it before preparing anything.
///
/// Invariants: an identifier's answer, once recorded, never changes (the instances of a
/// prepared theme are fixed once prepared); the ids of a theme resolved in memory are numbered
/// once (`index`), their positions kept by identifier number. The tables are compact numbers,
/// with private sentinels; what leaves this type is typed and `Optional`.
///
/// A class, not a struct stored in the prepared theme: a method call on a struct stored in a
/// class may copy it, retaining each of its arrays, and registration and every switch ask once
/// per group (`livery-bench runtime`, the warm switch of a tenth).
@MainActor
final class InstanceLookup {
    /// What is known of an identifier.
    enum Answer {
        /// Not looked up yet: the prepared theme looks it up (and may prepare it).
        case notLookedUp
        /// The theme has no instance for it.
        case absent
        case instance(PreparedInstanceID)
    }

    /// The stored value of a missing position or instance.
    private static let none: Int32 = -1
    /// `byIdentifier`'s value for an identifier not looked up yet.
    private static let notLookedUp: Int32 = -2

    /// The applicator's identifier numbering, shared by its prepared themes.
    let identifiers: IdentifierTable
    // Invariant that makes the unchecked accesses safe: main actor only, each access a single
    // read or write with no call out in between.
    /// Identifier number -> prepared instance, `none` or `notLookedUp`.
    @exclusivity(unchecked) private var byIdentifier: ContiguousArray<Int32> = []
    /// Identifier number -> position of the instance in a theme resolved in memory (`none` or
    /// past the end: not in the theme). A compiled file's own hash table answers instead.
    @exclusivity(unchecked) private var positionByIdentifier: ContiguousArray<Int32> = []
    /// A theme prepared whole: source position -> prepared instance (nil: the traits do not
    /// define it).
    private let preparedByPosition: ContiguousArray<PreparedInstanceID?>
    /// Whether `index` ran.
    private(set) var isIndexed = false

    init(identifiers: IdentifierTable, preparedByPosition: ContiguousArray<PreparedInstanceID?> = []) {
        self.identifiers = identifiers
        self.preparedByPosition = preparedByPosition
    }

    /// The answers of `base` (a theme prepared as components were styled), except for the
    /// identifiers `forgotten` marks, which are looked up again: what a theme derived from `base`
    /// by a change of personal choices starts from.
    init(copying base: InstanceLookup, forgetting forgotten: ContiguousArray<Bool>) {
        identifiers = base.identifiers
        preparedByPosition = []
        byIdentifier = base.byIdentifier
        positionByIdentifier = base.positionByIdentifier
        isIndexed = base.isIndexed
        for index in byIdentifier.indices where index < forgotten.count && forgotten[index] {
            byIdentifier[index] = Self.notLookedUp
        }
    }

    @inline(__always)
    func answer(for number: IdentifierNumber) -> Answer {
        guard number.index < byIdentifier.count else { return .notLookedUp }
        let known = byIdentifier[number.index]
        if known == Self.notLookedUp { return .notLookedUp }
        return known == Self.none ? .absent : .instance(PreparedInstanceID(rawValue: known))
    }

    /// Records the answer for `number` (nil: the theme has none).
    func record(_ instance: PreparedInstanceID?, for number: IdentifierNumber) {
        if number.index >= byIdentifier.count {
            byIdentifier.append(
                contentsOf: repeatElement(Self.notLookedUp, count: number.index + 1 - byIdentifier.count))
        }
        byIdentifier[number.index] = instance?.rawValue ?? Self.none
    }

    /// Numbers every id of `instances` (a theme resolved in memory) in the identifier table, and
    /// keeps each one's position: the first of equal ids.
    func index(_ instances: [ResolvedInstance]) {
        isIndexed = true
        identifiers.reserveCapacity(adding: instances.count)
        var table = ContiguousArray<Int32>(repeating: Self.none, count: identifiers.count + instances.count)
        withBuffer(instances) { instances in
            for index in instances.indices {
                let number = identifiers.number(instances[index].id).index
                if number >= table.count {
                    table.append(contentsOf: repeatElement(Self.none, count: number + 1 - table.count))
                }
                if table[number] == Self.none { table[number] = Int32(index) }
            }
        }
        positionByIdentifier = table
    }

    /// Answers every indexed identifier with its position: right for a theme resolved in memory
    /// and prepared whole, whose instances are prepared in the order of their positions.
    func answerByPosition() {
        byIdentifier = positionByIdentifier
    }

    /// The position `index` found for `number`, nil when the theme has none.
    func position(of number: IdentifierNumber) -> SourcePosition? {
        guard number.index < positionByIdentifier.count else { return nil }
        let position = positionByIdentifier[number.index]
        return position == Self.none ? nil : SourcePosition(rawValue: position)
    }

    /// In a theme prepared whole, the instance prepared from `position`; nil when the traits do
    /// not define one there.
    func prepared(at position: SourcePosition) -> PreparedInstanceID? {
        preparedByPosition[position.index]
    }
}
