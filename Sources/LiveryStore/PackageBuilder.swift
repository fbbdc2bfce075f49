import Foundation
import LiveryModel
import LiveryXML
import ZIPFoundation

extension DiagnosticCode {
    /// A theme could not be packed (unreadable file, unwritable output, bad media).
    public static let packFailed: DiagnosticCode = "pack-failed"
}

/// Makes distributable packages: `livery pack`.
public enum PackageBuilder {
    /// Optional store media, packed under `store/` (not part of the theme).
    public struct Media: Sendable {
        public var thumbnail: String?
        public var previews: [String]
        public var sprite: String?
        public init(thumbnail: String? = nil, previews: [String] = [], sprite: String? = nil) {
            self.thumbnail = thumbnail
            self.previews = previews
            self.sprite = sprite
        }
    }

    /// Validates the theme at `path` for every trait set, then writes a package to `output`
    /// (atomically: a temporary file renamed into place). Nothing is written on errors.
    ///
    /// - Parameter parentMinimumVersion: the oldest parent version the theme works with;
    ///   by default the version of the parent it was validated against.
    public static func pack(
        themeAt path: String, workspace: ThemeWorkspace, output: String,
        media: Media = Media(), parentMinimumVersion: String? = nil
    ) -> Checked<PackageManifest> {
        let diagnostics = workspace.validate(paths: [path])
        guard !diagnostics.hasErrors else { return Checked(value: nil, diagnostics: diagnostics) }
        let chain = workspace.chain(ofThemeAt: path)
        guard let folders = chain.value, let theme = folders.last else {
            return Checked(value: nil, diagnostics: diagnostics + chain.diagnostics)
        }
        func failure(_ message: String, _ file: String) -> Checked<PackageManifest> {
            Checked(
                value: nil, diagnostics: diagnostics + [.error(.packFailed, message, at: SourceLocation(file: file))])
        }
        guard ProductID.isValid(theme.info.id) else {
            return failure("theme id '\(theme.info.id)' cannot name a package (letters, digits, '.', '-', '_')", path)
        }
        var parent: PackageManifest.Dependency?
        if let parentID = theme.info.parent {
            let installed = folders.dropLast().last?.info.version ?? "1.0.0"
            parent = PackageManifest.Dependency(id: parentID, minimumVersion: parentMinimumVersion ?? installed)
        }

        // (path in archive, file on disk)
        var sources: [(String, String)] = theme.sourceFiles.sorted().map {
            (PackageManifest.contentFolder + "/" + $0, theme.path + "/" + $0)
        }
        if let thumbnail = media.thumbnail {
            sources.append(("store/thumbnail." + fileExtension(thumbnail), thumbnail))
        }
        for (index, preview) in media.previews.enumerated() {
            sources.append(("store/preview-\(index + 1)." + fileExtension(preview), preview))
        }
        if let sprite = media.sprite { sources.append(("store/sprite." + fileExtension(sprite), sprite)) }

        var files: [PackageManifest.File] = []
        var contents: [String: Data] = [:]
        for (archivePath, file) in sources {
            guard let data = FileManager.default.contents(atPath: file) else {
                return failure("cannot read the file", file)
            }
            files.append(PackageManifest.File(path: archivePath, size: Int64(data.count), sha256: Hashing.sha256(data)))
            contents[archivePath] = data
        }
        let manifest = PackageManifest(
            type: ThemeContentHandler.type, id: theme.info.id, name: theme.info.name,
            version: theme.info.version, description: theme.info.description,
            parent: parent, files: files)
        do {
            contents[PackageManifest.fileName] = try manifest.encoded()
            try writeZip(entries: [PackageManifest.fileName] + files.map(\.path), contents: contents, to: output)
        } catch {
            return failure("cannot write the package: \(error)", output)
        }
        return Checked(value: manifest, diagnostics: diagnostics)
    }

    private static func fileExtension(_ path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return ext.isEmpty ? "png" : ext
    }

    /// A reproducible zip (fixed dates, given order, deflate) written atomically.
    static func writeZip(entries: [String], contents: [String: Data], to output: String) throws {
        let url = URL(fileURLWithPath: output)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let archive = try Archive(url: temporary, accessMode: .create)
        let date = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01: same input, same bytes
        for path in entries {
            let data = contents[path] ?? Data()
            try archive.addEntry(
                with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                permissions: 0o644, compressionMethod: .deflate
            ) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        if rename(temporary.path, output) != 0 {
            throw StoreError.io("cannot move the package to \(output): \(String(cString: strerror(errno)))")
        }
    }
}
