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
