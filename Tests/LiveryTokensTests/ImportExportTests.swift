import Foundation
import LiveryModel
import LiveryTokens
import Testing

/// Tokens to constants (the mapping of docs/Tokens.md) and constants back to tokens.
struct ImportExportTests {
    static func resolve(_ text: String, file: String = "tokens.json") -> (
        tokens: [ResolvedToken], diagnostics: [Diagnostic]
    ) {
        do {
            return TokenResolver.resolve([try TokenSource.read(file, bytes: Array(text.utf8))])
        } catch {
            return ([], [error.diagnostic])
        }
    }

    static func importing(_ text: String, remBase: Double = 16) -> (
        constants: [ThemeConstant], diagnostics: [Diagnostic], skipped: Diagnostic?
    ) {
        var tokenImport = TokenImport(options: .init(remBase: remBase)) { path in
            path == "tokens.json" ? Array(text.utf8) : nil
        }
        let layers = tokenImport.layers(files: ["tokens.json"])
        return (
            layers.first?.constants ?? [], tokenImport.diagnostics + tokenImport.importer.diagnostics,
            tokenImport.skippedWarning
        )
    }

    /// The constants as the theme would hold them, references followed, as `export` gets them.
    static func exported(_ constants: [ThemeConstant]) -> [ExportedConstant] {
        let byName = Dictionary(constants.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
        func value(_ name: String, depth: Int = 0) -> Value? {
            guard depth < 32, let constant = byName[name] else { return nil }
            switch constant.content {
            case .literal(let value): return value
            case .reference(let target): return value(target, depth: depth + 1)
            }
        }
        return constants.compactMap { constant in
            guard let resolved = value(constant.name) else { return nil }
            if case .reference(let target) = constant.content {
                return ExportedConstant(name: constant.name, value: resolved, reference: target)
            }
            return ExportedConstant(name: constant.name, value: resolved, reference: nil)
        }
    }

    static func element(_ constants: [ThemeConstant], _ name: String) -> String? {
        constants.first { $0.name == name }?.element
    }

    @Test func namesFollowTheConstantNameRule() {
        #expect(TokenImporter.constantName(["color", "bg", "default"]) == "color.bg.default")
        #expect(TokenImporter.constantName(["Brand Blue", "500"]) == "Brand_Blue.500")
        #expect(TokenImporter.constantName(["2xl", "ünïcode"]) == "_2xl._n_code")
        #expect(TokenImporter.constantName(["group", "$root"]) == "group")
        #expect(TokenImporter.constantName(["-x"]) == "_-x")
    }

    @Test func collidingNamesAreOneLocatedError() {
        let result = Self.importing(
            #"{"a b": {"$type": "number", "$value": 1}, "a_b": {"$type": "number", "$value": 2}}"#)
        let collisions = result.diagnostics.filter { $0.code == .tokenNameCollision }
        #expect(collisions.count == 1)
        #expect(collisions.first?.location?.line == 1 && collisions.first?.location?.column == 43)
        #expect(collisions.first?.message.contains("'a b'") == true)
    }

    @Test func typesMapToConstants() {
        let text = #"""
            {
              "color": {"$type": "color", "brand": {"$value": {"colorSpace": "srgb", "components": [1, 0, 0.5], "alpha": 0.5}, "$description": "The -- brand"}},
              "space": {"$type": "dimension", "s": {"$value": {"value": 8, "unit": "px"}}, "m": {"$value": {"value": 1.5, "unit": "rem"}}},
              "count": {"$type": "number", "$value": 3},
              "ratio": {"$type": "number", "$value": 0.5},
              "family": {"$type": "fontFamily", "$value": ["Inter", "Helvetica"]},
              "weight": {"$type": "fontWeight", "$value": "semi-bold"},
              "body": {"$type": "typography", "$value": {"fontFamily": "{family}", "fontSize": {"value": 1, "unit": "rem"}, "fontWeight": 700,
                       "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.4}},
              "fast": {"$type": "duration", "$value": {"value": 100, "unit": "ms"}},
              "ease": {"$type": "cubicBezier", "$value": [0.4, 0, 0.2, 1]}
            }
            """#
        let result = Self.importing(text, remBase: 10)
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics)")
        let c = result.constants
        #expect(Self.element(c, "color.brand") == #"<color name="color.brand" format="rgba">1,0,0.5,0.5</color>"#)
        #expect(c.first { $0.name == "color.brand" }?.comment == "The -- brand")
        #expect(Self.element(c, "space.s") == #"<float name="space.s">8</float>"#)
        #expect(Self.element(c, "space.m") == #"<float name="space.m">15</float>"#)
        #expect(Self.element(c, "count") == #"<integer name="count">3</integer>"#)
        #expect(Self.element(c, "ratio") == #"<float name="ratio">0.5</float>"#)
        #expect(Self.element(c, "family") == #"<font name="family" family="Inter"/>"#)
        #expect(Self.element(c, "weight") == #"<enum name="weight">semibold</enum>"#)
        #expect(
            Self.element(c, "body")
                == #"<font name="body" family="Inter" size="10" weight="bold" letter-spacing="0" line-height="1.4"/>"#)
        #expect(c.count == 8)
        #expect(
            result.skipped?.message
                == "skipped tokens of types Livery has no constant for: cubicBezier (ease); duration (fast)")
    }

    @Test func aliasesBecomeReferencesAndCompositesDecompose() {
        let text = #"""
            {
              "black": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [0, 0, 0]}},
              "small": {"$type": "dimension", "$value": {"value": 2, "unit": "px"}, "$deprecated": "use tiny"},
              "ink": {"$type": "color", "$value": "{black}"},
              "deep": {"$ref": "#/ink/$value"},
              "card": {"$type": "shadow", "$value": {"color": "{ink}", "offsetX": "{small}", "offsetY": {"value": 4, "unit": "px"},
                                                     "blur": {"value": 8, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}},
              "raised": {"$type": "shadow", "$value": "{card}"},
              "edge": {"$type": "border", "$value": {"color": "{black}", "width": {"value": 1, "unit": "px"}, "style": "solid"}},
              "fade": {"$type": "gradient", "$value": [{"color": "{black}", "position": 0}, {"color": {"colorSpace": "hsl", "components": [0, 0, 100]}, "position": 1}]}
            }
            """#
        let result = Self.importing(text)
        #expect(!result.diagnostics.hasErrors, "\(result.diagnostics)")
        let c = result.constants
        #expect(Self.element(c, "ink") == #"<color name="ink" ref="black"/>"#)
        #expect(Self.element(c, "deep") == #"<color name="deep" ref="ink"/>"#)
        #expect(Self.element(c, "card.color") == #"<color name="card.color" ref="ink"/>"#)
        #expect(Self.element(c, "card.offsetX") == #"<float name="card.offsetX" ref="small"/>"#)
        #expect(Self.element(c, "card.blur") == #"<float name="card.blur">8</float>"#)
        #expect(Self.element(c, "raised.offsetY") == #"<float name="raised.offsetY" ref="card.offsetY"/>"#)
        #expect(Self.element(c, "edge.width") == #"<float name="edge.width">1</float>"#)
        #expect(Self.element(c, "fade.stop2.color") == #"<color name="fade.stop2.color" format="rgba">1,1,1,1</color>"#)
        #expect(Self.element(c, "fade.stop1.position") == #"<float name="fade.stop1.position">0</float>"#)
        let deprecations = result.diagnostics.filter { $0.code == .tokenDeprecated }
        #expect(deprecations.count == 1 && deprecations[0].message == "'small' is deprecated: use tiny")
        #expect(deprecations.first?.location?.line == 6)
        #expect(result.skipped?.message.contains("strokeStyle") != true)
    }

    @Test func outOfGamutColoursWarnAtTheToken() {
        let result = Self.importing(
            #"{"p3": {"$type": "color", "$value": {"colorSpace": "display-p3", "components": [1, 0, 0]}}}"#)
        let warnings = result.diagnostics.filter { $0.code == .colorOutOfGamut }
        #expect(warnings.count == 1 && warnings[0].severity == .warning)
        #expect(warnings.first?.location?.column == 2)
        #expect(Self.element(result.constants, "p3") == #"<color name="p3" format="rgba">1,0,0,1</color>"#)
    }

    /// Every supported type: import, export, import again gives the same constants; and the types
    /// the mapping keeps exactly (sRGB colours, px dimensions, whole numbers, font families and
    /// weights, typography, aliases) come back as the same tokens.
    @Test func roundTrip() throws {
        let text = #"""
            {
              "color": {"$type": "color",
                "brand": {"$value": {"colorSpace": "srgb", "components": [0.2, 0.4, 0.6], "alpha": 0.8}},
                "wide": {"$value": {"colorSpace": "oklch", "components": [0.7, 0.1, 200]}},
                "accent": {"$value": "{color.brand}"}},
              "radius": {"$type": "dimension", "$value": {"value": 12, "unit": "px"}},
              "gap": {"$type": "dimension", "$value": {"value": 0.5, "unit": "rem"}},
              "layers": {"$type": "number", "$value": 4},
              "opacity": {"$type": "number", "$value": 0.25},
              "face": {"$type": "fontFamily", "$value": "Inter"},
              "heavy": {"$type": "fontWeight", "$value": 800},
              "title": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": {"value": 20, "unit": "px"}, "fontWeight": 600,
                        "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1}},
              "lift": {"$type": "shadow", "$value": {"color": "{color.brand}", "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 2, "unit": "px"},
                       "blur": {"value": 6, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}},
              "line": {"$type": "border", "$value": {"color": "{color.accent}", "width": "{radius}", "style": "dashed"}},
              "sky": {"$type": "gradient", "$value": [{"color": "{color.brand}", "position": 0}, {"color": "{color.wide}", "position": 1}]}
            }
            """#
        let first = Self.importing(text)
        #expect(!first.diagnostics.hasErrors, "\(first.diagnostics)")
        var exporter = TokenExporter()
        let document = exporter.document(Self.exported(first.constants)).rendered()
        #expect(exporter.skippedWarning == nil)
        let second = Self.importing(document)
        #expect(!second.diagnostics.hasErrors, "\(second.diagnostics)\n\(document)")
        #expect(second.constants.map(\.element).sorted() == first.constants.map(\.element).sorted())

        let again = try #require(try? TokenSource.read("again.json", bytes: Array(document.utf8))).root
        #expect(again["color"]?["brand"]?["$value"]?["components"]?.array?.compactMap(\.number) == [0.2, 0.4, 0.6])
        #expect(again["color"]?["brand"]?["$value"]?["alpha"]?.number == 0.8)
        #expect(again["color"]?["accent"]?["$value"]?.string == "{color.brand}")
        #expect(again["color"]?["accent"]?["$type"]?.string == "color")
        #expect(again["radius"]?["$value"]?["value"]?.number == 12)
        #expect(again["gap"]?["$value"]?["value"]?.number == 8)  // rem is normalised to px
        #expect(again["layers"]?["$type"]?.string == "number" && again["layers"]?["$value"]?.number == 4)
        #expect(again["face"]?["$value"]?.string == "Inter")
        #expect(again["heavy"]?["$type"]?.string == "fontWeight" && again["heavy"]?["$value"]?.number == 800)
        #expect(again["title"]?["$value"]?["fontWeight"]?.number == 600)
        #expect(again["line"]?["width"]?["$value"]?.string == "{radius}")
        #expect(again["sky"]?["stop2"]?["color"]?["$value"]?.string == "{color.wide}")
        // Every token has a $type.
        func check(_ node: JSONNode) {
            guard let members = node.members else { return }
            if node["$value"] != nil {
                #expect(node["$type"] != nil)
                return
            }
            for member in members where !member.key.hasPrefix("$") { check(member.value) }
        }
        check(again)
    }

    /// Pointers that lead back to themselves, inside a value, are a located cycle error, not endless recursion.
    @Test(arguments: [
        ##"{"a": {"$type": "number", "$value": {"$ref": "#/a/$value"}}}"##,
        ##"{"d": {"$type": "dimension", "$value": {"value": {"$ref": "#/d/$value/value"}, "unit": "px"}}}"##,
        ##"{"c": {"$type": "color", "$value": {"colorSpace": "srgb", "components": {"$ref": "#/c/$value/components"}}}}"##,
    ])
    func selfReferentialPointersAreCycles(_ text: String) {
        let result = Self.resolve(text)
        let cycles = result.diagnostics.filter { $0.code == .tokenReferenceCycle }
        #expect(cycles.count == 1 && cycles.first?.location?.line == 1, "\(result.diagnostics)")
    }

    @Test func everyNegativeConformanceCaseStopsTheImport() {
        for testCase in ConformanceTests.cases where !testCase.positive {
            let path = ConformanceTests.root + "/format/" + testCase.input
            var tokenImport = TokenImport { file in FileManager.default.contents(atPath: file).map { [UInt8]($0) } }
            _ = tokenImport.layers(files: [path])
            #expect((tokenImport.diagnostics + tokenImport.importer.diagnostics).hasErrors, "\(testCase.input)")
        }
    }
}
