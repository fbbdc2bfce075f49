import Foundation

/// What a set of folders holds, file by file: path, size and modification time. Two snapshots
/// differ when a file was saved, added or removed. Polling this is how `livery watch` notices
/// saves: a theme is a few dozen files, so a snapshot costs well under a millisecond, and it
/// behaves the same on Linux, macOS and network file systems (where inotify sees nothing).
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

/// Polls folders and calls back when they change, after they have been quiet for one more
/// interval (editors often write a file in several steps; this reports one save, not three).
public final class SourceWatcher: @unchecked Sendable {
    public let roots: [String]
    public let interval: Double
    private var snapshot: SourceSnapshot

    public init(roots: [String], interval: Double = 0.25) {
        self.roots = roots
        self.interval = interval
        self.snapshot = SourceSnapshot.take(roots)
    }

    /// A changed file as a designer tells it apart from the others: relative to the folder the
    /// watched root sits in when the root is a theme (`Base.theme/Chat.xml`), relative to the
    /// root when it is a folder of themes; otherwise as given.
    public func display(_ file: String) -> String {
        for root in roots.sorted(by: { $0.count > $1.count }) where file.hasPrefix(root + "/") {
            let isTheme = (root as NSString).pathExtension.isEmpty == false
            let base = isTheme ? (root as NSString).deletingLastPathComponent : root
            return base.isEmpty || base == "." ? file : String(file.dropFirst(base.count + (base.hasSuffix("/") ? 0 : 1)))
        }
        return file
    }

    /// Blocks until something under the roots changes; returns the changed files.
    public func waitForChange() -> [String] {
        while true {
            Thread.sleep(forTimeInterval: interval)
            if let changed = poll() { return changed }
        }
    }

    /// One look: the changed files once the folders have settled, or nil when nothing changed.
    public func poll() -> [String]? {
        var current = SourceSnapshot.take(roots)
        guard current != snapshot else { return nil }
        // settle: wait until two looks in a row agree
        while true {
            Thread.sleep(forTimeInterval: min(interval, 0.1))
            let next = SourceSnapshot.take(roots)
            if next == current { break }
            current = next
        }
        let changed = current.changes(since: snapshot)
        snapshot = current
        return changed
    }
}
