import Crypto
import Foundation
import Livery

#if canImport(Glibc)
    import Glibc
#endif

// Signed catalogs, after The Update Framework (TUF), with Ed25519:
//
// - a root document (`roots/N.json`), signed offline by a root key, names the root keys and the
//   catalog keys; root N+1 is signed by the keys of root N and by its own, so keys rotate
//   without an app update: an app that ships root 1's public key walks the chain, and an app
//   released after a rotation ships the new root key and starts at the first root it signs;
// - the catalog (`catalog.json`) is signed by a catalog key named by the newest root; it carries
//   a version that only grows, an expiry date, and the SHA-256 and size of every package, details
//   document and media file it references.
//
// A signed document is an envelope `{"payload": base64, "signatures": [{"keyID", "signature"}]}`:
// the signature covers the payload's exact bytes, so no JSON canonicalization is involved, and
// one file holds both (a CDN cannot serve a new payload with an old signature).

/// An Ed25519 public key, as base64 of its 32 raw bytes; its id is the SHA-256 of those bytes.
public struct PublicKey: Hashable, Sendable, CustomStringConvertible {
    public let base64: String
    /// The raw 32 bytes (swift-crypto's key types are not Sendable; they are rebuilt to verify).
    let raw: Data

    public init(base64: String) throws {
        guard let data = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)),
            let key = try? Curve25519.Signing.PublicKey(rawRepresentation: data)
        else {
            throw StoreError.untrusted("'\(base64)' is not an Ed25519 public key (base64 of 32 bytes)")
        }
        self.init(key)
    }

    init(_ key: Curve25519.Signing.PublicKey) {
        raw = key.rawRepresentation
        base64 = raw.base64EncodedString()
    }

    /// Hex SHA-256 of the raw key: how signatures name their key.
    public var id: String { Hashing.sha256(raw) }
    public var description: String { base64 }

    func isValidSignature(_ signature: Data, for data: Data) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
        return key.isValidSignature(signature, for: data)
    }
}

/// An Ed25519 private key as `livery keys generate` writes it: a JSON file, mode 0600, kept
/// offline (root keys) or on the publishing machine (catalog keys), never in the store folder.
public struct SigningKey: Sendable {
    private let raw: Data
    public let publicKey: PublicKey

    public static func generate() -> SigningKey { SigningKey(key: Curve25519.Signing.PrivateKey()) }

    init(key: Curve25519.Signing.PrivateKey) {
        raw = key.rawRepresentation
        publicKey = PublicKey(key.publicKey)
    }

    struct File: Codable {
        var type: String
        var privateKey: String
        var publicKey: String
    }

    /// Writes the key with permissions 0600, refusing to replace a file.
    public func write(to path: String) throws {
        let file = File(type: "ed25519", privateKey: raw.base64EncodedString(), publicKey: publicKey.base64)
        let data = try CatalogBuilder.encodeJSON(file)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError.io("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // The mode passed to open is filtered by the umask; 0600 is what the file must have.
        guard fchmod(descriptor, 0o600) == 0 else { throw StoreError.io("cannot restrict \(path) to its owner") }
        try data.withUnsafeBytes { try writeAll($0, to: descriptor, path: path) }
        guard fsync(descriptor) == 0 else { throw StoreError.io("cannot flush \(path)") }
    }

    /// Reads a key file; refuses one that others can read.
    public init(contentsOf path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, let data = FileManager.default.contents(atPath: path) else {
            throw StoreError.io("cannot read the key \(path)")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw StoreError.untrusted(
                "the private key \(path) can be read by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it"
            )
        }
        guard let file = try? JSONDecoder().decode(File.self, from: data), file.type == "ed25519",
            let raw = Data(base64Encoded: file.privateKey),
            let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        else {
            throw StoreError.untrusted("\(path) is not a private key written by `livery keys generate`")
        }
        self.init(key: key)
    }

    func sign(_ payload: Data) throws -> SignedDocument.Signature {
        let key = try Curve25519.Signing.PrivateKey(rawRepresentation: raw)
        return SignedDocument.Signature(
            keyID: publicKey.id, signature: try key.signature(for: payload).base64EncodedString())
    }
}

/// A payload with its signatures (see the top of this file).
public struct SignedDocument: Codable, Sendable {
    public struct Signature: Codable, Hashable, Sendable {
        public var keyID: String
        public var signature: String
    }

    /// Base64 of the signed bytes.
    public var payload: String
    public var signatures: [Signature]

    public static func sign(_ payload: Data, with keys: [SigningKey]) throws -> SignedDocument {
        SignedDocument(payload: payload.base64EncodedString(), signatures: try keys.map { try $0.sign(payload) })
    }

    /// Whether `data` is an envelope at all (an unsigned catalog is not).
    static func parse(_ data: Data) -> SignedDocument? {
        try? JSONDecoder().decode(SignedDocument.self, from: data)
    }

    var payloadBytes: Data? { Data(base64Encoded: payload) }

    /// The ids of the keys among `keys` whose signature over the payload verifies.
    func validSigners(among keys: [PublicKey]) -> Set<String> {
        guard let bytes = payloadBytes else { return [] }
        var valid = Set<String>()
        for signature in signatures {
            guard let key = keys.first(where: { $0.id == signature.keyID }),
                let raw = Data(base64Encoded: signature.signature),
                key.isValidSignature(raw, for: bytes)
            else { continue }
            valid.insert(key.id)
        }
        return valid
    }

    /// The payload, when at least `threshold` of `keys` signed it; else a message saying why not.
    func verified(by keys: [PublicKey], threshold: Int, what: String) throws -> Data {
        guard let bytes = payloadBytes else { throw StoreError.untrusted("\(what) has no readable payload") }
        guard !signatures.isEmpty else { throw StoreError.untrusted("\(what) has no signature") }
        let known = signatures.filter { signature in keys.contains { $0.id == signature.keyID } }
        guard !known.isEmpty else {
            throw StoreError.untrusted(
                "\(what) is signed by unknown key\(signatures.count == 1 ? "" : "s") \(signatures.map { String($0.keyID.prefix(16)) }.joined(separator: ", ")); none is trusted"
            )
        }
        let valid = validSigners(among: keys)
        guard valid.count >= threshold else {
            throw StoreError.untrusted(
                "the signature of \(what) does not verify (\(valid.count) valid of \(threshold) needed)")
        }
        return bytes
    }

    public func encoded() throws -> Data { try CatalogBuilder.encodeJSON(self) }
}

/// `roots/N.json`'s payload: which keys sign roots and catalogs.
public struct RootDocument: Codable, Hashable, Sendable {
    public var type = "root"
    /// 1, 2, 3...: root N+1 must be signed by root N's root keys.
    public var version: Int
    public var rootKeys: [String]
    public var rootThreshold: Int
    public var catalogKeys: [String]
    public var catalogThreshold: Int

    public init(
        version: Int, rootKeys: [PublicKey], catalogKeys: [PublicKey], rootThreshold: Int = 1, catalogThreshold: Int = 1
    ) {
        self.version = version
        self.rootKeys = rootKeys.map(\.base64)
        self.catalogKeys = catalogKeys.map(\.base64)
        self.rootThreshold = rootThreshold
        self.catalogThreshold = catalogThreshold
    }

    func keys(_ list: [String]) throws -> [PublicKey] { try list.map { try PublicKey(base64: $0) } }

    public static func folder(_ version: Int) -> String { "roots/\(version).json" }
}

/// What a signed catalog's payload adds to the products: freshness and the digests of every
/// other document, so details and media from another catalog version are refused.
public struct DocumentDigest: Codable, Hashable, Sendable {
    public var size: Int64
    public var sha256: String
    public init(size: Int64, sha256: String) {
        self.size = size
        self.sha256 = sha256
    }
}

/// How an app decides whether to believe a catalog.
public enum CatalogTrust: Sendable, Hashable {
    /// The catalog must be signed by a catalog key of a root that chains to one of these root
    /// public keys (base64 Ed25519, as `livery keys generate` prints). What apps ship.
    case signed(rootKeys: [String])
    /// Development only: an unsigned catalog is accepted. What is signed is still verified: when
    /// the store publishes roots, root 1 is taken on its own keys (there is no shipped key to
    /// check it against), the chain is walked from it, and the catalog must verify against the
    /// newest root like a signed store's (signature, expiry); a signed catalog of a store without
    /// roots is refused. Nothing is remembered between runs. Never ship this: anyone on the path
    /// can then push any theme.
    case unsignedForDevelopment
}

extension CatalogTrust {
    /// Signed by the root keys of the app's configuration (`<store>` in `Livery.xml`). Each key
    /// is parsed here; a malformed one is refused with the place it is written at
    /// (`Livery.xml:7:5: …`), a store without keys too.
    public init(configuration store: LiveryConfiguration.Store) throws {
        guard !store.rootKeys.isEmpty else {
            throw StoreError.untrusted(
                "the store configuration for \(store.catalogURL) has no root key: add <root-key> with the store's root public key (livery keys generate prints it)"
            )
        }
        var keys: [String] = []
        for (index, text) in store.rootKeys.enumerated() {
            do {
                keys.append(try PublicKey(base64: text).base64)
            } catch {
                let location = index < store.rootKeyLocations.count ? store.rootKeyLocations[index] : nil
                throw StoreError.untrusted(
                    "\(location.map { "\($0): " } ?? "")the <root-key> '\(text)' is not an Ed25519 public key (base64 of 32 bytes, as livery keys generate prints it)"
                )
            }
        }
        self = .signed(rootKeys: keys)
    }
}

/// The client's memory of what it trusted last: the newest root it verified and the highest
/// catalog version it accepted (rollback protection). Kept in `.liverystore/trust/`.
struct TrustState: Codable, Hashable {
    /// The newest verified root document's envelope, as published.
    var root: Data?
    var lastCatalogVersion: Int

    static func load(from folder: String) -> TrustState {
        guard let data = FileManager.default.contents(atPath: folder + "/state.json"),
            let state = try? JSONDecoder().decode(TrustState.self, from: data)
        else {
            return TrustState(root: nil, lastCatalogVersion: 0)
        }
        return state
    }

    func save(in folder: String) throws {
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = folder + "/state.json.tmp"
        try ProductInstaller.writeDurably(try JSONEncoder().encode(self), to: temporary)
        guard rename(temporary, folder + "/state.json") == 0 else {
            throw StoreError.io("cannot save the store's trust state")
        }
    }
}

/// Checks roots and catalogs (no network, no files: the client fetches, this decides).
struct CatalogVerifier {
    let trust: CatalogTrust
    var now: Date

    /// The root to trust, walked forward through `fetchRoot(n)` (nil when there is no root n):
    /// from `trusted` when the app verified one before; else, with signed trust, from the first
    /// root that a shipped key signs and names as a root key (roots before it are skipped: an app
    /// released after a root rotation ships the new key); in development, from root 1 taken on
    /// its own keys. Each later root is signed by its predecessor's root keys and by its own.
    /// Nil only in development, when the store publishes no root.
    func verifyRoots(trusted: Data?, fetchRoot: (Int) async throws -> Data?) async throws -> (RootDocument, Data)? {
        let shippedKeys: [PublicKey]?
        var current: (RootDocument, Data)?
        switch trust {
        case .signed(let shipped):
            shippedKeys = try shipped.map { try PublicKey(base64: $0) }
            if let trusted, let envelope = SignedDocument.parse(trusted), let bytes = envelope.payloadBytes,
                let root = try? JSONDecoder().decode(RootDocument.self, from: bytes)
            {
                current = (root, trusted)
            }
        case .unsignedForDevelopment:
            shippedKeys = nil
        }
        var version = (current?.0.version ?? 0) + 1
        // Why the roots before the first one a shipped key signs were skipped (reported when none is).
        var firstRefusal: StoreError?
        while version < 100_000, let data = try await fetchRoot(version) {
            defer { version += 1 }
            guard let envelope = SignedDocument.parse(data) else {
                throw StoreError.untrusted("root \(version) is not a signed document")
            }
            if let current {
                _ = try envelope.verified(
                    by: try current.0.keys(current.0.rootKeys), threshold: current.0.rootThreshold,
                    what: "root \(version)")
            } else if let shippedKeys {
                do {
                    _ = try envelope.verified(by: shippedKeys, threshold: 1, what: "root \(version)")
                } catch let error as StoreError {
                    firstRefusal = firstRefusal ?? error
                    continue
                }
            }
            let root = try Self.decodeRoot(envelope, version: version)
            if current == nil, let shippedKeys {
                // The shipped key must be this root's own root key, not only a co-signer of it.
                guard root.rootKeys.contains(where: { key in shippedKeys.contains { $0.base64 == key } }) else {
                    firstRefusal = firstRefusal ?? .untrusted("root \(version) does not name the shipped root key")
                    continue
                }
            }
            // Its own keys sign it too: a rotation proves the new key is held.
            _ = try envelope.verified(
                by: try root.keys(root.rootKeys), threshold: root.rootThreshold, what: "root \(version) (its own keys)")
            current = (root, data)
        }
        guard let current else {
            if let firstRefusal { throw firstRefusal }
            if shippedKeys == nil { return nil }
            throw StoreError.untrusted("the store publishes no root (roots/1.json); it cannot be trusted")
        }
        return current
    }

    static func decodeRoot(_ envelope: SignedDocument, version: Int) throws -> RootDocument {
        guard let bytes = envelope.payloadBytes else {
            throw StoreError.untrusted("root \(version) has no readable payload")
        }
        let root: RootDocument
        do {
            root = try JSONDecoder().decode(RootDocument.self, from: bytes)
        } catch {
            throw StoreError.untrusted("root \(version) is not a root document: \(error)")
        }
        guard root.type == "root", root.version == version else {
            throw StoreError.untrusted(
                "roots/\(version).json holds root \(root.version); a root cannot be replayed under another number")
        }
        guard root.rootThreshold >= 1, root.catalogThreshold >= 1, !root.catalogKeys.isEmpty else {
            throw StoreError.untrusted("root \(version) has no catalog key or a threshold below 1")
        }
        return root
    }

    /// The catalog's products, checked against the root: signature, expiry, version.
    func verifyCatalog(_ data: Data, root: RootDocument?, lastVersion: Int, url: String) throws -> Catalog {
        guard let envelope = SignedDocument.parse(data) else {
            guard case .unsignedForDevelopment = trust else {
                throw StoreError.untrusted("the catalog at \(url) is not signed; this app accepts only signed catalogs")
            }
            return try Self.decodeCatalog(data, url: url)
        }
        guard let root else {
            // What is signed is verified, also in development: without a root there is nothing to verify against.
            throw StoreError.untrusted(
                "the catalog at \(url) is signed, but the store publishes no root (roots/1.json) to verify it")
        }
        let bytes = try envelope.verified(
            by: try root.keys(root.catalogKeys), threshold: root.catalogThreshold, what: "the catalog at \(url)")
        let catalog = try Self.decodeCatalog(bytes, url: url)
        guard let version = catalog.version, let expires = catalog.expires else {
            throw StoreError.untrusted("the signed catalog at \(url) has no version or expiry")
        }
        guard version >= lastVersion else {
            throw StoreError.untrusted(
                "the catalog at \(url) is version \(version), older than version \(lastVersion) already seen (a rollback)"
            )
        }
        guard let date = ISO8601DateFormatter().date(from: expires), date > now else {
            throw StoreError.untrusted(
                "the catalog at \(url) expired at \(expires) (a frozen store); the publisher must sign a fresh one")
        }
        return catalog
    }

    static func decodeCatalog(_ data: Data, url: String) throws -> Catalog {
        let catalog: Catalog
        do {
            catalog = try JSONDecoder().decode(Catalog.self, from: data)
        } catch {
            throw StoreError.invalidContent("the catalog at \(url) is not valid catalog JSON: \(error)")
        }
        guard catalog.formatVersion <= Catalog.currentFormatVersion else {
            throw StoreError.invalidContent(
                "the catalog's format \(catalog.formatVersion) is newer than this app reads; update the app")
        }
        return catalog
    }
}

/// Finding private key files where they must not be: a store folder is served to everyone.
public enum PrivateKeyFiles {
    /// Whether the file is a private key: named `*.key`, or a small file holding the private key
    /// JSON `livery keys generate` writes.
    public static func isPrivateKey(at path: String) -> Bool {
        if path.hasSuffix(".key") { return true }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? Int, size <= 64 * 1024,
            let data = FileManager.default.contents(atPath: path)
        else { return false }
        return (try? JSONDecoder().decode(SigningKey.File.self, from: data)) != nil
    }

    /// Every private key file at any depth of `folder`, sorted.
    public static func find(in folder: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let path = folder + "/" + relative
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                isPrivateKey(at: path)
            {
                found.append(path)
            }
        }
        return found.sorted()
    }
}
