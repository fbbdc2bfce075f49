import Foundation
import LiveryHeadless
import LiveryModel
import Testing

@testable import Livery

/// Format 1.2, section 8 at run time: under text scale s the letter spacing grows with the
/// applied size, the line height stays a multiple, and a change of s re-applies only the fonts
/// whose applied values change.
@MainActor
@Suite struct TypographyScaleTests {
    // body: 10 -> 15 -> 20 (max) -> 20, spacing 0.5 -> 0.75 -> 1 -> 1; line height 1.5 always.
    static let body = Font(family: "Body", size: 10, maxSize: 20, letterSpacing: 0.5, lineHeight: 1.5)
    // fixed: everything as written at every scale.
    static let badge = Font(family: "Badge", size: 11, scaling: .fixed, letterSpacing: -0.25, lineHeight: 1.2)
    // no size: the platform sizes it; spacing and line height as written.
    static let title = Font(family: "Title", size: nil, letterSpacing: 1, lineHeight: 1.4)

    func theme() -> LoadedTheme {
        loadedTheme(
            "t",
            [
                instance(
                    "p", "textprobe",
                    [
                        op("bodyFont", "font", .font(Self.body)), op("badgeFont", "font", .font(Self.badge)),
                        op("titleFont", "font", .font(Self.title)),
                    ])
            ])
    }

    @Test func letterSpacingGrowsWithTheAppliedSizeAndOnlyChangedFontsAreReapplied() {
        let (manager, applicator) = makeApplicator(theme(), activate: "t")
        applicator.register(textProbeBinding())
        let counter = Counter()
        let probe = TextProbe(counter)
        applicator.style(probe, as: "p")
        #expect(probe.body == Self.body && probe.badge == Self.badge && probe.title == Self.title)

        manager.setTextScale(1.5)
        #expect(probe.body == Font(family: "Body", size: 15, maxSize: 20, letterSpacing: 0.75, lineHeight: 1.5))
        #expect(
            counter.sets == ["bodyFont": 2, "badgeFont": 1, "titleFont": 1], "fixed and unsized fonts are not touched")

        manager.setTextScale(2)
        #expect(probe.body?.size == 20 && probe.body?.letterSpacing == 1 && probe.body?.lineHeight == 1.5)
        #expect(counter.sets["bodyFont"] == 3)

        manager.setTextScale(3)
        #expect(counter.sets["bodyFont"] == 3, "at max-size nothing changes: not re-applied")
        #expect(probe.body?.letterSpacing == 1)
        #expect(probe.badge == Self.badge && probe.title == Self.title)

        manager.setTextScale(1)
        #expect(probe.body == Self.body)
        #expect(counter.sets == ["bodyFont": 4, "badgeFont": 1, "titleFont": 1])
    }

    /// The headless reference label's font value carries both, scaled like any font.
    @Test func theReferenceLabelsFontCarriesThem() {
        let themeWithLabel = loadedTheme("t", [instance("label", "uilabel", [op("font", "font", .font(Self.body))])])
        let (manager, applicator) = makeApplicator(themeWithLabel, activate: "t")
        StandardBindings.register(in: applicator)
        let label = Label()
        applicator.style(label, as: "label")
        #expect(label.font?.letterSpacing == 0.5 && label.font?.lineHeight == 1.5)
        manager.setTextScale(1.5)
        #expect(label.font?.size == 15 && label.font?.letterSpacing == 0.75 && label.font?.lineHeight == 1.5)
    }
}
