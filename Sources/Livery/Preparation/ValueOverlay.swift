import LiveryModel

/// What a theme derived by a change of personal choices (format 1.3, section 9.2) has in place
/// of its family root's records, for the operations its values, or the root's, reach: the
/// params with this theme's values in place, and the value decoded from them (nil: applied by
/// the general path, as an undecoded operation is). Keyed by the operation's place (instance and
/// index), which each record carries; the records mark such operations `replaced`.
///
/// A class for the reason given at `InstanceLookup`.
@MainActor
final class ValueOverlay {
    struct Entry {
        /// Decoded by the derived theme's preparer, which lives as long as the theme.
        var value: UnsafeMutableRawPointer?
        var params: [Param]
    }

    // Invariant that makes the unchecked access safe: main actor only, no call out during an
    // access.
    @exclusivity(unchecked) private var entries: [Int64: Entry] = [:]

    /// Room for about `capacity` entries: an entry per id the values reach is usual.
    init(capacity: Int) {
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
    /// `preparer`, and marks them `replaced` in the records. The params are the root's with
    /// `after`'s values put in when `after` replaces every param `before` does; otherwise the
    /// root's hold values the derived theme does not give, and they come from `read`, the derived
    /// theme's own instance (read only then; nil when it is damaged: the root's values stay).
    func fill(
        _ instance: PreparedInstanceID, of records: PreparedRecords,
        replacing before: [ChoiceReplacements.Replacement], with after: [ChoiceReplacements.Replacement],
        textScale: Double, preparer: InstancePreparer, read: () -> ResolvedInstance?
    ) {
        let record = records.instances[instance.index]
        let count = Int(record.count)
        var reached: [(index: Int, operation: ResolvedOperation)] = []
        let covered = before.allSatisfy { old in
            after.contains { $0.operation == old.operation && $0.param == old.param }
        }
        if covered {
            let shared = records.resolved[instance.index]
            for replacement in after where replacement.operation < count {
                var entry = reached.firstIndex { $0.index == replacement.operation }
                if entry == nil {
                    reached.append((replacement.operation, shared.operations[replacement.operation]))
                    entry = reached.count - 1
                }
                let params = reached[entry!].operation.params
                guard let param = params.firstIndex(where: { $0.name == replacement.param }) else { continue }
                reached[entry!].operation.params[param].value =
                    textScale == TextScale.standard
                    ? replacement.value : replacement.value.applyingTextScale(textScale) ?? replacement.value
            }
        } else {
            guard let own = read(), own.operations.count == count else { return }
            for index in Set((before + after).map(\.operation)) where index < count {
                reached.append((index, own.operations[index]))
            }
        }
        for (index, operation) in reached {
            let place = Int(record.first) + index
            let prepared = records.operations[place]
            var value: UnsafeMutableRawPointer?
            if let setter = prepared.setter, !InstancePreparer.mayHoldImages(operation) {
                value = preparer.decodeAgain(operation, with: setter)
            }
            records.operations[place].replaced = true
            set(Entry(value: value, params: operation.params), for: prepared)
        }
    }
}
