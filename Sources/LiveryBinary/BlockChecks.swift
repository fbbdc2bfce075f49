#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The integrity check of a mapped file, paid for as it is read: before a read uses bytes of
/// a block of `BLKS` for the first time, the block's CRC-32 is checked, and the block is
/// remembered as checked. A lookup thus costs the blocks it touches, once, and a flipped bit
/// is found before any value read from its block is returned.
///
/// One compiled theme is read from any thread (`CompiledTheme` is `Sendable`): the bitmap is
/// guarded by a mutex, which a reader takes once per lookup (`withLock`), not per block.
/// It owns the mutex and the bitmap and releases both in `deinit`.
final class BlockChecks: @unchecked Sendable {
    private let raw: RawBytes
    private let start: Int
    private let end: Int
    private let shift: Int
    private let count: Int
    private let checksums: Int
    private let checked: UnsafeMutablePointer<UInt64>
    private let words: Int
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init(raw: RawBytes, layout: Layout) {
        self.raw = raw
        start = layout.blockStart
        end = layout.blockEnd
        shift = layout.blockShift
        count = layout.blockCount
        checksums = layout.blockChecksums
        words = max((count + 63) / 64, 1)
        checked = .allocate(capacity: words)
        checked.initialize(repeating: 0, count: words)
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        checked.deallocate()
    }

    /// Runs `body` holding the lock that `check` needs.
    @inline(__always)
    func withLock<Result>(_ body: () throws(BinaryFormatError) -> Result) throws(BinaryFormatError) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Checks the blocks holding `offset ..< offset + length` that were not checked yet. Only
    /// inside `withLock`. Bytes outside the blocks (the header and section table, which the
    /// header checksum covers, and `BLKS` itself) need no check.
    @inline(__always)
    func check(_ offset: Int, _ length: Int) throws(BinaryFormatError) {
        let lower = max(offset, start)
        let upper = min(offset + length, end)
        guard lower < upper else { return }
        var block = (lower - start) >> shift
        let last = (upper - 1 - start) >> shift
        while block <= last {
            if checked[block >> 6] & (1 << UInt64(block & 63)) == 0 { try checkBlock(block) }
            block += 1
        }
    }

    private func checkBlock(_ block: Int) throws(BinaryFormatError) {
        let blockStart = start + block << shift
        let blockLength = min(1 << shift, end - blockStart)
        guard CRC32.checksum(raw.buffer(blockStart, blockLength)) == raw.u32(checksums + 4 * block) else {
            throw .blockChecksumMismatch(offset: blockStart, length: blockLength)
        }
        checked[block >> 6] |= 1 << UInt64(block & 63)
    }

    /// Checks every block (what reading the whole file needs anyway).
    func checkAll() throws(BinaryFormatError) {
        try withLock { () throws(BinaryFormatError) in try check(start, end - start) }
    }

    /// How many blocks have been checked so far (tests and `livery inspect`).
    var checkedCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var total = 0
        for word in 0..<words { total += checked[word].nonzeroBitCount }
        return total
    }

    var blockCount: Int { count }
    var blockSize: Int { 1 << shift }
}
