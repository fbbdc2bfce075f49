import Foundation

/// The few file-system questions the front end asks, in one place.
enum FileSystem {
    enum Kind { case file, directory, link, missing, other }

    /// One `lstat`: a final symbolic link is reported as a link, not followed. (Foundation's
    /// attributes dictionary cost more than the parse of a small theme file.)
    static func kind(of path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .directory
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// The size of a file in bytes, without following a final symbolic link (nil if unknown).
    static func size(of path: String) -> Int? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// Entry names, sorted, hidden ones (`.DS_Store`, `.git`) left out.
    static func entries(of directory: String) -> [String]? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return nil }
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    static func read(_ path: String, limit: Int) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.read(upToCount: limit + 1) ?? Data())
        } catch {
            return nil
        }
    }

    static func join(_ folder: String, _ name: String) -> String {
        if folder.isEmpty || folder == "." { return name }
        return folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The folder holding `path` (`.` for a bare name), for finding sibling themes.
    static func parent(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
    }

    static func lastComponent(of path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    }

    /// A key that is the same however a folder was spelled (`Themes/A.theme`, `./Themes/A.theme/`).
    static func canonical(_ path: String) -> String {
        #if os(Linux)
            // One call for a path that exists, where Foundation's resolution was a tenth of a
            // build with nothing to do (bench-brands.py). Apple platforms keep Foundation's,
            // which spells /private/var as /var where realpath does not.
            if let resolved = realpath(path, nil) {
                defer { free(resolved) }
                return String(cString: resolved)
            }
        #endif
        return URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
