import Foundation
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import LiveryXML
import Testing

@testable import Livery

/// The sample themes, loaded from their folders, applied to headless components and switched
/// live: every property must equal what `dump` says for the theme, traits and scale at hand,
/// and every property the theme does not set must hold its untouched default.
@MainActor
@Suite struct SampleThemeTests {
    static let themeIDs = [
        "com.livery.base", "com.livery.tokens", "com.livery.light", "com.livery.dark", "com.livery.highcontrast",
    ]

    func makeManager() -> ThemeManager {
        ThemeManager.development(
            configuration: LiveryConfiguration(
                defaultThemeID: "com.livery.light", searchPaths: [themesFolder],
                schemaFiles: [themesFolder + "/Base.theme/Components.xml"]))
    }

    /// Compares every component against the manager's current theme. Returns the number of
    /// properties checked, so a test can tell it checked something.
    func check(
        _ components: [String: View], manager: ThemeManager, schema: Schema,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) -> Int {
        guard let theme = manager.currentTheme else {
            Issue.record("no current theme", sourceLocation: sourceLocation)
            return 0
        }
        var checked = 0
        for (id, component) in components.sorted(by: { $0.key < $1.key }) {
            let instance = theme.instance(id)
            let fresh = makeComponent(instance?.component ?? "uiview")
            let type = instance?.component ?? "uiview"
            for name in schema.operationNames(of: type) {
                let states =
                    schema.operation(name, of: type)?.allowsStates == true
                    ? ControlState.all : [.normal]
                for state in states {
                    let actual = readBack(component, name, state)
                    let want: Readback?
                    if let operation = instance?.operations.first(where: {
                        $0.key == OperationKey(name: name, state: state)
                    }) {
                        want = expected(operation.params[0].value, theme: theme, scale: manager.scale)
                    } else {
                        want = readBack(fresh, name, state)  // untouched or reverted
                    }
                    #expect(
                        actual == want, "\(theme.info.id) \(theme.traits) @\(manager.scale)x: \(id).\(name)[\(state)]",
                        sourceLocation: sourceLocation)
                    checked += 1
                }
            }
        }
        return checked
    }

    @Test func everySampleThemeLoadsFromItsFolder() {
        let manager = makeManager()
        #expect(Set(manager.themes.keys) == Set(Self.themeIDs))
        #expect(manager.currentThemeID == "com.livery.light")
        #expect(manager.themes["com.livery.dark"]?.info.parent == "com.livery.base")
        #expect(manager.themes["com.livery.dark"]?.folder?.hasSuffix("Dark.theme") == true)
        for id in Self.themeIDs {
            #expect(manager.theme(id)?.origin == .folder, "\(id)")
        }
        #expect(
            manager.diagnostics.reported.filter { $0.severity == .error }.isEmpty,
            "\(manager.diagnostics.reported)")
    }

    @Test func liveSwitchingMatchesTheDumpForEveryThemeTraitSetAndScale() {
        let manager = makeManager()
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        applicator.register(chatBubbleBinding())
        switchEverywhere(manager, applicator)
    }

    /// The same with every theme prepared ahead for every trait set and scale, with the plans
    /// between them (`Applicator.preload`).
    @Test func preloadedThemesMatchTheDumpToo() async {
        let manager = makeManager()
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        applicator.register(chatBubbleBinding())
        applicator.preparedThemeLimit = 1_000
        for traits in traitSets(manager) {
            for scale in [1, 2, 3] { await applicator.preload(Self.themeIDs, traits: traits, scale: scale) }
        }
        let complete = applicator.prepared.themes.filter(\.isComplete).count
        #expect(complete == traitSets(manager).count * 3 * Self.themeIDs.count)
        switchEverywhere(manager, applicator)
        // Every theme the switches used was one prepared ahead.
        let allComplete = applicator.prepared.themes.allSatisfy(\.isComplete)
        #expect(allComplete)
    }

    /// The trait sets the switches go through: every theme's, and one no theme has.
    func traitSets(_ manager: ThemeManager) -> [TraitSet] {
        var all: Set<TraitSet> = [TraitSet(idiom: .ipad, appearance: .dark, contrast: .highcontrast)]
        for id in Self.themeIDs { all.formUnion(manager.theme(id)?.variants.axes.traitSets ?? []) }
        return Array(all)
    }

    /// Styles every identifier of every theme once, then switches through every theme, trait
    /// set and scale, checking every component against the dump each time.
    func switchEverywhere(_ manager: ThemeManager, _ applicator: Applicator) {
        // Every identifier of every theme, each styled once with the class its type needs,
        // then kept across all switches so that reverts are exercised.
        var types: [String: String] = [:]
        for id in Self.themeIDs {
            guard let variants = manager.theme(id)?.variants else { continue }
            for instances in variants.variants.values {
                for instance in instances { types[instance.id] = instance.component }
            }
        }
        #expect(types.count > 15)
        var components: [String: View] = [:]
        for (id, type) in types {
            let component = makeComponent(type)
            components[id] = component
            applicator.style(component, as: id)
        }
        var checked = 0
        for id in Self.themeIDs {
            manager.activate(themeID: id)
            let axes = manager.theme(id)!.variants.axes
            for traits in axes.traitSets + [TraitSet(idiom: .ipad, appearance: .dark, contrast: .highcontrast)] {
                manager.setTraits(traits)
                for scale in [1, 2, 3] {
                    manager.setScale(scale)
                    checked += check(components, manager: manager, schema: manager.schema)
                }
            }
        }
        #expect(checked > 5000)
        let errors = manager.diagnostics.reported.filter { $0.code != .runtimeUnknownIdentifier }
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func switchingLightToDarkTouchesOnlyWhatDiffers() {
        let manager = makeManager()
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        applicator.register(chatBubbleBinding())
        let title = Label()
        let background = View()
        applicator.style(title, as: "label_title")
        applicator.style(background, as: "chat_background")
        let light = manager.currentTheme!
        manager.activate(themeID: "com.livery.dark")
        let dark = manager.currentTheme!
        var differing = 0
        for id in ["label_title", "chat_background"] {
            let before = light.instance(id)!.operations
            let after = dark.instance(id)!.operations
            differing += after.filter { !before.contains($0) }.count
            differing += before.filter { old in !after.contains { $0.name == old.name && $0.state == old.state } }.count
        }
        #expect(differing > 0)
        #expect(applicator.lastPass.operationsApplied + applicator.lastPass.operationsReverted == differing)
    }

    @Test func customComponentInheritsViewOperationsThroughItsBinding() {
        let manager = makeManager()
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        applicator.register(chatBubbleBinding())  // extends: "uiview", as Components.xml declares
        #expect(!manager.diagnostics.reported.contains { $0.code == .runtimeBindingInheritance })
        #expect(applicator.boundOperations(of: "chatbubble").contains("backgroundColor"))
        #expect(applicator.unboundOperations(in: manager.schema).isEmpty)
        let bubble = ChatBubble()
        applicator.style(bubble, as: "bubble_outgoing")
        #expect(bubble.tailStyle != .none)
        #expect(bubble.bubbleColors.value(for: .highlighted) != nil)
        let operations = manager.buildCurrentTheme()!.instance("bubble_outgoing")!.operations.map(\.name)
        #expect(operations.contains("shadowOpacity"))
        #expect(bubble.shadowOpacity != View().shadowOpacity, "an inherited uiview operation reached the bubble")
    }

    @Test func imagesComeFromTheFolderAndCachedOnesAreShared() throws {
        let manager = makeManager()
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        manager.setScale(2)
        let avatars = [ImageView(), ImageView()]
        let bubbles = [ImageView(), ImageView()]
        for view in avatars { applicator.style(view, as: "image_avatar") }
        for view in bubbles { applicator.style(view, as: "image_bubble") }
        let avatar = try #require(avatars[0].image)
        #expect(avatar.file == "assets/avatar@2x.png")
        #expect(avatar.data == FileManager.default.contents(atPath: themesFolder + "/Base.theme/assets/avatar@2x.png"))
        #expect(avatars[1].image === avatar, "cache=\"true\": one decoded image for every component")
        #expect(applicator.imageCache.count == 1)
        #expect(applicator.imageCache.hits == 1)
        // Not cached: read when applied, once per component styled on its own...
        #expect(bubbles[0].image != nil && bubbles[0].image !== bubbles[1].image)

        manager.activate(themeID: "com.livery.dark")
        #expect(applicator.imageCache.count == 0, "switching theme evicts the cache")
        #expect(avatars[0].image === avatar, "the avatar file is the same in Dark: not re-applied")
        // ...and once per pass for all the components a switch updates.
        #expect(bubbles[0].image?.themeID == "com.livery.dark", "Dark ships its own bubble")
        #expect(bubbles[0].image?.file == "assets/bubble@2x.png")
        #expect(bubbles[0].image === bubbles[1].image)
        manager.setScale(1)
        #expect(bubbles[0].image?.file == "assets/bubble.png", "a scale change re-applies images")
        #expect(avatars[0].image?.file == "assets/avatar.png")
        #expect(applicator.imageCache.count == 1)
    }

    @Test func configurationFileDrivesDiscovery() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-config-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A downloaded theme with its own extension, inheriting from the shipped Dark theme.
        let downloaded = folder + "/Downloads/Neon.purchasedTheme"
        try FileManager.default.createDirectory(atPath: downloaded, withIntermediateDirectories: true)
        try #"<theme-info id="com.shop.neon" name="Neon" parent="com.livery.dark"/>"#
            .write(toFile: downloaded + "/Info.xml", atomically: true, encoding: .utf8)
        try """
        <theme><instances><uilabel id="label_title">
          <operation name="textColor"><param name="color"><color>#FF00FF</color></param></operation>
        </uilabel></instances></theme>
        """.write(toFile: downloaded + "/Chat.xml", atomically: true, encoding: .utf8)
        try """
        <livery-configuration default-theme="com.shop.neon">
          <search-path>\(themesFolder)</search-path>
          <search-path>Downloads</search-path>
          <theme-extension>theme</theme-extension>
          <theme-extension>purchasedTheme</theme-extension>
        </livery-configuration>
        """.write(toFile: folder + "/Livery.xml", atomically: true, encoding: .utf8)

        let manager = ThemeManager.development(configurationFile: folder + "/Livery.xml")
        #expect(manager.configuration.themeExtensions == ["theme", "purchasedTheme"])
        #expect(manager.themes.count == 6)
        #expect(manager.currentThemeID == "com.shop.neon")
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let title = Label()
        applicator.style(title, as: "label_title")
        #expect(title.textColor == Color(red: 1, green: 0, blue: 1))
        #expect(title.font != nil, "inherited from Dark and Base")
    }

    @Test func brokenConfigurationIsReportedNotFatal() {
        let missing = ThemeManager.development(configurationFile: "/nonexistent/Livery.xml")
        #expect(missing.themes.isEmpty)
        #expect(missing.diagnostics.reported.map(\.code) == [.runtimeConfiguration])

        let wrongRoot = LiveryConfiguration.parse(Data("<theme/>".utf8))
        #expect(wrongRoot.value == nil)
        #expect(wrongRoot.diagnostics.map(\.code) == [.runtimeConfiguration])
        let malformed = LiveryConfiguration.parse(Data("<livery-configuration><search-path>".utf8))
        #expect(malformed.value == nil)
        let unknown = LiveryConfiguration.parse(
            Data("<livery-configuration><colour>x</colour></livery-configuration>".utf8))
        #expect(unknown.value == LiveryConfiguration())
        #expect(unknown.diagnostics.map(\.severity) == [.warning])
    }
}
