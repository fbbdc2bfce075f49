import Foundation
import LiveryModel
import Testing

@testable import LiveryStudio

/// The studio's trait controls come from the table of dimensions, and a trait list that does not
/// parse is said so, never drawn as no traits.
@Suite struct StudioTraitTests {
    @Test func thePageHasAMenuForEveryDimensionOfTheTable() {
        for dimension in TraitDimensions.standard.all {
            let menu = #"<select id="trait-\#(dimension.name)" class="trait">"#
            #expect(StudioPage.html.contains(menu), "\(dimension.name)")
            for value in dimension.values { #expect(StudioPage.html.contains("<option>\(value)</option>"), "\(value)") }
        }
    }

    /// The sample Base theme declares `density` in its schema file: the studio's page has a menu
    /// for it, its tags draw a screen, and a bad tag's message lists them.
    @Test func thePageHasAMenuForEachDimensionTheThemesDeclare() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes])
        let dimensions = await session.dimensions()
        #expect(dimensions.appDefined.map(\.name) == ["density"])
        let page = StudioPage.html(dimensions: dimensions)
        #expect(
            page.contains(
                #"<select id="trait-density" class="trait"><option value="">any</option><option>compact</option><option>comfortable</option></select>"#
            ))
        #expect(!StudioPage.html.contains("trait-density"))
        let compact = await session.state(themeID: "com.livery.base", traits: "compact,dark", findings: false)
        #expect(compact.message == nil, "\(compact.message ?? "")")
        #expect(compact.screens.first?.traits == "dark,compact")
        let explained = try await session.explain(themeID: "com.livery.base", traits: "compact", id: "bubble_incoming")
        #expect(explained.traits == "compact")
        let bad = await session.state(themeID: "com.livery.base", traits: "compakt", findings: false)
        #expect(bad.screens.isEmpty)
        #expect(bad.message?.hasSuffix("density: compact, comfortable") == true, "\(bad.message ?? "")")
    }

    @Test func aBadTraitListIsReportedNotDrawnAsNone() async throws {
        let copy = try ThemesCopy()
        let session = StudioSession(paths: [copy.themes])
        let state = await session.state(themeID: "com.livery.base", traits: "ipad,tablet", findings: false)
        #expect(state.screens.isEmpty)
        #expect(state.message?.hasPrefix("unknown trait 'tablet'; use idiom: iphone") == true, "\(state.message ?? "")")
        let good = await session.state(themeID: "com.livery.base", traits: "ipad,rtl", findings: false)
        #expect(!good.screens.isEmpty)
        await #expect(throws: StudioEditError.self) {
            try await session.explain(themeID: "com.livery.base", traits: "rtl,ltr", id: "button_send")
        }
    }
}
