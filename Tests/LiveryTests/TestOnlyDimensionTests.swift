import Foundation
import LiveryBinary
import LiveryCompiler
import LiveryHeadless
import LiveryModel
import LiveryXML
import Testing

@testable import Livery

/// A trait dimension that exists only here, in a schema file this test writes: with no other
/// edit anywhere, it is parsed from file names, enumerated by validation, compiled and read back,
/// dumped, and set for a scope at run time.
@MainActor
@Suite struct TestOnlyDimensionTests {
    @Test func aDimensionDeclaredInTheTestGoesThroughThePipeline() throws {
        let root = NSTemporaryDirectory() + "livery-motion-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = [
            "app.xml": #"<components><dimension name="motion" values="reduced full"/></components>"#,
            "Motion.theme/Info.xml": #"<theme-info id="motion" name="Motion"/>"#,
            "Motion.theme/Chat.xml": Self.title("#000000"),
            "Motion.theme/Chat~reduced.xml": Self.title("#FF0000"),
            "Motion.theme/Chat~full~dark.xml": Self.title("#0000FF"),
        ]
        for (path, text) in files {
            let url = URL(fileURLWithPath: root + "/" + path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let theme = root + "/Motion.theme"
        let workspace = ThemeWorkspace(schemaFiles: [root + "/app.xml"])

        // parsed: the schema file's dimension qualifies the theme's files
        #expect(workspace.validate(paths: [theme]).map(\.description) == [])
        let dimensions = workspace.dimensions(forThemeAt: theme)
        #expect(dimensions.all.map(\.name).last == "motion")
        let reduced = try dimensions.traits(tags: ["reduced"])
        let fullDark = try dimensions.traits(tags: ["full", "dark"])

        // enumerated: every trait set of the dimension is resolved
        let variants = try #require(workspace.variants(ofThemeAt: theme).value)
        #expect(variants.axes.traitSets.contains(reduced) && variants.axes.traitSets.contains(fullDark))
        #expect(variants.axes.traitSets.count == 2 * 3)

        // compiled: the file records the dimension and gives the same variants back
        let bytes = try #require(ThemeCompiler.compile(themeAt: theme, workspace: workspace).value)
        let compiled = try CompiledTheme(bytes: bytes)
        #expect(compiled.dimensions == dimensions)
        let materialized = try compiled.materialize()
        for traits in variants.axes.traitSets {
            #expect(materialized.resolved(for: traits).instances == variants.resolved(for: traits).instances)
        }

        // dumped: the tags in dimension order
        let dump = CanonicalJSON.dump(materialized.resolved(for: fullDark))
        #expect(dump.contains("\"traits\": [\n    \"dark\",\n    \"full\"\n  ]"), "\(dump)")

        // scoped: set for one scope by its name, the app running without it
        let (manager, applicator) = makeApplicator(LoadedTheme(compiledFile: compiled), activate: "motion")
        manager.dimensions = compiled.dimensions
        let scope = applicator.makeScope(ScopeOverrides(traits: ["motion": "reduced"]))
        let outside = Label()
        let inside = Label()
        applicator.style(outside, as: "title")
        scope.style(inside, as: "title")
        #expect(outside.textColor == Color(red: 0, green: 0, blue: 0))
        #expect(inside.textColor == Color(red: 1, green: 0, blue: 0))
        // and for the app, by tag
        try manager.setTraits(tags: ["full", "dark"])
        #expect(outside.textColor == Color(red: 0, green: 0, blue: 1))
    }

    /// A development manager takes the dimensions its configuration's schema files declare (the
    /// sample's `density`), so the app sets their tags like the standard ones.
    @Test func theDevelopmentManagerTakesTheDimensionsItsSchemaFilesDeclare() throws {
        let configuration = LiveryConfiguration(
            defaultThemeID: "com.livery.base", searchPaths: [themesFolder],
            schemaFiles: [themesFolder + "/Base.theme/Components.xml"])
        let manager = ThemeManager.development(configuration: configuration)
        #expect(manager.dimensions.appDefined.map(\.name) == ["density"])
        try manager.setTraits(tags: ["compact", "dark"])
        #expect(manager.dimensions.tags(of: manager.traits) == ["dark", "compact"])
    }

    static func title(_ color: String) -> String {
        """
        <theme><instances><uilabel id="title"><operation name="textColor"><param name="color"><color>\(color)</color></param></operation></uilabel></instances></theme>
        """
    }
}
