import Foundation

/// The store's catalog (`catalog.json`): what can be bought and downloaded.
public struct Catalog: Codable, Hashable, Sendable {
    public static let currentFormatVersion = 1
    public var formatVersion: Int
    /// A signed catalog's version: it only grows; a client refuses one lower than it has seen.
    public var version: Int?
    /// A signed catalog's expiry (ISO 8601): a client refuses it after, so a frozen store shows.
    public var expires: String?
    public var products: [CatalogProduct]
    /// A signed catalog's digest of every details document and media file, by URL: details or
    /// media of another catalog version are refused.
    public var documents: [String: DocumentDigest]?

    public init(
        formatVersion: Int = Catalog.currentFormatVersion, version: Int? = nil, expires: String? = nil,
        products: [CatalogProduct], documents: [String: DocumentDigest]? = nil
    ) {
        self.formatVersion = formatVersion
        self.version = version
        self.expires = expires
        self.products = products
        self.documents = documents
    }

    public func product(id: String) -> CatalogProduct? { products.first { $0.id == id } }

    /// The catalog with every URL absolute: relative ones (`com.acme.ocean-1.0.0.liverypkg`,
    /// `details/com.acme.ocean.json`) are resolved against the catalog's own URL, so a store folder
    /// can move to another host or a CDN without being rebuilt.
    public func resolvingURLs(against catalogURL: String) throws -> Catalog {
        var resolved = self
        for index in resolved.products.indices {
            var product = resolved.products[index]
            product.packageURL = try CatalogURL.resolve(product.packageURL, against: catalogURL)
            product.detailsURL = try CatalogURL.resolve(product.detailsURL, against: catalogURL)
            product.thumbnailURL = try product.thumbnailURL.map { try CatalogURL.resolve($0, against: catalogURL) }
            resolved.products[index] = product
        }
        if let documents {
            var absolute: [String: DocumentDigest] = [:]
            for (url, digest) in documents { absolute[try CatalogURL.resolve(url, against: catalogURL)] = digest }
            resolved.documents = absolute
        }
        return resolved
    }
}

/// URLs in catalogs and details: absolute, or relative to the document that holds them.
public enum CatalogURL {
    public static func resolve(_ reference: String, against base: String) throws -> String {
        guard let baseURL = URL(string: base), let url = URL(string: reference, relativeTo: baseURL)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            throw StoreError.invalidContent(
                "'\(reference)' (in \(base)) is not an http(s) URL, absolute or relative to the document")
        }
        return url.absoluteString
    }
}

public struct Price: Codable, Hashable, Sendable {
    /// A decimal string, e.g. "0.99", so no floating point rounding happens on the way.
    public var amount: String
    /// ISO 4217, e.g. "EUR".
    public var currency: String
    public init(amount: String, currency: String) {
        self.amount = amount
        self.currency = currency
    }
}

public struct CatalogProduct: Codable, Hashable, Sendable, Identifiable {
    public var id: String
    public var name: String
    /// `theme`, or another type an app registers a handler for.
    public var type: String
    public var version: String
    /// Nil when the product is free.
    public var price: Price?
    public var packageURL: String
    public var packageSize: Int64
    public var sha256: String
    public var thumbnailURL: String?
    public var detailsURL: String
    /// The product this one builds on (a theme's parent), with its minimum version.
    public var parent: PackageManifest.Dependency?
    /// The compiled files the package carries (a theme's): format version, size, SHA-256 and the
    /// parent chain each was made from. The store picks the one the app reads before downloading.
    public var compiled: [PackageManifest.CompiledFile]?

    public var isFree: Bool { price == nil }

    public init(
        id: String, name: String, type: String, version: String, price: Price?, packageURL: String,
        packageSize: Int64, sha256: String, thumbnailURL: String?, detailsURL: String,
        parent: PackageManifest.Dependency? = nil, compiled: [PackageManifest.CompiledFile]? = nil
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.version = version
        self.price = price
        self.packageURL = packageURL
        self.packageSize = packageSize
        self.sha256 = sha256
        self.thumbnailURL = thumbnailURL
        self.detailsURL = detailsURL
        self.parent = parent
        self.compiled = compiled
    }
}

/// `details/<id>.json`: what a product page shows.
public struct ProductDetails: Codable, Hashable, Sendable {
    public var id: String
    public var description: String
    public var previewURLs: [String]
    /// One image with several previews side by side, for fast scrolling lists.
    public var spriteURL: String?

    public init(id: String, description: String, previewURLs: [String], spriteURL: String?) {
        self.id = id
        self.description = description
        self.previewURLs = previewURLs
        self.spriteURL = spriteURL
    }

    /// The details with every URL absolute (see `Catalog.resolvingURLs`).
    public func resolvingURLs(against detailsURL: String) throws -> ProductDetails {
        var resolved = self
        resolved.previewURLs = try previewURLs.map { try CatalogURL.resolve($0, against: detailsURL) }
        resolved.spriteURL = try spriteURL.map { try CatalogURL.resolve($0, against: detailsURL) }
        return resolved
    }
}

/// How `livery catalog --sign-with KEY --expires 30d` signs.
public struct CatalogSigning: Sendable {
    public var key: SigningKey
    public var expires: Date
    /// Nil: one more than the folder's current catalog.
    public var version: Int?
    public init(key: SigningKey, expires: Date, version: Int? = nil) {
        self.key = key
        self.expires = expires
        self.version = version
    }
}

/// Publishes root documents in a store folder: `livery keys root`.
public enum RootPublisher {
    /// The newest root in `folder` (its payload and envelope bytes), nil when there is none.
    public static func newestRoot(in folder: String) throws -> (RootDocument, Data)? {
        var version = 1
        var newest: (RootDocument, Data)?
        while let data = FileManager.default.contents(atPath: folder + "/" + RootDocument.folder(version)) {
            guard let bytes = SignedDocument.parse(data)?.payloadBytes,
                let root = try? JSONDecoder().decode(RootDocument.self, from: bytes)
            else {
                throw StoreError.untrusted("\(folder)/\(RootDocument.folder(version)) is not a signed root document")
            }
            newest = (root, data)
            version += 1
        }
        return newest
    }

    /// Writes `roots/N+1.json` naming `rootKeys` and `catalogKeys`, signed by `signers`: the new
    /// root keys, and (after the first root) enough root keys of root N, which proves the
    /// rotation to clients that trust root N. Returns the root written.
    @discardableResult
    public static func publish(
        in folder: String, rootKeys: [PublicKey], catalogKeys: [PublicKey],
        signers: [SigningKey]
    ) throws -> RootDocument {
        let previous = try newestRoot(in: folder)
        let root = RootDocument(version: (previous?.0.version ?? 0) + 1, rootKeys: rootKeys, catalogKeys: catalogKeys)
        guard !rootKeys.isEmpty, !catalogKeys.isEmpty else {
            throw StoreError.untrusted("a root needs a root key and a catalog key")
        }
        let envelope = try SignedDocument.sign(try CatalogBuilder.encodeJSON(root), with: signers)
        _ = try envelope.verified(
            by: rootKeys, threshold: root.rootThreshold, what: "the new root (signed by its own root key)")
        if let previous {
            _ = try envelope.verified(
                by: try previous.0.keys(previous.0.rootKeys), threshold: previous.0.rootThreshold,
                what: "the new root (signed by a root key of root \(previous.0.version), for clients that trust it)")
        }
        try FileManager.default.createDirectory(atPath: folder + "/roots", withIntermediateDirectories: true)
        try envelope.encoded().write(
            to: URL(fileURLWithPath: folder + "/" + RootDocument.folder(root.version)), options: .atomic)
        return root
    }
}

/// Writes a catalog folder from a folder of packages: `livery catalog`.
public enum CatalogBuilder {
    public static let packageExtension = "liverypkg"

    /// Reads every `*.liverypkg` in `folder` (checking each like an install would), extracts
    /// store media to `media/<id>/`, and writes `catalog.json` and `details/<id>.json`.
    /// Prices come from an optional `prices.json` (`{"com.acme.ocean": {"amount": "0.99",
    /// "currency": "EUR"}}`); products without a price are free. When several packages have
    /// the same id, the newest version is listed. Returns the catalog written.
    ///
    /// Without `baseURL`, URLs are relative (to the catalog for its own, to the details file for
    /// the details'), so the folder can be served from any host or CDN as it is.
    ///
    /// With `signing`, the catalog gets a version (one more than the folder's current catalog,
    /// unless given), an expiry and the digest of every details and media file, and is written
    /// signed; the key must be a catalog key of the folder's newest root (`roots/N.json`).
    public static func build(packagesIn folder: String, baseURL: String? = nil, signing: CatalogSigning? = nil) throws
        -> Catalog
    {
        var newestRoot: RootDocument?
        if let signing {
            guard let (root, _) = try RootPublisher.newestRoot(in: folder) else {
                throw StoreError.untrusted(
                    "\(folder) has no roots/1.json; publish a root naming the catalog key first (livery keys root)")
            }
            guard root.catalogKeys.contains(signing.key.publicKey.base64) else {
                throw StoreError.untrusted(
                    "the key \(signing.key.publicKey) is not a catalog key of root \(root.version); publish a root naming it first (livery keys root)"
                )
            }
            newestRoot = root
        }
        let base = baseURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        // Relative URLs are relative to the document holding them: details live one folder down.
        func url(_ path: String, fromDetails: Bool = false) -> String {
            if let base { return base + "/" + path }
            return fromDetails ? "../" + path : path
        }
        let files = FileManager.default
        var prices: [String: Price] = [:]
        if let data = files.contents(atPath: folder + "/prices.json") {
            do {
                prices = try JSONDecoder().decode([String: Price].self, from: data)
            } catch {
                throw StoreError.invalidContent("prices.json: \(error)")
            }
        }
        let newest = try newestPackages(in: folder)
        var products: [CatalogProduct] = []
        var documents: [String: DocumentDigest] = [:]
        for id in newest.keys.sorted() {
            let (archive, entry) = newest[id]!
            let manifest = archive.manifest
            let (digest, size) = try Hashing.sha256(fileAt: folder + "/" + entry)
            let mediaFolder = folder + "/media/" + id
            try? files.removeItem(atPath: mediaFolder)
            try files.createDirectory(atPath: mediaFolder, withIntermediateDirectories: true)
            var thumbnail: String?
            var previews: [String] = []
            var sprite: String?
            for file in manifest.files where file.path.hasPrefix(PackageManifest.storeFolder + "/") {
                let name = String(file.path.dropFirst(PackageManifest.storeFolder.count + 1))
                guard !name.contains("/") else { continue }
                let media = try archive.data(of: file.path)
                try media.write(to: URL(fileURLWithPath: mediaFolder + "/" + name), options: .atomic)
                let path = "media/" + encode(id) + "/" + encode(name)
                documents[url(path)] = DocumentDigest(size: Int64(media.count), sha256: Hashing.sha256(media))
                if name.hasPrefix("thumbnail.") {
                    thumbnail = url(path)
                } else if name.hasPrefix("sprite.") {
                    sprite = url(path, fromDetails: true)
                } else if name.hasPrefix("preview-") {
                    previews.append(url(path, fromDetails: true))
                }
            }
            let details = ProductDetails(
                id: id, description: manifest.description ?? "", previewURLs: previews.sorted(), spriteURL: sprite)
            try files.createDirectory(atPath: folder + "/details", withIntermediateDirectories: true)
            let detailsData = try encodeJSON(details)
            try detailsData.write(to: URL(fileURLWithPath: folder + "/details/" + id + ".json"), options: .atomic)
            documents[url("details/" + encode(id) + ".json")] = DocumentDigest(
                size: Int64(detailsData.count), sha256: Hashing.sha256(detailsData))
            products.append(
                CatalogProduct(
                    id: id, name: manifest.name, type: manifest.type, version: manifest.version, price: prices[id],
                    packageURL: url(encode(entry)), packageSize: size, sha256: digest, thumbnailURL: thumbnail,
                    detailsURL: url("details/" + encode(id) + ".json"), parent: manifest.parent,
                    compiled: manifest.compiled))
        }
        guard let signing, newestRoot != nil else {
            let catalog = Catalog(products: products)
            try encodeJSON(catalog).write(to: URL(fileURLWithPath: folder + "/catalog.json"), options: .atomic)
            return catalog
        }
        let version = signing.version ?? (currentVersion(in: folder) + 1)
        let catalog = Catalog(
            version: version, expires: ISO8601DateFormatter().string(from: signing.expires),
            products: products, documents: documents)
        let envelope = try SignedDocument.sign(try encodeJSON(catalog), with: [signing.key])
        try envelope.encoded().write(to: URL(fileURLWithPath: folder + "/catalog.json"), options: .atomic)
        return catalog
    }

    /// The newest version of each product among the packages in `folder` (each checked like an
    /// install would), with its file name, by id.
    private static func newestPackages(in folder: String) throws -> [String: (PackageArchive, String)] {
        var newest: [String: (PackageArchive, String)] = [:]
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        for entry in entries where (entry as NSString).pathExtension == packageExtension {
            let archive: PackageArchive
            do {
                archive = try PackageArchive(path: folder + "/" + entry)
            } catch {
                throw StoreError.invalidPackage("\(entry): \(error)")
            }
            let id = archive.manifest.id
            if let existing = newest[id],
                !ThemeVersion.isNewer(archive.manifest.version, than: existing.0.manifest.version)
            {
                continue
            }
            newest[id] = (archive, entry)
        }
        return newest
    }

    /// The version of the signed catalog in `folder`, 0 when there is none.
    static func currentVersion(in folder: String) -> Int {
        guard let data = FileManager.default.contents(atPath: folder + "/catalog.json"),
            let bytes = SignedDocument.parse(data)?.payloadBytes,
            let catalog = try? JSONDecoder().decode(Catalog.self, from: bytes)
        else { return 0 }
        return catalog.version ?? 0
    }

    static func encodeJSON(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    private static func encode(_ component: String) -> String {
        component.addingPercentEncoding(
            withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? component
    }
}
