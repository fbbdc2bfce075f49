import Foundation

/// Timings of the studio's phases on standard error, one line each, when the environment has
/// `LIVERY_STUDIO_TRACE=1`: what `Benchmarks/Scripts/bench-studio.py --trace` reads to say
/// where an edit's milliseconds go.
public enum StudioTrace {
    public static let enabled = ProcessInfo.processInfo.environment["LIVERY_STUDIO_TRACE"] == "1"

    /// Runs `body`, and when tracing, prints `studio-trace NAME MS`.
    @inline(__always)
    public static func measure<T>(_ name: @autoclosure () -> String, _ body: () throws -> T) rethrows -> T {
        guard enabled else { return try body() }
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try body()
        log(name(), since: start)
        return result
    }

    /// `measure` for async work.
    public static func measure<T>(_ name: @autoclosure () -> String, _ body: () async throws -> T) async rethrows -> T {
        guard enabled else { return try await body() }
        let start = DispatchTime.now().uptimeNanoseconds
        let result = try await body()
        log(name(), since: start)
        return result
    }

    static func log(_ name: String, since start: UInt64) {
        let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
        FileHandle.standardError.write(Data("studio-trace \(name) \(String(format: "%.2f", ms))\n".utf8))
    }
}
