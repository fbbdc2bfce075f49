import BenchmarkSupport
import Foundation
import Livery
import LiveryBinary
import LiveryCompiler
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import LiveryXML

// The launch scenario: what an app does when it starts, from its configuration file to its
// first styled components, timed in a fresh process per launch (the page cache is warm, as for
// an app launched a second time; nothing of the engine is warm). Three layouts of the same
// theme: its compiled file alone (a release build), its folder alone, and both side by side
// (the development layout, where the manager checks that the file is up to date). And, as the
// floor a compiled launch is compared with, open + mmap + verify of the same file alone.

/// One layout of a theme to launch from.
enum LaunchLayout: String, CaseIterable {
    case compiled, xml
    /// The development layout before the stamp of its sources exists (`Dark.livery.sources`):
    /// the digests of every source are compared, then the stamp is written.
    case developmentFirst = "development-first"
    /// The same once the stamp exists: sizes and modification times are compared.
    case development
    /// Not a launch: `CompiledTheme(contentsOf:)` of the compiled file alone, in a fresh process.
    case open

    var title: String {
        switch self {
        case .compiled: "compiled file only"
        case .xml: "XML folder only"
        case .developmentFirst: "compiled file beside its sources, no stamp yet (digests compared)"
        case .development: "compiled file beside its sources (development, stamp present)"
        case .open: "open + mmap + verify of the same file (the floor)"
        }
    }
}

/// What one launch measured.
struct LaunchSample {
    var firstStyled: Double
    var allStyled: Double
    var residentGrowth: Int
    /// The same launch repeated in the same process, the last of `LaunchScenario.relaunches(_:_:)`
    /// (0 where there are none): what is left once the Swift runtime has made its metadata and
    /// the code is paged in.
    var again: Double
}

/// A theme ready to launch from in every layout: a folder per layout with a configuration file.
struct LaunchFixture {
    var label: String
    var instances: Int
    var compiledFile: String
    var compiledBytes: Int
    /// The configuration file of each layout.
    var configurations: [LaunchLayout: String]
    /// The (identifier, component type) pairs the app styles, in order.
    var styled: [(id: String, component: String)]
    var idsFile: String
}

@MainActor
enum LaunchScenario {
    static let styledCount = 100

    /// Launches repeated in the child after the timed one, the last reported as `again_ns`: for
    /// the compiled layout, and the XML one up to 1,000 instances (beyond, it would take minutes).
    static func relaunches(_ fixture: LaunchFixture, _ layout: LaunchLayout) -> Int {
        layout == .compiled || (layout == .xml && fixture.instances <= 1_000) ? 3 : 0
    }

    /// The repository's sample themes (Themes/), the app showing Dark.
    static func samples(work: String) throws -> LaunchFixture {
        let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Themes").path
        let names = try FileManager.default.contentsOfDirectory(atPath: themes).filter { $0.hasSuffix(".theme") }
            .sorted()
        let root = work + "/launch-samples"
        for layout in [LaunchLayout.compiled, .xml, .development] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + layout.rawValue, withIntermediateDirectories: true)
        }
        var darkFile = ""
        var darkBytes = 0
        // Every theme is copied before any is compiled: a theme's parent may sort after it.
        for name in names {
            for layout in [LaunchLayout.xml, .development] {
                try FileManager.default.copyItem(
                    atPath: themes + "/" + name, toPath: root + "/\(layout.rawValue)/" + name)
            }
        }
        for name in names {
            let stem = String(name.dropLast(".theme".count))
            // Compiled from the development copy, so its digests describe the sources beside it.
            let bytes = try compileWithDigests(root + "/development/" + name)
            for layout in [LaunchLayout.compiled, .development] {
                try Data(bytes).write(to: URL(fileURLWithPath: root + "/\(layout.rawValue)/\(stem).livery"))
            }
            if stem == "Dark" {
                darkFile = root + "/compiled/Dark.livery"
                darkBytes = bytes.count
            }
        }
        guard let dark = ThemeWorkspace().resolve(themeAt: themes + "/Dark.theme", traits: .none).value else {
            throw LoaderError.invalid("Dark.theme", "does not load")
        }
        // Only what the reference components can be: the sample themes' `chatbubble` is the
        // chat demo's own component, and styling a `View` as one would time an error path.
        let styled = dark.instances.filter { StandardBindings.makeComponent(ofType: $0.component) != nil }.prefix(
            styledCount
        )
        .map { (id: $0.id, component: $0.component) }
        return try finish(
            label: "sample themes (Dark)", instances: dark.instances.count, root: root, themeID: "com.livery.dark",
            compiledFile: darkFile, compiledBytes: darkBytes, styled: styled)
    }

    /// The generated benchmark theme of `instances` instances; 100 of its ids, spread over the
    /// theme, are styled.
    static func generated(instances: Int, work: String) throws -> LaunchFixture {
        let root = work + "/launch\(instances)"
        let source = ThemeGenerator.theme(instances: instances)
        var compiled: [UInt8] = []
        for layout in [LaunchLayout.xml, .development] {
            let theme = try source.writeXML(into: root + "/" + layout.rawValue, name: "Bench")
            if layout == .development { compiled = try compileWithDigests(theme) }
        }
        for layout in [LaunchLayout.compiled, .development] {
            try FileManager.default.createDirectory(
                atPath: root + "/" + layout.rawValue, withIntermediateDirectories: true)
            try Data(compiled).write(to: URL(fileURLWithPath: root + "/\(layout.rawValue)/Bench.livery"))
        }
        let styled = (0..<min(styledCount, instances)).map { step -> (id: String, component: String) in
            let index = (step &* 7_919) % instances
            return (ThemeGenerator.identifier(index), ThemeGenerator.component(index))
        }
        return try finish(
            label: "generated, N = \(instances)", instances: instances, root: root, themeID: source.id,
            compiledFile: root + "/compiled/Bench.livery", compiledBytes: compiled.count, styled: styled)
    }

    static func compileWithDigests(_ theme: String) throws -> [UInt8] {
        let result = ThemeCompiler.compile(themeAt: theme, workspace: ThemeWorkspace())
        guard let bytes = result.value else { throw LoaderError.invalid(theme, "\(result.diagnostics.prefix(3))") }
        return bytes
    }

    private static func finish(
        label: String, instances: Int, root: String, themeID: String, compiledFile: String,
        compiledBytes: Int, styled: [(id: String, component: String)]
    ) throws -> LaunchFixture {
        var configurations: [LaunchLayout: String] = [:]
        for layout in [LaunchLayout.compiled, .xml, .development] {
            let path = root + "/\(layout.rawValue).xml"
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <livery-configuration default-theme="\(themeID)">
                  <search-path>\(layout.rawValue)</search-path>
                </livery-configuration>

                """
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
            configurations[layout] = path
        }
        let idsFile = root + "/styled.txt"
        try Data(styled.map { "\($0.id) \($0.component)" }.joined(separator: "\n").utf8).write(
            to: URL(fileURLWithPath: idsFile))
        return LaunchFixture(
            label: label, instances: instances, compiledFile: compiledFile, compiledBytes: compiledBytes,
            configurations: configurations, styled: styled, idsFile: idsFile)
    }

    /// Launches `runs` fresh processes in `layout` and returns their samples.
    static func measure(_ fixture: LaunchFixture, _ layout: LaunchLayout, runs: Int) -> [LaunchSample] {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let configuration = fixture.configurations[layout == .developmentFirst ? .development : layout]
        let arguments =
            layout == .open
            ? ["launch-child", "open", fixture.compiledFile]
            : [
                "launch-child", "app", configuration!, fixture.idsFile, layout == .compiled ? "release" : "development",
                String(relaunches(fixture, layout)),
            ]
        if layout == .developmentFirst {
            // A stamp trusts no file modified in the last two seconds: let the fixture age.
            Thread.sleep(forTimeInterval: 2.5)
        }
        return (0..<runs).compactMap { _ in
            if layout == .developmentFirst, let folder = configuration.map({ ($0 as NSString).deletingPathExtension }),
                let stamps = try? FileManager.default.contentsOfDirectory(atPath: folder)
            {
                for stamp in stamps where stamp.hasSuffix(".sources") {
                    try? FileManager.default.removeItem(atPath: folder + "/" + stamp)
                }
            }
            guard let object = runChild(executable, arguments, preload: nil), let first = object["first_ns"],
                let all = object["all_ns"], let growth = object["resident_growth"], let again = object["again_ns"]
            else { return nil }
            return LaunchSample(
                firstStyled: Double(first), allStyled: Double(all), residentGrowth: growth, again: Double(again))
        }
    }
}

/// The resident set now, from /proc/self/statm (one read, no parsing of the status text).
func residentNow() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
}

/// A key type of the benchmark's own, whose `Hashable` conformance the warm-up looks up.
private struct LaunchWarmUp: Hashable {}

/// The child of one launch: prints `{"first_ns", "all_ns", "resident_growth"}` and exits.
@MainActor
func launchChild(_ arguments: [String]) -> Never {
    // Warm what any process has done before it themes anything: Foundation's file APIs, the
    // clock, and one protocol-conformance lookup. On Linux the Swift runtime answers the first
    // such lookup of a process by reading in every loaded image's conformance records (about
    // 0.3 ms here, against 0.04 ms for each later one): an app has paid that long before its
    // first screen, and without this the launch timed first would pay it for both.
    _ = FileManager.default.fileExists(atPath: "/")
    _ = now()
    _ = [LaunchWarmUp(): 0]
    switch arguments.first {
    case "open" where arguments.count == 2:
        let before = residentNow()
        let start = now()
        guard let file = try? CompiledTheme(contentsOf: arguments[1]) else { fail("cannot open \(arguments[1])") }
        let elapsed = now() - start
        let growth = residentNow() - before
        withExtendedLifetime(file) {}
        print("{\"first_ns\": \(elapsed), \"all_ns\": \(elapsed), \"resident_growth\": \(growth), \"again_ns\": 0}")
        exit(0)
    case "app" where arguments.count == 5:
        guard let list = try? String(contentsOfFile: arguments[2], encoding: .utf8) else {
            fail("cannot read \(arguments[2])")
        }
        func components() -> [(String, View)] {
            list.split(separator: "\n").map { line -> (String, View) in
                let parts = line.split(separator: " ")
                guard parts.count == 2, let component = StandardBindings.makeComponent(ofType: parts[1]) else {
                    fail("\(arguments[2]): no reference component for '\(line)'")
                }
                return (String(parts[0]), component)
            }
        }
        let styled = components()
        // A release app links `Livery` alone and reads compiled files; a development build adds
        // folders and the staleness check (`LiveryDevelopment`).
        func launch(_ styled: [(String, View)]) -> (manager: ThemeManager, applicator: Applicator, first: UInt64) {
            let manager =
                arguments[3] == "release"
                ? ThemeManager(configurationFile: arguments[1])
                : ThemeManager.development(configurationFile: arguments[1])
            let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
            applicator.style(styled[0].1, as: styled[0].0)
            let first = now()
            for (id, component) in styled.dropFirst() { applicator.style(component, as: id) }
            return (manager, applicator, first)
        }
        let before = residentNow()
        let start = now()
        let launched = launch(styled)
        let all = now()
        let growth = residentNow() - before
        guard launched.manager.currentThemeID != nil else { fail("the launch found no theme to show") }
        // A launch that reported an error timed an error path, not the launch: refuse it.
        let findings = launched.manager.diagnostics.reported
        guard !findings.hasErrors else {
            fail("the launch reported errors: \(findings.filter { $0.severity == .error })")
        }
        // The same launch again, on new components: the first launches pay the runtime's first
        // use (type metadata, conformance lookups, code paged in), the last is the engine's work.
        var again: UInt64 = 0
        for _ in 0..<(Int(arguments[4]) ?? 0) {
            let components = components()
            let relaunchStart = now()
            let relaunched = launch(components)
            again = now() - relaunchStart
            withExtendedLifetime((relaunched.manager, relaunched.applicator, components)) {}
        }
        withExtendedLifetime((launched.manager, launched.applicator, styled)) {}
        print(
            "{\"first_ns\": \(launched.first - start), \"all_ns\": \(all - start), \"resident_growth\": \(growth), \"again_ns\": \(again)}"
        )
        exit(0)
    default:
        fail("launch-child open FILE | launch-child app CONFIGURATION IDS_FILE release|development RELAUNCHES")
    }
}

/// The launch table: every layout at every size, medians of `runs` fresh processes, and the
/// ratios the targets name. Returns the Markdown and the JSON object for results.json.
@MainActor
func launchReport(sizes: [Int], runs: Int, work: String) throws -> (markdown: String, json: [String: Any]) {
    var fixtures = [try LaunchScenario.samples(work: work)]
    for n in sizes { fixtures.append(try LaunchScenario.generated(instances: n, work: work)) }
    var medians: [String: [LaunchLayout: (first: Double, all: Double, growth: Int, again: Double)]] = [:]
    for fixture in fixtures {
        for layout in LaunchLayout.allCases {
            let samples = LaunchScenario.measure(fixture, layout, runs: runs)
            guard !samples.isEmpty else {
                throw LoaderError.invalid(fixture.label, "the \(layout.rawValue) launch failed")
            }
            let growth = samples.map(\.residentGrowth).sorted()[samples.count / 2]
            medians[fixture.label, default: [:]][layout] = (
                Samples(samples.map(\.firstStyled)).median,
                Samples(samples.map(\.allStyled)).median, growth,
                Samples(samples.map(\.again)).median
            )
            FileHandle.standardError.write(
                Data(
                    "  launch \(fixture.label) \(layout.rawValue): \(formatDuration(Samples(samples.map(\.allStyled)).median)) (\(samples.count) runs)\n"
                        .utf8))
        }
    }
    var md = "#### Launch: configuration file to styled components (fresh process per launch, medians of \(runs))\n\n"
    md +=
        "`ThemeManager(configurationFile:)`, an `Applicator`, then components styled: the first, then up to \(LaunchScenario.styledCount) (the sample themes' `chatbubble` instances are left out: no reference component is one). "
    md += "Resident-set growth from /proc/self/statm across the launch.\n\n"
    md += "| theme | instances | styled | compiled file | layout | first styled | all styled | resident growth |\n"
    md += "|---|---:|---:|---:|---|---:|---:|---:|\n"
    for fixture in fixtures {
        for layout in LaunchLayout.allCases {
            let m = medians[fixture.label]![layout]!
            md +=
                "| \(fixture.label) | \(fixture.instances) | \(fixture.styled.count) | \(formatBytes(fixture.compiledBytes)) | \(layout.title) | \(formatDuration(m.first)) | \(layout == .open ? "" : formatDuration(m.all)) | \(formatBytes(m.growth)) |\n"
        }
    }
    md += "\n| ratio (same run) | " + fixtures.map(\.label).joined(separator: " | ") + " |\n"
    md += "|---|" + String(repeating: "---:|", count: fixtures.count) + "\n"
    func row(_ title: String, _ value: @MainActor (LaunchFixture) -> Double) {
        md +=
            "| \(title) | "
            + fixtures.map { String(format: value($0) >= 100 ? "%.0fx" : "%.1fx", value($0)) }.joined(separator: " | ")
            + " |\n"
    }
    row("XML launch / compiled launch") { medians[$0.label]![.xml]!.all / medians[$0.label]![.compiled]!.all }
    row("the same, to the first styled component") {
        medians[$0.label]![.xml]!.first / medians[$0.label]![.compiled]!.first
    }
    row("compiled launch / open+mmap+verify") { medians[$0.label]![.compiled]!.all / medians[$0.label]![.open]!.all }
    row("development launch / XML launch") { medians[$0.label]![.development]!.all / medians[$0.label]![.xml]!.all }
    row("development launch without stamp / XML launch") {
        medians[$0.label]![.developmentFirst]!.all / medians[$0.label]![.xml]!.all
    }

    md +=
        "\nThe same launch repeated in the same process (the third repeat, on new components; XML up to 1,000 instances): the engine's own work, once the "
    md +=
        "Swift runtime has made its type metadata and the code is paged in. The difference from the launch above is the process's first-use cost.\n\n"
    md += "| launch again in the same process | " + fixtures.map(\.label).joined(separator: " | ") + " |\n"
    md += "|---|" + String(repeating: "---:|", count: fixtures.count) + "\n"
    for layout in [LaunchLayout.compiled, .xml] {
        md +=
            "| \(layout.title) | "
            + fixtures.map { fixture in
                LaunchScenario.relaunches(fixture, layout) > 0
                    ? formatDuration(medians[fixture.label]![layout]!.again) : "–"
            }.joined(separator: " | ") + " |\n"
    }
    md +=
        "| XML again / compiled again | "
        + fixtures.map { fixture in
            LaunchScenario.relaunches(fixture, .xml) > 0
                ? String(
                    format: "%.1fx", medians[fixture.label]![.xml]!.again / medians[fixture.label]![.compiled]!.again)
                : "–"
        }.joined(separator: " | ") + " |\n"

    // Targets.
    func verdict(_ met: Bool) -> String { met ? "met" : "**not met**" }
    md += "\n| launch target | measured | verdict |\n|---|---:|---|\n"
    let sample = fixtures[0]
    let sampleRatio = medians[sample.label]![.xml]!.all / medians[sample.label]![.compiled]!.all
    md +=
        "| compiled ≥ 10x faster than XML, sample themes | \(String(format: "%.1fx", sampleRatio)) | \(verdict(sampleRatio >= 10)) |\n"
    if let tenK = fixtures.first(where: { $0.instances == 10_000 && $0.label != sample.label }) {
        let m = medians[tenK.label]!
        let ratio = m[.xml]!.all / m[.compiled]!.all
        md +=
            "| compiled ≥ 100x faster than XML, N = 10,000, 100 styled | \(String(format: "%.0fx", ratio)) | \(verdict(ratio >= 100)) |\n"
        let floor = m[.compiled]!.all / m[.open]!.all
        md +=
            "| compiled launch within 10x of open+mmap+verify, N = 10,000 | \(String(format: "%.1fx", floor)) | \(verdict(floor <= 10)) |\n"
        let extra = m[.compiled]!.growth - medians[sample.label]![.compiled]!.growth
        let allowed = 2 * tenK.compiledBytes
        md +=
            "| resident growth N = 10,000 minus sample themes ≤ 2x the file (\(formatBytes(allowed))) | \(formatBytes(extra)) (fixed cost, sample themes: \(formatBytes(medians[sample.label]![.compiled]!.growth))) | \(verdict(extra <= allowed)) |\n"
        let development = m[.development]!.all / m[.xml]!.all
        md +=
            "| development layout cheaper than loading the XML, N = 10,000 | \(String(format: "%.2f", development)) of the XML launch | \(verdict(development < 1)) |\n"
    }
    var json: [String: Any] = [:]
    for fixture in fixtures {
        json[fixture.label] = Dictionary(
            uniqueKeysWithValues: medians[fixture.label]!.map { layout, m in
                var values = ["first_ns": m.first, "all_ns": m.all, "resident_growth": Double(m.growth)]
                if LaunchScenario.relaunches(fixture, layout) > 0 { values["again_ns"] = m.again }
                return (layout.rawValue, values)
            })
    }
    return (md, json)
}
