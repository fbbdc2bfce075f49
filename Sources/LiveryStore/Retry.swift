import Foundation

/// When the store retries a request that failed in a way that can heal: the connection could not
/// be made or dropped, no byte arrived for the idle timeout, or the server answered 408, 429, 500,
/// 502, 503 or 504. Errors that cannot heal (any other status such as 404, a size, signature or
/// checksum mismatch, a cap exceeded, a cancellation) are never retried.
///
/// Waits grow as capped exponential backoff with full jitter: before retry `n` (1 for the first),
/// a uniformly random wait in `0...min(maxDelay, baseDelay × 2^(n-1))`, so that a fleet that
/// failed together does not retry together. A `Retry-After` from the server (seconds, or an
/// HTTP date) replaces the random wait, cut to `maxRetryAfter`. No retry starts when its wait
/// would end more than `totalLimit` after the first attempt began: the last error is reported.
///
/// The default: 5 attempts, waits from 0.5 s doubling to at most 30 s, `Retry-After` honoured up
/// to 60 s, everything within 5 minutes.
public struct RetryPolicy: Hashable, Sendable {
    /// Attempts in all, the first one included (1: never retry).
    public var maxAttempts: Int
    /// The longest wait before the first retry; it doubles with each retry.
    public var baseDelay: Duration
    /// The longest wait before any retry (the backoff's cap).
    public var maxDelay: Duration
    /// The longest `Retry-After` honoured; a longer one is cut to this.
    public var maxRetryAfter: Duration
    /// No retry whose wait ends later than this after the first attempt began.
    public var totalLimit: Duration

    public init(
        maxAttempts: Int = 5, baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(30),
        maxRetryAfter: Duration = .seconds(60), totalLimit: Duration = .seconds(300)
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(.zero, baseDelay)
        self.maxDelay = max(.zero, maxDelay)
        self.maxRetryAfter = max(.zero, maxRetryAfter)
        self.totalLimit = max(.zero, totalLimit)
    }

    /// The documented default (see the type's description).
    public static let `default` = RetryPolicy()
    /// One attempt: every failure is reported at once.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The wait before retry `retry` (1 for the first): the server's `Retry-After` (capped) when
    /// it gave one, otherwise full jitter over the capped exponential backoff; `random` in 0..<1.
    public func delay(beforeRetry retry: Int, retryAfter: Duration?, random: Double) -> Duration {
        if let retryAfter { return min(max(.zero, retryAfter), maxRetryAfter) }
        let exponent = min(max(retry - 1, 0), 62)
        let ceiling = min(baseDelay.seconds * pow(2, Double(exponent)), maxDelay.seconds)
        let fraction = min(max(random, 0), 1)
        return .nanoseconds(Int64((ceiling * fraction * 1e9).rounded(.down)))
    }
}

/// The clock, sleep and randomness retries use. `live` is the real ones; tests pass their own to
/// run retries without waiting, with a chosen jitter.
public struct RetryEnvironment: Sendable {
    /// The time now: what `Retry-After` dates and the total limit are measured against.
    public var now: @Sendable () -> Date
    /// Waits (throws when the task is cancelled).
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A number in 0..<1 for the jitter.
    public var random: @Sendable () -> Double

    public init(
        now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void,
        random: @escaping @Sendable () -> Double
    ) {
        self.now = now
        self.sleep = sleep
        self.random = random
    }

    /// The system clock, `Task.sleep`, and the system's random numbers.
    public static let live = RetryEnvironment(
        now: { Date() }, sleep: { try await Task.sleep(for: $0) }, random: { Double.random(in: 0..<1) })
}

/// A wait before a retry, as a product task's progress reports it.
public struct RetryWait: Hashable, Sendable, CustomStringConvertible {
    /// The attempt that follows the wait (2 for the first retry).
    public var attempt: Int
    /// How long the store waits.
    public var delay: Duration
    /// Why the previous attempt failed.
    public var reason: StoreError

    public var description: String {
        "waiting \(String(format: "%.1f", delay.seconds)) s before attempt \(attempt) (\(reason))"
    }
}

/// A failure that can heal, with the server's `Retry-After` when it gave one; the retry loop
/// unwraps it, so callers only ever see the `StoreError`.
struct TransientFailure: Error {
    let error: StoreError
    var retryAfter: Duration? = nil
}

/// HTTP statuses that say "try again later".
enum RetryableStatus {
    static let codes: Set<Int> = [408, 429, 500, 502, 503, 504]
}

/// Runs `attempt` until it succeeds, fails with an error that cannot heal, or the policy says
/// stop; `onWait` hears of every wait before it starts.
func withRetries<Result>(
    _ policy: RetryPolicy, _ environment: RetryEnvironment, onWait: (@Sendable (RetryWait) -> Void)? = nil,
    _ attempt: (_ number: Int) async throws -> Result
) async throws -> Result {
    let start = environment.now()
    var number = 1
    while true {
        do {
            return try await attempt(number)
        } catch let failure as TransientFailure {
            guard number < policy.maxAttempts, !Task.isCancelled else {
                throw Task.isCancelled ? StoreError.cancelled : failure.error
            }
            let delay = policy.delay(
                beforeRetry: number, retryAfter: failure.retryAfter, random: environment.random())
            let elapsed = environment.now().timeIntervalSince(start)
            guard elapsed + delay.seconds <= policy.totalLimit.seconds else { throw failure.error }
            number += 1
            onWait?(RetryWait(attempt: number, delay: delay, reason: failure.error))
            do {
                try await environment.sleep(delay)
            } catch {
                throw StoreError.cancelled
            }
        }
    }
}

/// `Retry-After`: a number of seconds, or an HTTP date (IMF-fixdate, RFC 850 or asctime), as a
/// wait from `now`; nil when absent or unreadable, zero for a date already past.
enum RetryAfter {
    static func parse(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCIIDigit) {
            return .seconds(Int64(value) ?? Int64.max)
        }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: value) {
                let seconds = max(0, date.timeIntervalSince(now))
                return .nanoseconds(Int64(seconds * 1e9))
            }
        }
        return nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
