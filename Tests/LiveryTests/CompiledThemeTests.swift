import Foundation
import LiveryBinary
import LiveryCompiler
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import LiveryXML
import Testing

@testable import Livery

/// Compiled themes in the manager: an up-to-date `.livery` file beside its folder is what gets
/// loaded; a stale or broken one falls back to the folder, with a finding; either way the
/// resolved result is the same.
@MainActor
@Suite struct CompiledThemeTests {
    /// A private copy of `Themes/`, so tests can compile into it and edit it.
    final class ThemesCopy {
        let root: String
        var schema: String { root + "/Base.theme/Components.xml" }

        init() throws {
            root = NSTemporaryDirectory() + "livery-compiled-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
            for entry in try FileManager.default.contentsOfDirectory(atPath: themesFolder)
            where entry.hasSuffix(".theme") {
                try FileManager.default.copyItem(atPath: themesFolder + "/" + entry, toPath: root + "/" + entry)
            }
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        var configuration: LiveryConfiguration {
            LiveryConfiguration(defaultThemeID: "com.livery.light", searchPaths: [root], schemaFiles: [schema])
        }

        /// Compiles `Name.theme` to `Name.livery` beside it (the runtime's convention), or into
        /// `folder` when given.
        @discardableResult
        func compile(_ name: String, into folder: String? = nil) throws -> String {
            let workspace = ThemeWorkspace(searchPaths: [root], schemaFiles: [schema])
            let compiled = ThemeCompiler.compile(themeAt: root + "/\(name).theme", workspace: workspace)
            let bytes = try #require(compiled.value, "\(compiled.diagnostics)")
            let output = (folder ?? root) + "/\(name).livery"
            try ThemeCompiler.writeAtomically(bytes, to: output)
            return output
        }

        func compileAll() throws {
            for name in ["Base", "Tokens", "Light", "Dark", "HighContrast"] { try compile(name) }
        }

        /// Rewrites one source file, replacing `old` with `new`.
        func edit(_ file: String, replacing old: String, with new: String) throws {
            let path = root + "/" + file
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(old), "the edit must change something")
            try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    static let themeIDs = [
        "com.livery.base", "com.livery.tokens", "com.livery.light", "com.livery.dark", "com.livery.highcontrast",
    ]

    /// A colour that appears in Dark's palette, for edits that must show up.
    func darkPaletteColor(_ copy: ThemesCopy) throws -> String {
        let text = try String(contentsOfFile: copy.root + "/Dark.theme/Palette.xml", encoding: .utf8)
        let match = try #require(text.range(of: "#[0-9A-Fa-f]{6}", options: .regularExpression))
        return String(text[match])
    }

    @Test func upToDateCompiledFileIsLoadedInsteadOfTheFolder() throws {
        let copy = try ThemesCopy()
        try copy.compileAll()
        let manager = ThemeManager.development(configuration: copy.configuration)
        for id in Self.themeIDs {
            let descriptor = try #require(manager.themes[id])
            #expect(descriptor.compiledFile?.hasSuffix(".livery") == true, "\(id) paired with its compiled file")
            #expect(descriptor.folder != nil)
            let theme = try #require(manager.theme(id))
            #expect(theme.origin == .compiled, "\(id)")
            #expect(theme.assets is CompiledAssetSource, "\(id): images come from the compiled file")
        }
        #expect(manager.diagnostics.reported.isEmpty, "\(manager.diagnostics.reported)")
    }

    @Test func compiledFileAloneIsEnough() throws {
        // What ships in a release build: no folder, only the compiled file (in a cache folder).
        let copy = try ThemesCopy()
        let cache = copy.root + "/cache"
        try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
        for name in ["Base", "Dark"] { try copy.compile(name, into: cache) }
        for name in ["Base", "Light", "Dark", "HighContrast"] {
            try FileManager.default.removeItem(atPath: copy.root + "/\(name).theme")
        }
        var configuration = copy.configuration
        configuration.compiledPaths = [cache]
        configuration.defaultThemeID = "com.livery.dark"
        configuration.schemaFiles = []
        let manager = ThemeManager(configuration: configuration)
        #expect(Set(manager.themes.keys) == ["com.livery.base", "com.livery.dark"])
        #expect(manager.themes["com.livery.dark"]?.folder == nil)
        #expect(manager.currentThemeID == "com.livery.dark")
        #expect(manager.theme("com.livery.dark")?.origin == .compiled)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        manager.setScale(2)
        let avatar = ImageView()
        applicator.style(avatar, as: "image_avatar")
        // The bytes come out of the compiled file's asset section; the original file is gone
        // from this copy, so they can only have come from there.
        #expect(avatar.image?.file == "assets/avatar@2x.png")
        #expect(
            avatar.image?.data
                == FileManager.default.contents(atPath: themesFolder + "/Base.theme/assets/avatar@2x.png"))
    }

    @Test func staleCompiledFileFallsBackToTheFolder() throws {
        let copy = try ThemesCopy()
        try copy.compileAll()
        let old = try darkPaletteColor(copy)
        try copy.edit("Dark.theme/Palette.xml", replacing: old, with: "#123456")
        let manager = ThemeManager.development(configuration: copy.configuration)
        let dark = try #require(manager.theme("com.livery.dark"))
        #expect(dark.origin == .folder)
        #expect(manager.theme("com.livery.light")?.origin == .compiled, "only the edited theme is stale")
        #expect(manager.diagnostics.reported.map(\.code) == [.runtimeCompiledStale])
        let message = try #require(manager.diagnostics.reported.first?.message)
        #expect(message.contains("com.livery.dark"), "\(message)")
        // The folder's semantics, edit included.
        let resolved = dark.variants.resolved(for: .none)
        #expect(
            resolved.instances.contains {
                $0.operations.contains {
                    $0.params.contains {
                        $0.value == .color(Color(red: 0x12 / 255.0, green: 0x34 / 255.0, blue: 0x56 / 255.0))
                    }
                }
            })
    }

    @Test func editingAParentMakesChildrenStale() throws {
        let copy = try ThemesCopy()
        try copy.compileAll()
        // Any change of Base's sources changes its digest, recorded in every child's chain.
        try copy.edit("Base.theme/Info.xml", replacing: "name=\"", with: "name=\"Edited ")
        let manager = ThemeManager.development(configuration: copy.configuration)
        for id in Self.themeIDs {
            #expect(manager.theme(id)?.origin == .folder, "\(id) inherits from the edited Base")
        }
        #expect(manager.diagnostics.reported.count(where: { $0.code == .runtimeCompiledStale }) == Self.themeIDs.count)
    }

    @Test(arguments: ["truncated", "garbage", "flipped", "empty"])
    func brokenCompiledFileFallsBackToTheFolderWithAFinding(_ damage: String) throws {
        let copy = try ThemesCopy()
        try copy.compileAll()
        let path = copy.root + "/Dark.livery"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        switch damage {
        case "truncated": bytes.removeLast(bytes.count / 3)
        case "garbage": bytes = (0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        case "flipped": bytes[bytes.count - 9] ^= 0x10  // inside a section: only its checksum tells
        default: bytes = []
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let manager = ThemeManager.development(configuration: copy.configuration)
        #expect(manager.theme("com.livery.dark")?.origin == .folder)
        #expect(manager.theme("com.livery.light")?.origin == .compiled)
        let codes = manager.diagnostics.reported.map(\.code)
        #expect(codes == [.runtimeCompiledUnusable], "\(manager.diagnostics.reported)")
        #expect(manager.diagnostics.reported.first?.location?.file == path)
        // The app still switches to it.
        #expect(manager.activate(themeID: "com.livery.dark"))
    }

    @Test func resolvedResultIsTheSameCompiledOrNot() throws {
        let copy = try ThemesCopy()
        let folders = ThemeManager.development(configuration: copy.configuration)
        try copy.compileAll()
        let compiled = ThemeManager.development(configuration: copy.configuration)
        var compared = 0
        for id in Self.themeIDs {
            let fromFolder = try #require(folders.theme(id))
            let fromFile = try #require(compiled.theme(id))
            #expect(fromFolder.origin == .folder)
            #expect(fromFile.origin == .compiled)
            #expect(fromFolder.variants.axes == fromFile.variants.axes)
            // Every stored trait set, plus trait sets the theme never names (canonicalised away).
            let extra = [
                TraitSet(idiom: .tv), TraitSet(idiom: .ipad, appearance: .dark, contrast: .highcontrast),
                TraitSet(appearance: .light), TraitSet(idiom: .iphone, appearance: .dark),
            ]
            for traits in fromFolder.variants.axes.traitSets + extra {
                #expect(
                    fromFolder.variants.resolved(for: traits) == fromFile.variants.resolved(for: traits),
                    "\(id) \(traits)")
                compared += 1
            }
            #expect(fromFolder.variants.assets == fromFile.variants.assets)
            for variant in fromFolder.variants.assets.variants {
                let expected = fromFolder.assets?.data(for: variant)
                #expect(expected != nil)
                #expect(fromFile.assets?.data(for: variant) == expected, "\(id) \(variant.file)")
            }
        }
        #expect(compared >= 4 * 5)
    }

    @Test func reloadThemesPicksUpCompiledFilesAndEditsAndReapplies() throws {
        let copy = try ThemesCopy()
        let manager = ThemeManager.development(configuration: copy.configuration)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        manager.activate(themeID: "com.livery.dark")
        #expect(manager.theme("com.livery.dark")?.origin == .folder)
        let title = Label()
        applicator.style(title, as: "label_title")
        let before = title.textColor
        #expect(before != nil)

        // Compiled while the app runs: the next reload uses the compiled files, and nothing
        // changes on screen (same semantics).
        try copy.compileAll()
        let generation = manager.generation
        manager.reloadThemes()
        #expect(manager.generation > generation)
        #expect(manager.theme("com.livery.dark")?.origin == .compiled)
        #expect(title.textColor == before)

        // An edit of the source makes the compiled file stale: the reload shows the edit on
        // the live component at once.
        try copy.edit(
            "Dark.theme/Palette.xml", replacing: "<color name=\"textPrimary\">#EDEDED</color>",
            with: "<color name=\"textPrimary\">#0A0B0C</color>")
        manager.reloadThemes()
        #expect(manager.theme("com.livery.dark")?.origin == .folder)
        let edited = Color(red: 10 / 255.0, green: 11 / 255.0, blue: 12 / 255.0)
        let wanted = manager.currentTheme?.instance("label_title")?.operations.first { $0.name == "textColor" }?.params
            .first?.value
        #expect(wanted == .color(edited), "label_title is textPrimary in Dark")
        #expect(title.textColor == edited)

        // Recompiled: compiled again, same look.
        try copy.compile("Dark")
        manager.reloadThemes()
        #expect(manager.theme("com.livery.dark")?.origin == .compiled)
        #expect(title.textColor == edited)
        #expect(manager.diagnostics.reported.map(\.code) == [.runtimeCompiledStale])
    }

    @Test func aReloadThatBreaksTheThemeInUseKeepsTheLastGoodOne() throws {
        let copy = try ThemesCopy()
        let manager = ThemeManager.development(configuration: copy.configuration)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        manager.activate(themeID: "com.livery.dark")
        let title = Label()
        applicator.style(title, as: "label_title")
        let before = try #require(title.textColor)

        // A save with an error lands between a live-reload check and the reload itself.
        try copy.edit(
            "Dark.theme/Palette.xml", replacing: "<color name=\"textPrimary\">#EDEDED</color>",
            with: "<color name=\"textPrimary\">#EDEDEZ</color>")
        manager.reloadThemes()
        #expect(manager.currentThemeID == "com.livery.dark")
        #expect(manager.currentTheme?.instance("label_title") != nil)
        #expect(title.textColor == before)
        #expect(!manager.diagnostics.reported.isEmpty)

        // Fixed: the next reload shows the new value.
        try copy.edit(
            "Dark.theme/Palette.xml", replacing: "<color name=\"textPrimary\">#EDEDEZ</color>",
            with: "<color name=\"textPrimary\">#0A0B0C</color>")
        manager.reloadThemes()
        #expect(title.textColor == Color(red: 10 / 255.0, green: 11 / 255.0, blue: 12 / 255.0))
    }

    @Test func compiledPathsInTheConfigurationFile() {
        let xml =
            "<livery-configuration><search-path>T</search-path><compiled-path>Caches</compiled-path></livery-configuration>"
        let parsed = LiveryConfiguration.parse(Data(xml.utf8), baseFolder: "/app")
        #expect(parsed.value?.compiledPaths == ["/app/Caches"])
        #expect(parsed.diagnostics.isEmpty)
    }

    @Test func compileThemesFillsACacheThatAReleaseManagerReadsAlone() throws {
        let copy = try ThemesCopy()
        let cache = copy.root + "/Caches/Themes"
        var configuration = copy.configuration
        configuration.compiledPaths = [cache]
        let development = ThemeManager.development(configuration: configuration)
        #expect(development.theme("com.livery.dark")?.origin == .folder, "nothing compiled yet")
        let report = development.compileThemes()
        #expect(report.diagnostics.filter { $0.severity == .error }.isEmpty, "\(report.diagnostics)")
        #expect(
            report.written.sorted()
                == ["Base", "Dark", "HighContrast", "Light", "Tokens"].map { cache + "/\($0).livery" })
        // The development manager reloaded and now uses the compiled files, which are up to date.
        #expect(development.theme("com.livery.dark")?.origin == .compiled)

        // What a release app does with that cache: compiled files only, no folder anywhere.
        let release = ThemeManager(
            configuration: LiveryConfiguration(defaultThemeID: "com.livery.dark", compiledPaths: [cache]))
        #expect(Set(release.themes.keys) == Set(Self.themeIDs))
        #expect(release.themes.values.allSatisfy { $0.folder == nil })
        #expect(release.currentThemeID == "com.livery.dark")
        #expect(release.currentTheme == development.resolvedTheme(themeID: "com.livery.dark", traits: .none))
    }

    @Test func compileThemesWithoutAFolderToWriteIntoIsAFinding() throws {
        let copy = try ThemesCopy()
        let manager = ThemeManager.development(configuration: copy.configuration)
        let report = manager.compileThemes()
        #expect(report.written.isEmpty)
        #expect(report.diagnostics.map(\.code) == [.compileWriteFailed])
        #expect(manager.diagnostics.reported.map(\.code) == [.compileWriteFailed])
        // A folder that cannot be made (a file is in the way): one finding, nothing written.
        let blocked = copy.root + "/blocked"
        FileManager.default.createFile(atPath: blocked, contents: Data())
        let second = manager.compileThemes(into: blocked + "/cache")
        #expect(second.written.isEmpty)
        #expect(second.diagnostics.map(\.code) == [.compileWriteFailed])
        #expect(second.diagnostics.first?.location?.file == blocked + "/cache")
    }
}
