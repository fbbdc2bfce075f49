import LiveryModel

// Whether two prepared operations have the same effect: from their decoded bits where they are
// plain, or else from their params and image files.
extension PreparedTheme {
    /// Whether applying `new` after `old` (operations of one key, so of one setter, as a diff
    /// pairs them) changes nothing, answered from their decoded values when they are plain
    /// bits; nil when only their params can tell (`sameEffect(_:as:in:)`).
    ///
    /// Equal bits are equal values, so nothing is ever skipped wrongly; the reverse may not
    /// hold (-0.0 and 0.0, padding bytes), and such a value is applied again, harmlessly.
    /// Comparing params is the slow path of a first switch's diff
    /// (`livery-switch-bench --profile-switch-many`).
    @inline(__always)
    nonisolated static func sameEffect(_ new: PreparedOperation, as old: PreparedOperation) -> Bool? {
        guard let newValue = new.value, let oldValue = old.value, let setter = new.setter,
            setter.toOpaque() == old.setter?.toOpaque()
        else { return nil }
        return setter.withGuaranteedSetter { setter -> Bool? in
            guard setter.valueIsTrivial else { return nil }
            return bytesEqual(newValue, oldValue, count: setter.valueSize)
        }
    }

    @inline(__always)
    private nonisolated static func bytesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < count {
            if lhs.load(fromByteOffset: offset, as: UInt8.self) != rhs.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            offset += 1
        }
        return true
    }

    /// The same from the parts (the records, their indices, themes and image files): what a
    /// theme prepared on another thread has before it is a `PreparedTheme`.
    nonisolated static func sameEffect(
        _ newRecord: PreparedOperation, _ new: Int32,
        of newTheme: ContiguousArray<ResolvedInstance>, _ newFiles: [Int32: String],
        as oldRecord: PreparedOperation, _ old: Int32,
        of oldTheme: ContiguousArray<ResolvedInstance>,
        _ oldFiles: [Int32: String]
    ) -> Bool {
        // An operation with a decoded value has no image files (they are only recorded for
        // operations that are not decoded): the two dictionary lookups are needed only when
        // either is undecoded.
        if newRecord.value == nil || oldRecord.value == nil, newFiles[new] != oldFiles[old] { return false }
        // The params are read in place, not copied out as whole operations, so nothing is
        // retained or released per pair (`livery-switch-bench --profile-register-many`).
        return sameParams(
            newTheme[newRecord.instance.index].operations[Int(newRecord.index)].params,
            oldTheme[oldRecord.instance.index].operations[Int(oldRecord.index)].params)
    }

    /// `lhs == rhs`, element by element through the buffers: the same answer as `Array.==`
    /// (identical buffers are equal without comparing, as there), without copying each
    /// param (retaining its name and value) as that did.
    private nonisolated static func sameParams(_ lhs: [Param], _ rhs: [Param]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return withBuffer(lhs) { lhs in
            withBuffer(rhs) { rhs in
                if lhs.baseAddress == rhs.baseAddress { return true }
                for index in lhs.indices
                where lhs[index].name != rhs[index].name || lhs[index].value != rhs[index].value {
                    return false
                }
                return true
            }
        }
    }
}

// The values a theme applies where values of personal choices reach its family's records.
extension PreparedTheme {
    /// The decoded value this theme applies for `record`, an operation values of personal
    /// choices reach in the family (`replaced`, whose record holds no value): its overlay's, or
    /// else its root's. Nil when it is not decoded (the general path applies its params).
    func overlaidValue(of record: PreparedOperation) -> UnsafeMutableRawPointer? {
        (overlay.entry(for: record) ?? root?.overlay.entry(for: record))?.value
    }

    /// Whether applying operation `new` of this theme after `old` of `other` changes nothing.
    func sameEffect(_ new: Int32, as old: Int32, in other: PreparedTheme) -> Bool {
        let newRecord = records.operations[Int(new)]
        let oldRecord = other.records.operations[Int(old)]
        if newRecord.replaced || oldRecord.replaced {
            var newProbe = newRecord
            var oldProbe = oldRecord
            if newRecord.replaced { newProbe.value = overlaidValue(of: newRecord) }
            if oldRecord.replaced { oldProbe.value = other.overlaidValue(of: oldRecord) }
            if let same = Self.sameEffect(newProbe, as: oldProbe) { return same }
            // An undecoded value reached by personal choices: its image files are not recorded,
            // and it is applied again, harmlessly.
            if newProbe.value == nil || oldProbe.value == nil { return false }
            return resolvedOperation(newRecord).params == other.resolvedOperation(oldRecord).params
        }
        return Self.sameEffect(
            records.operations[Int(new)], new, of: records.resolved, records.imageFiles,
            as: other.records.operations[Int(old)], old, of: other.records.resolved, other.records.imageFiles)
    }
}
