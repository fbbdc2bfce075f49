import Foundation
import LiveryModel
import Testing

@testable import Livery

/// The registry's own machinery: originals in blocks and on overflow lists, app code that
/// re-enters the applicator from a setter, identifiers, and the memory pool.
@MainActor
@Suite struct OriginalsTests {
    let red = color(0xFF0000)
    let blue = color(0x0000FF)

    @Test func keysTheFirstThemeDidNotSetAreRecordedOutsideTheBlockAndReverted() {
        // Theme "a" sets fill only, so the block holds one original; "b" adds stroke and label,
        // whose originals go on the overflow list.
        let a = loadedTheme("a", [instance("p", "probe", [op("fill", "color", red)])])
        let b = loadedTheme(
            "b",
            [
                instance(
                    "p", "probe",
                    [
                        op("fill", "color", blue), op("stroke", "width", .float(5)), op("label", "text", .string("B")),
                    ])
            ])
        let (manager, applicator) = makeApplicator(a, b, activate: "a")
        applicator.register(probeBinding())
        let probe = Probe(Counter())
        probe.label = "mine"
        applicator.style(probe, as: "p")
        #expect(probe.fill == Color(red: 1, green: 0, blue: 0))

        manager.activate(themeID: "b")
        #expect(probe.fill == Color(red: 0, green: 0, blue: 1))
        #expect(probe.stroke == 5)
        #expect(probe.label == "B")

        manager.activate(themeID: "a")
        #expect(probe.fill == Color(red: 1, green: 0, blue: 0))
        #expect(probe.stroke == 1, "stroke's original comes back from the overflow list")
        #expect(probe.label == "mine")
        #expect(applicator.lastPass.operationsReverted == 2)

        // Recorded again on the next switch, and everything comes back on unstyle.
        manager.activate(themeID: "b")
        #expect(probe.label == "B")
        applicator.unstyle(probe)
        #expect(probe.fill == nil)
        #expect(probe.stroke == 1)
        #expect(probe.label == "mine")
        #expect(applicator.lastPass.operationsReverted == 3)
    }

    @Test func theSettersOfAReplacedBindingLiveOnToRestoreWhatTheyRecorded() {
        // Originals point to their setters without retaining them: registering another binding
        // for the component must not free the setter that recorded a component's originals.
        let a = loadedTheme(
            "a", [instance("p", "probe", [op("fill", "color", red), op("label", "text", .string("A"))])])
        let (_, applicator) = makeApplicator(a, activate: "a")
        applicator.prepared.limit = 1  // the theme prepared with the old binding goes at once
        applicator.register(probeBinding())
        let probe = Probe(Counter())
        probe.label = "mine"
        applicator.style(probe, as: "p")
        #expect(probe.label == "A")
        weak var recordingSetter = applicator.bindings.bindings["probe"]?.setters["label"]
        #expect(recordingSetter != nil)

        applicator.register(probeBinding())
        applicator.bindings.forgetAcceptances()  // a cache that would hold the old binding too
        #expect(recordingSetter != nil, "the replaced binding's setter is kept while originals may point to it")
        #expect(recordingSetter !== applicator.bindings.bindings["probe"]?.setters["label"])
        applicator.unstyle(probe)
        #expect(probe.label == "mine")
        #expect(probe.fill == nil)
    }

    @Test func anInstanceWithMoreOperationsThanABlockHoldsIsRecordedAndRevertedInFull() {
        // 70 operations: 64 originals fit a block's presence bits, the rest go on the list.
        let count = 70
        var binding = ComponentBinding<Dials>("dials")
        for index in 0..<count {
            binding.bind("dial\(index)", get: { $0.values[index] }, set: { $0.values[index] = $1 })
        }
        let all = loadedTheme(
            "all", [instance("d", "dials", (0..<count).map { op("dial\($0)", "value", .float(Double($0 + 100))) })])
        let none = loadedTheme("none", [instance("d", "dials", [])])
        let (manager, applicator) = makeApplicator(all, none, activate: "all")
        applicator.register(binding)
        let dials = Dials(count: count)
        applicator.style(dials, as: "d")
        #expect(dials.values == (0..<count).map { Double($0 + 100) })

        manager.activate(themeID: "none")
        #expect(dials.values == Array(repeating: -1, count: count), "every original comes back")
        #expect(applicator.lastPass.operationsReverted == count)

        manager.activate(themeID: "all")
        #expect(dials.values == (0..<count).map { Double($0 + 100) })
        applicator.unstyle(dials)
        #expect(dials.values == Array(repeating: -1, count: count))
    }

    @Test func aSetterThatStylesOtherComponentsWhileItsOwnPlanRuns() {
        // A setter that builds and styles 500 children: the registry grows under the running
        // plan, which must still finish on the right component.
        let theme = loadedTheme(
            "t",
            [
                instance("parent", "spawner", [op("fill", "color", red), op("stroke", "width", .float(3))]),
                instance("child", "probe", [op("fill", "color", blue)]),
            ])
        let (_, applicator) = makeApplicator(theme, activate: "t")
        applicator.register(probeBinding())
        let children = ChildList()
        var spawner = ComponentBinding<Spawner>("spawner")
        spawner.bind(
            "fill", get: { $0.fill },
            set: { [unowned applicator] spawner, value in
                spawner.fill = value
                guard value != nil else { return }
                for _ in 0..<500 {
                    let child = Probe(Counter())
                    children.items.append(child)
                    applicator.style(child, as: "child")
                }
            })
        spawner.bind("stroke", get: { $0.stroke }, set: { $0.stroke = $1 })
        applicator.register(spawner)
        let parent = Spawner()
        applicator.style(parent, as: "parent")
        #expect(parent.fill == Color(red: 1, green: 0, blue: 0))
        #expect(parent.stroke == 3, "the parent's plan ran to its end")
        #expect(children.items.count == 500)
        #expect(children.items.allSatisfy { $0.fill == Color(red: 0, green: 0, blue: 1) })

        applicator.unstyle(parent)
        #expect(parent.fill == nil)
        #expect(parent.stroke == 1)
        #expect(applicator.components(styledAs: "child").count == 500)
    }

    @Test func aSetterThatUnstylesItsOwnComponentStopsItsPlan() {
        let theme = loadedTheme(
            "t", [instance("s", "spawner", [op("fill", "color", red), op("stroke", "width", .float(3))])])
        let (_, applicator) = makeApplicator(theme, activate: "t")
        var spawner = ComponentBinding<Spawner>("spawner")
        spawner.bind(
            "fill", get: { $0.fill },
            set: { [unowned applicator] spawner, value in
                spawner.fill = value
                applicator.unstyle(spawner)
            })
        spawner.bind("stroke", get: { $0.stroke }, set: { $0.stroke = $1 })
        applicator.register(spawner)
        let component = Spawner()
        applicator.style(component, as: "s")
        #expect(applicator.identifier(of: component) == nil)
        #expect(component.stroke == 1, "the rest of the plan is not applied to an unstyled component")
        #expect(applicator.liveComponentCount() == 0)
    }

    @Test func canonicallyEqualIdentifiersAreOneIdentifier() {
        // "K" and KELVIN SIGN are canonically equivalent, as are the composed and decomposed
        // spellings of "café"; Swift's String equality says so, and so must the registry.
        let theme = loadedTheme(
            "t",
            [
                instance("K", "probe", [op("fill", "color", red)]),
                instance("caf\u{E9}", "probe", [op("fill", "color", blue)]),
            ])
        let (_, applicator) = makeApplicator(theme, activate: "t")
        applicator.register(probeBinding())
        let ascii = Probe(Counter())
        let kelvin = Probe(Counter())
        let decomposed = Probe(Counter())
        applicator.style(ascii, as: "K")
        applicator.style(kelvin, as: "\u{212A}")
        applicator.style(decomposed, as: "cafe\u{301}")
        #expect(kelvin.fill == Color(red: 1, green: 0, blue: 0))
        #expect(decomposed.fill == Color(red: 0, green: 0, blue: 1))
        #expect(applicator.components(styledAs: "K").count == 2)
        #expect(applicator.components(styledAs: "\u{212A}").count == 2)
        #expect(applicator.components(styledAs: "caf\u{E9}").count == 1)
    }

    @Test func identifierNumbersAreDenseStableAndAgreeWithTheirNames() {
        let table = IdentifierTable()
        let names = (0..<5_000).map { "identifier_\($0)" } + ["é", "e\u{301}", "\u{212A}", "K", ""]
        var numbers: [IdentifierNumber] = []
        for name in names { numbers.append(table.number(name)) }
        for (name, number) in zip(names, numbers) {
            #expect(table.number(name) == number)
            #expect(table.name(of: number) == name)
            #expect(table.existingNumber(name) == number)
        }
        #expect(Set(numbers).count == names.count - 2, "two pairs are canonically equal")
        #expect(table.number("é") == table.number("e\u{301}"))
        #expect(table.number("K") == table.number("\u{212A}"))
        #expect(table.existingNumber("never styled") == nil)
    }

    @Test func originalMemoryReusesWhatIsFreedAndServesLargeAndAlignedRequests() {
        var memory = OriginalMemory()
        defer { memory.releaseAll() }
        let first = memory.allocate(size: 40, alignment: 8)
        #expect(Int(bitPattern: first) % 16 == 0)
        memory.free(first, size: 40, alignment: 8)
        #expect(memory.allocate(size: 33, alignment: 8) == first, "the same size class is reused")
        let blocks = (0..<5_000).map { _ in memory.allocate(size: 192, alignment: 16) }
        #expect(Set(blocks).count == blocks.count)
        for block in blocks { block.storeBytes(of: UInt64(0xFEED), as: UInt64.self) }
        let large = memory.allocate(size: 4_096, alignment: 8)
        let aligned = memory.allocate(size: 64, alignment: 64)
        #expect(Int(bitPattern: aligned) % 64 == 0)
        memory.free(large, size: 4_096, alignment: 8)
        memory.free(aligned, size: 64, alignment: 64)
        for block in blocks { memory.free(block, size: 192, alignment: 16) }
    }

    @Test func layoutsAreSharedByIdenticalPlansAndLaidOutByAlignment() {
        let theme = loadedTheme(
            "t",
            [
                instance("one", "probe", [op("fill", "color", red), op("stroke", "width", .float(2))]),
                instance("two", "probe", [op("fill", "color", blue), op("stroke", "width", .float(4))]),
                instance("three", "probe", [op("stroke", "width", .float(4))]),
            ])
        let (_, applicator) = makeApplicator(theme, activate: "t")
        applicator.register(probeBinding())
        let probes = (0..<3).map { _ in Probe(Counter()) }
        for (probe, id) in zip(probes, ["one", "two", "three"]) { applicator.style(probe, as: id) }
        let layouts = applicator.originals.layouts.layouts
        #expect(layouts.count == 2, "\"one\" and \"two\" record the same keys with the same setters")
        for layout in layouts {
            for entry in layout.entries {
                let alignment = entry.setter.takeUnretainedValue().originalAlignment
                #expect(Int(entry.offset) % alignment == 0)
                #expect(Int(entry.offset) + entry.setter.takeUnretainedValue().originalSize <= layout.size)
            }
        }
    }
}

@MainActor
final class Dials {
    var values: [Double]
    init(count: Int) { values = Array(repeating: -1, count: count) }
}

@MainActor
final class Spawner {
    var fill: Color?
    var stroke: Double = 1
}

@MainActor
final class ChildList {
    var items: [Probe] = []
}
