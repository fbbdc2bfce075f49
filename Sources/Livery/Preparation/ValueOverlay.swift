import LiveryModel

/// A theme's values for the operations of its family's shared records that values of personal
/// choices reach (format 1.3, section 9.2; the records mark them `replaced` and hold no value for
/// them): a derived theme's, with its values in place, or the root's own, moved here from its
/// records. Each entry has the params and the value decoded from them (nil: applied by the
/// general path, as an undecoded operation is), keyed by the operation's place (instance and
/// index), which each record carries.
///
/// A class for the reason given at `InstanceLookup`.
@MainActor
final class ValueOverlay {
    struct Entry {
        /// Decoded by the theme's preparer, which lives as long as the theme.
        var value: UnsafeMutableRawPointer?
        var params: [Param]
    }

    // Invariant that makes the unchecked access safe: main actor only, no call out during an
    // access.
    @exclusivity(unchecked) private var entries: [Int64: Entry] = [:]

    /// Room for about `capacity` entries: an entry per id the values reach is usual.
    init(capacity: Int = 0) {
        entries.reserveCapacity(capacity)
    }

    private static func place(of record: PreparedOperation) -> Int64 {
        Int64(record.instance.rawValue) << 32 | Int64(UInt32(bitPattern: record.index))
    }

    /// The entry of `record`'s operation, nil when the theme's values do not reach it.
    func entry(for record: PreparedOperation) -> Entry? { entries[Self.place(of: record)] }

    func set(_ entry: Entry, for record: PreparedOperation) { entries[Self.place(of: record)] = entry }

    /// Puts here the operations of `instance` (of `records`, the family root's) that the root's
    /// values of personal choices (`before`) or the derived theme's (`after`, at `textScale`)
    /// reach: their params with the derived theme's values in place, decoded again by
    /// `preparer`.
    ///
    /// The params are the root's with `after`'s values put in when `after` replaces every param
    /// `before` does; otherwise the root's hold values the derived theme does not give, and they
    /// come from `read`, the derived theme's own instance (read only then; nil when it is
    /// damaged: the root's values stay).
    ///
    /// An operation reached for the first time in the family is marked `replaced` in the
    /// records, and its value moves to the root's overlay (`root`): the hot loop of a switch then
    /// takes the general path for it, which reads the overlay of the theme it applies
    /// (`Applicator.applyUndecoded`), and the operations no choice reaches cost nothing more
    /// (`livery-switch-bench --choice`, the warm switch).
    func fill(
        _ instance: PreparedInstanceID, of records: PreparedRecords, root: ValueOverlay,
        replacing before: ChoiceReplacements.Replacements?, with after: ChoiceReplacements.Replacements?,
        textScale: Double, preparer: InstancePreparer, read: () -> ResolvedInstance?
    ) {
        let record = records.instances[instance.index]
        let count = Int(record.count)
        var reached: [(index: Int, operation: ResolvedOperation)] = []
        let covered =
            before?.allSatisfy { old in
                after?.contains { $0.operation == old.operation && $0.param == old.param } ?? false
            } ?? true
        if covered, let after {
            let shared = records.resolved[instance.index]
            for var replacement in after where replacement.operation < count {
                var entry = reached.firstIndex { $0.index == replacement.operation }
                if entry == nil {
                    reached.append((replacement.operation, shared.operations[replacement.operation]))
                    entry = reached.count - 1
                }
                if textScale != TextScale.standard {
                    replacement.value = replacement.value.applyingTextScale(textScale) ?? replacement.value
                }
                replacement.apply(to: &reached[entry!].operation)
            }
        } else if let before, !covered {
            guard let own = read(), own.operations.count == count else { return }
            var indices = Set<Int>()
            for replacement in before { indices.insert(replacement.operation) }
            for replacement in after ?? before { indices.insert(replacement.operation) }
            for index in indices.sorted() where index < count { reached.append((index, own.operations[index])) }
        }
        for (index, operation) in reached {
            let place = Int(record.first) + index
            let prepared = records.operations[place]
            var value: UnsafeMutableRawPointer?
            if let setter = prepared.setter, !InstancePreparer.mayHoldImages(operation) {
                value = preparer.decodeAgain(operation, with: setter)
            }
            if !prepared.replaced {
                root.set(
                    Entry(value: prepared.value, params: records.resolved[instance.index].operations[index].params),
                    for: prepared)
                records.operations[place].value = nil
                records.operations[place].replaced = true
            }
            set(Entry(value: value, params: operation.params), for: prepared)
        }
    }
}
