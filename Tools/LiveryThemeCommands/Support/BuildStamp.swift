import Crypto
import Foundation
import LiveryBinary

/// What `build` records beside each compiled file, so that the next build can skip a theme whose
/// output would not change: a digest of everything the file was made from, the digest of the file
/// itself, and the summary row to print for it. Kept in `OUTPUT/.livery-build/<Name>.json`, one
/// small file per theme written atomically, so that shards of a CI matrix write disjoint files
/// and their output folders together equal the full build's. Holds no time or absolute path: the
/// same sources give the same stamp on any machine (an output folder cached between CI runs is
/// trusted on the next runner).
///
/// A stamp vouches for a compiled file only when the file's bytes still have the recorded digest
/// and the reader's verifier accepts them: a damaged or foreign file is rebuilt, never trusted.
struct BuildStamp: Codable, Equatable {
    /// The stamp format; a stamp of another version is not trusted (the theme is rebuilt).
    static let version = 1
    /// The folder of stamps inside the output folder.
    static let folderName = ".livery-build"

    var version: Int
    /// SHA-256 (hex) of the build's inputs for this theme (`BuildInputs`).
    var inputs: String
    /// SHA-256 (hex) of the compiled file's bytes.
    var compiled: String
    /// The compiled file's size, so a file of another size is rebuilt without being read.
    var size: Int
    /// The theme's row in the summary table.
    var summary: BuildSummary

    static func path(output: String, themeName: String) -> String {
        output + "/" + folderName + "/" + themeName + ".json"
    }

    /// The stamp's bytes: sorted keys, one line per value, so equal stamps are equal files.
    func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return Array((try? encoder.encode(self)) ?? Data()) + [0x0A]
    }

    /// The stamp recorded for `themeName`, if it is one of this version.
    static func recorded(output: String, themeName: String) -> BuildStamp? {
        guard let data = FileManager.default.contents(atPath: path(output: output, themeName: themeName)),
            let stamp = try? JSONDecoder().decode(BuildStamp.self, from: data), stamp.version == version
        else { return nil }
        return stamp
    }

    /// Whether `file` is the compiled file this stamp describes: same size, same digest, and the
    /// reader's verifier accepts it (header, sections, block checksums, every record).
    func vouches(for file: String) -> Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
            attributes[.type] as? FileAttributeType == .typeRegular, (attributes[.size] as? Int) == size,
            let data = FileManager.default.contents(atPath: file), data.count == size
        else { return false }
        let bytes = Array(data)
        guard BuildDigest.hex(of: bytes) == compiled, let theme = try? CompiledTheme(bytes: bytes) else {
            return false
        }
        return (try? theme.verifyContents()) != nil
    }
}

/// A theme's row in `build`'s summary table, as recorded in its stamp.
struct BuildSummary: Codable, Equatable {
    var id: String
    var parent: String?
    /// Instances of the generic variant.
    var instances: Int
    var variants: Int
    /// XML bytes of the theme and its ancestors.
    var xmlBytes: Int
    /// The compiled file without asset bytes.
    var themeBytes: Int
    var assetBytes: Int
}

/// Everything a compiled file depends on, digested: the compiler (tool and format versions), the
/// options that change the output or the outcome (`--strict`, schema files, severity
/// configuration, baseline), and the contents of the theme's folder and of every ancestor's, in
/// chain order. Folder contents are every file under the folder (names and bytes), so an asset
/// or a file the front end ignores today counts too: a spurious rebuild writes nothing new, a
/// missed one would be wrong.
struct BuildInputs {
    /// The part shared by every theme of a run: compiler and options.
    let common: String

    init(strict: Bool, schemaFiles: [String], config: String?, baseline: String?) {
        func file(_ path: String?) -> String {
            guard let path else { return "none" }
            guard let data = FileManager.default.contents(atPath: path) else { return "unreadable " + path }
            return BuildDigest.hex(of: Array(data))
        }
        var lines = [
            "livery build inputs \(BuildStamp.version)", "tool \(LiveryVersion.tool)", "format \(LiveryVersion.format)",
            "strict \(strict)", "config \(file(config))", "baseline \(file(baseline))",
        ]
        lines += schemaFiles.map { "schema \(file($0))" }
        common = lines.joined(separator: "\n")
    }

    /// The digest for a theme whose chain (theme first, then its ancestors) has these folder digests.
    func digest(chain: [FolderDigest]) -> String {
        let text = ([common] + chain.map { "folder \($0.digest)" }).joined(separator: "\n")
        return BuildDigest.hex(of: Array(text.utf8))
    }
}

/// A theme folder's contents, digested, and the size of its XML files (for the summary).
struct FolderDigest: Sendable {
    var digest: String
    var xmlBytes: Int

    /// Every entry under `folder`, sorted by relative path: a regular file as its path, a zero
    /// byte, its length (8 bytes, little-endian) and its bytes; a symbolic link as its path and
    /// target (links are not followed); other entries by path. Nil when the folder cannot be read.
    static func of(_ folder: String) -> FolderDigest? {
        var hasher = Crypto.SHA256()
        var xmlBytes = 0
        func walk(_ relative: String) -> Bool {
            let directory = relative.isEmpty ? folder : folder + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return false }
            for name in names.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
                let child = relative.isEmpty ? name : relative + "/" + name
                let path = folder + "/" + child
                var status = stat()
                guard lstat(path, &status) == 0 else { return false }
                hasher.update(data: Array(child.utf8) + [0])
                switch status.st_mode & S_IFMT {
                case S_IFDIR:
                    hasher.update(data: Array("dir".utf8))
                    guard walk(child) else { return false }
                case S_IFREG:
                    guard let data = FileManager.default.contents(atPath: path) else { return false }
                    withUnsafeBytes(of: UInt64(data.count).littleEndian) { hasher.update(bufferPointer: $0) }
                    hasher.update(data: data)
                    if name.hasSuffix(".xml") { xmlBytes += data.count }
                case S_IFLNK:
                    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
                    hasher.update(data: Array(("link " + target).utf8))
                default:
                    hasher.update(data: Array("other".utf8))
                }
            }
            return true
        }
        guard walk("") else { return nil }
        return FolderDigest(digest: BuildDigest.hex(hasher.finalize()), xmlBytes: xmlBytes)
    }
}

enum BuildDigest {
    static func hex(of bytes: [UInt8]) -> String { hex(Crypto.SHA256.hash(data: bytes)) }

    /// Lower-case hex, two digits a byte. Not `String(format:)`: a rebuild with nothing changed
    /// makes three digests a theme, and formatting them byte by byte was a quarter of its time
    /// (bench-brands.py, 1,000 brands, build with nothing changed).
    static func hex(_ digest: Crypto.SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
