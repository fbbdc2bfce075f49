import Foundation
import LiveryBinary
import LiveryCompiler
import LiveryModel
import LiveryStore
import LiveryXML

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

    /// Validates the theme at `path` for every trait set, compiles it against the parents the
    /// workspace finds, then writes a package to `output` (atomically: a temporary file renamed
    /// into place): its sources under `content/`, the compiled file under
    /// `compiled/v<format version>.livery` with the chain it was compiled from. Nothing is written
    /// on errors.
    ///
    /// - Parameters:
    ///   - parentMinimumVersion: the oldest parent version the theme works with; by default the
    ///     version of the parent it was validated against.
    ///   - alsoCompiled: compiled files of the same theme made elsewhere (another format version,
    ///     made by another Livery; or against another version of the parent), packed beside.
    public static func pack(
        themeAt path: String, workspace: ThemeWorkspace, output: String,
        media: Media = Media(), parentMinimumVersion: String? = nil, alsoCompiled: [String] = []
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

        // The compiled file an app installs, and the chain it was compiled from.
        let compiledBytes = ThemeCompiler.compile(themeAt: path, workspace: workspace)
        guard let bytes = compiledBytes.value else {
            return Checked(value: nil, diagnostics: diagnostics + compiledBytes.diagnostics)
        }
        let ownSources: [PackageManifest.CompiledSource]
        do {
            ownSources = ThemeContentHandler.sources(of: try CompiledTheme(bytes: bytes))
        } catch {
            return failure("the compiled theme does not verify: \(error)", path)
        }
        var compiledFiles: [(Data, Int, [PackageManifest.CompiledSource])] = [
            (Data(bytes), CompiledTheme.readableFormatVersion, ownSources)
        ]
        for file in alsoCompiled {
            guard let data = FileManager.default.contents(atPath: file),
                let version = CompiledTheme.formatVersion(ofFileStarting: Array(data.prefix(16)))
            else {
                return failure("cannot read a compiled theme file here", file)
            }
            var chain = ownSources
            if version == CompiledTheme.readableFormatVersion {
                // A file this Livery reads says what it was compiled from (e.g. another parent).
                do {
                    chain = ThemeContentHandler.sources(of: try CompiledTheme(bytes: Array(data)))
                } catch {
                    return failure("the compiled theme does not verify: \(error)", file)
                }
            }
            guard chain.last == ownSources.last else {
                return failure(
                    "the compiled file is \(chain.last?.description ?? "no theme"), not \(ownSources.last!.description)",
                    file)
            }
            compiledFiles.append((data, version, chain))
        }
        let compiled = addCompiled(compiledFiles, to: &files, contents: &contents)
        let manifest = PackageManifest(
            type: ThemeContentHandler.type, id: theme.info.id, name: theme.info.name,
            version: theme.info.version, description: theme.info.description,
            parent: parent, files: files, compiled: compiled)
        do {
            contents[PackageManifest.fileName] = try manifest.encoded()
            try PackageWriter.write(
                entries: [PackageManifest.fileName] + files.map(\.path), contents: contents, to: output)
        } catch {
            return failure("cannot write the package: \(error)", output)
        }
        return Checked(value: manifest, diagnostics: diagnostics)
    }

    /// Names each compiled file under `compiled/` and adds it to the package's files; returns
    /// what the manifest says of them.
    private static func addCompiled(
        _ compiledFiles: [(Data, Int, [PackageManifest.CompiledSource])], to files: inout [PackageManifest.File],
        contents: inout [String: Data]
    ) -> [PackageManifest.CompiledFile] {
        var compiled: [PackageManifest.CompiledFile] = []
        for (data, version, chain) in compiledFiles {
            var archivePath = PackageManifest.compiledFolder + "/v\(version).livery"
            // Several files of one version: told apart by the parent chain they were made from.
            if compiled.contains(where: { $0.path == archivePath }) {
                let parents = chain.dropLast().map { String($0.sourceDigest.prefix(8)) }.joined(separator: "-")
                archivePath = PackageManifest.compiledFolder + "/v\(version)-\(parents)-\(compiled.count).livery"
            }
            let digest = Hashing.sha256(data)
            files.append(PackageManifest.File(path: archivePath, size: Int64(data.count), sha256: digest))
            contents[archivePath] = data
            compiled.append(
                PackageManifest.CompiledFile(
                    path: archivePath, formatVersion: version, size: Int64(data.count), sha256: digest, sources: chain))
        }
        return compiled
    }

    private static func fileExtension(_ path: String) -> String {
        let ext = (path as NSString).pathExtension.lowercased()
        return ext.isEmpty ? "png" : ext
    }
}
