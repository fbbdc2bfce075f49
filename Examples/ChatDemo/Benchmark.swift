#if canImport(Glibc)
import Glibc
#endif
import Livery
import LiveryModel

/// Registers 10,000 headless components and switches themes under them, printing timings.
/// Not a unit test: numbers depend on the machine; the benchmark issue tracks them.
@MainActor
enum SwitchBenchmark {
    static let operations: [(String, String)] = [
        ("backgroundColor", "color"), ("borderColor", "color"), ("tintColor", "color"), ("shadowColor", "color"),
        ("cornerRadius", "radius"), ("borderWidth", "width"), ("alpha", "value"), ("shadowOpacity", "value"),
    ]

    static func theme(_ id: String, identifiers: Int, seed: Double) -> LoadedTheme {
        let instances = (0..<identifiers).map { index in
            ResolvedInstance(id: "view_\(index)", component: "uiview", operations: operations.enumerated().map { offset, entry in
                let (name, param) = entry
                let value: Value = param == "color"
                    ? .color(Color(red: seed, green: Double(offset) / 8, blue: Double(index % 255) / 255))
                    : .float(seed + Double(offset))
                return ResolvedOperation(name: name, params: [Param(name: param, value: value)])
            })
        }
        return LoadedTheme(variants: ThemeVariants(info: ThemeInfo(id: id, name: id), ancestors: [], axes: TraitAxes(),
                                                   variants: [.none: instances], assets: .empty))
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    static func run(components: Int = 10_000, identifiers: Int, switches: Int = 41) {
        let manager = ThemeManager()
        manager.add(theme("a", identifiers: identifiers, seed: 0.25))
        manager.add(theme("b", identifiers: identifiers, seed: 0.75))
        manager.activate(themeID: "a")
        let applicator = Applicator(manager: manager)
        let views = (0..<components).map { _ in View() }
        let clock = ContinuousClock()

        // The names are made before timing: the benchmark measures the engine, not string
        // interpolation.
        let names = (0..<identifiers).map { "view_\($0)" }
        let register = clock.measure {
            for (index, view) in views.enumerated() { applicator.style(view, as: names[index % identifiers]) }
        }
        let cold = clock.measure { manager.activate(themeID: "b") }
        let coldBack = clock.measure { manager.activate(themeID: "a") }
        var warm: [Double] = []
        var operationsPerSwitch = 0
        for index in 0..<switches {
            let elapsed = clock.measure { manager.activate(themeID: index % 2 == 0 ? "b" : "a") }
            warm.append(milliseconds(elapsed))
            operationsPerSwitch = applicator.lastPass.operationsApplied
        }
        warm.sort()
        let median = warm[warm.count / 2]
        let p90 = warm[warm.count * 9 / 10]
        let label = "\(components) components, \(identifiers) identifiers, 8 operations each"
        print(label)
        print("  register all:                 \(format(milliseconds(register))) ms (\(format(milliseconds(register) * 1e6 / Double(components))) ns per component)")
        print("  first switch a->b (prepare):  \(format(milliseconds(cold))) ms")
        print("  first switch b->a (prepare):  \(format(milliseconds(coldBack))) ms")
        print("  warm switch, median of \(switches): \(format(median)) ms (p90 \(format(p90)) ms, min \(format(warm[0])) ms), \(operationsPerSwitch) setter calls")
        print("  register all + first switch:  \(format(milliseconds(register) + milliseconds(cold))) ms; register all + warm switch: \(format(milliseconds(register) + median)) ms")
        withExtendedLifetime(views) {}
    }

    /// Heap allocations during warm switches, counted by the preloaded counter of
    /// Scripts/malloc-count.c (see Scripts/count-allocations.sh).
    static func countAllocations(components: Int = 10_000, identifiers: Int) {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "livery_malloc_count") else {
            print("no allocation counter: run Examples/ChatDemo/Scripts/count-allocations.sh")
            return
        }
        let count = unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
        let manager = ThemeManager()
        manager.add(theme("a", identifiers: identifiers, seed: 0.25))
        manager.add(theme("b", identifiers: identifiers, seed: 0.75))
        manager.activate(themeID: "a")
        let applicator = Applicator(manager: manager)
        let views = (0..<components).map { _ in View() }
        let names = (0..<identifiers).map { "view_\($0)" }
        let beforeRegistering = count()
        for (index, view) in views.enumerated() { applicator.style(view, as: names[index % identifiers]) }
        let registering = count() - beforeRegistering
        // Two switches prepare theme b and the plans both ways; the ones after are warm.
        manager.activate(themeID: "b")
        manager.activate(themeID: "a")
        let warmRuns = 10
        let before = count()
        for index in 0..<warmRuns { manager.activate(themeID: index % 2 == 0 ? "b" : "a") }
        let warm = Double(count() - before) / Double(warmRuns)
        print("\(components) components, \(identifiers) identifiers: \(registering) allocations to register all (\(format(Double(registering) / Double(components))) per component); \(format(warm)) per warm switch of \(applicator.lastPass.operationsApplied) setter calls")
        withExtendedLifetime(views) {}
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return String(rounded)
    }
}
