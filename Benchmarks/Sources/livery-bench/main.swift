import BenchmarkSupport
import Foundation
import Livery
import LiveryBinary
import LiveryModel
import LiveryXML

// livery-bench: every loader on the same generated themes, in one process, plus the runtime,
// memory and size numbers; prints a Markdown report and writes results.json, report.md and
// load-time.svg. See docs/Performance.md.
//
//   livery-bench report [--sizes 100,1000,10000,100000] [--quick] [--out DIR] [--work DIR]
//   livery-bench peak LOADER PATH      (child process: peak resident memory of one load;
//                                       LOADER: xml, xmlparser, json, plist, compiled, validate)
//   livery-bench generate N DIR        (write the benchmark theme of N instances)
//   livery-bench chart RESULTS OUT     (redraw the chart from a results.json)
//   livery-bench launch [--sizes 1000,10000,100000] [--runs 5]   (the launch table alone)
//   livery-bench launch-child ...      (child process: one launch, see Launch.swift)

let arguments = Array(CommandLine.arguments.dropFirst())

func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("livery-bench: \(message)\n".utf8))
    exit(1)
}

enum Loader: String, CaseIterable {
    case xml = "Livery XML front end"
    case xmlParser = "Foundation XMLParser"
    case json = "JSONDecoder"
    case plist = "PropertyListDecoder (binary plist)"
    case compiled = "Livery compiled (open+mmap+verify)"

    var key: String {
        switch self {
        case .xml: "xml"
        case .xmlParser: "xmlparser"
        case .json: "json"
        case .plist: "plist"
        case .compiled: "compiled"
        }
    }

    var color: String {
        switch self {
        case .xml: "#1f77b4"
        case .xmlParser: "#d62728"
        case .json: "#ff7f0e"
        case .plist: "#9467bd"
        case .compiled: "#2ca02c"
        }
    }
}

/// The paths of one generated size.
struct Fixture {
    var instances: Int
    var folder: String
    var theme: String
    var json: String
    var plist: String
    var compiled: String
    var xmlBytes: Int
    var jsonBytes: Int
    var plistBytes: Int
    var compiledBytes: Int
    var compileNanoseconds: Double
    /// Section kind and length of the compiled file.
    var sections: [(String, Int)] = []
}

/// One load through `loader`; throws when the loader fails. Returns the resolved instances'
/// count so nothing is optimised away.
func loadOnce(_ loader: Loader, _ fixture: Fixture) throws -> Int {
    switch loader {
    case .xml:
        let result = ThemeWorkspace().resolve(themeAt: fixture.theme, traits: .none)
        guard let theme = result.value else {
            throw LoaderError.invalid(fixture.theme, "\(result.diagnostics.prefix(3))")
        }
        return theme.instances.count
    case .xmlParser:
        let source = try AlternativeLoaders.xmlParser(folder: fixture.theme)
        return try SourceResolver.resolve([source], traits: .none).count
    case .json:
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.json))
        return try SourceResolver.resolve([AlternativeLoaders.json(data)], traits: .none).count
    case .plist:
        let data = try Data(contentsOf: URL(fileURLWithPath: fixture.plist))
        return try SourceResolver.resolve([AlternativeLoaders.plist(data)], traits: .none).count
    case .compiled:
        let file = try CompiledTheme(contentsOf: fixture.compiled)
        return file.idCount
    }
}

func compile(_ theme: String) throws -> [UInt8] {
    let variants = ThemeWorkspace().variants(ofThemeAt: theme)
    guard let value = variants.value else { throw LoaderError.invalid(theme, "\(variants.diagnostics.prefix(3))") }
    return try ThemeWriter.encode(CompiledThemeContents(theme: value))
}

func makeFixture(instances: Int, work: String, compileRuns: Int) throws -> Fixture {
    let folder = work + "/n\(instances)"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let source = ThemeGenerator.theme(instances: instances)
    let theme = try source.writeXML(into: folder, name: "Bench")
    let json = try source.jsonData()
    let plist = try source.plistData()
    try json.write(to: URL(fileURLWithPath: folder + "/Bench.json"))
    try plist.write(to: URL(fileURLWithPath: folder + "/Bench.plist"))
    var bytes: [UInt8] = []
    let compileTime = try measure(runs: compileRuns, minimumRuns: 1, budget: 1, warmup: 0) {
        bytes = try compile(theme)
    }
    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/Bench.livery"))
    let xmlBytes = try FileManager.default.contentsOfDirectory(atPath: theme).filter { $0.hasSuffix(".xml") }
        .reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: theme + "/" + $1)[.size] as? Int) ?? 0) }
    let sections = try CompiledTheme(bytes: bytes).sections.map { ($0.kind, $0.length) }
    return Fixture(
        instances: instances, folder: folder, theme: theme, json: folder + "/Bench.json",
        plist: folder + "/Bench.plist",
        compiled: folder + "/Bench.livery", xmlBytes: xmlBytes, jsonBytes: json.count, plistBytes: plist.count,
        compiledBytes: bytes.count, compileNanoseconds: compileTime.median, sections: sections)
}

/// Every loader must produce what our front end produces (the compiled file too).
func checkSameModel(_ fixture: Fixture) throws {
    guard let ours = ThemeWorkspace().resolve(themeAt: fixture.theme, traits: .none).value?.instances else {
        throw LoaderError.invalid(fixture.theme, "front end failed")
    }
    let alternatives: [(String, [ResolvedInstance])] = [
        ("XMLParser", try SourceResolver.resolve([AlternativeLoaders.xmlParser(folder: fixture.theme)], traits: .none)),
        (
            "JSON",
            try SourceResolver.resolve(
                [AlternativeLoaders.json(Data(contentsOf: URL(fileURLWithPath: fixture.json)))], traits: .none)
        ),
        (
            "plist",
            try SourceResolver.resolve(
                [AlternativeLoaders.plist(Data(contentsOf: URL(fileURLWithPath: fixture.plist)))], traits: .none)
        ),
    ]
    for (name, instances) in alternatives where instances != ours {
        let first = zip(instances, ours).first { $0 != $1 }
        throw LoaderError.invalid(
            name, "builds a different model than the front end; first difference: \(String(describing: first))")
    }
    let file = try CompiledTheme(contentsOf: fixture.compiled)
    for traits in [TraitSet.none, TraitSet(idiom: .ipad, appearance: .dark)] {
        let expected = ThemeWorkspace().resolve(themeAt: fixture.theme, traits: traits).value!.instances
        let compiled = try expected.map { try file.instance($0.id, for: traits) }
        if compiled != expected.map(Optional.some) {
            throw LoaderError.invalid("compiled", "differs from the XML for \(traits)")
        }
    }
    if ours.first?.operations.count != 8 {
        throw LoaderError.invalid("generator", "expected 8 operations per instance")
    }
}

// MARK: - Peak memory (child process)

func peakChild(_ loaderKey: String, _ path: String) -> Never {
    if loaderKey == "validate" {
        // What `livery validate` does: every trait set, every check.
        let baseline = residentBytes()
        resetPeakResident()
        let diagnostics = ThemeWorkspace().validate(paths: [path])
        guard !diagnostics.hasErrors else { fail("\(diagnostics.prefix(3))") }
        print("{\"baseline\": \(baseline), \"peak\": \(residentBytes("VmHWM")), \"instances\": 0}")
        exit(0)
    }
    guard let loader = Loader.allCases.first(where: { $0.key == loaderKey }) else {
        fail("unknown loader \(loaderKey)")
    }
    // Warm the runtime (Foundation, the standard schema) so the baseline holds what any loader needs.
    _ = FileManager.default.fileExists(atPath: path)
    _ = try? Data(contentsOf: URL(fileURLWithPath: "/proc/self/status"))
    let baseline = residentBytes()
    resetPeakResident()
    let fixture = Fixture(
        instances: 0, folder: "", theme: path, json: path, plist: path, compiled: path,
        xmlBytes: 0, jsonBytes: 0, plistBytes: 0, compiledBytes: 0, compileNanoseconds: 0)
    do {
        let count = try loadOnce(loader, fixture)
        print("{\"baseline\": \(baseline), \"peak\": \(residentBytes("VmHWM")), \"instances\": \(count)}")
        exit(0)
    } catch {
        fail("\(error)")
    }
}

func measurePeak(_ loader: Loader, _ fixture: Fixture) -> Int? {
    let path: String
    switch loader {
    case .xml, .xmlParser: path = fixture.theme
    case .json: path = fixture.json
    case .plist: path = fixture.plist
    case .compiled: path = fixture.compiled
    }
    // No interposer: its per-allocation header would inflate the numbers.
    guard
        let object = runChild(
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath(),
            ["peak", loader.key, path], preload: nil),
        let baseline = object["baseline"], let peak = object["peak"]
    else { return nil }
    return peak - baseline
}

/// Runs a measuring child process (with `preload` as its `LD_PRELOAD`, or none) and reads the
/// JSON object of counts it prints; nil when it fails.
func runChild(_ executable: URL, _ arguments: [String], preload: String?) -> [String: Int]? {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["LD_PRELOAD"] = preload
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return try? JSONSerialization.jsonObject(with: data) as? [String: Int]
}

// MARK: - Allocation counting (child process with the malloc interposer)

func countAllocations(components: Int, work: String) -> [String: Int]? {
    let folder = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
    guard
        let object = runChild(
            folder.appendingPathComponent("livery-bench-allocs"), [String(components), work + "/allocs"],
            preload: folder.appendingPathComponent("libMallocInterposerSwift.so").path),
        object["active"] == 1
    else { return nil }
    return object
}

// MARK: - Runtime

struct RuntimeResults {
    var components = 0
    var operationsPerComponent = 0
    var lookupP50 = 0.0
    var lookupP99 = 0.0
    var firstApplication = 0.0
    /// With both themes prepared ahead (`Applicator.preload`): medians over a few fresh runs.
    var preloadedApplication = 0.0
    var preloadedFirstSwitch = 0.0
    var switches: [RuntimeScenario.Switch: (samples: Samples, operations: Int)] = [:]
    var allocations: [String: Int]?
}

@MainActor
func runtimeBenchmarks(
    instances: Int, work: String, runs: Int, preloadedRuns: Int,
    countingAllocations: Bool = true
) async throws -> RuntimeResults {
    var results = RuntimeResults()
    let scenario = try RuntimeScenario(instances: instances, folder: work + "/runtime\(instances)")

    // Lookups in the compiled file, timed in batches of 64 (a clock read costs about as much as a lookup).
    let batch = 64
    var perLookup: [Double] = []
    var found = 0
    for _ in 0..<5 {
        var index = 0
        let ids = scenario.lookupOrder
        while index + batch <= ids.count {
            let start = now()
            for id in ids[index..<index + batch] where scenario.compiled.handle(for: id) != nil { found += 1 }
            perLookup.append(Double(now() - start) / Double(batch))
            index += batch
        }
    }
    keepAlive(found)
    let lookups = Samples(perLookup)
    results.lookupP50 = lookups.median
    results.lookupP99 = lookups.percentile(99)

    results.firstApplication = scenario.applyFirstTime()
    results.components = scenario.applicator.liveComponentCount()
    results.operationsPerComponent = scenario.manager.buildCurrentTheme()?.instances.first?.operations.count ?? 0
    for kind in RuntimeScenario.Switch.allCases {
        scenario.warm(kind)
        var samples: [Double] = []
        var operations = 0
        for round in 0..<runs {
            let begin = now()
            scenario.perform(kind, forth: round % 2 == 0)
            samples.append(Double(now() - begin))
            operations = max(operations, scenario.lastOperationsApplied)
        }
        if runs % 2 == 1 { scenario.perform(kind, forth: false) }
        results.switches[kind] = (Samples(samples), operations)
    }
    var applied: [Double] = []
    var switched: [Double] = []
    for _ in 0..<preloadedRuns {
        let (apply, firstSwitch) = await scenario.applyAndSwitchPreloaded(folder: work + "/runtime\(instances)")
        applied.append(apply)
        switched.append(firstSwitch)
    }
    results.preloadedApplication = Samples(applied).median
    results.preloadedFirstSwitch = Samples(switched).median
    withExtendedLifetime(scenario) {}
    if countingAllocations { results.allocations = countAllocations(components: instances, work: work) }
    return results
}

// MARK: - Chart

/// Load time against N per loader, log-log, with a dashed line proportional to N for reference.
func loadChart(subtitle: String, sizes: [Int], median: (Int, Loader) -> Double) -> LogLogChart {
    var series = Loader.allCases.map { loader in
        LogLogChart.Series(
            name: loader.rawValue.replacingOccurrences(of: " (binary plist)", with: ""),
            color: loader.color,
            points: sizes.map { (Double($0), median($0, loader) / 1e6) })
    }
    if let first = sizes.first, let last = sizes.last, first < last {
        let anchor = median(first, .xmlParser) / 1e6
        series.append(
            LogLogChart.Series(
                name: "proportional to N", color: "#888888",
                points: [(Double(first), anchor), (Double(last), anchor * Double(last) / Double(first))],
                dashed: true))
    }
    return LogLogChart(
        title: "Theme load time against size (log-log)", subtitle: subtitle,
        xLabel: "instances in the theme (N)", yLabel: "load time (median)", series: series)
}

/// Redraws the chart from a results.json (after changing the chart code, without a new run).
func redrawChart(results: String, output: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: results))
    guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
        let load = json["load_ns"] as? [String: [String: Double]]
    else { fail("not a results.json") }
    let sizes = load.keys.compactMap { Int($0) }.sorted()
    let chart = loadChart(subtitle: json["chart_subtitle"] as? String ?? "", sizes: sizes) {
        load[String($0)]?[$1.key] ?? .nan
    }
    try Data(chart.svg().utf8).write(to: URL(fileURLWithPath: output))
}

// MARK: - Report

@MainActor
func report() async throws {
    let quick = arguments.contains("--quick")
    let sizes = (option("--sizes") ?? (quick ? "100,1000" : "100,1000,10000,100000"))
        .split(separator: ",").compactMap { Int($0) }
    let work = option("--work") ?? NSTemporaryDirectory() + "livery-bench-\(getpid())"
    let out = option("--out")
    let runtimeInstances = Int(option("--components") ?? "") ?? min(10_000, sizes.max() ?? 10_000)
    let maxRuns = quick ? 3 : 30
    let budget = quick ? 0.3 : 3.0
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    defer { if option("--work") == nil { try? FileManager.default.removeItem(atPath: work) } }

    // The launch first: it is the headline (fresh processes, so nothing below warms it).
    let launchSizes = sizes.filter { $0 >= 1000 }
    let launch = try launchReport(sizes: launchSizes, runs: Int(option("--runs") ?? "") ?? (quick ? 1 : 5), work: work)

    var load: [Int: [Loader: Samples]] = [:]
    var fixtures: [Fixture] = []
    var peaks: [Int: [Loader: Int]] = [:]
    for n in sizes {
        let fixture = try makeFixture(instances: n, work: work, compileRuns: quick ? 1 : (n >= 100_000 ? 1 : 5))
        fixtures.append(fixture)
        if n <= 10_000 { try checkSameModel(fixture) }
        for loader in Loader.allCases {
            let runs = loader == .compiled ? (quick ? 20 : 500) : maxRuns
            let samples = try measure(runs: runs, minimumRuns: 3, budget: loader == .compiled ? 0.5 : budget) {
                guard try loadOnce(loader, fixture) == n else { throw LoaderError.invalid(loader.key, "wrong count") }
            }
            load[n, default: [:]][loader] = samples
            FileHandle.standardError.write(
                Data("  N=\(n) \(loader.key): \(formatDuration(samples.median)) (\(samples.count) runs)\n".utf8))
        }
        if !quick || n == sizes.max() {
            for loader in Loader.allCases { peaks[n, default: [:]][loader] = measurePeak(loader, fixture) }
        }
    }
    let runtime = try await runtimeBenchmarks(
        instances: runtimeInstances, work: work, runs: quick ? 6 : 40,
        preloadedRuns: quick ? 1 : 5)

    // Markdown.
    var md = ""
    var loadAverage = "?"
    if let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
        loadAverage = text.split(separator: " ").prefix(3).joined(separator: ", ")
    }
    md +=
        "Run: \(ISO8601DateFormatter().string(from: Date())), \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadAverage); "
    md += "release build; medians; allocations counted by ordo-one's malloc interposer in a separate process.\n\n"
    md += launch.markdown + "\n"
    md += "#### The format alone (not a launch: what the loaders and the compiled reader cost by themselves)\n\n"
    md += "#### Load time (read + parse + check + resolve one trait set; compiled: open + mmap + verify)\n\n"
    md += "| loader | " + fixtures.map { "N = \($0.instances)" }.joined(separator: " | ") + " |\n"
    md += "|---|" + String(repeating: "---:|", count: fixtures.count) + "\n"
    for loader in Loader.allCases {
        md +=
            "| \(loader.rawValue) | "
            + fixtures.map { formatDuration(load[$0.instances]![loader]!.median) }.joined(separator: " | ") + " |\n"
    }
    md += "| XML bytes | " + fixtures.map { formatBytes($0.xmlBytes) }.joined(separator: " | ") + " |\n"
    md += "\nRatios (same run):\n\n"
    md += "| ratio | " + fixtures.map { "N = \($0.instances)" }.joined(separator: " | ") + " |\n"
    md += "|---|" + String(repeating: "---:|", count: fixtures.count) + "\n"
    func ratio(_ a: Loader, _ b: Loader) -> [Double] {
        fixtures.map { load[$0.instances]![a]!.median / load[$0.instances]![b]!.median }
    }
    func fmt(_ values: [Double]) -> String {
        values.map { $0 >= 100 ? String(format: "%.0fx", $0) : String(format: "%.1fx", $0) }.joined(separator: " | ")
    }
    md += "| our XML / compiled | \(fmt(ratio(.xml, .compiled))) |\n"
    md += "| XMLParser / compiled | \(fmt(ratio(.xmlParser, .compiled))) |\n"
    md += "| XMLParser / our XML | \(fmt(ratio(.xmlParser, .xml))) |\n"
    md += "| JSONDecoder / our XML | \(fmt(ratio(.json, .xml))) |\n"
    md += "| plist / our XML | \(fmt(ratio(.plist, .xml))) |\n"
    md += "\nScaling (time per instance, ns; flat means linear):\n\n"
    md += "| loader | " + fixtures.map { "N = \($0.instances)" }.joined(separator: " | ") + " | growth exponent |\n"
    md += "|---|" + String(repeating: "---:|", count: fixtures.count + 1) + "\n"
    var exponents: [Loader: Double] = [:]
    for loader in Loader.allCases {
        let per = fixtures.map { load[$0.instances]![loader]!.median / Double($0.instances) }
        // Least-squares slope of log(time) against log(N), over N >= 1000 (N = 100 is dominated by fixed costs).
        let points = fixtures.filter { $0.instances >= 1000 }.map {
            (log(Double($0.instances)), log(load[$0.instances]![loader]!.median))
        }
        var slope = Double.nan
        if points.count >= 2 {
            let mx = points.map(\.0).reduce(0, +) / Double(points.count),
                my = points.map(\.1).reduce(0, +) / Double(points.count)
            slope =
                points.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +)
                / points.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +)
        }
        exponents[loader] = slope
        md +=
            "| \(loader.rawValue) | " + per.map { String(format: "%.0f", $0) }.joined(separator: " | ")
            + " | \(String(format: "%.2f", slope)) |\n"
    }
    md += "\n#### Size and compile time\n\n"
    md +=
        "| N | XML | JSON | binary plist | compiled | compiled / XML | compile (all variants) |\n|---:|---:|---:|---:|---:|---:|---:|\n"
    for fixture in fixtures {
        md +=
            "| \(fixture.instances) | \(formatBytes(fixture.xmlBytes)) | \(formatBytes(fixture.jsonBytes)) | \(formatBytes(fixture.plistBytes)) | \(formatBytes(fixture.compiledBytes)) | \(String(format: "%.2f", Double(fixture.compiledBytes) / Double(fixture.xmlBytes))) | \(formatDuration(fixture.compileNanoseconds)) |\n"
    }
    if let largest = fixtures.last {
        md +=
            "\nCompiled file at N = \(largest.instances), by section: "
            + largest.sections.map { "\($0.0) \(formatBytes($0.1))" }.joined(separator: ", ") + "\n"
    }
    md += "\n#### Peak memory of one load (resident set growth over the process baseline)\n\n"
    let peakSizes = fixtures.filter { peaks[$0.instances] != nil }
    md += "| loader | " + peakSizes.map { "N = \($0.instances)" }.joined(separator: " | ") + " |\n"
    md += "|---|" + String(repeating: "---:|", count: peakSizes.count) + "\n"
    for loader in Loader.allCases {
        md +=
            "| \(loader.rawValue) | "
            + peakSizes.map { fixture in
                guard let peak = peaks[fixture.instances]?[loader] else { return "n/a" }
                return "\(formatBytes(peak)) (\(String(format: "%.1f", Double(peak) / Double(fixture.xmlBytes)))x XML)"
            }.joined(separator: " | ") + " |\n"
    }
    md +=
        "\n#### Runtime (\(runtime.components) components, \(runtime.operationsPerComponent) operations each; lookups in the compiled file)\n\n"
    md += "| measurement | median | p90 | setter calls | heap allocations |\n|---|---:|---:|---:|---:|\n"
    func allocs(_ key: String) -> String {
        guard let count = runtime.allocations?[key] else { return "n/a" }
        return "\(count) (\(String(format: "%.2f", Double(count) / Double(max(runtime.components, 1)))) per component)"
    }
    md +=
        "| lookup by identifier (p50 / p99) | \(formatDuration(runtime.lookupP50)) | p99 \(formatDuration(runtime.lookupP99)) | | \(runtime.allocations?["lookups"].map { "\($0) in \(runtimeInstances) lookups" } ?? "n/a") |\n"
    md +=
        "| first application to \(runtime.components) components | \(formatDuration(runtime.firstApplication)) | | | \(allocs("first_application")) |\n"
    md +=
        "| the same with both themes preloaded (`Applicator.preload`) | \(formatDuration(runtime.preloadedApplication)) | | | |\n"
    md +=
        "| then the first switch to B (everything changes) | \(formatDuration(runtime.preloadedFirstSwitch)) | | | |\n"
    let names: [RuntimeScenario.Switch: String] = [
        .everything: "theme switch, everything changes", .tenth: "theme switch, 10% changes (child theme)",
        .traits: "trait change, light to dark",
    ]
    for kind in RuntimeScenario.Switch.allCases {
        let result = runtime.switches[kind]!
        md +=
            "| \(names[kind]!) | \(formatDuration(result.samples.median)) | \(formatDuration(result.samples.percentile(90))) | \(result.operations) | \(allocs("switch_" + kind.rawValue)) |\n"
    }

    // Targets.
    let reference = fixtures.last { $0.instances <= 10_000 } ?? fixtures[0]
    let r = load[reference.instances]!
    func verdict(_ met: Bool) -> String { met ? "met" : "**not met**" }
    let xmlOverCompiled = r[.xml]!.median / r[.compiled]!.median
    let parserOverCompiled = r[.xmlParser]!.median / r[.compiled]!.median
    let parserOverXML = r[.xmlParser]!.median / r[.xml]!.median
    let sizeRatio = Double(reference.compiledBytes) / Double(reference.xmlBytes)
    let xmlPeak = peaks[reference.instances]?[.xml].map { Double($0) / Double(reference.xmlBytes) }
    let perComponent = runtime.allocations?["switch_everything"].map { Double($0) / Double(max(runtime.components, 1)) }
    let lookupAllocations = runtime.allocations?["lookups"]
    let switchAll = runtime.switches[.everything]!.samples
    md += "\n#### Targets (N = \(reference.instances))\n\n| target | measured | verdict |\n|---|---:|---|\n"
    md +=
        "| compiled load ≥ 100x faster than our XML | \(String(format: "%.0fx", xmlOverCompiled)) | \(verdict(xmlOverCompiled >= 100)) |\n"
    md +=
        "| compiled load ≥ 500x faster than XMLParser | \(String(format: "%.0fx", parserOverCompiled)) | \(verdict(parserOverCompiled >= 500)) |\n"
    md +=
        "| lookup p50 ≤ 100 ns, no allocation | \(formatDuration(runtime.lookupP50)), \(lookupAllocations.map(String.init) ?? "n/a") allocations | \(verdict(runtime.lookupP50 <= 100 && (lookupAllocations ?? 0) == 0)) |\n"
    md +=
        "| switch of \(runtime.components) × \(runtime.operationsPerComponent) ≤ 2 ms, no per-component allocation | \(formatDuration(switchAll.median)), \(perComponent.map { String(format: "%.2f", $0) } ?? "n/a") allocations per component | \(verdict(switchAll.median <= 2e6 && (perComponent ?? 0) < 1)) |\n"
    let registerAndSwitch = runtime.preloadedApplication + runtime.preloadedFirstSwitch
    md +=
        "| register \(runtime.components) components and switch the theme under them ≤ 8 ms (issue 4; themes preloaded) | \(formatDuration(registerAndSwitch)) | \(verdict(registerAndSwitch <= 8e6)) |\n"
    md +=
        "| our XML ≥ 3x faster than XMLParser | \(String(format: "%.1fx", parserOverXML)) | \(verdict(parserOverXML >= 3)) |\n"
    md +=
        "| peak memory of parsing ≤ 5x the XML (resident-set growth here; the heap peak, the target's measure, is Benchmarks/Scripts/bench-memory.sh) | \(xmlPeak.map { String(format: "%.1fx", $0) } ?? "n/a") | \(xmlPeak.map { verdict($0 <= 5) } ?? "n/a") |\n"
    let ours = [Loader.xml, .compiled].compactMap { exponents[$0] }.filter { !$0.isNaN }
    md +=
        "| linear growth for our loaders (exponent of time vs N, N ≥ 1000) | XML \(String(format: "%.2f", exponents[.xml] ?? .nan)), compiled \(String(format: "%.2f", exponents[.compiled] ?? .nan)) | \(ours.isEmpty ? "n/a" : verdict(ours.allSatisfy { $0 <= 1.15 })) |\n"
    md += "| compiled size ≤ 0.6 of the XML | \(String(format: "%.2f", sizeRatio)) | \(verdict(sizeRatio <= 0.6)) |\n"
    print(md)

    if let out {
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data(md.utf8).write(to: URL(fileURLWithPath: out + "/report.md"))
        let subtitle =
            "median per load, one run, \(ProcessInfo.processInfo.activeProcessorCount) shared cores, load average \(loadAverage)"
        let chart = loadChart(subtitle: subtitle, sizes: fixtures.map(\.instances)) { load[$0]![$1]!.median }
        try Data(chart.svg().utf8).write(to: URL(fileURLWithPath: out + "/load-time.svg"))
        var json: [String: Any] = ["chart_subtitle": subtitle, "launch": launch.json]
        json["load_ns"] = Dictionary(
            uniqueKeysWithValues: fixtures.map { fixture in
                (
                    String(fixture.instances),
                    Dictionary(
                        uniqueKeysWithValues: Loader.allCases.map { ($0.key, load[fixture.instances]![$0]!.median) })
                )
            })
        json["sizes"] = Dictionary(
            uniqueKeysWithValues: fixtures.map {
                (
                    "\($0.instances)",
                    ["xml": $0.xmlBytes, "json": $0.jsonBytes, "plist": $0.plistBytes, "compiled": $0.compiledBytes]
                )
            })
        json["runtime"] = [
            "lookup_p50_ns": runtime.lookupP50, "lookup_p99_ns": runtime.lookupP99,
            "first_application_ns": runtime.firstApplication,
            "first_application_preloaded_ns": runtime.preloadedApplication,
            "first_switch_preloaded_ns": runtime.preloadedFirstSwitch,
            "switch_all_ns": switchAll.median, "switch_tenth_ns": runtime.switches[.tenth]!.samples.median,
            "switch_traits_ns": runtime.switches[.traits]!.samples.median,
        ]
        try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys]).write(
            to: URL(fileURLWithPath: out + "/results.json"))
    }
}

switch arguments.first {
case "generate" where arguments.count == 3:
    // The benchmark theme of N instances, as XML (<DIR>/Bench.theme), JSON and a binary plist.
    guard let n = Int(arguments[1]) else { fail("generate N DIR") }
    do {
        let source = ThemeGenerator.theme(instances: n)
        print(try source.writeXML(into: arguments[2], name: "Bench"))
        try source.jsonData().write(to: URL(fileURLWithPath: arguments[2] + "/Bench.json"))
        try source.plistData().write(to: URL(fileURLWithPath: arguments[2] + "/Bench.plist"))
    } catch {
        fail("\(error)")
    }
case "chart" where arguments.count == 3:
    do { try redrawChart(results: arguments[1], output: arguments[2]) } catch { fail("\(error)") }
case "peak" where arguments.count == 3:
    peakChild(arguments[1], arguments[2])
case "launch-child":
    launchChild(Array(arguments.dropFirst()))
case "launch":
    do {
        let sizes = (option("--sizes") ?? "1000,10000,100000").split(separator: ",").compactMap { Int($0) }
        let work = option("--work") ?? NSTemporaryDirectory() + "livery-launch-\(getpid())"
        defer { if option("--work") == nil { try? FileManager.default.removeItem(atPath: work) } }
        print(try launchReport(sizes: sizes, runs: Int(option("--runs") ?? "") ?? 5, work: work).markdown)
    } catch {
        fail("\(error)")
    }
case "runtime":
    // The runtime scenario alone, for profiling: `perf record` around it sees little else.
    do {
        let components = Int(option("--components") ?? "") ?? 10_000
        let work = option("--work") ?? NSTemporaryDirectory() + "livery-runtime-\(getpid())"
        defer { if option("--work") == nil { try? FileManager.default.removeItem(atPath: work) } }
        let runtime = try await runtimeBenchmarks(
            instances: components, work: work, runs: Int(option("--runs") ?? "") ?? 40,
            preloadedRuns: 3, countingAllocations: false)
        print("first application: \(formatDuration(runtime.firstApplication))")
        print(
            "preloaded application: \(formatDuration(runtime.preloadedApplication)), then the first switch: \(formatDuration(runtime.preloadedFirstSwitch))"
        )
        for kind in RuntimeScenario.Switch.allCases {
            let samples = runtime.switches[kind]!.samples
            print(
                "warm switch \(kind.rawValue): median \(formatDuration(samples.median)), p90 \(formatDuration(samples.percentile(90)))"
            )
        }
    } catch {
        fail("\(error)")
    }
case "report":
    do { try await report() } catch { fail("\(error)") }
default:
    fail(
        "usage: livery-bench report [--sizes 100,1000,10000,100000] [--quick] [--components N] [--out DIR] [--work DIR] | runtime [--components N] [--runs N] | launch [--sizes N,...] [--runs N] | peak LOADER PATH | generate N DIR | chart RESULTS.json OUT.svg"
    )
}
