/// Decoded values of a prepared theme, in chunks that never move (prepared operations point
/// into them). Deinitialises what it holds when the theme goes.
final class ValueArena: @unchecked Sendable {
    // Invariant that makes the unchecked accesses and the raw memory safe: one thread at a
    // time uses the arena (its preparer's, see `InstancePreparer`), and no access spans a call
    // out; chunks are never moved or freed before deinit, so pointers into them stay valid as
    // long as the arena, and deinit destroys each adopted value exactly once. `@unchecked
    // Sendable` for that one hand-over between threads.
    @exclusivity(unchecked) private var chunks: [UnsafeMutableRawPointer] = []
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private var capacity = 0
    /// The values to deinitialise, each with its index in `destroyers`: plain records, not a
    /// closure per value (which would allocate a reabstraction thunk per value;
    /// `livery-switch-bench --profile-register-many`). Trivial values (numbers, colours) are not
    /// recorded at all.
    @exclusivity(unchecked) private var values: [Adopted] = []
    @exclusivity(unchecked) private var destroyers: [@Sendable (UnsafeMutableRawPointer) -> Void] = []
    /// The index in `destroyers` by setter: a setter's destroy function is stored once. (The
    /// setters stay alive while the theme does, through its bindings, so identities are not
    /// reused meanwhile.)
    @exclusivity(unchecked) private var destroyerIndex: [ObjectIdentifier: Int32] = [:]
    private static let chunkSize = 16 << 10

    private struct Adopted {
        var value: UnsafeMutableRawPointer
        var destroyer: Int32
    }

    /// `alignment` is a power of two (a `MemoryLayout` alignment).
    @inline(__always)
    func allocate(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let mask = max(alignment, 1) - 1
        let offset = (used + mask) & ~mask
        if chunks.isEmpty || offset + size > capacity { return allocateChunk(size: size, alignment: mask + 1) }
        used = offset + max(size, 1)
        return chunks[chunks.count - 1] + offset
    }

    private func allocateChunk(size: Int, alignment: Int) -> UnsafeMutableRawPointer {
        let bytes = max(Self.chunkSize, size + alignment)
        chunks.append(.allocate(byteCount: bytes, alignment: max(alignment, 16)))
        capacity = bytes
        used = max(size, 1)
        return chunks[chunks.count - 1]
    }

    /// The number under which `setter`'s values are destroyed, nil when they need no
    /// deinitialisation. Looked up once per setter, not per value (`PreparedTheme` keeps it
    /// with its other per-setter lookups).
    func destroyer(for setter: OperationSetter) -> Int32? {
        guard let destroy = setter.destroyStored else { return nil }
        let identity = ObjectIdentifier(setter)
        if let known = destroyerIndex[identity] { return known }
        let index = Int32(destroyers.count)
        destroyers.append(destroy)
        destroyerIndex[identity] = index
        return index
    }

    /// Takes charge of deinitialising `value` with destroyer `destroyer` (from
    /// `destroyer(for:)`; nothing is recorded for nil).
    @inline(__always)
    func adopt(_ value: UnsafeMutableRawPointer, destroyer: Int32?) {
        if let destroyer { values.append(Adopted(value: value, destroyer: destroyer)) }
    }

    deinit {
        for adopted in values { destroyers[Int(adopted.destroyer)](adopted.value) }
        for chunk in chunks { chunk.deallocate() }
    }
}
