import Foundation

// The idle and total timeouts of a request.

/// Fails the work it runs with `StoreError.timeout` when `touch()` is not called for `idle`, or
/// when the whole work takes longer than `total` (a server dripping one byte at a time). Time the
/// process spends starved of threads counts little toward `idle` (see `run`), and fully toward `total`.
final class Watchdog: @unchecked Sendable {
    private let idle: Duration
    private let total: Duration
    private let lock = NSLock()
    private var last = ContinuousClock.now

    init(idle: Duration, total: Duration) {
        self.idle = idle
        self.total = total
    }

    func touch() {
        lock.lock()
        last = .now
        lock.unlock()
    }

    private var lastTouch: ContinuousClock.Instant {
        lock.lock()
        defer { lock.unlock() }
        return last
    }

    func run(_ work: @escaping @Sendable () async throws -> Void) async throws {
        touch()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await work() }
            let start = ContinuousClock.now
            group.addTask { [idle, total] in
                let interval = min(idle / 4, total / 4, .milliseconds(250))
                var previous = ContinuousClock.now
                var seen = self.lastTouch
                var quiet = Duration.zero
                while true {
                    try await Task.sleep(for: interval)
                    let now = ContinuousClock.now
                    // The reader runs on the same thread pool as this check: when the process is
                    // starved (a busy machine), the data may be there with nobody to touch. So a
                    // late wake-up counts as two intervals of silence at most, not all of it.
                    let step = min(now - previous, interval * 2)
                    previous = now
                    let touched = self.lastTouch
                    if touched != seen {
                        seen = touched
                        quiet = min(now - touched, step)
                    } else {
                        quiet += step
                    }
                    if quiet > idle {
                        throw StoreError.timeout("no data arrived for \(idle)")
                    }
                    if now - start > total {
                        throw StoreError.timeout("the request took longer than \(total)")
                    }
                }
            }
            defer { group.cancelAll() }
            do {
                try await group.next()
            } catch is CancellationError {
                throw StoreError.cancelled
            }
        }
    }
}
