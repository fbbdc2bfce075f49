import Foundation
import LiveryBinary
import LiveryModel
import LiveryXML
import Testing

@testable import LiveryCompiler

/// Tests/Fixtures/Accessibility (format 1.1, 7.2): the folder and its compiled file both dump
/// exactly the expected JSON for each recorded (traits, scale, text scale).
@Suite struct LargeTextFixtureTests {
    static let folder = Repository.root + "/Tests/Fixtures/Accessibility"
    static let theme = folder + "/LargeText.theme"

    struct Case: CustomTestStringConvertible, Sendable {
        var file: String
        var traits: TraitSet
        var scale: Int
        var textScale: Double
        var testDescription: String { file }
    }

    /// `dark+largetext_s1_t2.json` is traits dark,largetext at scale 1 and text scale 2.
    static let cases: [Case] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/expected")) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().compactMap { name in
            let parts = name.dropLast(5).split(separator: "_")
            guard parts.count == 3, let scale = Int(parts[1].dropFirst()), let textScale = Double(parts[2].dropFirst()),
                let traits = try? TraitSet(tags: parts[0] == "none" ? [] : parts[0].split(separator: "+"))
            else { return nil }
            return Case(file: name, traits: traits, scale: scale, textScale: textScale)
        }
    }()

    @Test func everyExpectedFileIsACase() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder + "/expected").filter {
            $0.hasSuffix(".json")
        }
        #expect(Self.cases.count == names.count)
        #expect(Self.cases.count >= 6)
    }

    @Test(arguments: cases)
    func folderAndCompiledFileDumpAsExpected(_ expected: Case) throws {
        let text = try String(contentsOfFile: Self.folder + "/expected/" + expected.file, encoding: .utf8)
        let workspace = ThemeWorkspace()
        let folder = try #require(workspace.resolve(themeAt: Self.theme, traits: expected.traits).value)
        #expect(CanonicalJSON.dump(folder, scale: expected.scale, textScale: expected.textScale) == text)
        let bytes = try #require(ThemeCompiler.compile(themeAt: Self.theme, workspace: workspace).value)
        let compiled = try CompiledTheme(bytes: bytes).materialize().resolved(for: expected.traits)
        #expect(CanonicalJSON.dump(compiled, scale: expected.scale, textScale: expected.textScale) == text)
    }

    /// The rules the expected files show, stated directly so a wrong regeneration cannot hide them.
    @Test func layeringAssetsAndClampingFollowTheContract() throws {
        let workspace = ThemeWorkspace()
        func resolved(_ tags: [String]) throws -> ResolvedTheme {
            try #require(workspace.resolve(themeAt: Self.theme, traits: try TraitSet(tags: tags)).value)
        }
        func lines(_ theme: ResolvedTheme) -> Value? {
            theme.instance("label_body")?.operations.first { $0.name == "numberOfLines" }?.params[0].value
        }
        func font(_ theme: ResolvedTheme, _ id: String) -> Font? {
            guard
                case .font(let font)? = theme.instance(id)?.operations.first(where: { $0.name == "font" })?.params[0]
                    .value
            else { return nil }
            return font
        }
        #expect(lines(try resolved([])) == .integer(1))
        #expect(lines(try resolved(["largetext"])) == .integer(0))
        #expect(lines(try resolved(["dark", "largetext"])) == .integer(2), "~dark outranks ~largetext")
        #expect(try resolved([]).instance("label_hint") == nil)
        #expect(try resolved(["largetext"]).instance("label_hint") != nil)
        let large = try resolved(["largetext"])
        #expect(large.assets.select("bubble", traits: large.traits, scale: 1)?.file == "assets/bubble~largetext.png")
        let darkLarge = try resolved(["dark", "largetext"])
        #expect(darkLarge.assets.select("bubble", traits: darkLarge.traits, scale: 1)?.file == "assets/bubble~dark.png")
        let body = try #require(font(large, "label_body"))
        #expect(body.appliedSize(textScale: 1.5) == 25.5)
        #expect(body.appliedSize(textScale: 3) == 28)
        #expect(font(large, "label_badge")?.appliedSize(textScale: 3) == 11)
        #expect(font(large, "label_caption")?.appliedSize(textScale: 3) == 36)
        // 7.1: label_caption is defined in Chat.xml and Settings.xml; the two merge, no warning.
        #expect(try resolved([]).instance("label_caption")?.operations.map(\.name) == ["font", "numberOfLines"])
        #expect(workspace.validate(paths: [Self.theme]).isEmpty)
    }
}
