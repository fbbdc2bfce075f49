import Foundation
import LiveryBinary
import LiveryCompiler
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import LiveryXML
import Testing

@testable import Livery

/// The launch from a compiled file reads what is styled and nothing else, and a damaged byte
/// never reaches a setter.
@MainActor
@Suite struct LazyLaunchTests {
    /// A folder holding only compiled files (a release build) and its configuration.
    final class ReleaseLayout {
        let root = NSTemporaryDirectory() + "livery-lazy-\(UUID().uuidString)"
        var cache: String { root + "/cache" }

        init() throws {
            try FileManager.default.createDirectory(atPath: root + "/cache", withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Compiles `folder` (found with its parents in `searchPaths`) into the cache.
        @discardableResult
        func compile(_ folder: String, searchPaths: [String], as name: String) throws -> String {
            let result = ThemeCompiler.compile(themeAt: folder, workspace: ThemeWorkspace(searchPaths: searchPaths))
            let bytes = try #require(result.value, "\(result.diagnostics)")
            let path = cache + "/\(name).livery"
            try ThemeCompiler.writeAtomically(bytes, to: path)
            return path
        }

        @MainActor func manager(showing id: String) -> ThemeManager {
            ThemeManager(configuration: LiveryConfiguration(defaultThemeID: id, compiledPaths: [cache]))
        }
    }

    @Test func launchingReadsOnlyTheBlocksOfWhatIsStyled() throws {
        let layout = try ReleaseLayout()
        let folder = try SyntheticTheme.write(instances: 2_000, into: layout.root)
        try layout.compile(folder, searchPaths: [layout.root], as: "Synthetic")
        try FileManager.default.removeItem(atPath: folder)
        let manager = layout.manager(showing: SyntheticTheme.id)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let file = try #require(manager.theme(SyntheticTheme.id)?.compiledFile)
        #expect(manager.theme(SyntheticTheme.id)?.origin == .compiled)
        // Loading read the metadata only (chain, variant table, asset directory).
        let afterLoad = file.checkedBlockCount
        #expect(afterLoad * 20 < file.blockCount, "\(afterLoad) of \(file.blockCount) blocks checked at load")

        let label = Label()
        applicator.style(label, as: "label_01236")
        #expect(label.text == "Item 1236")
        #expect(label.textColor != nil)
        let afterOne = file.checkedBlockCount
        #expect(afterOne > afterLoad && afterOne * 10 < file.blockCount, "\(afterOne) of \(file.blockCount) blocks")
        #expect(manager.diagnostics.reported.isEmpty, "\(manager.diagnostics.reported)")
    }

    @Test func aFlippedBitInAValueIsCaughtBeforeItsSetter() throws {
        let layout = try ReleaseLayout()
        let themes = [themesFolder]
        let path = try layout.compile(themesFolder + "/Dark.theme", searchPaths: themes, as: "Dark")
        try layout.compile(themesFolder + "/Base.theme", searchPaths: themes, as: "Base")

        // The colour label_title gets from the intact file.
        let intact = layout.manager(showing: "com.livery.dark")
        let reference = Label()
        Applicator(manager: intact, bindings: StandardBindings.register(in:)).style(reference, as: "label_title")
        let color = try #require(reference.textColor)

        // Flip the lowest bit of its red channel where the file stores it: a finite, plausible,
        // wrong colour that every structural check accepts.
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let pattern = [color.red, color.green, color.blue, color.alpha].flatMap { value in
            (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * UInt64($0))) }
        }
        let offset = try #require(
            (0...(bytes.count - pattern.count)).first { Array(bytes[$0..<$0 + pattern.count]) == pattern })
        bytes[offset] ^= 1
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try CompiledTheme(contentsOf: path).formatVersion == (5, 0), "structurally still a good file")

        let manager = layout.manager(showing: "com.livery.dark")
        #expect(manager.theme("com.livery.dark")?.origin == .compiled, "the damage is not read at launch")
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let title = Label()
        applicator.style(title, as: "label_title")
        #expect(title.textColor == nil, "the wrong colour must not reach the setter")
        let corrupt = manager.diagnostics.reported.filter { $0.code == .runtimeCompiledCorrupt }
        #expect(corrupt.count == 1, "\(manager.diagnostics.reported)")
        #expect(corrupt.first?.location?.file == path)
        #expect(corrupt.first?.message.contains("recompile") == true)
    }

    @Test func aDamagedFileBesideItsFolderFallsBackAtLoad() throws {
        // With the sources at hand, every block is checked when the theme loads, so the folder
        // can stand in before anything is applied.
        let layout = try ReleaseLayout()
        let copy = layout.root + "/themes"
        try FileManager.default.copyItem(atPath: themesFolder, toPath: copy)
        let result = ThemeCompiler.compile(
            themeAt: copy + "/Dark.theme", workspace: ThemeWorkspace(searchPaths: [copy]))
        var bytes = try #require(result.value)
        let dataSection = try #require(try CompiledTheme(bytes: bytes).sections.first { $0.kind == "DATA" })
        bytes[dataSection.offset + dataSection.length / 2] ^= 0x04  // inside an image: nothing structural
        try ThemeCompiler.writeAtomically(bytes, to: copy + "/Dark.livery")
        let manager = ThemeManager.development(
            configuration: LiveryConfiguration(defaultThemeID: "com.livery.dark", searchPaths: [copy]))
        #expect(manager.theme("com.livery.dark")?.origin == .folder)
        #expect(manager.diagnostics.reported.map(\.code).contains(.runtimeCompiledUnusable))
    }

    @Test func preloadingACompiledThemeAppliesWhatStylingItDoes() async throws {
        let layout = try ReleaseLayout()
        let themes = [themesFolder]
        for name in ["Base", "Light", "Dark"] {
            try layout.compile(themesFolder + "/\(name).theme", searchPaths: themes, as: name)
        }
        let lazy = layout.manager(showing: "com.livery.dark")
        let preloaded = layout.manager(showing: "com.livery.dark")
        let plain = Applicator(manager: lazy, bindings: StandardBindings.register(in:))
        let ahead = Applicator(manager: preloaded, bindings: StandardBindings.register(in:))
        await ahead.preload(["com.livery.dark", "com.livery.light"])
        for id in ["label_title", "button_send", "image_avatar", "nowhere"] {
            let one = Label(), two = Label()
            plain.style(one, as: id)
            ahead.style(two, as: id)
            #expect(one.textColor == two.textColor && one.font == two.font, "\(id)")
        }
        let before = Label()
        ahead.style(before, as: "label_title")
        preloaded.activate(themeID: "com.livery.light")
        lazy.activate(themeID: "com.livery.light")
        let after = Label()
        plain.style(after, as: "label_title")
        #expect(before.textColor == after.textColor)
        #expect(lazy.diagnostics.reported.filter { $0.code == .runtimeCompiledCorrupt }.isEmpty)
    }
}
