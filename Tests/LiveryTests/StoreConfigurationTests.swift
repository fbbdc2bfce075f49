import Foundation
import Livery
import LiveryModel
import Testing

/// `<store>` in `Livery.xml`: the theme store's catalog URL and root public keys, carried as text
/// by the runtime (LiveryStore parses the keys) and located for errors.
@Suite struct StoreConfigurationTests {
    static func parse(_ body: String) -> Checked<LiveryConfiguration> {
        LiveryConfiguration.parse(
            Data("<livery-configuration>\n\(body)\n</livery-configuration>\n".utf8), file: "/app/Livery.xml",
            baseFolder: "/app")
    }

    @Test func aStoreCarriesItsCatalogAndRootKeysWithTheirPlaces() throws {
        let parsed = Self.parse(
            """
              <search-path>Themes</search-path>
              <store catalog="https://cdn.example.com/store/catalog.json">
                <root-key>first-key=</root-key>
                <root-key>
                  second-key=
                </root-key>
              </store>
            """)
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
        let store = try #require(parsed.value?.store)
        #expect(store.catalogURL == "https://cdn.example.com/store/catalog.json")
        #expect(store.rootKeys == ["first-key=", "second-key="])
        #expect(store.rootKeyLocations.map { $0?.file } == ["/app/Livery.xml", "/app/Livery.xml"])
        #expect(store.rootKeyLocations.map { $0?.line } == [4, 5])
        #expect(parsed.value?.searchPaths == ["/app/Themes"])
        // Keys given in code have no place.
        #expect(
            LiveryConfiguration.Store(catalogURL: "https://x/catalog.json", rootKeys: ["k"]).rootKeyLocations == [nil])
    }

    @Test func aConfigurationWithoutAStoreHasNone() {
        let parsed = Self.parse("<search-path>Themes</search-path>")
        #expect(parsed.diagnostics.isEmpty)
        #expect(parsed.value?.store == nil)
    }

    @Test(arguments: [
        ("<store>\n<root-key>k=</root-key>\n</store>", "<store> needs catalog=", 2),
        (
            "<store catalog=\"catalog.json\">\n<root-key>k=</root-key>\n</store>",
            "<store catalog=\"catalog.json\"> is not an absolute http(s) URL", 2
        ),
        (
            "<store catalog=\"ftp://host/catalog.json\">\n<root-key>k=</root-key>\n</store>",
            "is not an absolute http(s) URL", 2
        ),
        ("<store catalog=\"https://host/catalog.json\">\n</store>", "<store> needs a <root-key>", 2),
        ("<store catalog=\"https://host/catalog.json\">\n<root-key> </root-key>\n</store>", "<root-key> is empty", 3),
        (
            "<store catalog=\"https://a/catalog.json\"><root-key>k=</root-key></store>\n<store catalog=\"https://b/catalog.json\"><root-key>k=</root-key></store>",
            "at most one <store>", 3
        ),
    ])
    func aBrokenStoreIsALocatedError(_ body: String, _ message: String, _ line: Int) {
        let parsed = Self.parse(body)
        #expect(parsed.value == nil, "an error: the configuration is not used")
        let errors = parsed.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 1, "\(parsed.diagnostics)")
        #expect(errors.first?.code == .runtimeConfiguration)
        #expect(errors.first?.message.contains(message) == true, "\(errors)")
        #expect(errors.first?.location?.file == "/app/Livery.xml")
        #expect(errors.first?.location?.line == line, "\(errors)")
        #expect(errors.first?.location?.column != nil)
    }

    @Test func anUnknownElementInAStoreIsAWarning() {
        let parsed = Self.parse(
            "<store catalog=\"https://host/catalog.json\">\n<root-key>k=</root-key>\n<mirror>x</mirror>\n</store>")
        #expect(parsed.value?.store?.rootKeys == ["k="])
        #expect(parsed.diagnostics.map(\.severity) == [.warning])
        #expect(parsed.diagnostics.first?.location?.line == 4)
    }
}
