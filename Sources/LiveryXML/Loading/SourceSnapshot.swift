import Foundation

/// What a set of folders holds, file by file: path, size and modification time. Two snapshots
/// differ when a file was saved, added or removed. Polling this is how `livery watch` and an
/// app's `LiveReload` (LiveryDevelopment) notice saves: a theme is a few dozen files, so a
/// snapshot costs well under a millisecond, and it behaves the same on Linux, macOS and network
/// file systems (where inotify sees nothing).
public struct SourceSnapshot: Hashable, Sendable {
    public struct Stamp: Hashable, Sendable {
        public var size: Int64
        public var modified: Double
    }

    public private(set) var files: [String: Stamp]

    public init(files: [String: Stamp]) { self.files = files }

    /// Every regular file under `roots` (recursively; hidden files skipped, links not followed).
    public static func take(_ roots: [String]) -> SourceSnapshot {
        var files: [String: Stamp] = [:]
        let manager = FileManager.default
        func visit(_ path: String, depth: Int) {
            guard depth < 8, let attributes = try? manager.attributesOfItem(atPath: path) else { return }
            let type = attributes[.type] as? FileAttributeType
            if type == .typeDirectory {
                for entry in (try? manager.contentsOfDirectory(atPath: path)) ?? [] where !entry.hasPrefix(".") {
                    visit((path as NSString).appendingPathComponent(entry), depth: depth + 1)
                }
            } else if type == .typeRegular {
                let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
                let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                files[path] = Stamp(size: size, modified: modified)
            }
        }
        for root in roots { visit(root, depth: 0) }
        return SourceSnapshot(files: files)
    }

    /// Files added, removed or changed since `earlier`, sorted.
    public func changes(since earlier: SourceSnapshot) -> [String] {
        var changed: [String] = []
        for (path, stamp) in files where earlier.files[path] != stamp { changed.append(path) }
        for path in earlier.files.keys where files[path] == nil { changed.append(path) }
        return changed.sorted()
    }
}
