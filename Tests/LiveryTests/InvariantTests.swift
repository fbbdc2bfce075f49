import Foundation
import LiveryModel
import Testing

@testable import Livery

/// The registry's and the originals' invariants are checked by code: after every pass in a debug
/// build when due (`Applicator.endPass`), and here, where one is broken on purpose to show the check
/// finds it.
@MainActor
@Suite struct InvariantTests {
    let red = color(0xFF0000)
    let blue = color(0x0000FF)

    /// A registry with members, originals in a block and on an overflow list, a released
    /// component and an unstyled one: every invariant holds after each step.
    @Test func everyInvariantHoldsThroughStylingSwitchingAndReleasing() {
        let a = loadedTheme("a", [instance("p", "probe", [op("fill", "color", red)])])
        let b = loadedTheme(
            "b", [instance("p", "probe", [op("fill", "color", blue), op("label", "text", .string("B"))])])
        let (manager, applicator) = makeApplicator(a, b, activate: "a")
        applicator.register(probeBinding())
        let kept = Probe(Counter())
        var released: Probe? = Probe(Counter())
        applicator.style(kept, as: "p")
        applicator.style(released!, as: "p")
        applicator.style(Probe(Counter()), as: "q")
        #expect(applicator.registry.brokenInvariant() == nil)
        manager.activate(themeID: "b")
        #expect(applicator.registry.brokenInvariant() == nil)
        released = nil
        #expect(released == nil)
        manager.activate(themeID: "a")
        #expect(applicator.registry.brokenInvariant() == nil)
        applicator.unstyle(kept)
        #expect(applicator.liveComponentCount() == 0)
        #expect(applicator.registry.brokenInvariant() == nil)
    }

    /// A group whose count disagrees with its list is found, named.
    @Test func aBrokenGroupCountIsFound() {
        let a = loadedTheme("a", [instance("p", "probe", [op("fill", "color", red)])])
        let (_, applicator) = makeApplicator(a, activate: "a")
        applicator.register(probeBinding())
        let probe = Probe(Counter())
        applicator.style(probe, as: "p")
        let group = applicator.registry.group(of: applicator.registry.liveSlot(of: probe)!)
        applicator.registry.breakGroupCountForTesting(group)
        #expect(applicator.registry.brokenInvariant() == "group \(group.index) links 1 slots, its count is 2")
    }

    /// The two owners' parts of a slot still fit 64 bytes, the registry's in the first 32.
    @Test func aSlotIsSixtyFourBytes() {
        #expect(MemoryLayout<SlotStorage.Slot>.stride == 64)
        #expect(MemoryLayout<SlotStorage.Membership>.stride == 32)
    }

    /// Debug builds check every invariant after each pass over every component, and after
    /// one-component passes once they number as many as the components: styling 2,000
    /// components one by one checks everything about log2(2,000) times (work linear in the
    /// components), not 2,000 times.
    @Test func stylingOneByOneChecksEverythingLogarithmicallyOften() {
        let a = loadedTheme("a", [instance("p", "probe", [op("fill", "color", red)])])
        let b = loadedTheme("b", [instance("p", "probe", [op("fill", "color", blue)])])
        let (manager, applicator) = makeApplicator(a, b, activate: "a")
        applicator.register(probeBinding())
        let before = applicator.invariantChecks
        var kept: [Probe] = []
        for _ in 0..<2_000 {
            kept.append(Probe(Counter()))
            applicator.style(kept[kept.count - 1], as: "p")
        }
        let checks = applicator.invariantChecks - before
        #expect(checks >= 10 && checks <= 13, "\(checks) checks")
        manager.activate(themeID: "b")
        #expect(applicator.invariantChecks == before + checks + 1)
        #expect(kept.allSatisfy { $0.fill.map(Value.color) == blue })
    }
}
