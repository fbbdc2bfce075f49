import LiveryHeadless
import LiveryModel
import Testing

@testable import Livery

/// How a theme is prepared for apply passes: instances of one shape share a full-apply plan,
/// diffs compare plain decoded values by their bytes, and identifiers are numbered without the
/// canonical dictionary until a non-ASCII one appears.
@MainActor
@Suite struct PreparationTests {
    let red = color(0xFF0000)
    let green = color(0x00FF00)
    let blue = color(0x0000FF)

    /// A second component type over the same class, so that instances of two bindings interleave.
    func tagBinding() -> ComponentBinding<Probe> {
        var binding = ComponentBinding<Probe>("tag")
        binding.bind("label", get: { $0.label }, set: { $0.label = $1 })
        return binding
    }

    @Test func instancesOfOneShapeShareAFullApplyPlanAndEachGetsItsOwnValues() throws {
        let theme = loadedTheme(
            "a",
            [
                instance("p1", "probe", [op("fill", "color", red), op("stroke", "width", .float(2))]),
                instance("t1", "tag", [op("label", "text", .string("T1"))]),
                instance("p2", "probe", [op("fill", "color", blue), op("stroke", "width", .float(3))]),
                instance("p3", "probe", [op("stroke", "width", .float(4)), op("fill", "color", green)]),
                instance("p4", "probe", [op("fill", "color", green)]),
                instance("t2", "tag", [op("label", "text", .string("T2"))]),
                instance("p5", "probe", [op("fill", "color", blue), op("stroke", "width", .float(5))]),
            ])
        let empty = loadedTheme("empty", [])
        let (manager, applicator) = makeApplicator(theme, empty, activate: "a")
        applicator.register(probeBinding())
        applicator.register(tagBinding())
        let ids = ["p1", "t1", "p2", "p3", "p4", "t2", "p5"]
        let probes = ids.map { _ in Probe(Counter()) }
        for (probe, id) in zip(probes, ids) { applicator.style(probe, as: id) }

        let fills = probes.map(\.fill)
        #expect(
            fills == [
                Color(red: 1, green: 0, blue: 0), nil, Color(red: 0, green: 0, blue: 1),
                Color(red: 0, green: 1, blue: 0), Color(red: 0, green: 1, blue: 0), nil,
                Color(red: 0, green: 0, blue: 1),
            ])
        #expect(probes.map(\.stroke) == [2, 1, 3, 4, 1, 1, 5])
        #expect(probes.map(\.label) == ["original", "T1", "original", "original", "original", "T2", "original"])

        // p1, p2 and p5 are one shape; p3 (the same keys in another order), p4 and the tags'
        // are three more: four plans of 2 + 1 + 2 + 1 steps.
        let prepared = try #require(applicator.registry.theme(of: .root))
        let shapes = (0..<Int32(prepared.instances.count)).map { prepared.instances[Int($0)].shape }
        #expect(Set(shapes).count == 4)
        #expect(prepared.fullApplyPlans.steps.count == 6)

        // Every original comes back from the block its shared plan laid out.
        manager.activate(themeID: "empty")
        #expect(probes.allSatisfy { $0.fill == nil && $0.stroke == 1 && $0.label == "original" })
        manager.activate(themeID: "a")
        #expect(probes.map(\.stroke) == [2, 1, 3, 4, 1, 1, 5])
        #expect(probes[5].label == "T2")
    }

    @Test func aSwitchSkipsValuesThatDecodeToTheSameBytesAndAppliesTheOthers() {
        let a = loadedTheme(
            "a",
            [
                instance(
                    "p", "probe",
                    [
                        op("fill", "color", red), op("stroke", "width", .integer(3)),
                        op("label", "text", .string("same")),
                    ])
            ])
        let b = loadedTheme(
            "b",
            [
                instance(
                    "p", "probe",
                    [
                        op("fill", "color", red), op("stroke", "width", .float(3)),
                        op("label", "text", .string("same")),
                    ])
            ])
        let c = loadedTheme(
            "c",
            [
                instance(
                    "p", "probe",
                    [
                        op("fill", "color", blue), op("stroke", "width", .float(3)),
                        op("label", "text", .string("other")),
                    ])
            ])
        let (manager, applicator) = makeApplicator(a, b, c, activate: "a")
        applicator.register(probeBinding())
        let counter = Counter()
        let probe = Probe(counter)
        applicator.style(probe, as: "p")
        #expect(counter.total == 3)

        // The integer 3 and the float 3.0 both decode to the Double 3: nothing changes.
        manager.activate(themeID: "b")
        #expect(applicator.lastPass.operationsApplied == 0)
        #expect(counter.total == 3)

        manager.activate(themeID: "c")
        #expect(applicator.lastPass.operationsApplied == 2)
        #expect(counter.sets == ["fill": 2, "stroke": 1, "label": 2])
        #expect(probe.fill == Color(red: 0, green: 0, blue: 1))
        #expect(probe.label == "other")
    }

    @Test func aDecodingClosureThatStylesAComponentWhileAnInstanceIsPrepared() {
        // Decoding "outer"'s stroke styles another component, which prepares "inner" in the
        // middle of "outer": each must still get exactly its own operations.
        let theme = loadedTheme(
            "t",
            [
                instance(
                    "outer", "decoder",
                    [
                        op("fill", "color", red), op("stroke", "width", .float(7)),
                        op("label", "text", .string("outer")),
                    ]),
                instance("inner", "probe", [op("fill", "color", blue), op("stroke", "width", .float(3))]),
            ])
        let (manager, applicator) = makeApplicator(theme, loadedTheme("empty", []), activate: "t")
        applicator.register(probeBinding())
        // Decoding is not isolated (themes prepared ahead decode on another thread), but a
        // theme prepared as components are styled decodes on the main actor, and an app's
        // closure may know it.
        let inner = Probe(Counter())
        var binding = ComponentBinding<Probe>("decoder", extends: "probe")
        binding.bind(
            "stroke",
            decode: { [weak applicator] resolved, _ in
                MainActor.assumeIsolated { applicator?.style(inner, as: "inner") }
                if case .float(let width) = resolved.params[0].value { return width }
                return nil
            }, get: { probe, _ in probe.stroke }, set: { probe, width, _ in probe.stroke = width }, takesState: false)
        applicator.register(binding)
        let outer = Probe(Counter())
        applicator.style(outer, as: "outer")

        #expect(outer.fill == Color(red: 1, green: 0, blue: 0))
        #expect(outer.stroke == 7)
        #expect(outer.label == "outer")
        #expect(inner.fill == Color(red: 0, green: 0, blue: 1))
        #expect(inner.stroke == 3)
        #expect(applicator.identifier(of: inner) == "inner")
        #expect(applicator.identifier(of: outer) == "outer")
        manager.activate(themeID: "empty")
        #expect(outer.fill == nil && outer.stroke == 1 && outer.label == "original")
        #expect(inner.fill == nil && inner.stroke == 1)
    }

    @Test func anASCIIIdentifierNumberedFirstIsFoundByItsCanonicalEquivalent() {
        let table = IdentifierTable()
        let k = table.number("K")
        let plain = table.number("plain")
        // Only ASCII so far: the dictionary is filled when the first other string comes.
        #expect(table.existingNumber("\u{212A}") == k)
        #expect(table.number("\u{212A}") == k)
        #expect(table.number("K") == k)
        #expect(table.number("plain") == plain)
        #expect(table.number("new") == IdentifierNumber(2))
        #expect(table.existingNumber("absent") == nil)
        #expect(table.count == 3)
    }

    @Test func identifiersTheThemeNamesAreNumberedOnceForEveryPreparedTheme() throws {
        let instances = (0..<300).map { instance("row_\($0)", "probe", [op("stroke", "width", .float(Double($0)))]) }
        let (manager, applicator) = makeApplicator(
            loadedTheme("a", instances), loadedTheme("b", instances),
            activate: "a")
        applicator.register(probeBinding())
        let probes = (0..<300).map { _ in Probe(Counter()) }
        // Styled in reverse, and one identifier the theme does not have.
        for index in stride(from: 299, through: 0, by: -1) { applicator.style(probes[index], as: "row_\(index)") }
        let stranger = Probe(Counter())
        applicator.style(stranger, as: "row_300")
        #expect(probes.enumerated().allSatisfy { $0.element.stroke == Double($0.offset) })
        #expect(stranger.stroke == 1)
        manager.activate(themeID: "b")
        #expect(applicator.components(styledAs: "row_7").count == 1)
        #expect(applicator.registry.theme(of: .root)?.key.themeID == "b")
        #expect(probes[299].stroke == 299)
    }

    /// A colour picker dragged through many values: every value reaches exactly the components
    /// that use it, a change visits only their groups, and the records the family of themes
    /// shares never grow: a derived theme keeps its values in an overlay, prepares nothing.
    @Test func aDraggedValuePreparesNoInstance() throws {
        let instances = (0..<40).map { index in
            instance(
                "view_\(index)", "uiview",
                [op("backgroundColor", "color", color(0x101010)), op("alpha", "alpha", .float(1))])
        }
        var variants = ThemeVariants(
            info: ThemeInfo(id: "t", name: "t"), ancestors: [], axes: TraitAxes(), variants: [.none: instances],
            assets: .empty)
        let dependent = 10
        variants.choices = ChoiceTable(
            constants: [ChoiceConstant(name: "accent", type: .color)],
            uses: [
                .none: (0..<dependent).map {
                    ChoiceUse(
                        id: "view_\($0)", operation: 0, param: "color",
                        expression: .constant(name: "accent", type: .color, otherwise: .literal(color(0x101010))))
                }
            ])
        let manager = ThemeManager()
        manager.add(LoadedTheme(variants: variants))
        manager.activate(themeID: "t")
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let views = (0..<instances.count).map { _ in View() }
        for (index, view) in views.enumerated() { applicator.style(view, as: "view_\(index)") }
        var recordCounts: [Int] = []
        for step in 0..<60 {
            let value = Color(red: Double(step) / 60, green: 0.5, blue: 0.25)
            applicator.rootScope.overrides.constants["accent"] = .color(value)
            #expect(views[..<dependent].allSatisfy { $0.backgroundColor == value })
            let plain = Color(red: 16 / 255, green: 16 / 255, blue: 16 / 255)
            #expect(views[dependent...].allSatisfy { $0.backgroundColor == plain })
            #expect(applicator.lastPass.componentsUpdated == dependent, "only the groups the value reaches")
            let theme = try #require(applicator.registry.theme(of: .root))
            #expect(theme.root != nil, "derived, not prepared afresh")
            recordCounts.append(theme.instances.count)
        }
        #expect(recordCounts.allSatisfy { $0 == instances.count }, "records grew to \(recordCounts)")
    }
}
