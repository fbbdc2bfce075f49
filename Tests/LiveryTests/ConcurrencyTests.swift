import Foundation
import LiveryBinary
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import LiveryXML
import Testing

@testable import Livery

/// Loading off the main actor while the main actor applies: what ThreadSanitizer checks
/// (`Scripts/sanitizers.sh`). Background tasks read theme folders (each with its own loader, as
/// the front end is one-workspace-per-thread) and share one compiled theme (an immutable mapped
/// file, `Sendable`), while the main actor keeps switching themes and traits on live components
/// and takes in each theme a background task finished.
@MainActor
@Suite struct ConcurrencyTests {
    static let ids = ["com.livery.base", "com.livery.light", "com.livery.dark", "com.livery.highcontrast"]

    nonisolated static func loadFolder(_ name: String) -> LoadedTheme? {
        let loader = FolderThemeLoader()
        let folder = themesFolder + "/" + name
        guard let info = loader.info(at: folder, searchPaths: [themesFolder]).value else { return nil }
        return loader.load(
            ThemeDescriptor(info: info, folder: folder), searchPaths: [themesFolder],
            schemaFiles: [themesFolder + "/Base.theme/Components.xml"]
        ).value
    }

    @Test func loadingInTheBackgroundWhileTheMainActorApplies() async throws {
        let manager = ThemeManager.development(
            configuration: LiveryConfiguration(
                defaultThemeID: "com.livery.light", searchPaths: [themesFolder],
                schemaFiles: [themesFolder + "/Base.theme/Components.xml"]))
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        var components: [View] = []
        for index in 0..<200 {
            let component: View = index % 2 == 0 ? Label() : Button()
            applicator.style(component, as: index % 3 == 0 ? "chat_title" : "send_button")
            components.append(component)
        }

        // One compiled theme, shared by every background task.
        let variants = try #require(Self.loadFolder("Dark.theme")).variants
        var contents = CompiledThemeContents(theme: variants)
        for asset in variants.assets.variants {
            contents.assetBytes[asset.fileKey] = Array(asset.file.utf8)
        }
        let compiled = try CompiledTheme(bytes: try ThemeWriter.encode(contents))

        let loads = (0..<4).map { index in
            Task.detached(priority: .utility) { () -> (LoadedTheme?, Int) in
                let folder = ["Base.theme", "Light.theme", "Dark.theme", "HighContrast.theme"][index]
                var reads = 0
                var last: LoadedTheme?
                for _ in 0..<3 {
                    last = Self.loadFolder(folder)
                    let model = try? compiled.materialize()
                    reads += model?.variants.count ?? 0
                    for traits in model?.axes.traitSets ?? [] {
                        reads += (try? compiled.operations(of: "send_button", for: traits))?.count ?? 0
                    }
                }
                return (last, reads)
            }
        }

        // Meanwhile the main actor switches, and takes in what the tasks finish.
        var switches = 0
        var pending = loads
        while !pending.isEmpty {
            for id in Self.ids {
                #expect(manager.activate(themeID: id))
                manager.setTraits(switches % 2 == 0 ? TraitSet(idiom: .ipad, appearance: .dark) : .none)
                switches += 1
            }
            await Task.yield()
            var still: [Task<(LoadedTheme?, Int), Never>] = []
            for task in pending {
                // Poll without blocking the main actor: a finished task's value is ready at once.
                if switches % 8 == 0 {
                    let (theme, reads) = await task.value
                    let loaded = try #require(theme)
                    #expect(reads > 0)
                    manager.add(loaded)
                    #expect(manager.activate(themeID: loaded.info.id))
                } else {
                    still.append(task)
                }
            }
            pending = still
        }
        #expect(switches >= 8)
        #expect(applicator.liveComponentCount() == 200)
        withExtendedLifetime(components) {}
    }
}
