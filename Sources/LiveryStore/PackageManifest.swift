import Foundation

/// `manifest.json` at the root of a package: what the package is and the digest of every
/// file in it. Everything the store installs is checked against it.
///
/// A package is a zip archive:
/// ```
/// manifest.json          this manifest
/// content/...            the product's files (for a theme: Info.xml, *.xml, assets/...)
/// compiled/...           the theme compiled from them, one file per format version: v5.livery
/// store/...              optional store media: thumbnail.png, preview-1.png..., sprite.png
/// ```
public struct PackageManifest: Codable, Hashable, Sendable {
    /// The package layout's version; a store refuses packages newer than it understands.
    public static let currentFormatVersion = 1
    public static let fileName = "manifest.json"
    public static let contentFolder = "content"
    public static let storeFolder = "store"
    public static let compiledFolder = "compiled"

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

    /// One theme of the parent chain a compiled file was made from: its id, version and the
    /// digest of its sources (`SourceDigest`, hex), as the compiled file records them.
    public struct CompiledSource: Codable, Hashable, Sendable, CustomStringConvertible {
        public var id: String
        public var version: String
        public var sourceDigest: String
        public init(id: String, version: String, sourceDigest: String) {
            self.id = id
            self.version = version
            self.sourceDigest = sourceDigest
        }
        /// `com.livery.base 1.0.0 (sources 3fa9c2d1)`.
        public var description: String { "\(id) \(version) (sources \(sourceDigest.prefix(8)))" }
    }

    /// A compiled file of the theme in the package (`compiled/v5.livery`): what an app installs.
    public struct CompiledFile: Codable, Hashable, Sendable {
        /// Path inside the archive; also listed in `files` with its size and SHA-256.
        public var path: String
        /// The compiled format's major version (`CompiledTheme.readableFormatVersion` reads one).
        public var formatVersion: Int
        public var size: Int64
        public var sha256: String
        /// The parent chain it was compiled from, root first, the theme itself last. A child is
        /// installed only where the app's copy of every theme before it is exactly this one.
        public var sources: [CompiledSource]
        public init(path: String, formatVersion: Int, size: Int64, sha256: String, sources: [CompiledSource]) {
            self.path = path
            self.formatVersion = formatVersion
            self.size = size
            self.sha256 = sha256
            self.sources = sources
        }

        /// The chain's parents (every theme before the theme itself).
        public var parents: [CompiledSource] { Array(sources.dropLast()) }
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
    /// The compiled files of a theme package (nil in packages of other types and in packages
    /// made before packages carried them: an app refuses those).
    public var compiled: [CompiledFile]?

    public init(
        formatVersion: Int = PackageManifest.currentFormatVersion, type: String, id: String, name: String,
        version: String, description: String? = nil, parent: Dependency? = nil, files: [File],
        compiled: [CompiledFile]? = nil
    ) {
        self.formatVersion = formatVersion
        self.type = type
        self.id = id
        self.name = name
        self.version = version
        self.description = description
        self.parent = parent
        self.files = files
        self.compiled = compiled
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
        for compiled in manifest.compiled ?? [] {
            let listed = manifest.files.first { $0.path == compiled.path }
            guard compiled.path.hasPrefix(compiledFolder + "/"), listed?.size == compiled.size,
                listed?.sha256.lowercased() == compiled.sha256.lowercased()
            else {
                throw StoreError.invalidPackage(
                    "the compiled file '\(compiled.path)' is not a file of the package under \(compiledFolder)/ with the same size and SHA-256"
                )
            }
            guard compiled.sources.last?.id == manifest.id, compiled.sources.last?.version == manifest.version else {
                throw StoreError.invalidPackage(
                    "the compiled file '\(compiled.path)' is not compiled from \(manifest.id) \(manifest.version)")
            }
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
