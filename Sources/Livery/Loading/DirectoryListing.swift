import Foundation

/// The entries of a folder, for theme discovery: names and whether each is a folder, read with
/// `opendir`/`readdir` (symbolic links followed, as `FileManager` does).
///
/// Not `FileManager.contentsOfDirectory` plus `fileExists(atPath:isDirectory:)`: on Linux their
/// first call resolves generic conformances by scanning every loaded image, and the second costs
/// a `stat` per entry that `readdir` mostly answers already (`livery-bench launch` times both).
enum DirectoryListing {
    struct Entry {
        var name: String
        var isFolder: Bool

        /// What follows the name's last dot (`Dark.theme` -> `theme`); empty without one, and for
        /// names that only start with a dot.
        var pathExtension: Substring {
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
            return name[name.index(after: dot)...]
        }
    }

    /// The entries of `path` in name order, without `.` and `..`; nil when it cannot be read.
    static func entries(of path: String) -> [Entry]? {
        guard let directory = opendir(path) else { return nil }
        defer { closedir(directory) }
        var entries: [Entry] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let type = Int32(entry.pointee.d_type)
            let isFolder: Bool
            if type == Int32(DT_DIR) {
                isFolder = true
            } else if type == Int32(DT_REG) {
                isFolder = false
            } else {
                // A link, or a file system that does not say: ask, following links.
                var status = stat()
                guard stat(path + "/" + name, &status) == 0 else { continue }
                isFolder = status.st_mode & S_IFMT == S_IFDIR
            }
            entries.append(Entry(name: name, isFolder: isFolder))
        }
        return entries.sorted { $0.name < $1.name }
    }
}
