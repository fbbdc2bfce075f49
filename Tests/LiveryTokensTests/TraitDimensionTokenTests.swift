import LiveryModel
import Testing

@testable import LiveryTokens

/// A DTCG resolver modifier maps to any trait dimension of the table, standard or app-defined,
/// and exports back: one modifier per dimension, named like it, one context per value.
@Suite struct TraitDimensionTokenTests {
    /// The standard dimensions and one declared here, in the test only.
    static let dimensions = try! TraitDimensions(
        appDefined: [TraitDimension(name: "density", values: ["compact", "comfortable"])])

    static func tokens(_ value: String) -> [UInt8] {
        Array(#"{"gap": {"$type": "number", "$value": \#(value)}}"#.utf8)
    }

    /// Every value of every dimension: exported as a context of the dimension's modifier, imported
    /// back into a layer qualified by that value alone. Fails when a dimension is missing from the
    /// export or the import.
    @Test func everyDimensionOfTheTableRoundTripsThroughAResolver() throws {
        for (index, dimension) in Self.dimensions.all.enumerated() {
            for (value, tag) in dimension.values.enumerated() {
                var traits = TraitSet()
                traits[index] = value
                let document = TokenExporter.resolver(
                    name: "t", baseFile: "tokens.json", layers: [(traits, "tokens~\(tag).json")],
                    dimensions: Self.dimensions)
                let text = document.rendered()
                #expect(text.contains(#""\#(dimension.name)""#), "\(dimension.name) missing from the export")
                #expect(text.contains(#""\#(tag)""#), "\(tag) missing from the export")
                #expect(text.contains(#""tokens~\#(tag).json""#))

                let files = ["tokens.json": Self.tokens("1"), "tokens~\(tag).json": Self.tokens("2")]
                let source = try TokenSource.read("r.json", bytes: Array(text.utf8))
                let (resolver, problems) = ResolverDocument.parse(source)
                #expect(problems.isEmpty, "\(problems)")
                var importer = TokenImport { files[$0] }
                let layers = importer.layers(
                    resolver: try #require(resolver), map: ContextMap(dimensions: Self.dimensions), directory: "")
                #expect(importer.diagnostics.isEmpty, "\(tag): \(importer.diagnostics.map(\.message))")
                #expect(layers.map(\.fileName) == ["Tokens.xml", "Tokens~\(tag).xml"], "\(tag)")
            }
        }
    }

    /// Large text and a density together: two modifiers, four combinations, each its own layer
    /// (before, `largetext` collapsed into the generic layer and failed).
    @Test func largeTextCombinesWithOtherModifiers() throws {
        let text = #"""
            {"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "tokens.json"}]}},
             "modifiers": {
               "textSize": {"contexts": {"default": [], "largetext": [{"$ref": "large.json"}]}, "default": "default"},
               "density": {"contexts": {"default": [], "compact": [{"$ref": "compact.json"}]}, "default": "default"}},
             "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/textSize"}, {"$ref": "#/modifiers/density"}]}
            """#
        let files = [
            "tokens.json": Self.tokens("1"), "large.json": Self.tokens("3"),
            "compact.json": Self.tokens("4"),
        ]
        let (resolver, problems) = ResolverDocument.parse(try TokenSource.read("r.json", bytes: Array(text.utf8)))
        #expect(problems.isEmpty, "\(problems)")
        var importer = TokenImport { files[$0] }
        let layers = importer.layers(
            resolver: try #require(resolver), map: ContextMap(dimensions: Self.dimensions), directory: "")
        #expect(importer.diagnostics.isEmpty, "\(importer.diagnostics.map(\.message))")
        #expect(
            Set(layers.map(\.fileName))
                == ["Tokens.xml", "Tokens~largetext.xml", "Tokens~compact.xml", "Tokens~largetext~compact.xml"])
    }
}
