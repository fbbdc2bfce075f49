#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Small files read whole with `open`/`read`, and paths taken apart as plain strings: what the
/// launch needs of the file system to read its configuration file.
///
/// Not `FileManager.contents(atPath:)` and `NSString.deletingLastPathComponent`: their first
/// call in a process instantiates Foundation's generic storage and bridges to `NSString`, a
/// cost a launch pays once and measurably (`livery-bench launch`).
enum FileContents {
    /// The bytes of the regular file at `path`, or nil when it cannot be read or is larger than
    /// `limit` (a configuration file is a few hundred bytes; the limit keeps a wrong path to a
    /// huge file from being read whole).
    static func bytes(atPath path: String, limit: Int = 16 * 1024 * 1024) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int(status.st_size) <= limit else {
            return nil
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(Int(status.st_size), 1) + 1)
        // Read to the end, whatever `st_size` said: a file may grow between `fstat` and `read`.
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                bytes.append(contentsOf: chunk[..<count])
                guard bytes.count <= limit else { return nil }
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                return nil
            }
        }
    }

    /// The folder part of `path` (`/a/b/Livery.xml` -> `/a/b`, `Livery.xml` -> `.`,
    /// `/Livery.xml` -> `/`), for resolving the relative paths a file names.
    static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        if slash == trimmed.startIndex { return "/" }
        var folder = trimmed[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return String(folder)
    }
}
