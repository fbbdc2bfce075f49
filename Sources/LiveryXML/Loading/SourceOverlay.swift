import Foundation

/// File contents that stand in for what is on disk: an editor's unsaved buffers. The front end
/// consults it wherever it reads a theme's files, so a file held here is read from here (and
/// listed in its folder) whether or not it exists on disk. Thread-safe; after changing a file,
/// `ThemeWorkspace.forget(themeAt:)` the theme holding it so that the next operation reads it.
public final class SourceOverlay: @unchecked Sendable {
    private let lock = NSLock()
    /// Contents by canonical folder, then file name.
    private var folders: [String: [String: [UInt8]]] = [:]

    public init() {}

    /// Holds `text` as the contents of the file at `path`.
    public func set(_ text: String, forFileAt path: String) {
        let (folder, name) = Self.key(path)
        lock.withLock { folders[folder, default: [:]][name] = Array(text.utf8) }
    }

    /// Lets the file at `path` be read from disk again.
    public func remove(fileAt path: String) {
        let (folder, name) = Self.key(path)
        lock.withLock {
            folders[folder]?[name] = nil
            if folders[folder]?.isEmpty == true { folders[folder] = nil }
        }
    }

    /// The paths held, sorted.
    public var paths: [String] {
        lock.withLock { folders.flatMap { folder, files in files.keys.map { FileSystem.join(folder, $0) } }.sorted() }
    }

    var isEmpty: Bool { lock.withLock { folders.isEmpty } }

    /// The contents held for `path`, nil when it is read from disk.
    func bytes(at path: String) -> [UInt8]? {
        guard !isEmpty else { return nil }
        let (folder, name) = Self.key(path)
        return lock.withLock { folders[folder]?[name] }
    }

    /// The names of the files held directly in `folder`.
    func names(in folder: String) -> [String] {
        guard !isEmpty else { return [] }
        let key = FileSystem.canonical(folder)
        return lock.withLock { folders[key].map { Array($0.keys) } ?? [] }
    }

    /// A file's folder spelled canonically (the file itself may not exist) and its name.
    private static func key(_ path: String) -> (String, String) {
        (FileSystem.canonical(FileSystem.parent(of: path)), FileSystem.lastComponent(of: path))
    }
}

extension FileSystem {
    /// `kind(of:)`, with files held in `overlay` counted as files.
    static func kind(of path: String, overlay: SourceOverlay?) -> Kind {
        if let overlay, overlay.bytes(at: path) != nil { return .file }
        return kind(of: path)
    }

    /// `entries(of:)`, with the files `overlay` holds in the folder added.
    static func entries(of directory: String, overlay: SourceOverlay?) -> [String]? {
        let held = overlay?.names(in: directory) ?? []
        guard !held.isEmpty else { return entries(of: directory) }
        return Array(Set((entries(of: directory) ?? []) + held)).sorted()
    }

    /// `read(_:limit:)`, preferring what `overlay` holds.
    static func read(_ path: String, limit: Int, overlay: SourceOverlay?) -> [UInt8]? {
        if let held = overlay?.bytes(at: path) { return Array(held.prefix(limit + 1)) }
        return read(path, limit: limit)
    }
}
