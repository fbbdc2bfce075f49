import Benchmark
import BenchmarkSupport
import Foundation
import Livery
import LiveryBinary
import LiveryModel
import LiveryXML

// ordo-one/benchmark suite: `swift package benchmark` (from Benchmarks/). Wall clock and malloc
// counts per loader and runtime operation, for baselines and regression checks
// (`swift package benchmark baseline update main`, `... baseline check main`). The side-by-side
// report with every N, the chart and the targets is `livery-bench report` (Scripts/bench.sh).
// LIVERY_BENCH_N sets the theme size (default 1,000 instances; the runtime uses as many components).

/// The generated fixtures, written once per process.
final class Fixtures: @unchecked Sendable {
    static let shared = Fixtures()
    let instances: Int
    let folder: String
    let theme: String
    let otherTheme: String
    let json: Data
    let plist: Data
    let compiledPath: String
    let compiled: CompiledTheme
    let ids: [String]

    private init() {
        let count = Int(ProcessInfo.processInfo.environment["LIVERY_BENCH_N"] ?? "") ?? 1000
        instances = count
        folder = NSTemporaryDirectory() + "livery-benchmarks-\(getpid())"
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = ThemeGenerator.theme(instances: instances)
        theme = try! source.writeXML(into: folder, name: "Bench")
        otherTheme = try! ThemeGenerator.theme(instances: instances, flavor: 1, id: "com.livery.bench.b").writeXML(
            into: folder, name: "BenchB")
        json = try! source.jsonData()
        plist = try! source.plistData()
        let variants = ThemeWorkspace().variants(ofThemeAt: theme).value!
        let bytes = try! ThemeWriter.encode(CompiledThemeContents(theme: variants))
        compiledPath = folder + "/Bench.livery"
        try! Data(bytes).write(to: URL(fileURLWithPath: compiledPath))
        compiled = try! CompiledTheme(contentsOf: compiledPath)
        ids = (0..<count).map { ThemeGenerator.identifier(($0 &* 7_919) % count) }
    }
}

/// The runtime scenario (themes A, B, child; styled components), made once on the main actor.
@MainActor
enum LiveRuntime {
    static var scenario: RuntimeScenario?
    static var forth = true

    static func shared() -> RuntimeScenario {
        if let scenario { return scenario }
        let made = try! RuntimeScenario(
            instances: Fixtures.shared.instances, folder: Fixtures.shared.folder + "/runtime")
        _ = made.applyFirstTime()
        for kind in RuntimeScenario.Switch.allCases { made.warm(kind) }
        scenario = made
        return made
    }

    /// One switch of `kind`, alternating there and back, timed by `benchmark`.
    static func measure(_ kind: RuntimeScenario.Switch, _ benchmark: Benchmark) {
        let scenario = shared()
        forth.toggle()
        benchmark.startMeasurement()
        scenario.perform(kind, forth: !forth)
        benchmark.stopMeasurement()
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 1,
        maxDuration: .seconds(3),
        maxIterations: 50)

    Benchmark("Load: Livery XML front end") { benchmark in
        let fixtures = Fixtures.shared
        benchmark.startMeasurement()
        blackHole(ThemeWorkspace().resolve(themeAt: fixtures.theme, traits: .none).value!)
    }
    Benchmark("Load: Foundation XMLParser") { benchmark in
        let fixtures = Fixtures.shared
        benchmark.startMeasurement()
        blackHole(try! SourceResolver.resolve([AlternativeLoaders.xmlParser(folder: fixtures.theme)], traits: .none))
    }
    Benchmark("Load: JSONDecoder") { benchmark in
        let fixtures = Fixtures.shared
        benchmark.startMeasurement()
        blackHole(try! SourceResolver.resolve([AlternativeLoaders.json(fixtures.json)], traits: .none))
    }
    Benchmark("Load: PropertyListDecoder") { benchmark in
        let fixtures = Fixtures.shared
        benchmark.startMeasurement()
        blackHole(try! SourceResolver.resolve([AlternativeLoaders.plist(fixtures.plist)], traits: .none))
    }
    Benchmark(
        "Load: compiled (open+mmap+verify)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxIterations: 2000)
    ) { benchmark in
        let fixtures = Fixtures.shared
        benchmark.startMeasurement()
        blackHole(try! CompiledTheme(contentsOf: fixtures.compiledPath))
    }
    Benchmark(
        "Lookup by identifier (x1000)",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxIterations: 2000)
    ) { benchmark in
        let fixtures = Fixtures.shared
        let file = fixtures.compiled
        let ids = fixtures.ids
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(file.handle(for: ids[index % ids.count]))
        }
    }
    for kind in RuntimeScenario.Switch.allCases {
        Benchmark(
            "Switch: \(kind.rawValue)",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxIterations: 200)
        ) { benchmark async in
            nonisolated(unsafe) let measured = benchmark
            await MainActor.run { LiveRuntime.measure(kind, measured) }
        }
    }
}
