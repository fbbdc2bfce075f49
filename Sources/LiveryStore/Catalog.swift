import Foundation

/// The store's catalog (`catalog.json`): what can be bought and downloaded.
public struct Catalog: Codable, Hashable, Sendable {
    public static let currentFormatVersion = 1
    public var formatVersion: Int
    public var products: [CatalogProduct]

    public init(formatVersion: Int = Catalog.currentFormatVersion, products: [CatalogProduct]) {
        self.formatVersion = formatVersion
        self.products = products
    }

    public func product(id: String) -> CatalogProduct? { products.first { $0.id == id } }
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

    public var isFree: Bool { price == nil }

    public init(id: String, name: String, type: String, version: String, price: Price?, packageURL: String,
                packageSize: Int64, sha256: String, thumbnailURL: String?, detailsURL: String,
                parent: PackageManifest.Dependency? = nil) {
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
}

/// Writes a catalog folder from a folder of packages: `livery catalog`.
public enum CatalogBuilder {
    public static let packageExtension = "liverypkg"

    /// Reads every `*.liverypkg` in `folder` (checking each like an install would), extracts
    /// store media to `media/<id>/`, and writes `catalog.json` and `details/<id>.json`.
    /// Prices come from an optional `prices.json` (`{"com.acme.ocean": {"amount": "0.99",
    /// "currency": "EUR"}}`); products without a price are free. When several packages have
    /// the same id, the newest version is listed. Returns the catalog written.
    public static func build(packagesIn folder: String, baseURL: String) throws -> Catalog {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let files = FileManager.default
        var prices: [String: Price] = [:]
        if let data = files.contents(atPath: folder + "/prices.json") {
            do {
                prices = try JSONDecoder().decode([String: Price].self, from: data)
            } catch {
                throw StoreError.invalidContent("prices.json: \(error)")
            }
        }
        var newest: [String: (PackageArchive, String)] = [:]
        let entries = try files.contentsOfDirectory(atPath: folder).sorted()
        for entry in entries where (entry as NSString).pathExtension == packageExtension {
            let archive: PackageArchive
            do {
                archive = try PackageArchive(path: folder + "/" + entry)
            } catch {
                throw StoreError.invalidPackage("\(entry): \(error)")
            }
            let id = archive.manifest.id
            if let existing = newest[id], !ThemeVersion.isNewer(archive.manifest.version, than: existing.0.manifest.version) { continue }
            newest[id] = (archive, entry)
        }
        var products: [CatalogProduct] = []
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
                try archive.data(of: file.path).write(to: URL(fileURLWithPath: mediaFolder + "/" + name))
                let url = base + "/media/" + encode(id) + "/" + encode(name)
                if name.hasPrefix("thumbnail.") { thumbnail = url }
                else if name.hasPrefix("sprite.") { sprite = url }
                else if name.hasPrefix("preview-") { previews.append(url) }
            }
            let details = ProductDetails(id: id, description: manifest.description ?? "", previewURLs: previews.sorted(), spriteURL: sprite)
            try files.createDirectory(atPath: folder + "/details", withIntermediateDirectories: true)
            try encodeJSON(details).write(to: URL(fileURLWithPath: folder + "/details/" + id + ".json"), options: .atomic)
            products.append(CatalogProduct(
                id: id, name: manifest.name, type: manifest.type, version: manifest.version, price: prices[id],
                packageURL: base + "/" + encode(entry), packageSize: size, sha256: digest, thumbnailURL: thumbnail,
                detailsURL: base + "/details/" + encode(id) + ".json", parent: manifest.parent))
        }
        let catalog = Catalog(products: products)
        try encodeJSON(catalog).write(to: URL(fileURLWithPath: folder + "/catalog.json"), options: .atomic)
        return catalog
    }

    static func encodeJSON(_ value: some Encodable) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    private static func encode(_ component: String) -> String {
        component.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? component
    }
}
