import Testing

@testable import LiveryModel

@Suite struct ValueTests {
    @Test func colorHexRoundsEachChannel() {
        #expect(Color(red: 1, green: 0, blue: 0).hexString == "#FF0000FF")
        #expect(Color(red: 0.5, green: 0.2, blue: 1, alpha: 0).hexString == "#8033FF00")
    }

    @Test func assetSelectionPrefersSpecificityThenScale() {
        let catalog = AssetCatalog(
            searchOrder: ["child", "base"],
            variants: [
                AssetVariant(name: "bubble", themeID: "base", file: "assets/bubble.png"),
                AssetVariant(name: "bubble", themeID: "base", file: "assets/bubble@2x.png", scale: 2),
                AssetVariant(name: "bubble", themeID: "base", file: "assets/bubble@3x.png", scale: 3),
                AssetVariant(
                    name: "bubble", themeID: "base", file: "assets/bubble~ipad.png",
                    qualifiers: TraitSet(idiom: .ipad)),
                AssetVariant(name: "icon", themeID: "child", file: "assets/icon@2x.png", scale: 2),
                AssetVariant(name: "icon", themeID: "base", file: "assets/icon.png"),
                AssetVariant(name: "icon", themeID: "base", file: "assets/icon@3x.png", scale: 3),
            ])
        #expect(catalog.select("bubble", traits: .none, scale: 2)?.file == "assets/bubble@2x.png")
        #expect(catalog.select("bubble", traits: TraitSet(idiom: .ipad), scale: 3)?.file == "assets/bubble~ipad.png")
        // the child has a variant, so the parent's exact scale does not win
        #expect(catalog.select("icon", traits: .none, scale: 3)?.file == "assets/icon@2x.png")
        #expect(catalog.select("icon", traits: .none, scale: 1)?.themeID == "child")
        #expect(catalog.select("missing", traits: .none, scale: 1) == nil)
    }

    @Test func nearestHigherScaleBeatsLower() {
        let catalog = AssetCatalog(
            searchOrder: ["t"],
            variants: [
                AssetVariant(name: "a", themeID: "t", file: "assets/a.png"),
                AssetVariant(name: "a", themeID: "t", file: "assets/a@3x.png", scale: 3),
            ])
        #expect(catalog.select("a", traits: .none, scale: 2)?.file == "assets/a@3x.png")
        #expect(catalog.select("a", traits: .none, scale: 4)?.file == "assets/a@3x.png")
    }

    @Test func jsonIsDeterministicAndEscaped() {
        let value = JSONValue.object([("b", .number(8)), ("a", .string("q\"\n\u{1}")), ("c", .number(0.25))])
        #expect(value.rendered(pretty: false) == #"{"b":8,"a":"q\"\n\u0001","c":0.25}"#)
        #expect(JSONValue.array([]).rendered() == "[]")
    }

    @Test func dumpFollowsTheCanonicalShape() {
        let theme = ResolvedTheme(
            info: ThemeInfo(id: "t", name: "T"), traits: TraitSet(idiom: .ipad),
            instances: [
                ResolvedInstance(
                    id: "x", component: "uiview",
                    operations: [
                        ResolvedOperation(name: "alpha", params: [Param(name: "value", value: .float(0.5))])
                    ])
            ], assets: .empty)
        let json = CanonicalJSON.document(theme, scale: 2).rendered(pretty: false)
        #expect(
            json
                == #"{"id":"t","name":"T","version":"1.0.0","parent":null,"traits":["ipad"],"scale":2,"instances":{"x":{"component":"uiview","operations":[{"name":"alpha","state":"normal","params":{"value":{"float":0.5}}}]}}}"#
        )
    }
}
