import Foundation
import Livery
import Testing

@testable import LiveryStore

/// A clock that moves only when slept on, and a fixed jitter: retries run at once, and the waits
/// they asked for are recorded.
final class FakeRetryClock: Sendable {
    private struct State {
        var now = Date()
        var sleeps: [Duration] = []
    }
    private let state = Locked(State())
    let jitter: Double

    init(jitter: Double = 0.5) { self.jitter = jitter }

    var sleeps: [Duration] { state.withValue { $0.sleeps } }

    var environment: RetryEnvironment {
        RetryEnvironment(
            now: { [state] in state.withValue { $0.now } },
            sleep: { [state] duration in
                try Task.checkCancellation()
                state.withValue {
                    $0.sleeps.append(duration)
                    $0.now += duration.seconds
                }
            },
            random: { [jitter] in jitter })
    }
}

/// Retries through `ThemeStore`: what heals is retried with the policy's waits, what cannot heal
/// is reported after one request.
@Suite(.serialized) struct StoreRetryTests {
    /// Packs ocean 1.0, serves it, and installs it from `path` on the faulty server (e.g.
    /// `/busy/NAME`), with `policy` and a fake clock. Returns the states seen, the final one last.
    private func install(
        through fault: String, policy: RetryPolicy = .default, clock: FakeRetryClock = FakeRetryClock(),
        timeouts: StoreTimeouts = StoreTimeouts(idle: .seconds(5), total: .seconds(30)),
        check: @Sendable ([ProductTaskState], FaultyServer, Fixture) async throws -> Void,
        change: @Sendable (inout CatalogProduct) -> Void = { _ in }
    ) async throws {
        try await FaultyInstall.run(through: fault, policy: policy, clock: clock, timeouts: timeouts, change: change) {
            try await check($0.states, $0.faulty, $0.fixture)
        }
    }

    private static func waits(_ states: [ProductTaskState]) -> [RetryWait] {
        states.compactMap { if case .waitingToRetry(let wait) = $0 { wait } else { nil } }
    }

    private static let target = FaultyInstall.target

    @Test func retryAfterSecondsIsHonouredAndReported() async throws {
        let clock = FakeRetryClock()
        try await install(through: "busy", clock: clock) { seen, faulty, fixture in
            #expect(seen.last == .finished, "\(seen)")
            #expect(faulty.requests(to: "/busy/\(Self.target)") == 3)
            #expect(clock.sleeps == [.seconds(7), .seconds(7)])
            let waits = Self.waits(seen)
            #expect(waits.map(\.attempt) == [2, 3])
            #expect(waits.allSatisfy { if case .httpStatus(503, _) = $0.reason { true } else { false } })
            let names = try fixture.snapshot().keys.sorted()
            #expect(names == ["com.acme.ocean.livery"])
        }
    }

    @Test func retryAfterDateIsHonoured() async throws {
        let clock = FakeRetryClock()
        let started = Date()
        try await install(through: "busydate", clock: clock) { seen, _, _ in
            #expect(seen.last == .finished, "\(seen)")
            #expect(clock.sleeps.count == 1)
            // A date 4 s after the request, to the second, from a fake clock that stood still
            // since it was made: later by as long as the request took to be sent (seconds on a
            // loaded machine).
            let late = Date().timeIntervalSince(started)
            #expect(
                clock.sleeps.allSatisfy { $0 >= .seconds(2) && $0 <= .seconds(5 + late) }, "\(clock.sleeps), \(late) s")
        }
    }

    @Test func retryAfterIsCapped() async throws {
        let clock = FakeRetryClock()
        try await install(through: "busy", policy: RetryPolicy(maxRetryAfter: .seconds(3)), clock: clock) {
            seen, _, _ in
            #expect(seen.last == .finished, "\(seen)")
            #expect(clock.sleeps == [.seconds(3), .seconds(3)])
        }
    }

    @Test(arguments: [408, 429, 500, 502, 503, 504])
    func retryableStatusesAreRetried(status: Int) async throws {
        let clock = FakeRetryClock(jitter: 0.5)
        try await install(through: "once-\(status)", clock: clock) { seen, faulty, _ in
            #expect(seen.last == .finished, "\(seen)")
            #expect(faulty.requests(to: "/once-\(status)/\(Self.target)") == 2)
            // 429 and 503 carry Retry-After: 7; the others wait half (the jitter) of the 0.5 s base.
            #expect(clock.sleeps == [status == 429 || status == 503 ? .seconds(7) : .milliseconds(250)])
        }
    }

    @Test(arguments: [400, 403, 404, 410])
    func statusesThatCannotHealAreNotRetried(status: Int) async throws {
        let clock = FakeRetryClock()
        try await install(through: "always-\(status)", clock: clock) { seen, faulty, fixture in
            #expect(
                seen.last
                    == .failed(
                        .httpStatus(status, url: "http://127.0.0.1:\(faulty.port)/always-\(status)/\(Self.target)")))
            #expect(faulty.requests(to: "/always-\(status)/\(Self.target)") == 1)
            #expect(clock.sleeps.isEmpty)
            let snapshot = try fixture.snapshot()
            #expect(snapshot.isEmpty)
        }
    }

    @Test func backoffDoublesWithFullJitterUpToTheCap() async throws {
        let clock = FakeRetryClock(jitter: 0.5)
        let policy = RetryPolicy(maxAttempts: 6, baseDelay: .seconds(1), maxDelay: .seconds(4))
        try await install(through: "always-502", policy: policy, clock: clock) { seen, faulty, _ in
            guard case .failed(.httpStatus(502, _)) = seen.last else {
                Issue.record("expected the last 502, got \(String(describing: seen.last))")
                return
            }
            #expect(faulty.requests(to: "/always-502/\(Self.target)") == 6)
            // Half of 1, 2, 4, 4 (capped), 4 s.
            #expect(clock.sleeps == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(2), .seconds(2)])
        }
        #expect(
            RetryPolicy.default.delay(beforeRetry: 3, retryAfter: nil, random: 0.999_999) <= .seconds(2),
            "full jitter stays below the capped exponential")
        #expect(RetryPolicy.default.delay(beforeRetry: 20, retryAfter: nil, random: 0) == .zero)
    }

    @Test func theTotalLimitEndsRetries() async throws {
        let clock = FakeRetryClock()
        // Retry-After 7: the first wait ends at 7 s, the second would end at 14 s, past 10 s.
        try await install(through: "always-503", policy: RetryPolicy(totalLimit: .seconds(10)), clock: clock) {
            seen, faulty, _ in
            guard case .failed(.httpStatus(503, _)) = seen.last else {
                Issue.record("expected a 503, got \(String(describing: seen.last))")
                return
            }
            #expect(faulty.requests(to: "/always-503/\(Self.target)") == 2)
            #expect(clock.sleeps == [.seconds(7)])
        }
    }

    @Test func droppedResetAndStalledConnectionsAreRetried() async throws {
        for fault in ["dropfirst", "resetfirst", "stallfirst"] {
            let clock = FakeRetryClock()
            try await install(
                through: fault, clock: clock, timeouts: StoreTimeouts(idle: .milliseconds(600), total: .seconds(30))
            ) { seen, faulty, fixture in
                #expect(seen.last == .finished, "\(fault): \(seen)")
                #expect(faulty.requests(to: "/\(fault)/\(Self.target)") == 2, "\(fault)")
                #expect(clock.sleeps == [.milliseconds(250)], "\(fault)")
                let names = try fixture.snapshot().keys.sorted()
                #expect(names == ["com.acme.ocean.livery"])
            }
        }
    }

    @Test func aRefusedConnectionIsRetriedThenReported() async throws {
        let clock = FakeRetryClock()
        // A port nothing listens on.
        let closed = try FaultyServer(folder: "/nonexistent")
        let port = closed.port
        closed.stop()
        // AsyncHTTPClient tries a refused connection again until its connect timeout (the idle one),
        // so the last attempt reports the refusal or the timeout, whichever comes first.
        try await install(
            through: "x", clock: clock, timeouts: StoreTimeouts(idle: .milliseconds(300), total: .seconds(5))
        ) {
            seen, _, fixture in
            switch seen.last {
            case .failed(.network), .failed(.timeout): break
            default:
                Issue.record("expected a network error or a timeout, got \(String(describing: seen.last))")
                return
            }
            #expect(clock.sleeps.count == 4, "5 attempts by default")
            #expect(Self.waits(seen).count == 4)
            let snapshot = try fixture.snapshot()
            #expect(snapshot.isEmpty)
        } change: { product in
            product.packageURL = "http://127.0.0.1:\(port)/com.acme.ocean-1.0.0.liverypkg"
        }
    }

    @Test func checksumAndSizeFailuresAreNotRetried() async throws {
        let clock = FakeRetryClock()
        try await install(through: "plain", clock: clock) { seen, faulty, _ in
            guard case .failed(.checksumMismatch) = seen.last else {
                Issue.record("expected a checksum mismatch, got \(String(describing: seen.last))")
                return
            }
            #expect(faulty.requests(to: "/plain/\(Self.target)") == 1)
            #expect(clock.sleeps.isEmpty)
        } change: { product in
            product.sha256 = String(repeating: "0", count: 64)
        }
        try await install(through: "plain", clock: clock) { seen, faulty, _ in
            guard case .failed(.sizeMismatch) = seen.last else {
                Issue.record("expected a size mismatch, got \(String(describing: seen.last))")
                return
            }
            #expect(faulty.requests(to: "/plain/\(Self.target)") == 1)
            #expect(clock.sleeps.isEmpty)
        } change: { product in
            product.packageSize -= 10
        }
    }

    @Test func catalogRefreshIsRetried() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        let clock = FakeRetryClock()
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            _ = try fixture.catalog(baseURL: base)
            let store = try await fixture.makeStore(
                manager: nil, catalogURL: "http://127.0.0.1:\(faulty.port)/once-503/catalog.json",
                retry: .default, retryEnvironment: clock.environment)
            let catalog = try await store.refreshCatalog()
            #expect(catalog.product(id: "com.acme.ocean") != nil)
            #expect(faulty.requests(to: "/once-503/catalog.json") == 2)
            // roots/1.json beside it is answered 503 once too.
            #expect(clock.sleeps == [.seconds(7), .seconds(7)])
            #expect(faulty.requests(to: "/once-503/roots/1.json") == 2)
        }
    }

    @Test func cancellingWhileWaitingEndsTheTask() async throws {
        let fixture = try Fixture()
        try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        try await TestServer.withFaultyServer(folder: fixture.packages) { base, faulty in
            var product = try #require(try fixture.catalog(baseURL: base).product(id: "com.acme.ocean"))
            product.packageURL = "http://127.0.0.1:\(faulty.port)/always-503/\(Self.target)"
            // The real sleep: a 7 s wait, cancelled at once.
            let store = try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json", retry: .default)
            let task = await store.install(product)
            let started = ContinuousClock.now
            for await state in task.states() {
                if case .waitingToRetry = state { task.cancel() }
            }
            #expect(task.state == .cancelled)
            #expect(ContinuousClock.now - started < .seconds(5))
            let snapshot = try fixture.snapshot()
            #expect(snapshot.isEmpty)
            #expect(fixture.workFolderIsClean())
        }
    }

    @Test func retryAfterParsing() {
        let now = Date(timeIntervalSince1970: 1_000_000_000)  // Sun, 09 Sep 2001 01:46:40 GMT
        #expect(RetryAfter.parse("120", now: now) == .seconds(120))
        #expect(RetryAfter.parse(" 0 ", now: now) == .zero)
        #expect(RetryAfter.parse("Sun, 09 Sep 2001 01:47:10 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.parse("Sunday, 09-Sep-01 01:47:10 GMT", now: now) == .seconds(30))
        #expect(RetryAfter.parse("Sun Sep  9 01:47:10 2001", now: now) == .seconds(30))
        #expect(RetryAfter.parse("Sun, 09 Sep 2001 01:00:00 GMT", now: now) == .zero, "a date past means now")
        #expect(RetryAfter.parse("-5", now: now) == nil)
        #expect(RetryAfter.parse("soon", now: now) == nil)
        #expect(RetryAfter.parse(nil, now: now) == nil)
        #expect(RetryAfter.parse("99999999999999999999999", now: now).map { $0 > .seconds(1_000_000) } == true)
    }
}
