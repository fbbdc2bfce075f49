import Foundation
import LiveryBinary
import LiveryXML

/// What the sources of a compiled file looked like when their digests last matched it: every
/// file of every folder of its chain with its size and modification time, and the compiled file's
/// own. Kept beside the compiled file (`Dark.livery.sources`), so that deciding "up to date"
/// when nothing changed costs a directory listing and a `stat` per file instead of reading and
/// hashing every source (and parsing them to find the chain). Anything that differs, or a
/// missing or unreadable stamp, falls back to comparing digests, which then writes a new stamp.
///
/// Not in the compiled file: modification times would make compiling depend on the clock, and
/// the same sources must compile to the same bytes.
struct SourceStamp: Codable, Equatable {
    struct File: Codable, Equatable {
        var path: String
        var size: Int64
        var modified: Int64
    }

    struct Folder: Codable, Equatable {
        var path: String
        /// Every regular file under the folder, sorted by path.
        var files: [File]
        /// The names in the folder's parent (where parents are found): a new theme folder beside
        /// it may change which folder a parent id names.
        var siblings: [String]
    }

    var compiled: File
    /// The source digest the compiled file records (hex), so a stamp never vouches for another file.
    var digest: String
    /// The chain, root first.
    var folders: [Folder]

    static func path(ofCompiledFile file: String) -> String { file + ".sources" }

    /// A stamp of the files as they are now, nil when one cannot be read or was modified in the
    /// last two seconds (a file written again within the clock's resolution would look unchanged).
    static func current(compiledFile: String, digest: String, folders: [String]) -> SourceStamp? {
        guard let compiled = stat(compiledFile, as: (compiledFile as NSString).lastPathComponent) else { return nil }
        var stamped: [Folder] = []
        for folder in folders {
            guard let files = files(in: folder), let siblings = siblings(of: folder) else { return nil }
            stamped.append(Folder(path: folder, files: files, siblings: siblings))
        }
        return SourceStamp(compiled: compiled, digest: digest, folders: stamped)
    }

    /// Whether the stamp beside `compiledFile` says the sources are those it was compiled from:
    /// same compiled file, same digest, same theme folder, and every file of the chain with the
    /// same size and modification time, none added or removed.
    static func vouches(compiledFile: String, digest: String, themeAt path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: self.path(ofCompiledFile: compiledFile)),
            let recorded = try? JSONDecoder().decode(SourceStamp.self, from: data),
            recorded.digest == digest, recorded.folders.last?.path == path,
            let now = current(compiledFile: compiledFile, digest: digest, folders: recorded.folders.map(\.path))
        else { return false }
        return now == recorded
    }

    /// Records the stamp after digests matched. Best effort: a folder that cannot be written (an
    /// app bundle) keeps the full check; files modified in the last two seconds are not trusted.
    static func record(compiledFile: String, digest: String, folders: [String]) {
        guard let stamp = current(compiledFile: compiledFile, digest: digest, folders: folders) else { return }
        let recent = (Date().timeIntervalSince1970 - 2) * 1e9
        let files = [stamp.compiled] + stamp.folders.flatMap(\.files)
        guard files.allSatisfy({ Double($0.modified) < recent }),
            let data = try? JSONEncoder().encode(stamp)
        else { return }
        try? ThemeCompiler.writeAtomically(Array(data), to: path(ofCompiledFile: compiledFile))
    }

    private static func stat(_ path: String, as name: String) -> File? {
        var status = Foundation.stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        #if canImport(Darwin)
            let modified = Int64(status.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(status.st_mtimespec.tv_nsec)
        #else
            let modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
        #endif
        return File(path: name, size: Int64(status.st_size), modified: modified)
    }

    /// Every regular file under `folder` (links are not followed), sorted by relative path.
    private static func files(in folder: String) -> [File]? {
        var files: [File] = []
        func walk(_ relative: String) -> Bool {
            let directory = relative.isEmpty ? folder : folder + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
            for name in names.sorted() {
                let child = relative.isEmpty ? name : relative + "/" + name
                var status = Foundation.stat()
                guard lstat(folder + "/" + child, &status) == 0 else { return false }
                if status.st_mode & S_IFMT == S_IFDIR {
                    guard walk(child) else { return false }
                } else if let file = stat(folder + "/" + child, as: child) {
                    files.append(file)
                }
            }
            return true
        }
        guard walk("") else { return nil }
        return files.sorted { $0.path < $1.path }
    }

    /// Hidden files (temporary files of atomic writes) and stamps are not themes.
    private static func siblings(of folder: String) -> [String]? {
        let parent = (folder as NSString).deletingLastPathComponent
        return (try? FileManager.default.contentsOfDirectory(atPath: parent.isEmpty ? "." : parent))?
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".sources") }.sorted()
    }
}
