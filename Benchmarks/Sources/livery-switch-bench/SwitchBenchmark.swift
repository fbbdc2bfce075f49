import Livery
import LiveryHeadless
import LiveryModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Registers 10,000 headless components and switches themes under them, printing timings.
/// Not a unit test: numbers depend on the machine; docs/Performance.md reports them.
@MainActor
enum SwitchBenchmark {
    static let operations: [(String, String)] = [
        ("backgroundColor", "color"), ("borderColor", "color"), ("tintColor", "color"), ("shadowColor", "color"),
        ("cornerRadius", "radius"), ("borderWidth", "width"), ("alpha", "value"), ("shadowOpacity", "value"),
    ]

    static func theme(_ id: String, identifiers: Int, seed: Double) -> LoadedTheme {
        LoadedTheme(variants: variants(id, identifiers: identifiers, seed: seed))
    }

    static func variants(_ id: String, identifiers: Int, seed: Double) -> ThemeVariants {
        let instances = (0..<identifiers).map { index in
            ResolvedInstance(
                id: "view_\(index)", component: "uiview",
                operations: operations.enumerated().map { offset, entry in
                    let (name, param) = entry
                    let value: Value =
                        param == "color"
                        ? .color(Color(red: seed, green: Double(offset) / 8, blue: Double(index % 255) / 255))
                        : .float(seed + Double(offset))
                    return ResolvedOperation(name: name, params: [Param(name: param, value: value)])
                })
        }
        return ThemeVariants(
            info: ThemeInfo(id: id, name: id), ancestors: [], axes: TraitAxes(),
            variants: [.none: instances], assets: .empty)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// The timings of one round: a fresh manager, applicator and components.
    struct Round {
        var register: Double
        var firstSwitch: Double
        var firstSwitchBack: Double
        var warmSwitches: [Double]
        var setterCalls: Int
        /// Pages the kernel mapped in while registering and during the first switch.
        var registerFaults: Int
        var firstSwitchFaults: Int
    }

    /// Minor page faults of the process so far: first touches of memory.
    static func pageFaults() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
            getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
            getrusage(RUSAGE_SELF, &usage)
        #endif
        return Int(usage.ru_minflt)
    }

    /// With `preload`, both themes are prepared ahead on other threads (`Applicator.preload`),
    /// as an app does at launch, before timing starts.
    static func round(components: Int, identifiers: Int, switches: Int, preload: Bool) async -> Round {
        let manager = ThemeManager()
        manager.add(theme("a", identifiers: identifiers, seed: 0.25))
        manager.add(theme("b", identifiers: identifiers, seed: 0.75))
        manager.activate(themeID: "a")
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        if preload { await applicator.preload(["a", "b"]) }
        let views = (0..<components).map { _ in View() }
        let clock = ContinuousClock()

        // The names are made before timing: the benchmark measures the engine, not string
        // interpolation.
        let names = (0..<identifiers).map { "view_\($0)" }
        let faultsBefore = pageFaults()
        let register = clock.measure {
            for (index, view) in views.enumerated() { applicator.style(view, as: names[index % identifiers]) }
        }
        let faultsRegistering = pageFaults()
        let first = clock.measure { manager.activate(themeID: "b") }
        let faultsSwitching = pageFaults()
        let firstBack = clock.measure { manager.activate(themeID: "a") }
        var warm: [Double] = []
        for index in 0..<switches {
            let elapsed = clock.measure { manager.activate(themeID: index % 2 == 0 ? "b" : "a") }
            warm.append(milliseconds(elapsed))
        }
        let setterCalls = applicator.lastPass.operationsApplied
        withExtendedLifetime(views) {}
        return Round(
            register: milliseconds(register), firstSwitch: milliseconds(first),
            firstSwitchBack: milliseconds(firstBack), warmSwitches: warm, setterCalls: setterCalls,
            registerFaults: faultsRegistering - faultsBefore, firstSwitchFaults: faultsSwitching - faultsRegistering)
    }

    /// Runs `rounds` rounds and prints medians. The process's first round is reported apart: it
    /// also pays one-time costs (page faults of a growing heap, lazy symbol binding, type
    /// metadata), as an app's first screen does.
    static func run(
        components: Int = 10_000, identifiers: Int, rounds: Int = 9, switches: Int = 41,
        preload: Bool = false
    ) async {
        var results: [Round] = []
        for _ in 0..<rounds {
            results.append(
                await round(
                    components: components, identifiers: identifiers, switches: switches,
                    preload: preload))
        }
        let later = results.count > 1 ? Array(results.dropFirst()) : results
        let register = median(later.map(\.register))
        let firstSwitch = median(later.map(\.firstSwitch))
        let warm = later.flatMap(\.warmSwitches).sorted()
        let warmMedian = median(warm)
        let perComponent = register * 1e6 / Double(components)
        print(
            "\(components) components, \(identifiers) identifiers, 8 operations each; \(rounds) rounds"
                + (preload ? "; both themes prepared ahead (preload)" : "; themes prepared as components are styled"))
        print(
            "  register all:                 \(format(register)) ms median (\(format(perComponent)) ns per component; min \(format(later.map(\.register).min()!)) ms); the process's first round \(format(results[0].register)) ms"
        )
        print(
            "  first switch a->b (prepare):  \(format(firstSwitch)) ms median; b->a \(format(median(later.map(\.firstSwitchBack)))) ms"
        )
        if !warm.isEmpty {
            print(
                "  warm switch, median of \(warm.count): \(format(warmMedian)) ms (p90 \(format(warm[warm.count * 9 / 10])) ms, min \(format(warm[0])) ms), \(results[0].setterCalls) setter calls"
            )
        }
        print(
            "  register all + first switch:  \(format(register + firstSwitch)) ms; register all + warm switch: \(format(register + warmMedian)) ms"
        )
        // Every round, because the medians hide how they spread: with an identifier per
        // component, a round whose memory the allocator maps afresh (page faults, about 2 µs
        // each on this VM) takes half as long again as one that reuses the last round's.
        print(
            "  each round, register / first switch, ms (page faults): "
                + results.map {
                    "\(format($0.register)) (\($0.registerFaults)) / \(format($0.firstSwitch)) (\($0.firstSwitchFaults))"
                }.joined(separator: ", "))
    }

    static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        return values.sorted()[values.count / 2]
    }

    /// Heap allocations during warm switches, counted by the preloaded counter of
    /// Benchmarks/Scripts/malloc-count.c (see Benchmarks/Scripts/count-allocations.sh).
    static func countAllocations(components: Int = 10_000, identifiers: Int) {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "livery_malloc_count") else {
            print("no allocation counter: run Benchmarks/Scripts/count-allocations.sh")
            return
        }
        let count = unsafeBitCast(symbol, to: (@convention(c) () -> UInt).self)
        let manager = ThemeManager()
        manager.add(theme("a", identifiers: identifiers, seed: 0.25))
        manager.add(theme("b", identifiers: identifiers, seed: 0.75))
        manager.activate(themeID: "a")
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
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
        print(
            "\(components) components, \(identifiers) identifiers: \(registering) allocations to register all (\(format(Double(registering) / Double(components))) per component); \(format(warm)) per warm switch of \(applicator.lastPass.operationsApplied) setter calls"
        )
        withExtendedLifetime(views) {}
    }

    /// Theme `id` of `theme(_:identifiers:seed:)` whose first `dependent` instances take their
    /// background colour from the overridable constant `accent`.
    static func choiceTheme(_ id: String, identifiers: Int, dependent: Int, seed: Double) -> LoadedTheme {
        var variants = variants(id, identifiers: identifiers, seed: seed)
        let uses = (0..<dependent).map { index in
            let own = variants.variants[.none]![index].operations[0].params[0].value
            return ChoiceUse(
                id: "view_\(index)", operation: 0, param: "color",
                expression: .constant(name: "accent", type: .color, otherwise: .literal(own)))
        }
        variants.choices = ChoiceTable(
            constants: [ChoiceConstant(name: "accent", type: .color)], uses: [.none: uses])
        return LoadedTheme(variants: variants)
    }

    /// A value of `accent` changed on 10,000 components (one identifier each) of which 1,000
    /// depend on it: a new value each time (the user dragging a colour picker), and two values
    /// alternating (both prepared already); beside the warm switch of the same 10,000 between two
    /// themes.
    static func choice(components: Int = 10_000, dependent: Int = 1_000, changes: Int = 41) {
        let manager = ThemeManager()
        manager.add(choiceTheme("a", identifiers: components, dependent: dependent, seed: 0.25))
        manager.add(choiceTheme("b", identifiers: components, dependent: dependent, seed: 0.75))
        manager.activate(themeID: "a")
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let views = (0..<components).map { _ in View() }
        let names = (0..<components).map { "view_\($0)" }
        for (index, view) in views.enumerated() { applicator.style(view, as: names[index]) }
        let clock = ContinuousClock()
        manager.activate(themeID: "b")
        manager.activate(themeID: "a")
        var warm: [Double] = []
        for index in 0..<changes {
            warm.append(milliseconds(clock.measure { manager.activate(themeID: index % 2 == 0 ? "b" : "a") }))
        }
        let warmCalls = applicator.lastPass.operationsApplied
        var fresh: [Double] = []
        for index in 0..<changes {
            let value = Value.color(Color(red: Double(index) / Double(changes), green: 0.5, blue: 0.25))
            fresh.append(
                milliseconds(clock.measure { applicator.rootScope.overrides.constants["accent"] = value }))
        }
        let freshCalls = applicator.lastPass.operationsApplied
        var alternating: [Double] = []
        let values = [Value.color(Color(red: 1, green: 0, blue: 0)), .color(Color(red: 0, green: 0, blue: 1))]
        for value in values { applicator.rootScope.overrides.constants["accent"] = value }
        for index in 0..<changes {
            alternating.append(
                milliseconds(clock.measure { applicator.rootScope.overrides.constants["accent"] = values[index % 2] }))
        }
        print(
            "\(components) components, one identifier each, \(dependent) depending on `accent`; medians of \(changes)")
        print("  warm switch a<->b:                   \(format(median(warm))) ms (\(warmCalls) setter calls)")
        print(
            "  accent changed, a new value each time: \(format(median(fresh))) ms (\(freshCalls) setter calls); mean \(format(mean(fresh))) ms, slowest \(format(fresh.max() ?? 0)) ms"
        )
        print("  accent changed between two values:     \(format(median(alternating))) ms")
        withExtendedLifetime(views) {}
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return String(rounded)
    }
}
