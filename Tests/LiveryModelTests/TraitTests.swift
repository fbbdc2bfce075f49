import Testing
@testable import LiveryModel

@Suite struct TraitTests {
    @Test func parsesTagsCaseInsensitively() throws {
        let traits = try TraitSet(tags: ["iPad", "DARK"])
        #expect(traits == TraitSet(idiom: .ipad, appearance: .dark))
        #expect(traits.tags == ["ipad", "dark"])
    }

    @Test func rejectsUnknownAndConflictingTags() {
        #expect(throws: TraitSet.TagError.unknown("tablet")) { try TraitSet(tags: ["tablet"]) }
        #expect(throws: TraitSet.TagError.conflict("light", "dark")) { try TraitSet(tags: ["light", "dark"]) }
        #expect(throws: TraitSet.TagError.conflict("ipad", "ipad")) { try TraitSet(tags: ["ipad", "ipad"]) }
    }

    @Test func appliesOnlyWhenEveryTagIsActive() {
        let ipadDark = TraitSet(idiom: .ipad, appearance: .dark)
        #expect(TraitSet(idiom: .ipad).applies(in: ipadDark))
        #expect(TraitSet.none.applies(in: ipadDark))
        #expect(!TraitSet(idiom: .ipad, contrast: .highcontrast).applies(in: ipadDark))
        #expect(!TraitSet(idiom: .iphone).applies(in: ipadDark))
    }

    @Test func specificityFollowsTheFormatsOrder() {
        let dark = TraitSet(appearance: .dark)
        let darkHigh = TraitSet(appearance: .dark, contrast: .highcontrast)
        let ipad = TraitSet(idiom: .ipad)
        let ipadDark = TraitSet(idiom: .ipad, appearance: .dark)
        #expect(TraitSet.none.specificity < dark.specificity)
        #expect(dark.specificity < darkHigh.specificity)
        #expect(darkHigh.specificity < ipad.specificity)
        #expect(ipad.specificity < ipadDark.specificity)
    }

    @Test func axesEnumerateAndCanonicalise() {
        var axes = TraitAxes()
        axes.insert(TraitSet(idiom: .ipad))
        axes.insert(TraitSet(appearance: .dark))
        #expect(axes.traitSets.count == 2 * 2 * 1)
        #expect(axes.traitSets.first == TraitSet.none)
        let running = TraitSet(idiom: .iphone, appearance: .dark, contrast: .highcontrast)
        #expect(axes.canonical(running) == TraitSet(appearance: .dark))
        #expect(TraitAxes.all.traitSets.count == 8 * 3 * 2)
    }
}
