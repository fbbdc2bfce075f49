import Foundation
import Livery
import Testing

@testable import LiveryStore

#if canImport(Glibc)
    import Glibc
#endif

/// Signed catalogs against TUF's attack list: arbitrary package, rollback, indefinite freeze,
/// endless data, mix-and-match, unknown and compromised keys, rotation. Every refusal is a
/// clear `untrusted` (or size/checksum) error, and leaves the installed folder and the trust
/// state exactly as they were.
@Suite(.serialized) struct SigningTests {
    /// A signed store: root key and catalog key kept outside the served folder.
    final class SignedStore: @unchecked Sendable {
        let fixture: Fixture
        let rootKey = SigningKey.generate()
        var catalogKey = SigningKey.generate()
        var trust: CatalogTrust { .signed(rootKeys: [rootKey.publicKey.base64]) }

        init() throws {
            fixture = try Fixture()
            try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
            try RootPublisher.publish(
                in: fixture.packages, rootKeys: [rootKey.publicKey], catalogKeys: [catalogKey.publicKey],
                signers: [rootKey])
            try sign()
        }

        @discardableResult
        func sign(expires: Date = Date().addingTimeInterval(86_400), version: Int? = nil, key: SigningKey? = nil) throws
            -> Data
        {
            _ = try CatalogBuilder.build(
                packagesIn: fixture.packages,
                signing: CatalogSigning(key: key ?? catalogKey, expires: expires, version: version))
            Fixture.stampPublished(fixture.packages)
            return try Data(contentsOf: URL(fileURLWithPath: fixture.packages + "/catalog.json"))
        }

        func store(_ base: String, trust: CatalogTrust? = nil) async throws -> ThemeStore {
            try await fixture.makeStore(manager: nil, catalogURL: base + "/catalog.json", trust: trust ?? self.trust)
        }

        var trustState: Data? {
            FileManager.default.contents(atPath: fixture.installed + "/.liverystore/trust/state.json")
        }

        /// Runs `attempt` against the served store and checks it failed with `expected` in its
        /// message while the installed folder and the trust state stayed as they were.
        /// `catalogAccepted`: the attempt refreshes a valid catalog first (which rightly records
        /// its version) and is refused later, at the package or document.
        func expectRefused(
            _ expected: String, catalogAccepted: Bool = false,
            _ attempt: @Sendable (ThemeStore, String) async throws -> Void
        ) async throws {
            try await TestServer.withServer(folder: fixture.packages) { base in
                let store = try await self.store(base)
                let before = try self.fixture.snapshot()
                let trustBefore = self.trustState
                do {
                    try await attempt(store, base)
                    Issue.record("expected a refusal mentioning '\(expected)'")
                } catch let error as StoreError {
                    #expect(error.description.contains(expected), "\(error)")
                }
                #expect(try self.fixture.snapshot() == before)
                if !catalogAccepted { #expect(self.trustState == trustBefore) }
                #expect(self.fixture.workFolderIsClean())
            }
        }
    }

    private static func install(_ store: ThemeStore, _ id: String = "com.acme.ocean") async throws {
        let catalog = try await store.refreshCatalog()
        let product = try #require(catalog.product(id: id))
        let state = await store.install(product).result()
        if case .failed(let error) = state { throw error }
        #expect(state == .finished)
    }

    @Test func aSignedCatalogInstallsAndItsDocumentsVerify() async throws {
        let signed = try SignedStore()
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            let store = try await signed.store(base)
            let catalog = try await store.refreshCatalog()
            #expect(catalog.version == 1)
            let product = try #require(catalog.product(id: "com.acme.ocean"))
            #expect(try await store.details(for: product).description == "A test theme.")
            try await Self.install(store)
        }
        #expect(try signed.fixture.snapshot().keys.contains("com.acme.ocean.livery"))
        let state = try JSONDecoder().decode(TrustState.self, from: try #require(signed.trustState))
        #expect(state.lastCatalogVersion == 1 && state.root != nil)
    }

    @Test func anUnsignedCatalogIsRefusedUnlessTheAppOptsIn() async throws {
        let signed = try SignedStore()
        _ = try CatalogBuilder.build(packagesIn: signed.fixture.packages)
        Fixture.stampPublished(signed.fixture.packages)
        try await signed.expectRefused("is not signed; this app accepts only signed catalogs") { store, _ in
            try await Self.install(store)
        }
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            try await Self.install(try await signed.store(base, trust: .unsignedForDevelopment))
        }
    }

    @Test func aStoreWithACatalogNeedsAnExplicitTrust() async throws {
        let fixture = try Fixture()
        await #expect(throws: StoreError.self) {
            _ = try await ThemeStore(installedFolder: fixture.installed, catalogURL: "http://127.0.0.1:1/catalog.json")
        }
    }

    @Test func aTamperedCatalogIsRefused() async throws {
        let signed = try SignedStore()
        // Someone with write access to the server points the catalog at another package.
        let path = signed.fixture.packages + "/catalog.json"
        var envelope = try JSONDecoder().decode(SignedDocument.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        var payload = String(decoding: try #require(Data(base64Encoded: envelope.payload)), as: UTF8.self)
        let digest = try #require(payload.range(of: "\"sha256\" : \"[0-9a-f]{64}\"", options: .regularExpression))
        payload.replaceSubrange(digest, with: "\"sha256\" : \"" + String(repeating: "0", count: 64) + "\"")
        envelope.payload = Data(payload.utf8).base64EncodedString()
        try envelope.encoded().write(to: URL(fileURLWithPath: path))
        try await signed.expectRefused("the signature of the catalog at") { store, _ in try await Self.install(store) }
    }

    @Test func aMissingSignatureIsRefused() async throws {
        let signed = try SignedStore()
        let path = signed.fixture.packages + "/catalog.json"
        var envelope = try JSONDecoder().decode(SignedDocument.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        envelope.signatures = []
        try envelope.encoded().write(to: URL(fileURLWithPath: path))
        try await signed.expectRefused("has no signature") { store, _ in try await Self.install(store) }
    }

    @Test func aCatalogSignedByAnUnknownKeyIsRefused() async throws {
        let signed = try SignedStore()
        // The builder itself refuses a key the root does not name: sign by hand, as an attacker would.
        let path = signed.fixture.packages + "/catalog.json"
        let envelope = try JSONDecoder().decode(SignedDocument.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let forged = try SignedDocument.sign(
            try #require(Data(base64Encoded: envelope.payload)), with: [SigningKey.generate()])
        try forged.encoded().write(to: URL(fileURLWithPath: path))
        try await signed.expectRefused("is signed by unknown key") { store, _ in try await Self.install(store) }
        #expect(throws: StoreError.self) {
            _ = try CatalogBuilder.build(
                packagesIn: signed.fixture.packages,
                signing: CatalogSigning(key: SigningKey.generate(), expires: Date().addingTimeInterval(60)))
        }
    }

    @Test func anExpiredCatalogIsRefused() async throws {
        let signed = try SignedStore()
        try signed.sign(expires: Date().addingTimeInterval(-60))
        try await signed.expectRefused("expired at") { store, _ in try await Self.install(store) }
    }

    @Test func anOlderCatalogThanOneSeenIsRefusedEvenAfterARestart() async throws {
        let signed = try SignedStore()
        let old = try signed.sign(version: 5)
        try signed.sign(version: 6)
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            let catalog = try await signed.store(base).refreshCatalog()
            #expect(catalog.version == 6)
        }
        // A replayed old catalog, validly signed, to a store opened again.
        try old.write(to: URL(fileURLWithPath: signed.fixture.packages + "/catalog.json"))
        try await signed.expectRefused("version 5, older than version 6 already seen (a rollback)") { store, _ in
            _ = try await store.refreshCatalog()
        }
    }

    @Test func anArbitraryPackageIsRefused() async throws {
        let signed = try SignedStore()
        // The server's package is replaced; the signed catalog still names the original.
        let other = try signed.fixture.pack(
            signed.fixture.makeTheme(id: "com.acme.ocean", brand: "#FF0000"), name: "other.liverypkg")
        try FileManager.default.removeItem(atPath: signed.fixture.packages + "/com.acme.ocean-1.0.0.liverypkg")
        try FileManager.default.moveItem(
            atPath: other, toPath: signed.fixture.packages + "/com.acme.ocean-1.0.0.liverypkg")
        try await signed.expectRefused("the catalog says", catalogAccepted: true) { store, _ in
            try await Self.install(store)
        }
    }

    @Test func endlessDataIsCutAtTheSignedSize() async throws {
        let signed = try SignedStore()
        let path = signed.fixture.packages + "/com.acme.ocean-1.0.0.liverypkg"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 8 << 20))
        try handle.close()
        try await signed.expectRefused("the catalog says", catalogAccepted: true) { store, _ in
            try await Self.install(store)
        }
    }

    @Test func productsNotFromTheVerifiedCatalogAreRefused() async throws {
        let signed = try SignedStore()
        try await signed.expectRefused("is not as the verified catalog lists it", catalogAccepted: true) {
            store, base in
            var product = try #require(try await store.refreshCatalog().product(id: "com.acme.ocean"))
            product.packageURL = base + "/elsewhere.liverypkg"
            if case .failed(let error) = await store.install(product).result() { throw error }
        }
    }

    @Test func detailsAndMediaFromAnotherCatalogVersionAreRefused() async throws {
        let signed = try SignedStore()
        // Details of another version (here: edited after signing) beside this catalog.
        let details = signed.fixture.packages + "/details/com.acme.ocean.json"
        let text = try String(contentsOfFile: details, encoding: .utf8).replacingOccurrences(
            of: "A test theme.", with: "An old description.")
        try text.write(toFile: details, atomically: true, encoding: .utf8)
        try await signed.expectRefused("a document of another catalog version", catalogAccepted: true) { store, _ in
            let product = try #require(try await store.refreshCatalog().product(id: "com.acme.ocean"))
            _ = try await store.details(for: product)
        }
        try await signed.expectRefused("is not among the documents the signed catalog names", catalogAccepted: true) {
            store, base in
            _ = try await store.refreshCatalog()
            _ = try await store.media(at: base + "/media/com.acme.ocean/thumbnail-from-elsewhere.png")
        }
    }

    /// The catalog key leaks; the publisher names a new one in root 2 (signed offline by the
    /// root key). Clients follow root 2 with no app update, and the leaked key is refused.
    @Test func aCompromisedCatalogKeyIsReplacedWithoutAnAppUpdate() async throws {
        let signed = try SignedStore()
        let leaked = signed.catalogKey
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            try await Self.install(try await signed.store(base))
        }
        signed.catalogKey = SigningKey.generate()
        try RootPublisher.publish(
            in: signed.fixture.packages, rootKeys: [signed.rootKey.publicKey],
            catalogKeys: [signed.catalogKey.publicKey], signers: [signed.rootKey])
        try signed.sign()
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            let catalog = try await signed.store(base).refreshCatalog()
            #expect(catalog.version == 2)
        }
        // The attacker signs a newer catalog with the leaked key.
        let path = signed.fixture.packages + "/catalog.json"
        let envelope = try JSONDecoder().decode(SignedDocument.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        var payload = String(decoding: try #require(Data(base64Encoded: envelope.payload)), as: UTF8.self)
        payload = payload.replacingOccurrences(of: "\"version\" : 2", with: "\"version\" : 99")
        try SignedDocument.sign(Data(payload.utf8), with: [leaked]).encoded().write(to: URL(fileURLWithPath: path))
        try await signed.expectRefused("is signed by unknown key") { store, _ in _ = try await store.refreshCatalog() }
    }

    /// The root key is rotated: root 2 names a new root key, signed by the old and the new. An
    /// app that ships only the old root key walks 1 -> 2; a root 3 signed by the old key alone
    /// (an attacker holding it) is refused.
    @Test func theRootKeyRotatesAndTheOldOneNoLongerSigns() async throws {
        let signed = try SignedStore()
        let newRoot = SigningKey.generate()
        #expect(throws: StoreError.self) {  // the old root must sign the rotation
            try RootPublisher.publish(
                in: signed.fixture.packages, rootKeys: [newRoot.publicKey],
                catalogKeys: [signed.catalogKey.publicKey], signers: [newRoot])
        }
        try RootPublisher.publish(
            in: signed.fixture.packages, rootKeys: [newRoot.publicKey],
            catalogKeys: [signed.catalogKey.publicKey], signers: [newRoot, signed.rootKey])
        try signed.sign()
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            try await Self.install(try await signed.store(base))
        }
        // Root 3 by the old root key alone, naming the attacker's catalog key.
        let attacker = SigningKey.generate()
        let root3 = RootDocument(version: 3, rootKeys: [signed.rootKey.publicKey], catalogKeys: [attacker.publicKey])
        try SignedDocument.sign(try CatalogBuilder.encodeJSON(root3), with: [signed.rootKey]).encoded()
            .write(to: URL(fileURLWithPath: signed.fixture.packages + "/roots/3.json"))
        try await signed.expectRefused("root 3 is signed by unknown key") { store, _ in
            _ = try await store.refreshCatalog()
        }
    }

    /// An app released after a root rotation ships only the new root key: it starts at the first
    /// root that key signs (root 2) and installs. A key no root names is still refused.
    @Test func anAppShippingOnlyTheNewRootKeyInstallsAfterARotation() async throws {
        let signed = try SignedStore()
        let newRoot = SigningKey.generate()
        try RootPublisher.publish(
            in: signed.fixture.packages, rootKeys: [newRoot.publicKey],
            catalogKeys: [signed.catalogKey.publicKey], signers: [newRoot, signed.rootKey])
        try signed.sign()
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            let stranger = try await signed.store(
                base, trust: .signed(rootKeys: [SigningKey.generate().publicKey.base64]))
            await #expect(throws: StoreError.self) { _ = try await stranger.refreshCatalog() }
            #expect(signed.trustState == nil)
            try await Self.install(try await signed.store(base, trust: .signed(rootKeys: [newRoot.publicKey.base64])))
        }
        let state = try JSONDecoder().decode(TrustState.self, from: try #require(signed.trustState))
        let rootData = try #require(state.root)
        let envelope = try #require(SignedDocument.parse(rootData))
        let payload = try #require(envelope.payloadBytes)
        #expect(try JSONDecoder().decode(RootDocument.self, from: payload).version == 2)
    }

    /// Development trust remembers nothing: neither an unsigned install nor a failed one writes
    /// trust state; a signed catalog already seen does not rewrite it.
    @Test func trustStateIsWrittenOnlyForVerifiedSignedMetadataThatMovesIt() async throws {
        let fixture = try Fixture()
        let package = try fixture.pack(fixture.makeTheme(id: "com.acme.ocean"))
        _ = try CatalogBuilder.build(packagesIn: fixture.packages)
        Fixture.stampPublished(fixture.packages)
        let trustFolder = fixture.installed + "/.liverystore/trust"
        try await TestServer.withServer(folder: fixture.packages) { base in
            let store = try await fixture.makeStore(
                manager: nil, catalogURL: base + "/catalog.json", trust: .unsignedForDevelopment)
            try await Self.install(store)
            #expect(!FileManager.default.fileExists(atPath: trustFolder))
            // A failing install (the package no longer matches the catalog's size and digest).
            try Data("not a package".utf8).write(to: URL(fileURLWithPath: package))
            let catalog = try await store.refreshCatalog()
            let state = await store.install(try #require(catalog.product(id: "com.acme.ocean")), allowDowngrade: true)
                .result()
            guard case .failed = state else {
                Issue.record("expected a failure, got \(state)")
                return
            }
            #expect(!FileManager.default.fileExists(atPath: trustFolder))
        }
        let signed = try SignedStore()
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            _ = try await signed.store(base).refreshCatalog()
            let path = signed.fixture.installed + "/.liverystore/trust/state.json"
            let old = Date(timeIntervalSince1970: 1_000_000)
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: path)
            _ = try await signed.store(base).refreshCatalog()
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == old)
            try signed.sign()
            _ = try await signed.store(base).refreshCatalog()
            #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date != old)
        }
    }

    /// `.unsignedForDevelopment` accepts an unsigned catalog, but what is signed is verified: a
    /// tampered or expired signed catalog is refused, a valid one installs.
    @Test func developmentTrustStillVerifiesWhatIsSigned() async throws {
        let signed = try SignedStore()
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            try await Self.install(try await signed.store(base, trust: .unsignedForDevelopment))
        }
        let path = signed.fixture.packages + "/catalog.json"
        let valid = try Data(contentsOf: URL(fileURLWithPath: path))
        var envelope = try JSONDecoder().decode(SignedDocument.self, from: valid)
        var payload = String(decoding: try #require(Data(base64Encoded: envelope.payload)), as: UTF8.self)
        let digest = try #require(payload.range(of: "\"sha256\" : \"[0-9a-f]{64}\"", options: .regularExpression))
        payload.replaceSubrange(digest, with: "\"sha256\" : \"" + String(repeating: "0", count: 64) + "\"")
        envelope.payload = Data(payload.utf8).base64EncodedString()
        try envelope.encoded().write(to: URL(fileURLWithPath: path))
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            let store = try await signed.store(base, trust: .unsignedForDevelopment)
            await #expect { _ = try await store.refreshCatalog() } throws: { error in
                "\(error)".contains("the signature of the catalog at")
            }
        }
        try signed.sign(expires: Date().addingTimeInterval(-60))
        try await TestServer.withServer(folder: signed.fixture.packages) { base in
            let store = try await signed.store(base, trust: .unsignedForDevelopment)
            await #expect { _ = try await store.refreshCatalog() } throws: { error in "\(error)".contains("expired at")
            }
        }
    }

    @Test func aStoreWithoutARootIsRefused() async throws {
        let signed = try SignedStore()
        try FileManager.default.removeItem(atPath: signed.fixture.packages + "/roots")
        try await signed.expectRefused("publishes no root") { store, _ in _ = try await store.refreshCatalog() }
    }

    @Test func keyFilesAreWrittenForTheOwnerOnlyAndOthersAreRefused() throws {
        let fixture = try Fixture()
        let path = fixture.root + "/catalog.key"
        let key = SigningKey.generate()
        try key.write(to: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try SigningKey(contentsOf: path).publicKey == key.publicKey)
        #expect(throws: StoreError.self) { try key.write(to: path) }  // never overwritten
        chmod(path, 0o644)
        #expect(throws: StoreError.self) { _ = try SigningKey(contentsOf: path) }
    }
}
