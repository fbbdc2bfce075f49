import Foundation

/// Monotonic nanoseconds; with `LIVERY_BENCH_CLOCK=thread`, the CPU time of the calling thread
/// instead: on a shared machine under load a thread waits for a core between its samples, and
/// that wait is not the engine's time (cache contention still counts).
@inline(__always)
public func now() -> UInt64 {
    var time = timespec()
    clock_gettime(benchmarkClock, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

// `getenv`, not `ProcessInfo`: the launch scenario reads the clock before it starts timing,
// and ProcessInfo's dictionary would warm Foundation for the launch it then times.
private let benchmarkClock: clockid_t =
    getenv("LIVERY_BENCH_CLOCK").map { String(cString: $0) } == "thread" ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC

/// Samples in nanoseconds, with the statistics the report prints.
public struct Samples: Sendable {
    public var values: [Double]
    public init(_ values: [Double]) { self.values = values.sorted() }
    public func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let index = min(values.count - 1, max(0, Int((p / 100 * Double(values.count)).rounded(.up)) - 1))
        return values[index]
    }
    public var median: Double { percentile(50) }
    public var minimum: Double { values.first ?? .nan }
    public var count: Int { values.count }
}

/// Runs `body` once to warm up, then repeatedly until `runs` samples or `budget` seconds are
/// spent (at least `minimumRuns`), and returns the samples.
public func measure(
    runs: Int, minimumRuns: Int = 3, budget: Double = 2, warmup: Int = 1,
    _ body: () throws -> Void
) rethrows -> Samples {
    for _ in 0..<warmup { try body() }
    var samples: [Double] = []
    let deadline = now() + UInt64(budget * 1e9)
    while samples.count < runs && (samples.count < minimumRuns || now() < deadline) {
        let start = now()
        try body()
        samples.append(Double(now() - start))
    }
    return Samples(samples)
}

/// A field of /proc/self/status in bytes (`VmRSS`: resident now; `VmHWM`: peak resident).
public func residentBytes(_ field: String = "VmRSS") -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }
    return 0
}

/// Resets the peak resident set (`VmHWM`) to the current one, so a later `residentBytes("VmHWM")`
/// tells the peak of what came after.
public func resetPeakResident() {
    if let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") {
        handle.write(Data("5".utf8))
        try? handle.close()
    }
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
public func keepAlive<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

public func formatDuration(_ nanoseconds: Double) -> String {
    switch nanoseconds {
    case ..<1_000: return String(format: "%.0f ns", nanoseconds)
    case ..<1_000_000: return String(format: "%.1f µs", nanoseconds / 1e3)
    case ..<1_000_000_000: return String(format: nanoseconds < 1e7 ? "%.2f ms" : "%.0f ms", nanoseconds / 1e6)
    default: return String(format: "%.2f s", nanoseconds / 1e9)
    }
}

public func formatBytes(_ bytes: Int) -> String {
    let value = Double(bytes)
    switch value {
    case ..<10_000: return "\(bytes) B"
    case ..<10_000_000: return String(format: "%.0f KB", value / 1e3)
    default: return String(format: "%.1f MB", value / 1e6)
    }
}
