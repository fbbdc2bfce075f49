import Foundation
import LiveryXML

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
            return base.isEmpty || base == "."
                ? file : String(file.dropFirst(base.count + (base.hasSuffix("/") ? 0 : 1)))
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
