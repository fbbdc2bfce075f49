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
        #expect(TraitAxes.all.traitSets.count == 8 * 3 * 2 * 2 * 3)
    }

    /// Format 1.1, 7.2: text size is a fourth dimension with the lowest precedence.
    @Test func largeTextIsTheLowestPrecedenceDimension() throws {
        let traits = try TraitSet(tags: ["LargeText", "dark"])
        #expect(traits == TraitSet(appearance: .dark, textSize: .largetext))
        #expect(traits.tags == ["dark", "largetext"])
        #expect(throws: TraitSet.TagError.conflict("largetext", "largetext")) {
            try TraitSet(tags: ["largetext", "largetext"])
        }
        let large = TraitSet(textSize: .largetext)
        #expect(TraitSet.none.specificity < large.specificity)
        #expect(large.specificity < TraitSet(contrast: .highcontrast).specificity)
        #expect(
            TraitSet(appearance: .dark, contrast: .highcontrast, textSize: .largetext).specificity
                < TraitSet(idiom: .ipad).specificity)
        #expect(large.applies(in: traits))
        #expect(!large.applies(in: TraitSet(appearance: .dark)))
        var axes = TraitAxes()
        axes.insert(large)
        #expect(axes.traitSets == [.none, large])
        #expect(axes.canonical(TraitSet(idiom: .ipad, textSize: .largetext)) == large)
    }
}
