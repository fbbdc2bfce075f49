import Foundation
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

    /// Every dimension of the table, an app-defined one (declared here, in the test only)
    /// included, can be overridden for a scope; the scope's theme resolves with it.
    @Test func everyDimensionCanBeOverriddenForAScope() throws {
        let dimensions = try TraitDimensions(appDefined: [TraitDimension(name: "density", values: ["compact", "cozy"])])
        for (index, dimension) in dimensions.all.enumerated() {
            for (value, tag) in dimension.values.enumerated() {
                let overrides = ScopeOverrides(traits: [dimension.name: tag])
                #expect(
                    overrides.applied(to: .none, dimensions: dimensions)[index] == value, "\(dimension.name) \(tag)")
            }
        }
        let compact = try dimensions.traits(tags: ["compact"])
        let rtl = TraitSet(direction: .rtl)
        let theme = loadedTheme(
            "app", [instance("title", "uilabel", [op("textColor", "color", black)])],
            variants: [
                compact: [instance("title", "uilabel", [op("textColor", "color", red)])],
                rtl: [instance("title", "uilabel", [op("textColor", "color", blue)])],
            ])
        let (manager, applicator) = makeApplicator(theme, activate: "app")
        manager.dimensions = dimensions
        let dense = applicator.makeScope(ScopeOverrides(traits: ["density": "compact"]))
        let mirrored = applicator.makeScope(ScopeOverrides(direction: .rtl))
        let outside = Label()
        let inDense = Label()
        let inMirrored = Label()
        applicator.style(outside, as: "title")
        dense.style(inDense, as: "title")
        mirrored.style(inMirrored, as: "title")
        #expect(outside.textColor == Color(red: 0, green: 0, blue: 0))
        #expect(inDense.textColor == Color(red: 1, green: 0, blue: 0))
        #expect(inMirrored.textColor == Color(red: 0, green: 0, blue: 1))
        // The app sets an app-defined dimension by tag; an unknown tag changes nothing.
        try manager.setTraits(tags: ["compact"])
        #expect(outside.textColor == Color(red: 1, green: 0, blue: 0))
        #expect(throws: TraitSet.TagError.unknown("roomy")) { try manager.setTraits(tags: ["roomy"]) }
        #expect(outside.textColor == Color(red: 1, green: 0, blue: 0))
    }

    /// The saved form is keyed by dimension name: it reads back, and a dimension the app does
    /// not declare (yet) is kept and ignored rather than failing.
    @Test func overridesSaveByDimensionName() throws {
        let overrides = ScopeOverrides(themeID: "promo", direction: .rtl, traits: ["density": "compact"])
        let json = try JSONEncoder().encode(overrides)
        let text = String(decoding: json, as: UTF8.self)
        #expect(text.contains(#""direction":"rtl""#) && text.contains(#""density":"compact""#))
        let decoded = try JSONDecoder().decode(ScopeOverrides.self, from: json)
        #expect(decoded == overrides)
        #expect(decoded.direction == .rtl)
        #expect(decoded.applied(to: .none, dimensions: .standard) == TraitSet(direction: .rtl))
    }

    /// Constant values save exactly (no rounding through hex), and a form saved before a field
    /// existed still reads.
    @Test func overridesSaveConstantsExactlyAndReadOlderForms() throws {
        let accent = Color(red: 0.123456789, green: 0.5, blue: 1, alpha: 0.75)
        let overrides = ScopeOverrides(
            constants: [
                "accent": .color(accent), "radius": .float(6), "names": .array([.string("a"), .enumeration("b")]),
            ])
        let json = try JSONEncoder().encode(overrides)
        #expect(String(decoding: json, as: UTF8.self).contains(#"{"color":{"#))
        #expect(try JSONDecoder().decode(ScopeOverrides.self, from: json) == overrides)
        let older = try JSONDecoder().decode(ScopeOverrides.self, from: Data(#"{"themeID":"promo"}"#.utf8))
        #expect(older == ScopeOverrides(themeID: "promo"))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(
                ScopeOverrides.self, from: Data(##"{"constants":{"accent":{"colour":"#FF0000"}}}"##.utf8))
        }
    }
}
