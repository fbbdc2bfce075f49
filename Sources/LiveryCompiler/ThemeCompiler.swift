import Foundation
import LiveryBinary
import LiveryModel
import LiveryXML

extension DiagnosticCode {
    /// An asset or source file listed by the front end could not be read while compiling.
    public static let compileUnreadable: DiagnosticCode = "compile-unreadable"
    /// The resolved theme cannot be stored in the compiled format (see the message).
    public static let compileUnencodable: DiagnosticCode = "compile-unencodable"
    /// Writing the compiled file failed.
    public static let compileWriteFailed: DiagnosticCode = "compile-write-failed"
    /// A compiled file failed verification.
    public static let compiledInvalid: DiagnosticCode = "compiled-invalid"
}

/// A theme compiled: its bytes and the resolution they were written from.
public struct Compilation: Sendable {
    /// The compiled file, as `compile(themeAt:workspace:)` returns it.
    public var bytes: [UInt8]
    /// The front end's resolution the bytes were encoded from: what the proof compares them with.
    public var variants: ThemeVariants
}

/// Theme folder in, compiled bytes out: the glue between the XML front end and the binary format,
/// plus the source digests that tell a stale compiled file.
public enum ThemeCompiler {
    /// Validates and resolves the theme at `path` for every trait set, then encodes it with its
    /// assets and a digest of each theme of its chain. `value` is nil when there are errors.
    public static func compile(themeAt path: String, workspace: ThemeWorkspace) -> Checked<[UInt8]> {
        let result = compilation(themeAt: path, workspace: workspace)
        return Checked(value: result.value?.bytes, diagnostics: result.diagnostics)
    }

    /// `compile(themeAt:workspace:)` with the resolved theme the bytes were written from: what
    /// `firstMismatch(_:variants:)` proves them against without resolving the folder again.
    public static func compilation(themeAt path: String, workspace: ThemeWorkspace) -> Checked<Compilation> {
        let variants = workspace.variants(ofThemeAt: path)
        guard let theme = variants.value else { return Checked(value: nil, diagnostics: variants.diagnostics) }
        let chain = workspace.chain(ofThemeAt: path)
        var diagnostics = variants.diagnostics
        guard let folders = chain.value else {
            return Checked(value: nil, diagnostics: Array(Set(diagnostics + chain.diagnostics)).sorted())
        }
        var contents = CompiledThemeContents(theme: theme)
        var folderOfTheme: [String: String] = [:]
        for folder in folders {
            folderOfTheme[folder.info.id] = folder.path
            do {
                contents.sourceDigests[folder.info.id] = try digest(of: folder, limits: workspace.limits)
            } catch {
                diagnostics.append(
                    .error(
                        .compileUnreadable, "cannot read a source file: \(error)", at: SourceLocation(file: folder.path)
                    ))
            }
        }
        // The front end checked the assets' sizes when it listed them, but a file can change
        // before it is read here: the same caps apply again, and links are not followed.
        let limits = workspace.limits
        var totalAssetBytes = 0
        for asset in theme.assets.variants {
            let key = asset.fileKey
            guard contents.assetBytes[key] == nil else { continue }
            let file = (folderOfTheme[asset.themeID] ?? "") + "/" + asset.file
            let bytes: [UInt8]
            switch CappedFile.contents(file, limit: limits.maxAssetBytes) {
            case .success(let read):
                bytes = read
            case .failure(.tooLarge):
                diagnostics.append(
                    .error(
                        .limitExceeded,
                        "the asset file is larger than \(limits.maxAssetBytes) bytes, the limit for an asset",
                        at: SourceLocation(file: file)))
                continue
            case .failure(.unreadable(let reason)):
                diagnostics.append(
                    .error(.compileUnreadable, "cannot read the asset file: \(reason)", at: SourceLocation(file: file)))
                continue
            }
            totalAssetBytes += bytes.count
            guard totalAssetBytes <= limits.maxTotalAssetBytes else {
                diagnostics.append(
                    .error(
                        .limitExceeded, "the theme's assets exceed \(limits.maxTotalAssetBytes) bytes together",
                        at: SourceLocation(file: file)))
                break
            }
            contents.assetBytes[key] = bytes
        }
        guard !diagnostics.hasErrors else { return Checked(value: nil, diagnostics: diagnostics) }
        do {
            return Checked(
                value: Compilation(bytes: try ThemeWriter.encode(contents), variants: theme), diagnostics: diagnostics)
        } catch {
            diagnostics.append(.error(.compileUnencodable, error.description, at: SourceLocation(file: path)))
            return Checked(value: nil, diagnostics: diagnostics)
        }
    }

    /// SHA-256 over the theme's own source files in sorted order, each as its relative path,
    /// a zero byte, its length (8 bytes, little-endian) and its bytes. Paths are in the digest so
    /// renaming `Chat~ipad.xml` (which changes its meaning) changes the digest.
    public static func digest(of folder: ThemeFolder, limits: FrontEndLimits = .default) throws -> SourceDigest {
        var hasher = SHA256()
        for file in folder.sourceFiles.sorted() {
            // Sources are XML files (at most `maxFileBytes`) or assets (at most `maxAssetBytes`).
            let path = folder.path + "/" + file
            let data: [UInt8]
            switch CappedFile.contents(path, limit: max(limits.maxFileBytes, limits.maxAssetBytes)) {
            case .success(let read): data = read
            case .failure(.tooLarge): throw CocoaError(.fileReadTooLarge, userInfo: [NSFilePathErrorKey: path])
            case .failure(.unreadable): throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: path])
            }
            hasher.update(Array(file.utf8) + [0])
            withUnsafeBytes(of: UInt64(data.count).littleEndian) { hasher.update($0) }
            hasher.update(data)
        }
        return SourceDigest(bytes: hasher.finish())!
    }

    /// Whether a compiled file still matches its sources: the same chain of themes with the same
    /// digests. Returns nil when it does, else why not.
    ///
    /// When the stamp beside a mapped file says no source changed since the digests last
    /// matched (`SourceStamp`: sizes and modification times), that is the answer; otherwise the
    /// chain is read and every source hashed, and a match records a new stamp.
    public static func staleness(of compiled: CompiledTheme, themeAt path: String, workspace: ThemeWorkspace) -> String?
    {
        let file = compiled.path
        let recordedDigest = compiled.sourceDigest?.description
        if let file, let recordedDigest, SourceStamp.vouches(compiledFile: file, digest: recordedDigest, themeAt: path)
        {
            return nil
        }
        guard let folders = workspace.chain(ofThemeAt: path).value else { return "the theme's sources do not load" }
        let recorded = compiled.chain
        guard recorded.map(\.info.id) == folders.map(\.info.id) else {
            return
                "the parent chain changed: compiled \(recorded.map(\.info.id).joined(separator: " > ")), now \(folders.map(\.info.id).joined(separator: " > "))"
        }
        for (entry, folder) in zip(recorded, folders) {
            guard let current = try? digest(of: folder, limits: workspace.limits) else {
                return "cannot read the sources of \(folder.info.id)"
            }
            if entry.sourceDigest != current { return "the sources of \(folder.info.id) changed since it was compiled" }
        }
        if let file, let recordedDigest {
            SourceStamp.record(compiledFile: file, digest: recordedDigest, folders: folders.map(\.path))
        }
        return nil
    }

    /// Writes `bytes` over `path` whole or not at all (`AtomicFile.save`): readers see the old
    /// file or the new one, never half of one. Without `durably`, the file is not flushed to the
    /// disk before the rename (see `AtomicFile.save`).
    public static func writeAtomically(_ bytes: [UInt8], to path: String, durably: Bool = true) throws {
        try AtomicFile.save(bytes, to: path, durably: durably)
    }
}

/// Reads a whole regular file, at most `limit` bytes, without following a final symbolic link.
enum CappedFile {
    enum Failure: Error, CustomStringConvertible {
        case tooLarge
        case unreadable(String)

        var description: String {
            switch self {
            case .tooLarge: return "the file is larger than its limit"
            case .unreadable(let reason): return reason
            }
        }
    }

    static func contents(_ path: String, limit: Int) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .failure(.unreadable("not a regular file"))
        }
        guard Int(info.st_size) <= limit else { return .failure(.tooLarge) }
        // The size can change while reading: read up to one byte past the limit and check.
        var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), limit) + 1)
        var count = 0
        while true {
            if count == bytes.count {
                guard count <= limit else { return .failure(.tooLarge) }
                bytes += [UInt8](repeating: 0, count: min(max(count, 4096), limit + 1 - count))
            }
            let result = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if result < 0 {
                if errno == EINTR { continue }
                return .failure(.unreadable(String(cString: strerror(errno))))
            }
            if result == 0 { break }
            count += result
        }
        guard count <= limit else { return .failure(.tooLarge) }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }
}
