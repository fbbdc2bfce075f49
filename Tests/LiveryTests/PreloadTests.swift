import Foundation
import LiveryHeadless
import LiveryModel
import Testing

@testable import Livery

/// Themes prepared ahead on other threads (`Applicator.preload`): they apply exactly what
/// themes prepared as components are styled apply, decode nothing on the main actor afterwards,
/// and bring the plans for switching between them.
@MainActor
@Suite struct PreloadTests {
    let red = color(0xFF0000)
    let blue = color(0x0000FF)

    /// Counts decoding calls from any thread, and those made on the main thread. A gated log
    /// holds the first decode until `open()`: a test can then act while a preload is known to
    /// be under way, whatever the machine's load.
    final class DecodeLog: @unchecked Sendable {
        private let lock = NSLock()
        private var calls = 0
        private var onMain = 0
        private let gate: DispatchSemaphore?
        private var entered = false

        init(gated: Bool = false) {
            gate = gated ? DispatchSemaphore(value: 0) : nil
        }

        func record() {
            lock.lock()
            calls += 1
            if Thread.isMainThread { onMain += 1 }
            let waits = gate != nil && !entered
            entered = true
            lock.unlock()
            if waits { gate?.wait() }
        }

        /// Whether a decode has started (and, gated, waits for `open()`).
        var hasEntered: Bool {
            lock.lock()
            defer { lock.unlock() }
            return entered
        }

        func open() { gate?.signal() }

        var counts: (calls: Int, onMain: Int) {
            lock.lock()
            defer { lock.unlock() }
            return (calls, onMain)
        }
    }

    /// A binding over `Probe` whose stroke decodes through a logged closure.
    func loggedBinding(_ log: DecodeLog) -> ComponentBinding<Probe> {
        var binding = ComponentBinding<Probe>("logged", extends: "probe")
        binding.bind(
            "stroke",
            decode: { resolved, _ in
                log.record()
                if case .float(let width) = resolved.params[0].value { return width }
                return nil
            }, get: { probe, _ in probe.stroke }, set: { probe, width, _ in probe.stroke = width }, takesState: false)
        return binding
    }

    func themes() -> (LoadedTheme, LoadedTheme, LoadedTheme) {
        let ids = (0..<20).map { "p\($0)" }
        let a = loadedTheme(
            "a",
            ids.enumerated().map { index, id in
                instance(
                    id, "logged",
                    [
                        op("fill", "color", red), op("stroke", "width", .float(Double(index))),
                        op("label", "text", .string("a\(index)")),
                    ])
            })
        // b changes every other stroke, drops the labels of the first ten, keeps the fills.
        let b = loadedTheme(
            "b",
            ids.enumerated().map { index, id in
                var operations = [
                    op("fill", "color", red),
                    op("stroke", "width", .float(Double(index % 2 == 0 ? index : 100 + index))),
                ]
                if index >= 10 { operations.append(op("label", "text", .string("b\(index)"))) }
                return instance(id, "logged", operations)
            })
        let empty = loadedTheme("empty", [])
        return (a, b, empty)
    }

    func snapshot(_ probes: [Probe]) -> [String] {
        probes.map { "\($0.fill?.hexString ?? "-") \($0.stroke) \($0.label)" }
    }

    @Test func preloadedThemesDecodeOffTheMainActorAndApplyWhatLazyOnesDo() async {
        let (a, b, empty) = themes()
        let log = DecodeLog()
        // The same registrations and switches, with themes prepared as styled and ahead.
        var results: [[[String]]] = []
        var applied: [[Int]] = []
        for preload in [false, true] {
            let (manager, applicator) = makeApplicator(a, b, empty, activate: "a")
            applicator.register(probeBinding())
            applicator.register(loggedBinding(log))
            if preload {
                let before = log.counts
                await applicator.preload(["a", "b"])
                // 20 strokes in each theme, decoded on other threads.
                #expect(log.counts.calls - before.calls == 40)
                #expect(log.counts.onMain == before.onMain)
            }
            let decodedBefore = log.counts.calls
            let probes = (0..<20).map { _ in Probe(Counter()) }
            for (index, probe) in probes.enumerated() { applicator.style(probe, as: "p\(index)") }
            var states = [snapshot(probes)]
            var counts = [applicator.lastPass.operationsApplied]
            for theme in ["b", "a", "b", "empty", "a"] {
                manager.activate(themeID: theme)
                states.append(snapshot(probes))
                counts.append(applicator.lastPass.operationsApplied)
            }
            if preload {
                // Switching between the preloaded themes decoded nothing more.
                #expect(log.counts.calls == decodedBefore)
            } else {
                #expect(log.counts.calls > decodedBefore)
            }
            results.append(states)
            applied.append(counts)
        }
        #expect(results[0] == results[1])
        #expect(applied[0] == applied[1])
        // And the states are the themes' own: b's odd strokes, a's labels back after b dropped some.
        #expect(results[1][1][1] == "#FF0000FF 101.0 original")
        #expect(results[1][1][12] == "#FF0000FF 12.0 b12")
        #expect(results[1][2][1] == "#FF0000FF 1.0 a1")
        #expect(results[1][4][3] == "- 1.0 original")
    }

    @Test func aFirstSwitchBetweenPreloadedThemesRunsPlansMadeAhead() async throws {
        let (a, b, empty) = themes()
        let (manager, applicator) = makeApplicator(a, b, empty, activate: "a")
        applicator.register(probeBinding())
        applicator.register(loggedBinding(DecodeLog()))
        await applicator.preload(["a", "b"])
        let themeA = try #require(applicator.registry.theme(of: .root))
        #expect(themeA.isComplete)
        let themeB = try #require(applicator.prepared.themes.first { $0.key.themeID == "b" })
        let plans = themeB.plans(from: themeA)
        // Every identifier has its plan already: ten change a stroke, the first ten also revert a label.
        #expect((0..<20).allSatisfy { plans.plan(PreparedInstanceID($0)) != nil })
        let steps = plans.steps.count
        #expect(steps == 10 + 10 + 10)

        let probes = (0..<20).map { _ in Probe(Counter()) }
        for (index, probe) in probes.enumerated() { applicator.style(probe, as: "p\(index)") }
        manager.activate(themeID: "b")
        #expect(plans.steps.count == steps)  // nothing diffed on the main actor
        #expect(applicator.lastPass.operationsApplied == 10 + 10)  // 10 strokes, 10 labels of b
        #expect(applicator.lastPass.operationsReverted == 10)
        #expect(probes[0].label == "original" && probes[15].label == "b15" && probes[3].stroke == 103)
    }

    @Test func preloadReplacesAThemePreparedAsStyledWithoutTouchingComponents() async throws {
        let (a, b, empty) = themes()
        let (manager, applicator) = makeApplicator(a, b, empty, activate: "a")
        applicator.register(probeBinding())
        applicator.register(loggedBinding(DecodeLog()))
        let counters = (0..<20).map { _ in Counter() }
        let probes = counters.map { Probe($0) }
        for (index, probe) in probes.enumerated() { applicator.style(probe, as: "p\(index)") }
        let partial = try #require(applicator.registry.theme(of: .root))
        #expect(!partial.isComplete)
        let calls = counters.map(\.total)

        await applicator.preload(["a", "b"])
        let complete = try #require(applicator.registry.theme(of: .root))
        #expect(complete !== partial && complete.isComplete)
        #expect(counters.map(\.total) == calls)  // no setter ran
        #expect(applicator.identifier(of: probes[7]) == "p7")

        manager.activate(themeID: "empty")
        #expect(probes.allSatisfy { $0.fill == nil && $0.stroke == 1 && $0.label == "original" })
        manager.activate(themeID: "b")
        #expect(probes[7].stroke == 107 && probes[7].label == "original" && probes[17].label == "b17")
        // A component styled after the replacement finds its instance in the complete theme.
        let late = Probe(Counter())
        applicator.style(late, as: "p19")
        #expect(late.stroke == 119 && late.label == "b19")
    }

    @Test func keysNumberedWhilePreloadingAreMappedWhenItEnds() async throws {
        let (a, b, empty) = themes()
        let labels = loadedTheme("labels", [instance("l", "probe", [op("label", "text", .string("L"))])])
        // Prepared as styled, with the applicator's numbers: a switch from b to it pairs
        // operations by key, so wrongly numbered keys would keep or revert the wrong ones.
        let onlyLabels = loadedTheme(
            "c", (0..<20).map { instance("p\($0)", "logged", [op("label", "text", .string("c\($0)"))]) })
        let (manager, applicator) = makeApplicator(a, b, empty, labels, onlyLabels, activate: "a")
        applicator.register(probeBinding())
        let log = DecodeLog(gated: true)
        applicator.register(loggedBinding(log))
        let preloading = Task { await applicator.preload(["a", "b"]) }
        // The preload has taken its snapshot of keys once it decodes on another thread; it
        // waits there until the gate opens. (A `Task.yield()` here let a fast preload finish
        // first on a loaded machine.)
        for _ in 0..<10_000 where !log.hasEntered { try await Task.sleep(for: .milliseconds(1)) }
        try #require(log.hasEntered, "the preload never decoded")
        // Meanwhile a scope styles with another theme: "label" is numbered first, so the
        // preloaded themes' keys (fill, stroke, label) must be mapped when they arrive.
        let scope = applicator.makeScope(ScopeOverrides(themeID: "labels"))
        let other = Probe(Counter())
        scope.style(other, as: "l")
        log.open()
        await preloading.value
        #expect(applicator.operationKeys.numbering.keys.first?.name == "label")
        #expect(applicator.registry.theme(of: .root)?.isComplete == true)

        let probes = (0..<20).map { _ in Probe(Counter()) }
        for (index, probe) in probes.enumerated() { applicator.style(probe, as: "p\(index)") }
        #expect(probes[4].label == "a4" && probes[4].stroke == 4)
        manager.activate(themeID: "b")
        #expect(applicator.lastPass.operationsApplied == 20 && applicator.lastPass.operationsReverted == 10)
        #expect(probes[4].label == "original" && probes[5].stroke == 105 && probes[15].label == "b15")
        manager.activate(themeID: "c")
        #expect(probes[5].fill == nil && probes[5].stroke == 1 && probes[5].label == "c5")
        #expect(other.label == "L")
    }

    @Test func overlappingPreloadsAndABindingRegisteredMeanwhileLeaveEverythingRight() async {
        let (a, b, empty) = themes()
        let (manager, applicator) = makeApplicator(a, b, empty, activate: "a")
        applicator.register(probeBinding())
        applicator.register(loggedBinding(DecodeLog()))
        // Two preloads of one theme at once: whichever ends second finds it prepared.
        async let both: Void = applicator.preload(["a", "b"])
        async let one: Void = applicator.preload(["a"])
        _ = await (both, one)
        #expect(applicator.registry.theme(of: .root)?.isComplete == true)
        // A preload whose bindings change while it runs is dropped: its setters are stale.
        let stale = Task { await applicator.preload(["empty"]) }
        await Task.yield()
        var doubled = ComponentBinding<Probe>("logged", extends: "probe")
        doubled.bind(
            "stroke",
            decode: { resolved, _ in
                if case .float(let width) = resolved.params[0].value { return width * 2 }
                return nil
            }, get: { probe, _ in probe.stroke }, set: { probe, width, _ in probe.stroke = width }, takesState: false)
        applicator.register(doubled)
        await stale.value
        let generation = applicator.bindings.generation
        #expect(applicator.prepared.themes.allSatisfy { $0.key.bindingGeneration == generation })

        let probes = (0..<20).map { _ in Probe(Counter()) }
        for (index, probe) in probes.enumerated() { applicator.style(probe, as: "p\(index)") }
        #expect(probes[3].stroke == 6 && probes[3].label == "a3")
        manager.activate(themeID: "b")
        #expect(probes[3].stroke == 206 && probes[3].label == "original" && probes[12].label == "b12")
    }

    @Test func anOperationThatCannotApplyIsStillReportedAtTheFirstSwitch() async {
        let a = loadedTheme("a", [instance("p", "probe", [op("fill", "color", red)])])
        let b = loadedTheme("b", [instance("p", "probe", [op("fill", "color", blue), op("glow", "value", .float(1))])])
        let (manager, applicator) = makeApplicator(a, b, activate: "a")
        applicator.register(probeBinding())
        let recorder = DiagnosticsRecorder(manager.diagnostics)
        await applicator.preload(["a", "b", "missing"])
        let probe = Probe(Counter())
        applicator.style(probe, as: "p")
        manager.activate(themeID: "b")
        #expect(probe.fill == Color(red: 0, green: 0, blue: 1))
        #expect(recorder.count(.runtimeUnknownOperation) == 1)
    }

    @Test func preloadingUnknownOrAlreadyPreparedThemesChangesNothing() async throws {
        let (a, b, empty) = themes()
        let (_, applicator) = makeApplicator(a, b, empty, activate: "a")
        applicator.register(loggedBinding(DecodeLog()))
        await applicator.preload(["nope"])
        #expect(applicator.registry.theme(of: .root)?.isComplete == false)
        await applicator.preload(["a"])
        let first = try #require(applicator.registry.theme(of: .root))
        #expect(first.isComplete)
        await applicator.preload(["a", "nope"])
        #expect(applicator.registry.theme(of: .root) === first)
    }
}
