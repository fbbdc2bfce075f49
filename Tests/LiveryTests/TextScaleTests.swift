import Foundation
import LiveryHeadless
import LiveryModel
import Testing

@testable import Livery

/// A component with three font properties whose setters count their calls.
@MainActor
final class TextProbe {
    let counter: Counter
    var body: Font? = nil
    var badge: Font? = nil
    var title: Font? = nil
    var tint: Color? = nil
    init(_ counter: Counter) { self.counter = counter }
}

@MainActor
func textProbeBinding() -> ComponentBinding<TextProbe> {
    var binding = ComponentBinding<TextProbe>("textprobe")
    binding.bind(
        "bodyFont", get: { $0.body },
        set: {
            $0.counter.sets["bodyFont", default: 0] += 1
            $0.body = $1
        })
    binding.bind(
        "badgeFont", get: { $0.badge },
        set: {
            $0.counter.sets["badgeFont", default: 0] += 1
            $0.badge = $1
        })
    binding.bind(
        "titleFont", get: { $0.title },
        set: {
            $0.counter.sets["titleFont", default: 0] += 1
            $0.title = $1
        })
    binding.bind(
        "tint", get: { $0.tint },
        set: {
            $0.counter.sets["tint", default: 0] += 1
            $0.tint = $1
        })
    return binding
}

/// Format 1.1, 7.2 at run time: a text-scale change re-applies only the fonts whose applied size
/// changes; `largetext` selects its variant like any trait; reverts work as before.
@MainActor
@Suite struct TextScaleTests {
    static let body = Font(family: "Body", size: 17, maxSize: 28)  // 17, 25.5, 28, 28 at 1, 1.5, 2, 3
    static let badge = Font(family: "Badge", size: 11, scaling: .fixed)  // 11 always
    static let title = Font(family: "Title", size: 20)  // 20, 30, 40, 60

    func theme() -> LoadedTheme {
        let ops = [
            op("bodyFont", "font", .font(Self.body)), op("badgeFont", "font", .font(Self.badge)),
            op("titleFont", "font", .font(Self.title)), op("tint", "color", color(0x336699)),
        ]
        let large = Array(ops.dropLast()) + [op("tint", "color", color(0x000000))]
        return loadedTheme(
            "t", [instance("p", "textprobe", ops)],
            variants: [TraitSet(textSize: .largetext): [instance("p", "textprobe", large)]])
    }

    @Test func aTextScaleChangeReappliesOnlyTheFontsWhoseSizeChanges() {
        let (manager, applicator) = makeApplicator(theme(), activate: "t")
        applicator.register(textProbeBinding())
        let counter = Counter()
        let probe = TextProbe(counter)
        applicator.style(probe, as: "p")
        #expect(counter.sets == ["bodyFont": 1, "badgeFont": 1, "titleFont": 1, "tint": 1])
        #expect(probe.body?.size == 17)

        manager.setTextScale(1.5)
        // body 17 -> 25.5 and title 20 -> 30; the fixed badge and the colour are not touched.
        #expect(counter.sets == ["bodyFont": 2, "badgeFont": 1, "titleFont": 2, "tint": 1])
        #expect(probe.body?.size == 25.5)
        #expect(probe.title?.size == 30)
        #expect(probe.badge?.size == 11)

        manager.setTextScale(2)
        // body reaches its max-size (28); title 40.
        #expect(counter.sets == ["bodyFont": 3, "badgeFont": 1, "titleFont": 3, "tint": 1])
        #expect(probe.body?.size == 28)

        manager.setTextScale(3)
        // body stays at 28: not re-applied; only the title changes.
        #expect(counter.sets == ["bodyFont": 3, "badgeFont": 1, "titleFont": 4, "tint": 1])
        #expect(probe.body?.size == 28)
        #expect(probe.title?.size == 60)
        #expect(applicator.lastPass.operationsApplied == 1)

        manager.setTextScale(3)
        #expect(counter.total == 9, "the same scale again does nothing")
        manager.setTextScale(99)
        #expect(manager.textScale == 4, "clamped to 0.5...4")
        #expect(probe.title?.size == 80)

        manager.setTextScale(1)
        #expect(probe.body == Self.body && probe.title == Self.title && probe.badge == Self.badge)
    }

    @Test func preloadPreparesAtTheUsersTextScale() async {
        let (manager, applicator) = makeApplicator(theme(), activate: "t")
        applicator.register(textProbeBinding())
        manager.setTextScale(1.5)
        await applicator.preload(["t"])
        let probe = TextProbe(Counter())
        applicator.style(probe, as: "p")
        #expect(probe.body?.size == 25.5)
        #expect(probe.title?.size == 30)
        // Styling used the preloaded theme: at text scale 1.5 there is one prepared theme, and
        // it was prepared whole (a preload at scale 1 left one made lazily as components came).
        let atScale = applicator.prepared.themes.filter { $0.key.textScale == 1.5 }
        #expect(atScale.count == 1)
        #expect(atScale.allSatisfy { $0.isComplete })
    }

    @Test func setTextSizeSwitchesTheLargeTextVariantAndTheScaleInOneStep() {
        let (manager, applicator) = makeApplicator(theme(), activate: "t")
        applicator.register(textProbeBinding())
        let counter = Counter()
        let probe = TextProbe(counter)
        applicator.style(probe, as: "p")
        var changes: [ThemeManager.Change] = []
        let token = manager.observe { changes.append($0) }
        manager.setTextSize(scale: 2, largeText: true)
        #expect(changes.count == 1)
        #expect(changes.first?.traits == true && changes.first?.textScale == true)
        #expect(manager.traits.textSize == .largetext)
        #expect(probe.tint == Color(red: 0, green: 0, blue: 0))
        #expect(counter.sets == ["bodyFont": 2, "badgeFont": 1, "titleFont": 2, "tint": 2])

        // Back to the standard size: the generic variant, fonts as written.
        manager.setTextSize(scale: 1, largeText: false)
        #expect(manager.traits.textSize == nil)
        #expect(probe.tint == Color(red: 0x33 / 255, green: 0x66 / 255, blue: 0x99 / 255))
        #expect(probe.body == Self.body)
        _ = token
    }

    @Test func revertsRestoreTheAppsFontsAfterScaling() {
        let plain = loadedTheme("plain", [instance("p", "textprobe", [])])
        let (manager, applicator) = makeApplicator(theme(), plain, activate: "t")
        applicator.register(textProbeBinding())
        let probe = TextProbe(Counter())
        let own = Font(family: "App", size: 13)
        probe.body = own
        manager.setTextScale(2)
        applicator.style(probe, as: "p")
        #expect(probe.body?.size == 28)
        manager.activate(themeID: "plain")
        #expect(probe.body == own, "the app's own font comes back, not a scaled one")
        manager.setTextScale(1)
        #expect(probe.body == own, "text scale does not touch what no theme sets")
    }

    /// A font the user picks (a personal choice) is sized at the user's text scale like the
    /// theme's own, when it is given and when the text scale changes after; and the operations it
    /// does not reach keep theirs.
    @Test func aFontGivenAsAPersonalChoiceFollowsTheTextScale() {
        var variants = ThemeVariants(
            info: ThemeInfo(id: "t", name: "t"), ancestors: [], axes: TraitAxes(),
            variants: [
                .none: [
                    instance(
                        "p", "textprobe",
                        [op("titleFont", "font", .font(Self.title)), op("tint", "color", color(0x336699))])
                ]
            ], assets: .empty)
        variants.choices = ChoiceTable(
            constants: [ChoiceConstant(name: "heading", type: .font)],
            uses: [
                .none: [
                    ChoiceUse(
                        id: "p", operation: 0, param: "font",
                        expression: .constant(name: "heading", type: .font, otherwise: .literal(.font(Self.title))))
                ]
            ])
        let manager = ThemeManager()
        manager.add(LoadedTheme(variants: variants))
        manager.activate(themeID: "t")
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        applicator.register(textProbeBinding())
        let probe = TextProbe(Counter())
        applicator.style(probe, as: "p")
        manager.setTextScale(1.5)
        #expect(probe.title?.size == 30)
        for size in [24.0, 32.0] {
            applicator.rootScope.overrides.constants["heading"] = .font(Font(family: "Picked", size: size))
            #expect(probe.title == Font(family: "Picked", size: size).applied(textScale: 1.5))
            #expect(probe.tint == Color(red: 0x33 / 255, green: 0x66 / 255, blue: 0x99 / 255))
        }
        manager.setTextScale(2)
        #expect(probe.title == Font(family: "Picked", size: 32).applied(textScale: 2))
        applicator.rootScope.overrides.constants = [:]
        #expect(probe.title == Self.title.applied(textScale: 2))
    }
}
