import Foundation
import LiveryHeadless
import LiveryModel
import Testing

@testable import Livery

@MainActor
@Suite struct ApplicatorTests {
    let red = color(0xFF0000)
    let blue = color(0x0000FF)
    let green = color(0x00FF00)

    func probeThemes() -> (LoadedTheme, LoadedTheme) {
        let a = loadedTheme(
            "a",
            [
                instance(
                    "p", "probe",
                    [op("fill", "color", red), op("stroke", "width", .float(2)), op("label", "text", .string("A"))])
            ])
        let b = loadedTheme(
            "b",
            [
                instance("p", "probe", [op("fill", "color", red), op("stroke", "width", .float(5))])
            ])
        return (a, b)
    }

    @Test func appliesAtOnceAndHoldsComponentsWeakly() {
        let (a, b) = probeThemes()
        let (manager, applicator) = makeApplicator(a, b, activate: "a")
        applicator.register(probeBinding())
        let counter = Counter()
        var probe: Probe? = Probe(counter)
        weak let weakProbe = probe
        applicator.style(probe!, as: "p")
        #expect(probe?.fill == Color(red: 1, green: 0, blue: 0))
        #expect(probe?.stroke == 2)
        #expect(probe?.label == "A")
        #expect(counter.total == 3)
        #expect(applicator.components(styledAs: "p").count == 1)

        probe = nil
        #expect(weakProbe == nil, "the registry must not keep a component alive")
        #expect(applicator.components(styledAs: "p").isEmpty)
        #expect(applicator.liveComponentCount() == 0)
        manager.activate(themeID: "b")
        manager.activate(themeID: "a")
        #expect(counter.total == 3, "a released component is never touched again")
    }

    @Test func releasedSlotsAreReclaimedBeforeTheTableGrows() {
        let (a, _) = probeThemes()
        let (_, applicator) = makeApplicator(a, activate: "a")
        applicator.register(probeBinding())
        let counter = Counter()
        // Screens of 1,000 components come and go, with no switch to meet the dead ones: the
        // registry reclaims their slots when its table is full, so it never holds more than the
        // live components plus one screen's worth of released ones.
        var screen: [Probe] = []
        for _ in 0..<8 {
            screen = (0..<1_000).map { _ in Probe(counter) }
            for probe in screen { applicator.style(probe, as: "p") }
            #expect(applicator.registeredCount <= 2_000)
        }
        #expect(applicator.components(styledAs: "p").count == 1_000)
        #expect(applicator.liveComponentCount() == 1_000)
        withExtendedLifetime(screen) {}
    }

    @Test func switchAppliesOnlyChangedOperationsAndRevertsDroppedOnes() {
        let (a, b) = probeThemes()
        let (manager, applicator) = makeApplicator(a, b, activate: "a")
        applicator.register(probeBinding())
        let counter = Counter()
        let probes = (0..<3).map { _ in Probe(counter) }
        for probe in probes { applicator.style(probe, as: "p") }
        #expect(counter.sets == ["fill": 3, "stroke": 3, "label": 3])

        var changes: [StyleChange] = []
        applicator.onChange = { changes.append($0) }
        manager.activate(themeID: "b")
        // fill is unchanged (not re-applied); stroke changed; label reverted to "original".
        #expect(counter.sets == ["fill": 3, "stroke": 6, "label": 6])
        for probe in probes {
            #expect(probe.stroke == 5)
            #expect(probe.label == "original")
            #expect(probe.fill == Color(red: 1, green: 0, blue: 0))
        }
        #expect(applicator.lastPass.operationsApplied == 3)
        #expect(applicator.lastPass.operationsReverted == 3)
        #expect(
            changes.map(\.description) == [
                "p.stroke = 5 (3 component(s))",
                "p.label reverted to its original (3 component(s))",
            ])

        manager.activate(themeID: "a")
        #expect(counter.sets == ["fill": 3, "stroke": 9, "label": 9])
        #expect(probes.allSatisfy { $0.label == "A" && $0.stroke == 2 })
        manager.activate(themeID: "a")
        #expect(counter.total == 21, "activating the theme in use does nothing")
    }

    @Test func revertRestoresWhatTheAppHadBeforeTheThemeAndNilToo() {
        let a = loadedTheme("a", [instance("p", "probe", [op("fill", "color", red)])])
        let b = loadedTheme("b", [instance("p", "probe", [])])
        let (manager, applicator) = makeApplicator(a, b, activate: "a")
        applicator.register(probeBinding())
        let probe = Probe(Counter())
        #expect(probe.fill == nil)
        applicator.style(probe, as: "p")
        #expect(probe.fill != nil)
        manager.activate(themeID: "b")
        #expect(probe.fill == nil, "an original nil comes back as nil")

        // The app changes the property while no theme sets it: that value is the new original.
        probe.fill = Color(red: 0, green: 0, blue: 0.5)
        manager.activate(themeID: "a")
        #expect(probe.fill == Color(red: 1, green: 0, blue: 0))
        manager.activate(themeID: "b")
        #expect(probe.fill == Color(red: 0, green: 0, blue: 0.5))
    }

    @Test func unstyleRevertsAndForgets() {
        let (a, _) = probeThemes()
        let (_, applicator) = makeApplicator(a, activate: "a")
        applicator.register(probeBinding())
        let probe = Probe(Counter())
        applicator.style(probe, as: "p")
        applicator.unstyle(probe)
        #expect(probe.fill == nil && probe.stroke == 1 && probe.label == "original")
        #expect(applicator.identifier(of: probe) == nil)
        #expect(applicator.registeredCount == 0)
    }

    @Test func secondStyleCallRetargetsWithADiff() {
        let theme = loadedTheme(
            "a",
            [
                instance("one", "probe", [op("fill", "color", red), op("stroke", "width", .float(2))]),
                instance("two", "probe", [op("fill", "color", red), op("label", "text", .string("two"))]),
            ])
        let (_, applicator) = makeApplicator(theme, activate: "a")
        applicator.register(probeBinding())
        let counter = Counter()
        let probe = Probe(counter)
        applicator.style(probe, as: "one")
        applicator.style(probe, as: "two")
        #expect(applicator.identifier(of: probe) == "two")
        #expect(probe.stroke == 1, "stroke is reverted: 'two' does not set it")
        #expect(probe.label == "two")
        // fill has the same value in both: untouched; stroke: applied, then reverted.
        #expect(counter.sets == ["fill": 1, "stroke": 2, "label": 1])
        #expect(applicator.components(styledAs: "one").isEmpty)
        applicator.style(probe, as: "two")
        #expect(counter.total == 4, "styling again with the same identifier does nothing")
    }

    @Test func traitChangesReapplyTheMatchingVariant() {
        let theme = loadedTheme(
            "a", [instance("p", "probe", [op("fill", "color", red)])],
            variants: [TraitSet(appearance: .dark): [instance("p", "probe", [op("fill", "color", blue)])]])
        let (manager, applicator) = makeApplicator(theme, activate: "a")
        applicator.register(probeBinding())
        let counter = Counter()
        let probe = Probe(counter)
        applicator.style(probe, as: "p")
        manager.setTraits(TraitSet(appearance: .dark))
        #expect(probe.fill == Color(red: 0, green: 0, blue: 1))
        manager.setTraits(TraitSet(idiom: .ipad, appearance: .dark))
        #expect(counter.total == 2, "a trait the theme does not distinguish changes nothing")
        manager.setTraits(.none)
        #expect(probe.fill == Color(red: 1, green: 0, blue: 0))
    }

    @Test func unknownIdentifierIsReportedOnceAndAppliedWhenAThemeDefinesIt() {
        let a = loadedTheme("a", [])
        let b = loadedTheme("b", [instance("late", "probe", [op("fill", "color", green)])])
        let (manager, applicator) = makeApplicator(a, b, activate: "a")
        applicator.register(probeBinding())
        let recorder = DiagnosticsRecorder(manager.diagnostics)
        let probes = (0..<5).map { _ in Probe(Counter()) }
        for probe in probes { applicator.style(probe, as: "late") }
        #expect(recorder.count(.runtimeUnknownIdentifier) == 1)
        #expect(probes.allSatisfy { $0.fill == nil })
        manager.activate(themeID: "b")
        #expect(probes.allSatisfy { $0.fill == Color(red: 0, green: 1, blue: 0) })
        manager.activate(themeID: "a")
        #expect(probes.allSatisfy { $0.fill == nil }, "the instance vanished: originals come back")
    }

    @Test func componentTypeMismatchIsReportedOnceAndNothingIsApplied() {
        let theme = loadedTheme(
            "a",
            [
                instance(
                    "send", "uibutton",
                    [
                        op("titleColor", "color", red, state: "highlighted"),
                        op("backgroundColor", "color", blue),
                    ])
            ])
        let (manager, applicator) = makeApplicator(theme, activate: "a")
        let recorder = DiagnosticsRecorder(manager.diagnostics)
        let labels = [Label(), Label()]
        for label in labels { applicator.style(label, as: "send") }
        #expect(recorder.count(.runtimeComponentMismatch) == 1)
        #expect(labels.allSatisfy { $0.backgroundColor == nil })
        // A button subclass is a button: accepted.
        final class FancyButton: Button {}
        let fancy = FancyButton()
        applicator.style(fancy, as: "send")
        #expect(fancy.titleColors.value(for: .highlighted) == Color(red: 1, green: 0, blue: 0))
        #expect(fancy.backgroundColor == Color(red: 0, green: 0, blue: 1))
        #expect(recorder.count(.runtimeComponentMismatch) == 1)
    }

    @Test func acceptanceRememberedForOneGroupDoesNotAcceptAnotherClassInTheNext() {
        // With an identifier per component every registration makes a new group; the
        // applicator remembers which classes each binding took, per (binding, class).
        let theme = loadedTheme(
            "a",
            [
                instance("ok", "uibutton", [op("backgroundColor", "color", blue)]),
                instance("cancel", "uibutton", [op("backgroundColor", "color", red)]),
                instance("plain", "uiview", [op("backgroundColor", "color", blue)]),
            ])
        let (manager, applicator) = makeApplicator(theme, activate: "a")
        let recorder = DiagnosticsRecorder(manager.diagnostics)
        let ok = Button()
        applicator.style(ok, as: "ok")
        let label = Label()
        applicator.style(label, as: "cancel")
        #expect(recorder.count(.runtimeComponentMismatch) == 1)
        #expect(label.backgroundColor == nil)
        let cancel = Button()
        applicator.style(cancel, as: "cancel")
        let plain = Button()  // a button is a view: the uiview binding takes it
        applicator.style(plain, as: "plain")
        #expect(ok.backgroundColor == Color(red: 0, green: 0, blue: 1))
        #expect(cancel.backgroundColor == Color(red: 1, green: 0, blue: 0))
        #expect(plain.backgroundColor == Color(red: 0, green: 0, blue: 1))
        #expect(recorder.count(.runtimeComponentMismatch) == 1)
    }

    @Test func unknownOperationsAndBadValuesAreReportedWithoutStoppingTheRest() {
        let theme = loadedTheme(
            "a",
            [
                instance(
                    "p", "probe",
                    [
                        op("sparkle", "amount", .float(1)),
                        op("stroke", "width", .string("wide")),
                        op("fill", "color", red, state: "highlighted"),
                        op("label", "text", .string("ok")),
                    ])
            ])
        let (manager, applicator) = makeApplicator(theme, activate: "a")
        applicator.register(probeBinding())
        let recorder = DiagnosticsRecorder(manager.diagnostics)
        let probes = [Probe(Counter()), Probe(Counter())]
        for probe in probes { applicator.style(probe, as: "p") }
        #expect(recorder.count(.runtimeUnknownOperation) == 1)
        #expect(recorder.count(.runtimeValueMismatch) == 1)
        #expect(recorder.count(.runtimeUnexpectedState) == 1)
        #expect(probes.allSatisfy { $0.label == "ok" && $0.stroke == 1 && $0.fill == nil })
        #expect(manager.diagnostics.reported.count == 3)
    }

    @Test func unboundComponentTypeIsReported() {
        let theme = loadedTheme("a", [instance("x", "gauge", [op("needleColor", "color", red)])])
        let (manager, applicator) = makeApplicator(theme, activate: "a")
        applicator.style(View(), as: "x")
        #expect(manager.diagnostics.reported.map(\.code) == [.runtimeUnboundComponent])
    }

    @Test func missingThemeKeepsTheCurrentOne() {
        let (a, _) = probeThemes()
        let (manager, applicator) = makeApplicator(a, activate: "a")
        applicator.register(probeBinding())
        let probe = Probe(Counter())
        applicator.style(probe, as: "p")
        #expect(manager.activate(themeID: "nope") == false)
        #expect(manager.currentThemeID == "a")
        #expect(probe.label == "A")
        #expect(manager.diagnostics.reported.map(\.code) == [.runtimeThemeUnavailable])
    }

    @Test func managerTellsObserversWhatChanged() {
        let (a, b) = probeThemes()
        let manager = ThemeManager()
        manager.add(a)
        manager.add(b)
        var changes: [ThemeManager.Change] = []
        let token = manager.observe { changes.append($0) }
        manager.activate(themeID: "a")
        manager.setTraits(TraitSet(appearance: .dark))
        manager.setTraits(TraitSet(appearance: .dark))
        manager.setScale(2)
        token.cancel()
        manager.activate(themeID: "b")
        #expect(
            changes.map { [$0.theme, $0.traits, $0.scale] } == [
                [true, false, false], [false, true, false], [false, false, true],
            ])
    }
}
