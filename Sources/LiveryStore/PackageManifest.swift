import Foundation

/// `manifest.json` at the root of a package: what the package is and the digest of every
/// file in it. Everything the store installs is checked against it.
///
/// A package is a zip archive:
/// ```
/// manifest.json          this manifest
/// content/...            the product's files (for a theme: Info.xml, *.xml, assets/...)
/// store/...              optional store media: thumbnail.png, preview-1.png..., sprite.png
/// ```
public struct PackageManifest: Codable, Hashable, Sendable {
    /// The package layout's version; a store refuses packages newer than it understands.
    public static let currentFormatVersion = 1
    public static let fileName = "manifest.json"
    public static let contentFolder = "content"
    public static let storeFolder = "store"

    public struct Dependency: Codable, Hashable, Sendable {
        public var id: String
        /// The oldest version of the parent this package works with.
        public var minimumVersion: String
        public init(id: String, minimumVersion: String) {
            self.id = id
            self.minimumVersion = minimumVersion
        }
    }

    public struct File: Codable, Hashable, Sendable {
        /// Path inside the archive, `/`-separated, e.g. `content/assets/send@2x.png`.
        public var path: String
        public var size: Int64
        public var sha256: String
        public init(path: String, size: Int64, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }
    }

    public var formatVersion: Int
    /// The product type: `theme`, or any type an app registers a handler for.
    public var type: String
    public var id: String
    public var name: String
    public var version: String
    public var description: String?
    public var parent: Dependency?
    public var files: [File]

    public init(
        formatVersion: Int = PackageManifest.currentFormatVersion, type: String, id: String, name: String,
        version: String, description: String? = nil, parent: Dependency? = nil, files: [File]
    ) {
        self.formatVersion = formatVersion
        self.type = type
        self.id = id
        self.name = name
        self.version = version
        self.description = description
        self.parent = parent
        self.files = files
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    public static func decode(_ data: Data) throws -> PackageManifest {
        let manifest: PackageManifest
        do {
            manifest = try JSONDecoder().decode(PackageManifest.self, from: data)
        } catch {
            throw StoreError.invalidPackage("manifest.json is not a valid manifest: \(error)")
        }
        guard manifest.formatVersion >= 1, manifest.formatVersion <= currentFormatVersion else {
            throw StoreError.invalidPackage(
                "package format \(manifest.formatVersion) is not supported (this store reads up to \(currentFormatVersion)); update the app"
            )
        }
        guard ProductID.isValid(manifest.id) else {
            throw StoreError.invalidPackage(
                "'\(manifest.id)' is not a valid product id (letters, digits, '.', '-', '_')")
        }
        guard ThemeVersion(manifest.version) != nil else {
            throw StoreError.invalidPackage("'\(manifest.version)' is not a version like 1.2.0")
        }
        return manifest
    }

    /// The content files, with paths relative to `content/`.
    public var contentFiles: [File] {
        let prefix = Self.contentFolder + "/"
        return files.filter { $0.path.hasPrefix(prefix) }.map {
            File(path: String($0.path.dropFirst(prefix.count)), size: $0.size, sha256: $0.sha256)
        }
    }
}

/// Product ids name folders on disk, so they are restricted to a safe alphabet.
public enum ProductID {
    public static func isValid(_ id: String) -> Bool {
        guard !id.isEmpty, id.utf8.count <= 200, id.first != ".", id.first != "-" else { return false }
        return id.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar))) || scalar == "." || scalar == "-"
                || scalar == "_"
        }
    }
}
