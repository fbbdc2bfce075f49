import Crypto
import Foundation
import LiveryXML

/// The files the studio may read and write. Every path is checked against the folders it was
/// given, after following symbolic links, so that no request (`..`, a link pointing out, an
/// absolute path) reaches anything else. Folders given as read-only (`--themes`) are read, never
/// written. Writes are atomic (a temporary file in the same folder, then a rename) and are
/// refused when the file is not the version the edit was based on.
public struct ThemeFiles: Sendable {
    /// Canonical (links resolved) folders that may be written.
    public let writableRoots: [String]
    /// Canonical folders that may only be read.
    public let readOnlyRoots: [String]

    public init(writable: [String], readOnly: [String]) {
        writableRoots = writable.map(Self.canonical)
        readOnlyRoots = readOnly.map(Self.canonical)
    }

    /// The path with every symbolic link resolved, absolute, without `.` or `..`.
    public static func canonical(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        guard let resolved = realpath(absolute, nil) else {
            // A file not created yet: its folder resolved, its own name kept.
            let folder = (absolute as NSString).deletingLastPathComponent
            let name = (absolute as NSString).lastPathComponent
            guard folder != absolute, let parent = realpath(folder, nil) else {
                return (absolute as NSString).standardizingPath
            }
            defer { free(parent) }
            return String(cString: parent) + "/" + name
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A content digest: the version an edit names to be applied.
    public static func version(of bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// The canonical path of `path` when it lies inside a given folder (for writing: a writable one).
    public func check(_ path: String, forWriting: Bool) throws -> String {
        guard !path.isEmpty, !path.utf8.contains(0), !path.split(separator: "/").contains("..") else {
            throw StudioEditError(.outsideFolders, "'\(path)' is not a path inside the studio's theme folders")
        }
        let canonical = Self.canonical(path)
        func inside(_ root: String) -> Bool { canonical.hasPrefix(root + "/") }
        if writableRoots.contains(where: inside) { return canonical }
        if readOnlyRoots.contains(where: inside) {
            if forWriting {
                throw StudioEditError(
                    .readOnly,
                    "\(path) is in a folder given with --themes, which the studio only reads; edit a theme given as PATH, or add an override in a child theme"
                )
            }
            return canonical
        }
        throw StudioEditError(.outsideFolders, "'\(path)' is outside the studio's theme folders")
    }

    public func read(_ path: String) throws -> [UInt8] {
        let checked = try check(path, forWriting: false)
        guard let data = FileManager.default.contents(atPath: checked) else {
            throw StudioEditError(.notFound, "\(path) cannot be read")
        }
        return [UInt8](data)
    }

    /// Writes `bytes` to `path` if the file is still at `expectedVersion` (nil: it must not exist).
    /// Returns the new version.
    @discardableResult
    public func write(_ bytes: [UInt8], to path: String, expectedVersion: String?) throws -> String {
        let checked = try check(path, forWriting: true)
        let current = FileManager.default.contents(atPath: checked).map { Self.version(of: [UInt8]($0)) }
        guard current == expectedVersion else {
            throw StudioEditError(
                .stale,
                current == nil
                    ? "\(path) was removed since the page last read it; the page has been reloaded, make the edit again"
                    : "\(path) changed on disk since the page last read it (another editor, git, or tokens import); the page has been reloaded, make the edit again"
            )
        }
        try Self.writeAtomically(bytes, to: checked)
        return Self.version(of: bytes)
    }

    /// A temporary file beside the target, then a rename: readers see the old file or the new one.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let temporary = folder + "/.livery-studio-\(UInt64.random(in: 0...UInt64.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else {
            throw StudioEditError(.writeFailed, "cannot write in \(folder): \(String(cString: strerror(errno)))")
        }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let count = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count <= 0 { return false }
                written += count
            }
            return fsync(descriptor) == 0
        }
        close(descriptor)
        guard ok, rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw StudioEditError(.writeFailed, "cannot write \(path): \(reason)")
        }
    }
}
