import Foundation
import Livery
import Testing

@testable import LiveryStore

/// The store's catalog URL and root public key from the app's configuration (`<store>` in
/// `Livery.xml`): `CatalogTrust(configuration:)` and `ThemeStore(configuration:installedFolder:)`.
@Suite(.serialized) struct ConfigurationTrustTests {
    /// Writes `Livery.xml` with the store's search paths and `store` as its `<store>` element
    /// (which starts on line 5).
    static func writeConfiguration(_ store: String, for fixture: Fixture) throws -> String {
        let path = fixture.root + "/Livery.xml"
        try Data(
            """
            <livery-configuration default-theme="com.livery.light">
              <search-path>\(Repository.compiledThemes)</search-path>
              <search-path>\(fixture.installed)</search-path>
              <theme-extension>purchasedTheme</theme-extension>
            \(store)
            </livery-configuration>

            """.utf8
        ).write(to: URL(fileURLWithPath: path))
        return path
    }

    @MainActor
    @Test func theConfigurationsStoreInstallsFromItsSignedCatalog() async throws {
        let signed = try SigningTests.SignedStore()
        try await TestServer.withServer(folder: signed.fixture.packages) { @MainActor base in
            let configurationFile = try Self.writeConfiguration(
                """
                  <store catalog="\(base)/catalog.json">
                    <root-key>\(signed.rootKey.publicKey)</root-key>
                  </store>
                """, for: signed.fixture)
            let downloads = signed.fixture.installed
            let manager = ThemeManager(configurationFile: configurationFile)
            // snippet: store-from-configuration (docs/Packages.md shows these lines)
            // problems: loaded.diagnostics, file:line:col
            let loaded = LiveryConfiguration.load(path: configurationFile)
            guard let configuration = loaded.value else { throw StoreError.refused("\(loaded.diagnostics)") }
            let store = try await ThemeStore(configuration: configuration, installedFolder: downloads, manager: manager)
            let catalog = try await store.refreshCatalog()  // signed under the configuration's root key
            // end of snippet
            #expect(store.trust == signed.trust)
            #expect(store.client?.catalogURL == base + "/catalog.json")
            let product = try #require(catalog.product(id: "com.acme.ocean"))
            #expect(await store.install(product).result() == .finished)
            #expect(manager.themes["com.acme.ocean"] != nil, "the manager sees the installed theme")
        }
    }

    /// A root key in the configuration that is not the store's: its catalogs are refused.
    @Test func anotherRootKeyInTheConfigurationRefusesTheCatalog() async throws {
        let signed = try SigningTests.SignedStore()
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            let path = try Self.writeConfiguration(
                """
                  <store catalog="\(base)/catalog.json"><root-key>\(SigningKey.generate().publicKey)</root-key></store>
                """, for: signed.fixture)
            let configuration = try #require(LiveryConfiguration.load(path: path).value)
            let store = try await ThemeStore(
                configuration: configuration, installedFolder: signed.fixture.installed,
                bundledSearchPaths: [Repository.compiledThemes])
            await #expect {
                try await store.refreshCatalog()
            } throws: { error in
                (error as? StoreError)?.description.hasPrefix("untrusted: root 1 is signed by unknown key") == true
            }
        }
        #expect(try signed.fixture.snapshot().isEmpty)
    }

    /// A malformed key is refused where it is written (file:line:col), before anything is opened.
    @Test func aMalformedRootKeyIsRefusedAtItsPlace() async throws {
        let fixture = try Fixture()
        let path = try Self.writeConfiguration(
            """
              <store catalog="https://cdn.example.com/store/catalog.json">
                <root-key>q3V1-not-a-key</root-key>
              </store>
            """, for: fixture)
        let configuration = try #require(
            LiveryConfiguration.load(path: path).value, "the runtime carries the text unchecked")
        let store = try #require(configuration.store)
        #expect(throws: StoreError.self) { try CatalogTrust(configuration: store) }
        await #expect {
            _ = try await ThemeStore(configuration: configuration, installedFolder: fixture.installed)
        } throws: { error in
            guard case .untrusted(let message) = error as? StoreError else { return false }
            let pattern =
                "^\(NSRegularExpression.escapedPattern(for: path)):6:[0-9]+: the <root-key> 'q3V1-not-a-key' is not an Ed25519 public key"
            return message.range(of: pattern, options: .regularExpression) != nil
        }
        #expect(try fixture.snapshot().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.installed + "/" + ProductInstaller.workFolderName))
        // Valid keys become the signed trust, in their canonical base64.
        let key = SigningKey.generate().publicKey
        #expect(
            try CatalogTrust(configuration: .init(catalogURL: "https://x/catalog.json", rootKeys: [" \(key) "]))
                == .signed(rootKeys: [key.base64]))
        #expect(throws: StoreError.self) {
            try CatalogTrust(configuration: .init(catalogURL: "https://x/catalog.json", rootKeys: []))
        }
    }

    @Test func aConfigurationWithoutAStoreOpensNone() async throws {
        let fixture = try Fixture()
        let configuration = LiveryConfiguration(searchPaths: [fixture.installed])
        await #expect(
            throws: StoreError.refused("the configuration has no <store catalog=\"…\"> with the store's <root-key>")
        ) {
            _ = try await ThemeStore(configuration: configuration, installedFolder: fixture.installed)
        }
    }

    /// The documentation's snippet is these tests' own lines, so it compiles and runs.
    @Test func theDocumentedSnippetIsTheTestedOne() throws {
        let markdown = try String(contentsOfFile: Repository.root + "/docs/Packages.md", encoding: .utf8)
        let marker = try #require(markdown.range(of: "<!-- snippet: store-from-configuration"))
        let block = markdown[marker.upperBound...].components(separatedBy: "```swift\n")[1].components(
            separatedBy: "```")[0]
        let documented = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let start = try #require(source.range(of: "// snippet: store-from-configuration"))
        let end = try #require(source.range(of: "// end of snippet"))
        let tested = source[start.upperBound..<end.lowerBound].split(separator: "\n").dropFirst()
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(documented.count == 5)
        // The docs may align end-of-line comments; the code is laid out by swift format.
        let words = { (line: String) in line.split(separator: " ").joined(separator: " ") }
        #expect(documented.map(words) == tested.map(words))
    }
}
