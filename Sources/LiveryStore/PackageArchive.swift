import Crypto
import Foundation
import ZIPFoundation

/// Caps on what a package may unpack to. ZIPFoundation alone has no size cap and writes early
/// entries before rejecting a bad one, so every entry is checked before anything is written,
/// and bytes are counted again while writing (a header can lie about sizes).
public struct ExtractionLimits: Hashable, Sendable {
    /// Total uncompressed bytes of all entries.
    public var maxTotalBytes: Int64
    /// Number of entries, directories included.
    public var maxEntries: Int
    /// Largest uncompressed/compressed ratio of an entry, checked for entries above
    /// `ratioCheckedAbove` bytes (tiny files compress oddly well without being bombs).
    public var maxCompressionRatio: Double
    public var ratioCheckedAbove: Int64
    /// Path components below the package root.
    public var maxDepth: Int
    /// The manifest is read into memory: at most this many bytes.
    public var maxManifestBytes: Int64

    public init(
        maxTotalBytes: Int64 = 64 << 20, maxEntries: Int = 4096, maxCompressionRatio: Double = 100,
        ratioCheckedAbove: Int64 = 256 << 10, maxDepth: Int = 12, maxManifestBytes: Int64 = 1 << 20
    ) {
        self.maxTotalBytes = maxTotalBytes
        self.maxEntries = maxEntries
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioCheckedAbove = ratioCheckedAbove
        self.maxDepth = maxDepth
        self.maxManifestBytes = maxManifestBytes
    }

    public static let `default` = ExtractionLimits()
}

/// A package file opened for reading: every entry checked, the manifest read and matched
/// against the entries, nothing written yet.
public struct PackageArchive {
    public let path: String
    public let manifest: PackageManifest
    public let limits: ExtractionLimits
    private let archive: Archive
    private let fileEntries: [Entry]

    /// Opens and checks the package at `path`. Throws `StoreError.invalidPackage` saying why.
    public init(path: String, limits: ExtractionLimits = .default) throws {
        self.path = path
        self.limits = limits
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw StoreError.invalidPackage("not a zip archive (\(error))")
        }
        self.archive = archive
        let (files, manifestEntry) = try Self.checkedEntries(of: archive, limits: limits)
        let manifest = try Self.manifest(in: manifestEntry, of: archive, limits: limits)
        try Self.checkListing(of: manifest, against: files, maxDepth: limits.maxDepth)
        self.manifest = manifest
        self.fileEntries = files
    }

    /// Every entry of `archive` checked (count, names, collisions, sizes, ratio) before anything
    /// is written: the files, and the manifest's entry apart (which must be there).
    private static func checkedEntries(of archive: Archive, limits: ExtractionLimits) throws -> ([Entry], Entry) {
        var seenExact = Set<[UInt8]>()  // bytes: Swift strings compare canonically equivalent forms equal
        var folded: [String: String] = [:]  // folded path -> original path
        var foldedFiles = Set<String>()
        var foldedFolders = Set<String>()
        var count = 0
        var total: Int64 = 0
        var files: [Entry] = []
        var manifestEntry: Entry?
        for entry in archive {
            count += 1
            guard count <= limits.maxEntries else {
                throw StoreError.invalidPackage("more than \(limits.maxEntries) entries")
            }
            let name = entry.path
            guard entry.type != .symlink else {
                throw StoreError.invalidPackage("'\(name)' is a symbolic link; packages hold real files only")
            }
            let components = try Self.checkedComponents(
                of: name, isFolder: entry.type == .directory, maxDepth: limits.maxDepth)
            let normalized = components.joined(separator: "/")
            guard seenExact.insert(Array(normalized.utf8)).inserted else {
                throw StoreError.invalidPackage("'\(normalized)' appears twice")
            }
            let key = Self.folded(normalized)
            if let other = folded[key] {
                throw StoreError.invalidPackage(
                    "'\(normalized)' and '\(other)' differ only in case or Unicode form; they would collide on many file systems"
                )
            }
            folded[key] = normalized
            // A name may not be a file and a folder at once ("a" and "a/b").
            var prefix = ""
            for component in components.dropLast() {
                prefix += (prefix.isEmpty ? "" : "/") + Self.folded(component)
                if foldedFiles.contains(prefix) {
                    throw StoreError.invalidPackage("'\(normalized)' is inside '\(prefix)', which is a file")
                }
                foldedFolders.insert(prefix)
            }
            if entry.type == .directory {
                if foldedFiles.contains(key) {
                    throw StoreError.invalidPackage("'\(normalized)' is both a file and a folder")
                }
                foldedFolders.insert(key)
                continue
            }
            if foldedFolders.contains(key) {
                throw StoreError.invalidPackage("'\(normalized)' is both a file and a folder")
            }
            foldedFiles.insert(key)
            let size = Int64(clamping: entry.uncompressedSize)
            let compressed = Int64(clamping: entry.compressedSize)
            total += size
            guard total <= limits.maxTotalBytes else {
                throw StoreError.invalidPackage("the files unpack to more than \(limits.maxTotalBytes) bytes")
            }
            if size > limits.ratioCheckedAbove, Double(size) / Double(max(compressed, 1)) > limits.maxCompressionRatio {
                throw StoreError.invalidPackage(
                    "'\(normalized)' expands \(size / max(compressed, 1))x (\(compressed) to \(size) bytes); at most \(Int(limits.maxCompressionRatio))x is accepted"
                )
            }
            if normalized == PackageManifest.fileName { manifestEntry = entry } else { files.append(entry) }
        }
        guard let manifestEntry else { throw StoreError.invalidPackage("no manifest.json at the root") }
        return (files, manifestEntry)
    }

    /// The manifest read from its entry, within the manifest cap and the size its header gives.
    private static func manifest(in manifestEntry: Entry, of archive: Archive, limits: ExtractionLimits) throws
        -> PackageManifest
    {
        guard Int64(clamping: manifestEntry.uncompressedSize) <= limits.maxManifestBytes else {
            throw StoreError.invalidPackage("manifest.json is larger than \(limits.maxManifestBytes) bytes")
        }
        var manifestData = Data()
        do {
            _ = try archive.extract(manifestEntry) { chunk in
                manifestData.append(chunk)
                if Int64(manifestData.count) > limits.maxManifestBytes
                    || Int64(manifestData.count) > Int64(manifestEntry.uncompressedSize)
                {
                    throw StoreError.invalidPackage("manifest.json is larger than its header says")
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.invalidPackage("manifest.json cannot be read: \(error)")
        }
        return try PackageManifest.decode(manifestData)
    }

    /// The manifest lists exactly the archive's files, with their sizes.
    private static func checkListing(of manifest: PackageManifest, against files: [Entry], maxDepth: Int) throws {
        var listed: [String: PackageManifest.File] = [:]
        for file in manifest.files {
            _ = try Self.checkedComponents(of: file.path, isFolder: false, maxDepth: maxDepth)
            guard listed.updateValue(file, forKey: file.path) == nil else {
                throw StoreError.invalidPackage("the manifest lists '\(file.path)' twice")
            }
            guard
                file.path.hasPrefix(PackageManifest.contentFolder + "/")
                    || file.path.hasPrefix(PackageManifest.compiledFolder + "/")
                    || file.path.hasPrefix(PackageManifest.storeFolder + "/")
            else {
                throw StoreError.invalidPackage("'\(file.path)' is outside content/, compiled/ and store/")
            }
        }
        for entry in files {
            let name = entry.path.split(separator: "/").joined(separator: "/")
            guard let file = listed.removeValue(forKey: name) else {
                throw StoreError.invalidPackage("'\(name)' is in the archive but not in the manifest")
            }
            guard file.size == Int64(clamping: entry.uncompressedSize) else {
                throw StoreError.invalidPackage(
                    "'\(name)' has \(entry.uncompressedSize) bytes, the manifest says \(file.size)")
            }
        }
        if let missing = listed.keys.sorted().first {
            throw StoreError.invalidPackage("'\(missing)' is in the manifest but not in the archive")
        }
    }

    /// Writes every file into `folder` (which must exist and be empty), counting bytes as they
    /// are written and checking each file's SHA-256 against the manifest. Only the entries
    /// under `prefix` (e.g. `content/`) are written, relative to it. On error the caller
    /// removes `folder`; nothing outside it is ever written.
    public func extract(into folder: String, only prefix: String = PackageManifest.contentFolder + "/") throws {
        let digests = Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var total: Int64 = 0
        for entry in fileEntries {
            let name = entry.path.split(separator: "/").joined(separator: "/")
            guard name.hasPrefix(prefix), let expected = digests[name] else { continue }
            let target = folder + "/" + String(name.dropFirst(prefix.count))
            let parent = (target as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            try write(entry, named: name, expected: expected, to: target, total: &total)
        }
    }

    /// Writes the one file at `path` in the package to `target` (which must not exist), checked
    /// like `extract(into:only:)`.
    public func extract(file path: String, to target: String) throws {
        guard let entry = fileEntries.first(where: { $0.path.split(separator: "/").joined(separator: "/") == path }),
            let expected = manifest.files.first(where: { $0.path == path })
        else {
            throw StoreError.invalidPackage("no '\(path)' in the package")
        }
        var total: Int64 = 0
        try write(entry, named: path, expected: expected, to: target, total: &total)
    }

    /// Writes one entry to `target`, counting bytes (`total` across entries, against the cap) and
    /// checking its size and SHA-256 against the manifest.
    private func write(
        _ entry: Entry, named name: String, expected: PackageManifest.File, to target: String, total: inout Int64
    ) throws {
        let descriptor = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError.io("cannot create \(target): \(String(cString: strerror(errno)))")
        }
        var hasher = SHA256()
        var written: Int64 = 0
        var runningTotal = total
        do {
            defer { close(descriptor) }
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                written += Int64(chunk.count)
                runningTotal += Int64(chunk.count)
                guard written <= expected.size else {
                    throw StoreError.invalidPackage("'\(name)' unpacks to more bytes than its header says")
                }
                guard runningTotal <= limits.maxTotalBytes else {
                    throw StoreError.invalidPackage("the files unpack to more than \(limits.maxTotalBytes) bytes")
                }
                hasher.update(data: chunk)
                try chunk.withUnsafeBytes { try writeAll($0, to: descriptor, path: target) }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.invalidPackage("'\(name)' cannot be unpacked: \(error)")
        }
        total = runningTotal
        guard written == expected.size else {
            throw StoreError.invalidPackage(
                "'\(name)' unpacks to \(written) bytes, the manifest says \(expected.size)")
        }
        let digest = Hashing.hex(hasher.finalize())
        guard digest == expected.sha256.lowercased() else {
            throw StoreError.invalidPackage("'\(name)' has SHA-256 \(digest), the manifest says \(expected.sha256)")
        }
    }

    /// The bytes of one small file (store media for the catalog), checked against the manifest.
    public func data(of path: String, maxBytes: Int64 = 16 << 20) throws -> Data {
        guard let entry = fileEntries.first(where: { $0.path.split(separator: "/").joined(separator: "/") == path }),
            let expected = manifest.files.first(where: { $0.path == path })
        else {
            throw StoreError.invalidPackage("no '\(path)' in the package")
        }
        guard expected.size <= maxBytes else {
            throw StoreError.invalidPackage("'\(path)' is larger than \(maxBytes) bytes")
        }
        var data = Data()
        do {
            _ = try archive.extract(entry) { chunk in
                data.append(chunk)
                if Int64(data.count) > expected.size {
                    throw StoreError.invalidPackage("'\(path)' is larger than its header says")
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.invalidPackage("'\(path)' cannot be unpacked: \(error)")
        }
        guard Hashing.sha256(data) == expected.sha256.lowercased() else {
            throw StoreError.invalidPackage("'\(path)' does not match its SHA-256 in the manifest")
        }
        return data
    }

    /// Splits and checks an archive path: relative, `/`-separated, no `.`/`..`/empty
    /// components, no backslashes, drive letters or control characters.
    static func checkedComponents(of path: String, isFolder: Bool, maxDepth: Int) throws -> [String] {
        var trimmed = Substring(path)
        if isFolder, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard !trimmed.isEmpty else { throw StoreError.invalidPackage("an entry has an empty name") }
        guard !trimmed.hasPrefix("/") else { throw StoreError.invalidPackage("'\(path)' is an absolute path") }
        guard !trimmed.contains("\\") else { throw StoreError.invalidPackage("'\(path)' contains a backslash") }
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw StoreError.invalidPackage("'\(path)' contains a control character")
        }
        let components = trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        for component in components {
            if component.isEmpty || component == "." {
                throw StoreError.invalidPackage("'\(path)' has an empty or '.' component")
            }
            if component == ".." { throw StoreError.invalidPackage("'\(path)' leaves the package folder ('..')") }
            if component.utf8.count > 255 {
                throw StoreError.invalidPackage("'\(path)' has a component longer than 255 bytes")
            }
        }
        if components.first?.contains(":") == true {
            throw StoreError.invalidPackage("'\(path)' starts with a drive letter or a colon")
        }
        guard components.count <= maxDepth else {
            throw StoreError.invalidPackage("'\(path)' is nested deeper than \(maxDepth) folders")
        }
        return components
    }

    /// The key two names collide under on case-insensitive or normalising file systems.
    static func folded(_ path: String) -> String {
        path.precomposedStringWithCanonicalMapping.lowercased()
    }
}

/// Writes every byte of `buffer` to `descriptor`, retrying short and interrupted writes.
func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32, path: String) throws {
    var offset = 0
    while offset < buffer.count {
        let result = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if result < 0 {
            if errno == EINTR { continue }
            throw StoreError.io("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        offset += result
    }
}
