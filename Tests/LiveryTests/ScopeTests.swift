import LiveryHeadless
import LiveryModel
import Testing

@testable import Livery

@MainActor
@Suite struct ScopeTests {
    let red = color(0xFF0000)
    let blue = color(0x0000FF)
    let white = color(0xFFFFFF)
    let black = color(0x000000)

    func themes() -> [LoadedTheme] {
        let dark: [TraitSet: [ResolvedInstance]] = [
            TraitSet(appearance: .dark): [instance("title", "uilabel", [op("textColor", "color", white)])]
        ]
        return [
            loadedTheme("app", [instance("title", "uilabel", [op("textColor", "color", black)])], variants: dark),
            loadedTheme(
                "promo",
                [instance("title", "uilabel", [op("textColor", "color", red), op("text", "text", .string("Sale"))])]),
            loadedTheme("other", [instance("title", "uilabel", [op("textColor", "color", blue)])]),
        ]
    }

    @Test func aScopeUsesItsOwnThemeAndFollowsTheAppsTraits() {
        let themes = themes()
        let (manager, applicator) = makeApplicator(themes[0], themes[1], themes[2], activate: "app")
        let outside = Label()
        let inside = Label()
        let promo = applicator.makeScope(ScopeOverrides(themeID: "promo"))
        applicator.style(outside, as: "title")
        promo.style(inside, as: "title")
        #expect(outside.textColor == Color(red: 0, green: 0, blue: 0))
        #expect(inside.textColor == Color(red: 1, green: 0, blue: 0))
        #expect(inside.text == "Sale")

        manager.activate(themeID: "other")
        #expect(outside.textColor == Color(red: 0, green: 0, blue: 1))
        #expect(inside.textColor == Color(red: 1, green: 0, blue: 0), "the scope keeps its theme")

        // Moving a component into another scope re-targets it with a diff.
        applicator.style(inside, as: "title")
        #expect(inside.textColor == Color(red: 0, green: 0, blue: 1))
        #expect(inside.text == nil, "the promo text is reverted outside the promo scope")
    }

    @Test func aTraitScopeForcesDarkWhileTheAppIsLight() {
        let themes = themes()
        let (manager, applicator) = makeApplicator(themes[0], themes[1], activate: "app")
        let alwaysDark = applicator.makeScope(ScopeOverrides(appearance: .dark))
        let light = Label()
        let dark = Label()
        applicator.style(light, as: "title")
        alwaysDark.style(dark, as: "title")
        #expect(light.textColor == Color(red: 0, green: 0, blue: 0))
        #expect(dark.textColor == Color(red: 1, green: 1, blue: 1))

        manager.activate(themeID: "promo")
        #expect(dark.textColor == Color(red: 1, green: 0, blue: 0), "a trait scope follows the app's theme")
        manager.activate(themeID: "app")

        // A nested scope inherits its parent's overrides and adds its own.
        let nested = alwaysDark.makeScope(ScopeOverrides(themeID: "promo"))
        let deep = Label()
        nested.style(deep, as: "title")
        #expect(deep.textColor == Color(red: 1, green: 0, blue: 0))
        #expect(nested.theme?.traits.appearance == .dark)

        // Changing a scope's overrides re-applies to its components only.
        alwaysDark.overrides = ScopeOverrides(appearance: .light)
        #expect(dark.textColor == Color(red: 0, green: 0, blue: 0))
        #expect(light.textColor == Color(red: 0, green: 0, blue: 0))
        #expect(applicator.lastPass.operationsApplied == 1)
    }
}
