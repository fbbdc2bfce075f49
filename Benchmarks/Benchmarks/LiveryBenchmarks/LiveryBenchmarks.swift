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
        instances = Int(ProcessInfo.processInfo.environment["LIVERY_BENCH_N"] ?? "") ?? 1000
        folder = NSTemporaryDirectory() + "livery-benchmarks-\(getpid())"
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = ThemeGenerator.theme(instances: instances)
        theme = try! source.writeXML(into: folder, name: "Bench")
        otherTheme = try! ThemeGenerator.theme(instances: instances, flavor: 1, id: "com.livery.bench.b").writeXML(into: folder, name: "BenchB")
        json = try! source.jsonData()
        plist = try! source.plistData()
        let variants = ThemeWorkspace().variants(ofThemeAt: theme).value!
        let bytes = try! ThemeWriter.encode(CompiledThemeContents(theme: variants))
        compiledPath = folder + "/Bench.livery"
        try! Data(bytes).write(to: URL(fileURLWithPath: compiledPath))
        compiled = try! CompiledTheme(contentsOf: compiledPath)
        ids = (0..<instances).map { ThemeGenerator.identifier(($0 &* 7_919) % instances) }
    }
}

/// A live runtime: manager, applicator and components styled with theme A.
@MainActor
final class LiveRuntime {
    static var shared: LiveRuntime?
    let manager: ThemeManager
    let applicator: Applicator
    let components: [View]

    init(_ fixtures: Fixtures) {
        manager = ThemeManager(configuration: LiveryConfiguration(searchPaths: [fixtures.folder]))
        manager.activate(themeID: "com.livery.bench")
        applicator = Applicator(manager: manager)
        components = (0..<fixtures.instances).map { index in
            switch index % 4 {
            case 0: Label()
            case 1: Button()
            case 2: View()
            default: TextField()
            }
        }
        for (index, component) in components.enumerated() {
            applicator.style(component, as: ThemeGenerator.identifier(index))
        }
        // Warm both themes and both trait sets.
        manager.activate(themeID: "com.livery.bench.b")
        manager.activate(themeID: "com.livery.bench")
        manager.setTraits(TraitSet(appearance: .dark))
        manager.setTraits(.none)
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
    Benchmark("Load: compiled (open+mmap+verify)",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxIterations: 2000)) { benchmark in
        let fixtures = Fixtures.shared
        benchmark.startMeasurement()
        blackHole(try! CompiledTheme(contentsOf: fixtures.compiledPath))
    }
    Benchmark("Lookup by identifier (x1000)",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], scalingFactor: .kilo, maxIterations: 2000)) { benchmark in
        let fixtures = Fixtures.shared
        let file = fixtures.compiled
        let ids = fixtures.ids
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(file.handle(for: ids[index % ids.count]))
        }
    }
    Benchmark("Switch: everything changes",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxIterations: 200)) { benchmark async in
        await MainActor.run {
            let runtime = LiveRuntime.shared ?? LiveRuntime(Fixtures.shared)
            LiveRuntime.shared = runtime
            let target = runtime.manager.currentThemeID == "com.livery.bench" ? "com.livery.bench.b" : "com.livery.bench"
            benchmark.startMeasurement()
            runtime.manager.activate(themeID: target)
            benchmark.stopMeasurement()
        }
    }
    Benchmark("Switch: trait change (dark)",
              configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxIterations: 200)) { benchmark async in
        await MainActor.run {
            let runtime = LiveRuntime.shared ?? LiveRuntime(Fixtures.shared)
            LiveRuntime.shared = runtime
            let target = runtime.manager.traits == .none ? TraitSet(appearance: .dark) : .none
            benchmark.startMeasurement()
            runtime.manager.setTraits(target)
            benchmark.stopMeasurement()
        }
    }
}
