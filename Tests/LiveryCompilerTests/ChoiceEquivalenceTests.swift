import Foundation
import LiveryBinary
import LiveryModel
import LiveryXML
import Testing

@testable import LiveryCompiler

/// Personal choices (format 1.3, section 9.2) from a compiled file give exactly what the folder
/// gives: every sample theme (with overridable constants and derived colours added to Base, so
/// every child inherits them), every trait set it distinguishes, a set of values.
@Suite struct ChoiceEquivalenceTests {
    /// Base's constants made overridable and derived: a darkened brand, a contrast guard on it, a
    /// mix in lch, a redefinition per trait set (bubbleIncoming in `~dark`), a float.
    static let edits: [(String, String)] = [
        (
            #"<color name="brand" format="hex">#007AFF</color>"#,
            #"<color name="brand" format="hex" overridable="true">#007AFF</color>"#
        ),
        (
            #"<color name="brandPressed" ref="accent" darken="0.2"/>"#,
            #"<color name="brandPressed" ref="brand" darken="0.15"/>"#
        ),
        (
            #"<color name="onAccent">#FFF</color>"#,
            #"<color name="onAccent" contrast-with="accent" min-ratio="3">#FFF</color>"#
        ),
        (
            #"<color name="bubbleIncoming" format="rgb" overridable="true">0.898,0.898,0.918</color>"#,
            #"<color name="bubbleIncoming" format="rgb" overridable="true">0.898,0.898,0.918</color>"#
        ),
        (
            #"<color name="bubblePressed" ref="bubbleIncoming" darken="0.087"/>"#,
            #"<color name="bubblePressed" ref="bubbleIncoming" mix="brand" amount="0.2" space="lch"/>"#
        ),
        (#"<float name="radiusSmall">6</float>"#, #"<float name="radiusSmall" overridable="true">6</float>"#),
    ]

    static let valueSets: [[String: Value]] = [
        [:],
        ["brand": .color(Color(red: 0, green: 0.667, blue: 0.533))],
        ["bubbleIncoming": .color(Color(red: 1, green: 0, blue: 1)), "radiusSmall": .float(12)],
        [
            "brand": .color(Color(red: 1, green: 1, blue: 0)),
            "bubbleIncoming": .color(Color(red: 0.06, green: 0.06, blue: 0.06)),
            "radiusSmall": .float(0),
            // ignored by both: missing, not overridable, another type
            "missing": .float(3), "surface": .color(Color(red: 1, green: 0, blue: 0)), "brand2": .bool(true),
        ],
        ["brand": .float(3)],
    ]

    /// The sample themes copied with `edits` applied to Base.
    static func themes() throws -> String {
        let folder = try Repository.temporaryFolder()
        try FileManager.default.copyItem(atPath: Repository.root + "/Themes", toPath: folder + "/Themes")
        let constants = folder + "/Themes/Base.theme/Constants.xml"
        var text = try String(contentsOfFile: constants, encoding: .utf8)
        for (old, new) in edits {
            #expect(text.contains(old), "Base's constants changed: update the test's edits")
            text = text.replacingOccurrences(of: old, with: new)
        }
        // a sample theme that already makes a constant overridable keeps it so
        text = text.replacingOccurrences(of: #"overridable="true" overridable="true""#, with: #"overridable="true""#)
        try text.write(toFile: constants, atomically: true, encoding: .utf8)
        return folder + "/Themes"
    }

    @Test func everySampleThemeTakesValuesAlikeFromFolderAndFile() throws {
        let root = try Self.themes()
        defer { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
        let workspace = ThemeWorkspace(searchPaths: [root])
        let themes = workspace.themeFolders(in: root)
        #expect(themes.count >= 5)
        var comparedUses = 0
        for theme in themes {
            let folder = try #require(workspace.variants(ofThemeAt: theme).value, "\(theme) resolves")
            #expect(Set(["brand", "bubbleIncoming", "radiusSmall"]).isSubset(of: folder.choices.constants.map(\.name)))
            let bytes = try #require(ThemeCompiler.compile(themeAt: theme, workspace: workspace).value)
            let compiled = try CompiledTheme(bytes: bytes)
            #expect(compiled.hasChoices)
            #expect(ThemeCompiler.firstMismatch(bytes, variants: folder) == nil)
            let file = try compiled.materialize()
            #expect(file == folder, "the file reads back with its choices")
            for traits in folder.axes.traitSets {
                comparedUses += folder.choices.uses[traits]?.count ?? 0
                for values in Self.valueSets {
                    let source = try #require(
                        workspace.resolve(themeAt: theme, traits: traits, overriding: values).value)
                    let stored = try file.resolved(for: traits, overriding: values)
                    #expect(
                        CanonicalJSON.dump(stored) == CanonicalJSON.dump(source),
                        "\(theme) \(traits) \(values.keys.sorted())")
                }
            }
        }
        #expect(comparedUses > 100, "the uses reach many params")
    }

    @Test func aValueChangesWhatDependsOnItOnly() throws {
        let root = try Self.themes()
        defer { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
        let workspace = ThemeWorkspace(searchPaths: [root])
        let theme = root + "/Base.theme"
        let file = try CompiledTheme(
            bytes: try #require(ThemeCompiler.compile(themeAt: theme, workspace: workspace).value)
        )
        .materialize()
        let plain = file.resolved(for: TraitSet())
        let picked = try file.resolved(for: TraitSet(), overriding: ["brand": .color(Color(red: 1, green: 0, blue: 0))])
        let changed = zip(plain.instances, picked.instances).filter { $0 != $1 }.map(\.0.id)
        let uses = Set(
            (file.choices.uses[TraitSet()] ?? []).filter { $0.expression.constantNames.contains("brand") }.map(\.id))
        #expect(!changed.isEmpty)
        #expect(Set(changed).isSubset(of: uses))
    }

    @Test func aThemeWithoutOverridableConstantsHasNoChoiceSection() throws {
        let folder = try Repository.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let theme = folder + "/P.theme"
        try FileManager.default.createDirectory(atPath: theme, withIntermediateDirectories: true)
        try #"<theme-info id="p" name="P"/>"#.write(toFile: theme + "/Info.xml", atomically: true, encoding: .utf8)
        let colors = """
            <theme><constants><color name="brand">#FF3B30</color></constants><instances>
            <uiview id="v"><operation name="backgroundColor"><param name="color"><color ref="brand" darken="0.1"/></param></operation></uiview>
            </instances></theme>
            """
        try colors.write(toFile: theme + "/Colors.xml", atomically: true, encoding: .utf8)
        let plain = try CompiledTheme(
            bytes: try #require(ThemeCompiler.compile(themeAt: theme, workspace: ThemeWorkspace()).value))
        #expect(!plain.hasChoices)
        #expect(!plain.sections.contains { $0.kind == "CHOI" })
        try colors.replacingOccurrences(of: #"name="brand""#, with: #"name="brand" overridable="true""#)
            .write(toFile: theme + "/Colors.xml", atomically: true, encoding: .utf8)
        let chosen = try CompiledTheme(
            bytes: try #require(ThemeCompiler.compile(themeAt: theme, workspace: ThemeWorkspace()).value))
        #expect(chosen.sections.contains { $0.kind == "CHOI" && !$0.required })
        #expect(try chosen.choiceConstants() == [ChoiceConstant(name: "brand", type: .color)])
    }
}
