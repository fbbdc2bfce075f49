import Foundation
import LiveryBinary
import LiveryModel

extension DiagnosticCode {
    /// A compiled theme file could not be used (truncated, corrupt, unreadable): the theme's
    /// folder is loaded instead when there is one.
    public static let runtimeCompiledUnusable: DiagnosticCode = "runtime-compiled-unusable"
    /// A compiled theme file no longer matches its sources (a theme of its chain was edited):
    /// the folder is loaded instead. Recompile to ship the edit.
    public static let runtimeCompiledStale: DiagnosticCode = "runtime-compiled-stale"
    /// A block of a compiled theme file failed its checksum when a read needed it: the
    /// instances it holds are not applied. Recompile or reinstall the theme.
    public static let runtimeCompiledCorrupt: DiagnosticCode = "runtime-compiled-corrupt"
}

/// Reads compiled `.livery` files (see docs/BinaryFormat.md) through the memory-mapped reader.
///
/// The file is mapped (or read, when under `CompiledTheme.readThreshold`) and its structure
/// verified; nothing else is read when the theme loads.
/// An instance is read from the mapping when a component is first styled with its id, its
/// blocks' checksums checked as they are first read (docs/BinaryFormat.md, `BLKS`). Images are
/// read from the file's own asset section (`CompiledAssetSource`), so a release build needs no
/// theme folder at all. Whether a compiled file is still current with sources beside it is a
/// development question, answered by a `StalenessCheck` the manager is given
/// (`LiveryDevelopment`'s compares the source stamps and digests recorded for every theme of its chain).
public final class CompiledFileThemeLoader: CompiledThemeLoader, Sendable {
    public let fileExtension: String
    /// Whether every block's checksum is checked when a theme is loaded (a pass over the whole
    /// file), even without a folder to fall back to. Off by default: reads check the blocks they
    /// need, so a flipped bit inside a value is caught before the value is used either way; on,
    /// a damaged file is refused at load, before any of it is applied. A file beside its folder
    /// is always checked whole at load, so that the folder can stand in.
    public let verifiesChecksums: Bool
    /// The caps a file must stay within to be read (sizes, counts, nesting).
    public let limits: VerificationLimits

    /// A loader of compiled files with the given extension, checks and caps.
    public init(
        fileExtension: String = "livery",
        verifiesChecksums: Bool = false, limits: VerificationLimits = VerificationLimits()
    ) {
        self.fileExtension = fileExtension
        self.verifiesChecksums = verifiesChecksums
        self.limits = limits
    }

    private func unusable(_ path: String, _ reason: String) -> Diagnostic {
        .warning(
            .runtimeCompiledUnusable,
            "the compiled theme file cannot be used (\(reason)); the theme's folder is loaded instead if there is one",
            at: SourceLocation(file: path))
    }

    /// Reads the file's facts only (`CompiledTheme.info(contentsOf:)`): a file is mapped and
    /// verified whole when its theme is loaded, not when it is discovered.
    public func info(at path: String, searchPaths: [String]) -> Checked<ThemeInfo> {
        do {
            return Checked(value: try CompiledTheme.info(contentsOf: path, limits: limits))
        } catch {
            return Checked(value: nil, diagnostics: [unusable(path, error.description)])
        }
    }

    public func load(_ descriptor: ThemeDescriptor, searchPaths: [String], schemaFiles: [String]) -> Checked<
        LoadedTheme
    > {
        guard let path = descriptor.compiledFile else {
            return Checked(
                value: nil,
                diagnostics: [
                    .error(.runtimeThemeUnavailable, "theme '\(descriptor.id)' has no compiled file", at: nil)
                ])
        }
        do {
            let theme = try CompiledTheme(contentsOf: path, limits: limits)
            try theme.verifyMetadata()
            // Beside its folder (development), damage found now lets the folder stand in before
            // anything is applied; alone (a release build), blocks are checked as they are read.
            if verifiesChecksums || descriptor.folder != nil { try theme.verifyBlocks() }
            return Checked(value: LoadedTheme(compiledFile: theme, assets: CompiledAssetSource(theme)))
        } catch {
            return Checked(value: nil, diagnostics: [unusable(path, error.description)])
        }
    }
}

/// Images read from a compiled file's asset section. Holding the `CompiledTheme` keeps the
/// mapping alive for as long as a loaded theme (or an image cache entry's source) needs it.
///
/// The index by file is made when the first image is asked for, not when the theme loads: a
/// launch reads nothing proportional to the theme's size (docs/Runtime.md). The lock makes the
/// lazy index safe from any thread, hence `@unchecked Sendable`.
public final class CompiledAssetSource: AssetSource, @unchecked Sendable {
    /// The compiled file whose embedded assets are served.
    public let theme: CompiledTheme
    private let lock = NSLock()
    private var index: [AssetFileKey: CompiledAsset]?

    /// A source reading the assets embedded in `theme`.
    public init(_ theme: CompiledTheme) {
        self.theme = theme
    }

    public func data(for variant: AssetVariant) -> Data? {
        guard let asset = asset(variant.fileKey) else { return nil }
        // One copy out of the mapping: `Data` must outlive the call, and images are read rarely
        // (once per pass, or once while cached).
        return theme.withBytes(of: asset) { Data($0) }
    }

    private func asset(_ key: AssetFileKey) -> CompiledAsset? {
        lock.lock()
        defer { lock.unlock() }
        if let index { return index[key] }
        var index: [AssetFileKey: CompiledAsset] = [:]
        for asset in theme.assets {
            index[asset.variant.fileKey] = asset
        }
        self.index = index
        return index[key]
    }
}
