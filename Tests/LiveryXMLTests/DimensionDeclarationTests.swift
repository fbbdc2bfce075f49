import Foundation
import LiveryModel
import Testing

@testable import LiveryXML

/// App-defined trait dimensions (format 1.3, section 10): declared in schema files, they qualify
/// files and assets of the theme declaring them and of every theme inheriting from it, and every
/// mistake in a declaration is one finding at its attribute.
@Suite struct DimensionDeclarationTests {
    static let density = #"<dimension name="density" values="compact comfortable"/>"#

    static func schema(_ declarations: String...) -> String {
        "<components>\n" + declarations.joined(separator: "\n") + "\n</components>\n"
    }

    /// The column of `attribute="` on the first line of `text` that has it (1-based).
    static func place(of attribute: String, in text: String, file: String) -> LiveryModel.SourceLocation {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let line = lines.firstIndex { $0.contains(" \(attribute)=\"") }!
        let column = lines[line].range(of: " \(attribute)=\"")!.lowerBound.utf16Offset(in: lines[line]) + 2
        return LiveryModel.SourceLocation(file: file, line: line + 1, column: column)
    }

    @Test func aDeclaredDimensionQualifiesFilesAndAssetsOfTheThemeAndItsChildren() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Schema.xml": Self.schema(Self.density),
            "Base.theme/Chat.xml": TemporaryThemes.alpha("bubble", "1"),
            "Base.theme/Chat~compact.xml": TemporaryThemes.alpha("bubble", "0.5"),
            "Base.theme/assets/icon.png": "1x",
            "Base.theme/assets/icon~compact.png": "compact",
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/Chat~comfortable~dark.xml": TemporaryThemes.alpha("bubble", "0.75"),
        ])
        let workspace = ThemeWorkspace()
        // (the icon is not used by any <image>: a warning)
        #expect(workspace.validate(paths: [themes.path]).filter { $0.severity == .error }.map(\.description) == [])
        let dimensions = workspace.dimensions(forThemeAt: themes.theme("Child.theme"))
        #expect(dimensions.appDefined.map(\.name) == ["density"])
        let variants = try workspace.variants(ofThemeAt: themes.theme("Child.theme")).unwrap()
        #expect(variants.dimensions == dimensions)
        // every trait set of the new dimension is enumerated: none, compact, comfortable, and with dark
        let density = try #require(dimensions.index(named: "density"))
        #expect(variants.axes.values(of: density) == [0, 1])
        #expect(variants.axes.traitSets.count == 2 * 3)
        func alpha(_ tags: [String]) throws -> Value? {
            let traits = try dimensions.traits(tags: tags)
            return variants.resolved(for: traits).instance("bubble")?.operations.first?.params.first?.value
        }
        #expect(try alpha([]) == .float(1))
        #expect(try alpha(["compact"]) == .float(0.5))
        #expect(try alpha(["comfortable"]) == .float(1))
        #expect(try alpha(["comfortable", "dark"]) == .float(0.75))
        // assets are qualified by the same tags
        let compact = try dimensions.traits(tags: ["compact"])
        #expect(variants.assets.select("icon", traits: compact, scale: 1)?.file == "assets/icon~compact.png")
        #expect(variants.assets.select("icon", traits: .none, scale: 1)?.file == "assets/icon.png")
        // dump names the app's tags, in dimension order
        let dumped = try workspace.resolve(
            themeAt: themes.theme("Child.theme"), traits: try dimensions.traits(tags: ["compact", "dark"])
        ).unwrap()
        #expect(CanonicalJSON.dump(dumped, scale: 1).contains("\"traits\": [\n    \"dark\",\n    \"compact\"\n  ]"))
    }

    @Test func aTagNoSchemaDeclaresIsAnUnknownQualifierListingTheDeclaredOnes() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Schema.xml": Self.schema(Self.density),
            "Base.theme/Chat.xml": TemporaryThemes.alpha("bubble", "1"),
            "Base.theme/Chat~compakt.xml": TemporaryThemes.alpha("bubble", "0.5"),
            "Other.theme/Info.xml": TemporaryThemes.info("other"),
            "Other.theme/Chat.xml": TemporaryThemes.alpha("bubble", "1"),
            "Other.theme/Chat~compact.xml": TemporaryThemes.alpha("bubble", "0.5"),
        ])
        let findings = ThemeWorkspace().validate(paths: [themes.path])
        #expect(findings.count == 2, "\(findings.map(\.description))")
        let typo = try #require(findings.first { $0.location?.file.hasSuffix("Chat~compakt.xml") == true })
        #expect(typo.code == .qualifierUnknown)
        #expect(typo.message.contains("did you mean 'compact'"), "\(typo.message)")
        // a theme that does not declare density (nor inherit it) does not know its tags
        let undeclared = try #require(
            findings.first { $0.location?.file.hasSuffix("Other.theme/Chat~compact.xml") == true })
        #expect(undeclared.code == .qualifierUnknown)
        #expect(!undeclared.message.contains("comfortable"))
    }

    /// Each mistake of a declaration: its finding, and the attribute it is at.
    static let mistakes: [(declaration: String, attribute: String, message: String)] = [
        (#"<dimension name="appearance" values="dim bright"/>"#, "name", "'appearance' is a standard dimension"),
        (
            #"<dimension name="shade" values="dim dark"/>"#, "values",
            "already a value of the standard dimension 'appearance'"
        ),
        (#"<dimension name="density" values=""/>"#, "values", "dimension 'density' has no values"),
        (
            #"<dimension name="density" values="compact Comfortable"/>"#, "values",
            "'Comfortable' is not a dimension name or value"
        ),
        (
            #"<dimension name="density" values="compact compact"/>"#, "values",
            "dimension 'density' lists 'compact' twice"
        ),
        (#"<dimension name="Density" values="compact"/>"#, "name", "'Density' is not a dimension name"),
    ]

    @Test(arguments: mistakes.indices)
    func eachMistakeInADeclarationIsOneFindingAtItsAttribute(index: Int) throws {
        let (declaration, attribute, message) = Self.mistakes[index]
        let text = Self.schema(declaration)
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Schema.xml": text,
            "Base.theme/Chat.xml": TemporaryThemes.alpha("bubble", "1"),
        ])
        let findings = ThemeWorkspace().validate(paths: [themes.path])
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let finding = try #require(findings.first)
        #expect(finding.code == .schemaInvalid)
        #expect(finding.message.contains(message), "\(finding.message)")
        let file = themes.theme("Base.theme/Schema.xml")
        #expect(finding.location == Self.place(of: attribute, in: text, file: file))
    }

    @Test func aTagOfAnotherDeclarationIsOneFindingAtTheLaterOne() throws {
        let text = Self.schema(Self.density, #"<dimension name="size" values="small compact"/>"#)
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Schema.xml": text,
            "Base.theme/Chat.xml": TemporaryThemes.alpha("bubble", "1"),
            "Base.theme/Chat~compact.xml": TemporaryThemes.alpha("bubble", "0.5"),
        ])
        let workspace = ThemeWorkspace()
        let findings = workspace.validate(paths: [themes.path])
        #expect(findings.count == 1, "\(findings.map(\.description))")
        #expect(
            findings.first?.message.contains(
                "tag 'compact' of dimension 'size' is already a value of dimension 'density'") == true)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(findings.first?.location?.line == lines.firstIndex { $0.contains("size") }! + 1)
        // the refused declaration is left out; the first one stands
        #expect(workspace.dimensions(forThemeAt: themes.theme("Base.theme")).appDefined.map(\.name) == ["density"])
    }

    @Test func twoSchemaFilesDeclaringADimensionDifferentlyIsOneFindingAtTheSecond() throws {
        let child = Self.schema(#"<dimension name="density" values="compact cozy"/>"#)
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Schema.xml": Self.schema(Self.density),
            "Base.theme/Chat.xml": TemporaryThemes.alpha("bubble", "1"),
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            // the same declaration again adds nothing and is no mistake
            "Child.theme/Again.xml": Self.schema(Self.density),
            "Child.theme/Schema.xml": child,
        ])
        let findings = ThemeWorkspace().validate(paths: [themes.path])
        #expect(findings.count == 1, "\(findings.map(\.description))")
        let finding = try #require(findings.first)
        #expect(finding.message.contains("dimension 'density' is declared twice with different values"))
        #expect(finding.location == Self.place(of: "values", in: child, file: themes.theme("Child.theme/Schema.xml")))
        #expect(finding.notes.first?.location?.file == themes.theme("Base.theme/Schema.xml"))
    }

    /// The schema files given to the workspace (`--schema`) declare dimensions for every theme,
    /// first in precedence; a theme that declares one of them again, the same, is no mistake.
    @Test func schemaFilesGivenToTheWorkspaceDeclareDimensionsForEveryTheme() throws {
        let themes = try TemporaryThemes([
            "app.xml": Self.schema(#"<dimension name="motion" values="reduced"/>"#, Self.density),
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Schema.xml": Self.schema(Self.density),
            "Base.theme/Chat.xml": TemporaryThemes.alpha("bubble", "1"),
            "Base.theme/Chat~reduced~compact.xml": TemporaryThemes.alpha("bubble", "0.5"),
        ])
        let workspace = ThemeWorkspace(schemaFiles: [themes.path + "/app.xml"])
        #expect(workspace.validate(paths: [themes.theme("Base.theme")]).map(\.description) == [])
        #expect(workspace.schemaDimensions.appDefined.map(\.name) == ["motion", "density"])
        #expect(workspace.dimensions(forThemeAt: themes.theme("Base.theme")) == workspace.schemaDimensions)
    }

    /// A folder read before its parent declared a dimension is read again with it.
    @Test func aParentDeclaringADimensionLaterIsSeenByItsChildren() throws {
        let themes = try TemporaryThemes([
            "Base.theme/Info.xml": TemporaryThemes.info("base"),
            "Base.theme/Chat.xml": TemporaryThemes.alpha("bubble", "1"),
            "Child.theme/Info.xml": TemporaryThemes.info("child", parent: "base"),
            "Child.theme/Chat~compact.xml": TemporaryThemes.alpha("bubble", "0.5"),
        ])
        let workspace = ThemeWorkspace()
        #expect(workspace.validate(paths: [themes.theme("Child.theme")]).map(\.code) == [.qualifierUnknown])
        try Data(Self.schema(Self.density).utf8).write(to: URL(fileURLWithPath: themes.theme("Base.theme/Schema.xml")))
        workspace.forget(themeAt: themes.theme("Base.theme"))
        #expect(workspace.validate(paths: [themes.theme("Child.theme")]).map(\.description) == [])
    }
}
