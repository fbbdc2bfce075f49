// How the writer stores each string, operation and instance record once, and the keys it finds them by.
import LiveryModel

extension EncoderState {
    mutating func string(_ text: String) -> UInt32 {
        if let index = stringIndex[ExactString(text)] { return index }
        let index = UInt32(strings.count)
        strings.append(text)
        stringIndex[ExactString(text)] = index
        return index
    }

    mutating func optionalString(_ text: String?) -> UInt32 { text.map { string($0) } ?? Format.none }

    /// Interns an instance record: every (id, variant) resolving to the same component and
    /// operations shares one. A list that is new is stored in full, or, when it differs from a
    /// list of the same length that an earlier variant of this id stored in full in fewer than
    /// half of its positions, as that list plus patches (a patch costs two words, an entry one).
    mutating func record(_ instance: ResolvedInstance, handle: Int) throws(BinaryFormatError) -> UInt32 {
        let storage = instance.operations.withUnsafeBufferPointer { buffer in
            StorageKey(
                handle: handle, component: instance.component, address: UInt(bitPattern: buffer.baseAddress),
                count: buffer.count)
        }
        if storage.count > 0, let known = recordOfStorage[storage] { return known }
        let index = try newRecord(instance, handle: handle)
        if storage.count > 0 { recordOfStorage[storage] = index }
        return index
    }

    private mutating func newRecord(_ instance: ResolvedInstance, handle: Int) throws(BinaryFormatError) -> UInt32 {
        let list = instance.operations.map { operation($0) }
        let key = RecordKey(component: string(instance.component), operations: list)
        if let index = instanceIndex[key] {
            if let shared = recordLists[Int(index)] { addBase(shared, handle: handle) }
            return index
        }
        let first: Int
        var changed: [Int] = []
        if let known = operationListIndex[list] {
            first = Int(known)
        } else {
            var best: (first: Int, changed: [Int])?
            for base in baseLists[handle] where base.count == list.count {
                var differences: [Int] = []
                for position in 0..<list.count where operationLists[base.first + position] != list[position] {
                    differences.append(position)
                    if 2 * differences.count >= list.count { break }
                }
                if 2 * differences.count < list.count, differences.count < best?.changed.count ?? Int.max {
                    best = (base.first, differences)
                }
            }
            if let best {
                first = best.first
                changed = best.changed
            } else {
                first = operationLists.count
                operationListIndex[list] = UInt32(first)
                operationLists += list
            }
        }
        recordLists.append(changed.isEmpty ? (first, list.count) : nil)
        if changed.isEmpty { addBase((first, list.count), handle: handle) }
        for position in changed {
            patches.append(UInt32(position))
            patches.append(list[position])
        }
        let index = UInt32(instanceCount)
        instanceIndex[key] = index
        instances.u32(key.component)
        instances.u32(first)
        instances.u32(list.count)
        instances.u32(patches.count / 2)
        instanceCount += 1
        guard instanceCount < Int(Format.none), operationLists.count < Int(Format.none),
            patches.count / 2 < Int(Format.none)
        else {
            throw .unencodable("more than 2^32 records")
        }
        return index
    }

    mutating func addBase(_ list: (first: Int, count: Int), handle: Int) {
        if !baseLists[handle].contains(where: { $0.first == list.first && $0.count == list.count }) {
            baseLists[handle].append(list)
        }
    }

    /// Interns an operation: variants that differ in one colour share every other operation.
    mutating func operation(_ operation: ResolvedOperation) -> UInt32 {
        let storage = operation.params.withUnsafeBufferPointer {
            ParamsStorage(address: UInt(bitPattern: $0.baseAddress), count: $0.count)
        }
        if storage.count > 0, let known = operationsOfParams[storage] {
            for entry in known
            where ByteExact.same(entry.name, operation.name)
                && ByteExact.same(entry.state.rawValue, operation.state.rawValue)
            {
                return entry.index
            }
        }
        let index = interned(operation)
        if storage.count > 0 {
            operationsOfParams[storage, default: []].append((operation.name, operation.state, index))
        }
        return index
    }

    private mutating func interned(_ operation: ResolvedOperation) -> UInt32 {
        if let index = operationIndex[ExactOperation(operation)] { return index }
        let index = UInt32(operationCount)
        operationIndex[ExactOperation(operation)] = index
        operations.u32(string(operation.name))
        operations.u32(string(operation.state.rawValue))
        operations.u32(values.count)
        operations.u32(operation.params.count)
        operationCount += 1
        for param in operation.params {
            values.append(PendingValue(name: string(param.name), value: param.value))
        }
        return index
    }
}

/// A string compared and hashed by its UTF-8 bytes, not by canonical equivalence.
struct ExactString: Hashable {
    let text: String
    init(_ text: String) { self.text = text }

    static func == (lhs: ExactString, rhs: ExactString) -> Bool { ByteExact.same(lhs.text, rhs.text) }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

/// An operation compared byte for byte (`ByteExact`), like `ExactString`. The canonical hash is
/// kept: operations the same byte for byte are canonically equal too.
struct ExactOperation: Hashable {
    let operation: ResolvedOperation
    init(_ operation: ResolvedOperation) { self.operation = operation }

    static func == (lhs: ExactOperation, rhs: ExactOperation) -> Bool {
        let (a, b) = (lhs.operation, rhs.operation)
        return ByteExact.same(a.name, b.name) && ByteExact.same(a.state.rawValue, b.state.rawValue)
            && a.params.count == b.params.count
            && zip(a.params, b.params).allSatisfy {
                ByteExact.same($0.name, $1.name) && ByteExact.same($0.value, $1.value)
            }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(operation) }
}
