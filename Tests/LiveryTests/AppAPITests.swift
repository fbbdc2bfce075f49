import Foundation
import LiveryCompiler
import LiveryHeadless
import LiveryXML
import Testing

@testable import Livery

/// What an app developer meets first: observations end with their tokens, a manager comes from
/// a URL or a bundle resource, decoded images come back typed.
@MainActor
@Suite struct AppAPITests {
    @Test func anObservationEndsWhenItsTokenIsReleased() {
        let manager = ThemeManager()
        manager.add(loadedTheme("a", []))
        manager.add(loadedTheme("b", []))
        var changes = 0
        var findings = 0
        var token: ObservationToken? = manager.observe { _ in changes += 1 }
        var findingsToken: ObservationToken? = manager.diagnostics.observe { _ in findings += 1 }
        manager.activate(themeID: "a")
        manager.activate(themeID: "nope")
        #expect(changes == 1)
        #expect(findings == 1)
        #expect(token != nil && findingsToken != nil)
        token = nil
        findingsToken = nil
        manager.activate(themeID: "b")
        manager.activate(themeID: "still-nope")
        #expect(changes == 1, "released with its token")
        #expect(findings == 1, "released with its token")
    }

    @Test func cancelEndsAnObservationOnceAndReleasingAfterwardsIsHarmless() {
        let manager = ThemeManager()
        manager.add(loadedTheme("a", []))
        var changes = 0
        let token = manager.observe { _ in changes += 1 }
        token.cancel()
        token.cancel()
        manager.activate(themeID: "a")
        #expect(changes == 0)
    }

    /// Observers run in the order they subscribed, and one cancelled by an earlier observer of
    /// the same change is not called for it.
    @Test func observersRunInSubscriptionOrderAndCancellingOneSkipsIt() {
        let manager = ThemeManager()
        manager.add(loadedTheme("a", []))
        manager.add(loadedTheme("b", []))
        var calls: [String] = []
        var third: ObservationToken?
        let first = manager.observe { _ in calls.append("first") }
        let second = manager.observe { _ in
            calls.append("second")
            third?.cancel()
        }
        third = manager.observe { _ in calls.append("third") }
        let fourth = manager.observe { _ in calls.append("fourth") }
        manager.activate(themeID: "a")
        #expect(calls == ["first", "second", "fourth"])
        calls = []
        manager.activate(themeID: "b")
        #expect(calls == ["first", "second", "fourth"])
        withExtendedLifetime((first, second, fourth)) {}
    }

    /// The applicator keeps at most `preparedThemeLimit` prepared themes and evicts the least
    /// recently used; using a kept theme again makes it the most recent, and preparing it
    /// again is not needed.
    @Test func preparedThemesAreKeptLeastRecentlyUsedFirst() {
        let button = instance("button_send", "uibutton", [op("backgroundColor", "color", color(0x112233))])
        let (manager, applicator) = makeApplicator(
            loadedTheme("a", [button]), loadedTheme("b", [button]),
            loadedTheme("c", [button]), activate: "a")
        applicator.preparedThemeLimit = 2
        let component = Button()
        applicator.style(component, as: "button_send")
        func kept() -> [String] { applicator.prepared.themes.map(\.key.themeID) }
        manager.activate(themeID: "b")
        #expect(kept() == ["a", "b"])
        let preparedA = applicator.prepared.themes.first
        manager.activate(themeID: "a")
        #expect(kept() == ["b", "a"])
        #expect(applicator.prepared.themes.last === preparedA, "a kept theme is used again, not prepared again")
        manager.activate(themeID: "c")
        #expect(kept() == ["a", "c"], "b was the least recently used")
        applicator.preparedThemeLimit = 1
        manager.activate(themeID: "b")
        #expect(kept() == ["b"])
    }

    /// A folder holding `cache/Dark.livery` (and its parent's) and a configuration naming it.
    static func compiledApp() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("livery-app-\(UUID().uuidString)")
        let cache = folder.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
        let workspace = ThemeWorkspace(
            searchPaths: [themesFolder], schemaFiles: [themesFolder + "/Base.theme/Components.xml"])
        for name in ["Base", "Dark"] {
            let bytes = try #require(
                ThemeCompiler.compile(themeAt: themesFolder + "/\(name).theme", workspace: workspace).value)
            try ThemeCompiler.writeAtomically(bytes, to: cache.appendingPathComponent("\(name).livery").path)
        }
        try
            #"<livery-configuration default-theme="com.livery.dark"><compiled-path>cache</compiled-path></livery-configuration>"#
            .write(to: folder.appendingPathComponent("Livery.xml"), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func aManagerFromAFileURL() throws {
        let app = try Self.compiledApp()
        defer { try? FileManager.default.removeItem(at: app) }
        let manager = ThemeManager(configurationURL: app.appendingPathComponent("Livery.xml"))
        #expect(manager.diagnostics.reported.isEmpty, "\(manager.diagnostics.reported)")
        #expect(manager.currentThemeID == "com.livery.dark")
        #expect(manager.theme("com.livery.dark")?.origin == .compiled)

        let web = ThemeManager(configurationURL: URL(string: "https://example.com/Livery.xml")!)
        #expect(web.themes.isEmpty)
        #expect(web.diagnostics.reported.map(\.code) == [.runtimeConfiguration])
    }

    @Test func aManagerFromABundleResource() throws {
        let app = try Self.compiledApp()
        defer { try? FileManager.default.removeItem(at: app) }
        let bundle = try #require(Bundle(path: app.path))
        let manager = ThemeManager(configurationResource: "Livery", in: bundle)
        #expect(manager.diagnostics.reported.isEmpty, "\(manager.diagnostics.reported)")
        #expect(manager.currentThemeID == "com.livery.dark")

        let missing = ThemeManager(configurationResource: "Missing", in: bundle)
        #expect(missing.themes.isEmpty)
        #expect(missing.diagnostics.reported.map(\.code) == [.runtimeConfiguration])
        #expect(missing.diagnostics.reported.first?.message.contains("Missing.xml") == true)
    }

    @Test func decodedImagesComeBackAsTheDecodersType() {
        struct Bitmap: Equatable, Sendable { var bytes: Int }
        let assets = AssetCatalog(
            searchOrder: ["pics"],
            variants: [
                AssetVariant(name: "logo", themeID: "pics", file: "assets/logo.png")
            ])
        let theme = loadedTheme(
            "pics",
            [
                instance(
                    "image_logo", "uiimageview",
                    [
                        op("image", "image", .image(ImageReference(name: "logo")))
                    ])
            ], assets: assets, files: [AssetFileKey(themeID: "pics", file: "assets/logo.png"): Data([1, 2, 3])])
        let (_, applicator) = makeApplicator(theme, activate: "pics")
        applicator.imageDecoder = { data, _ in Bitmap(bytes: data.count) }
        let logo = ImageView()
        applicator.style(logo, as: "image_logo")
        #expect(logo.image?.decoded(as: Bitmap.self) == Bitmap(bytes: 3))
        #expect(logo.image?.decoded(as: String.self) == nil, "another type than the decoder makes")
        let undecoded = ThemeImage(name: "x", themeID: "t", file: "f", scale: 1, data: Data())
        #expect(undecoded.decoded(as: Bitmap.self) == nil)
    }
}
