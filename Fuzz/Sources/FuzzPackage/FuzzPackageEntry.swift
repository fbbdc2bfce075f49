// The whole of fuzz target (4), FuzzPackage, as a function: Fuzz/Sources/FuzzPackage/main.swift calls
// it for libFuzzer and Tests/LiveryStoreTests/FuzzPackageRegressionTests.swift replays
// Tests/Fixtures/Regressions/FuzzPackage through it (this file is linked there).
//
// bytes as a downloaded package, through `ProductInstaller.install(packageAt:)`: the same checks a
// download goes through after its size and SHA-256 matched the catalog (entry caps, path checks,
// manifest decoding, extraction into staging with byte caps and digests, validation against the
// parent, compilation, commit). No network.
//
// Each input gets a fresh folder (memory-backed `/dev/shm` when there is one):
//
//     <root>/<uuid>/package.liverypkg            the input
//     <root>/<uuid>/w/w/w/w/w/w/installed/       the install root: `com.livery.base` installed
//                                                (a copy of Themes/Base.theme), nothing else
//     <root>/bundled/Dark.theme, Tokens.theme    bundled with the "app", shared, read only
//
// so Light and High Contrast packages install (parent installed or bundled), a Base package is an
// update (the swap path), and a Dark package is refused (a bundled theme has its id).
//
// Two input forms:
// - anything else: the bytes are the package file as it is (`livery pack` output, mutated zips);
// - `LIVERYFUZZ\n` first: a list of entries separated by 0x1E, each `name\nbody`, stored (not
//   compressed) into a zip here. A manifest listing every entry with its true size and SHA-256 is
//   added unless an entry is called `manifest.json`, and its id, version and parent are read from
//   the `content/Info.xml` entry. A name starting with `@` is a symbolic link to its body. Most
//   mutations of a real zip die at a CRC or digest; this form gets the fuzzer to extraction,
//   validation and compilation with hostile names and theme files.
//
// Invariants (trap when broken, so libFuzzer reports the input):
// - nothing is written outside the install root: the input's folder holds only the package and
//   the chain of `w` folders, each holding only the next, and the bundled folder never changes;
// - no symbolic link appears under the install root;
// - a failed install leaves the install root exactly as it was (names, types, sizes, contents);
// - a successful one adds or replaces exactly `<id>.purchasedTheme` and `<id>.livery`, whose files
//   are exactly the manifest's content files (sizes and SHA-256), leaves everything else as it was,
//   and leaves no journal, staging, download or trash behind.
import Foundation
import LiveryStore
import LiveryStoreDevelopment

enum FuzzPackageEntry {
    static let magic = Array("LIVERYFUZZ\n".utf8)
    static let depth = 6

    /// The repository's Themes folder: beside the folder three levels above this file's, both in
    /// Fuzz/Sources/FuzzPackage and in Tests/LiveryStoreTests/Fuzz (where it is linked), or `LIVERY_THEMES`.
    static let themes: String = {
        if let path = ProcessInfo.processInfo.environment["LIVERY_THEMES"] { return path }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Themes")
            .standardizedFileURL.path
    }()

    static let root: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        // libFuzzer does not always run atexit handlers: remove what runs of dead processes left.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        where name.hasPrefix("livery-fuzz-package-") {
            let fields = name.split(separator: "-")
            if fields.count == 5, let pid = Int32(fields[3]), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: base + "/" + name)
            }
        }
        let path = base + "/livery-fuzz-package-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.removeItem(atPath: path)
        try! FileManager.default.createDirectory(atPath: path + "/bundled", withIntermediateDirectories: true)
        try! FileManager.default.copyItem(atPath: themes + "/Dark.theme", toPath: path + "/bundled/Dark.theme")
        // Light's parent is Tokens (design tokens); its own parent, Base, is installed.
        try! FileManager.default.copyItem(atPath: themes + "/Tokens.theme", toPath: path + "/bundled/Tokens.theme")
        return path
    }()
    static var bundled: String { root + "/bundled" }
    static let bundledSnapshot: [String: Node] = snapshot(root + "/bundled")

    /// Removes the temporary folder (call at exit).
    static func cleanUp() { try? FileManager.default.removeItem(atPath: root) }

    // MARK: Snapshots

    enum Node: Hashable, CustomStringConvertible {
        case folder
        case file(size: Int, digest: String)
        case link(String)
        case other(mode: UInt32)

        var description: String {
            switch self {
            case .folder: return "folder"
            case let .file(size, digest): return "file(\(size) bytes, \(digest.prefix(12)))"
            case let .link(target): return "symlink -> \(target)"
            case let .other(mode): return "special file (mode \(String(mode, radix: 8)))"
            }
        }
    }

    /// Every entry under `folder` by relative path, without following links.
    static func snapshot(_ folder: String) -> [String: Node] {
        var result: [String: Node] = [:]
        func walk(_ relative: String) {
            let path = relative.isEmpty ? folder : folder + "/" + relative
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
            for name in names {
                let child = relative.isEmpty ? name : relative + "/" + name
                let full = folder + "/" + child
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    result[child] = .folder
                    walk(child)
                case S_IFREG:
                    let data = contents(full)
                    result[child] = .file(size: data.count, digest: Hashing.sha256(data))
                case S_IFLNK:
                    result[child] = .link((try? FileManager.default.destinationOfSymbolicLink(atPath: full)) ?? "?")
                default:
                    result[child] = .other(mode: UInt32(info.st_mode))
                }
            }
        }
        walk("")
        return result
    }

    /// A file's bytes through read(2): LeakSanitizer reports `FileManager.contents(atPath:)`'s
    /// buffers as leaked (they are not: 200,000 calls keep the same resident size).
    static func contents(_ path: String) -> Data {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return Data() }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return Data(bytes)
    }

    static func differences(_ before: [String: Node], _ after: [String: Node]) -> String {
        var lines: [String] = []
        for key in Set(before.keys).union(after.keys).sorted() where before[key] != after[key] {
            lines.append(
                "\(key): \(before[key].map(\.description) ?? "absent") -> \(after[key].map(\.description) ?? "absent")")
        }
        return lines.prefix(10).joined(separator: "; ")
    }

    // MARK: Structured inputs

    /// Builds a zip (stored entries) from the `LIVERYFUZZ` form.
    static func package(fromEntries bytes: ArraySlice<UInt8>) -> [UInt8] {
        var entries: [(name: String, data: [UInt8], link: Bool)] = []
        for record in bytes.split(separator: 0x1E, omittingEmptySubsequences: true) {
            let newline = record.firstIndex(of: 0x0A) ?? record.endIndex
            var name = String(decoding: record[record.startIndex..<newline], as: UTF8.self)
            let body = newline < record.endIndex ? Array(record[(newline + 1)...]) : []
            let link = name.hasPrefix("@")
            if link { name.removeFirst() }
            entries.append((name, body, link))
        }
        if !entries.contains(where: { $0.name == PackageManifest.fileName }) {
            let info =
                entries.first { $0.name == "content/Info.xml" }.map { String(decoding: $0.data, as: UTF8.self) } ?? ""
            let id = attribute("id", in: info) ?? "com.livery.fuzz"
            let version = attribute("version", in: info) ?? "1.0.0"
            let parent = attribute("parent", in: info).map {
                PackageManifest.Dependency(id: $0, minimumVersion: "1.0.0")
            }
            let files = entries.filter { !$0.link && !$0.name.hasSuffix("/") }.map {
                PackageManifest.File(path: $0.name, size: Int64($0.data.count), sha256: Hashing.sha256(Data($0.data)))
            }
            let manifest = PackageManifest(
                type: "theme", id: id, name: "Fuzz", version: version, parent: parent, files: files)
            if let data = try? manifest.encoded() {
                entries.insert((PackageManifest.fileName, Array(data), false), at: 0)
            }
        }
        return StoredZip.bytes(entries)
    }

    /// `name="value"` inside the `<theme-info` start tag, roughly (the installer checks it properly).
    static func attribute(_ name: String, in text: String) -> String? {
        guard let start = text.range(of: "<theme-info") else { return nil }
        let tag = text[start.upperBound...].prefix { $0 != ">" }
        guard let range = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[range.upperBound...].prefix { $0 != "\"" }
        return String(value)
    }

    /// Themes/Light.theme in the `LIVERYFUZZ` form (installs: its parent is installed).
    static func warmUpInput() -> [UInt8] {
        let folder = themes + "/Light.theme"
        var bytes = magic
        let files = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).sorted()
        for file in files {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + file, isDirectory: &isFolder),
                !isFolder.boolValue,
                case let data = contents(folder + "/" + file), !data.isEmpty
            else { continue }
            bytes += [0x1E] + Array("content/\(file)\n".utf8) + Array(data)
        }
        return bytes
    }

    // MARK: The target

    /// What happened, for the replay tests: `installed <id>`, `updated <id>` or the error.
    @discardableResult
    static func run(_ buffer: UnsafeBufferPointer<UInt8>) -> String {
        let input = Array(buffer)
        let bytes = input.starts(with: magic) ? package(fromEntries: input[magic.count...]) : input

        let folder = root + "/" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var chain = folder
        for _ in 0..<depth { chain += "/w" }
        let installedFolder = chain + "/installed"
        try! FileManager.default.createDirectory(atPath: installedFolder, withIntermediateDirectories: true)
        let packagePath = folder + "/package.liverypkg"
        try! Data(bytes).write(to: URL(fileURLWithPath: packagePath))
        try! FileManager.default.copyItem(
            atPath: themes + "/Base.theme", toPath: installedFolder + "/com.livery.base.purchasedTheme")
        try! Data("not a real compiled file; only the folder counts".utf8).write(
            to: URL(fileURLWithPath: installedFolder + "/com.livery.base.livery"))

        let installer: ProductInstaller
        do {
            // Theme sources through the development handler: the path that unpacks every file.
            installer = try ProductInstaller(
                installedFolder: installedFolder, bundledSearchPaths: [bundled],
                handlers: ContentHandlers([SourceThemeContentHandler()]))
        } catch {
            fatalError("the installer cannot open a fresh folder: \(error)")
        }
        installer.recover()  // creates the lock file, so "before" is the state an install starts from
        let installedRoot = installer.installedFolder  // realpath
        let before = snapshot(installedRoot)
        let packageBefore = Node.file(size: bytes.count, digest: Hashing.sha256(Data(bytes)))

        let outcome = Result { try installer.install(packageAt: packagePath) }
        let after = snapshot(installedRoot)

        // Nothing outside the install root.
        var outer = folder
        for level in 0...depth {
            let names = Set((try? FileManager.default.contentsOfDirectory(atPath: outer)) ?? [])
            let expected: Set<String> = level == 0 ? ["package.liverypkg", "w"] : [level == depth ? "installed" : "w"]
            FuzzCheck.require(names == expected, "written outside the install root: \(outer) holds \(names.sorted())")
            outer += level == depth ? "" : "/w"
        }
        FuzzCheck.require(snapshot(folder)["package.liverypkg"] == packageBefore, "the package file changed")
        FuzzCheck.require(
            snapshot(bundled) == bundledSnapshot,
            "a bundled theme changed: \(differences(bundledSnapshot, snapshot(bundled)))")
        for (path, node) in after {
            if case .link = node { fatalError("a symbolic link under the install root: \(path) \(node)") }
            if case .other = node { fatalError("a special file under the install root: \(path) \(node)") }
        }

        switch outcome {
        case .failure(let error):
            FuzzCheck.require(
                before == after,
                "a failed install (\(error)) changed the install root: \(differences(before, after))")
            FuzzCheck.require(error is StoreError, "the installer threw something other than a StoreError: \(error)")
            return "\(error)"
        case .success(let result):
            guard let archive = try? PackageArchive(path: packagePath) else {
                fatalError("installed a package that does not open a second time")
            }
            let manifest = archive.manifest
            let folderName = manifest.id + ".purchasedTheme"
            let compiledName = manifest.id + ".livery"
            FuzzCheck.require(
                result.product.id == manifest.id, "installed \(result.product.id), the manifest says \(manifest.id)")
            FuzzCheck.require(
                result.product.path == installedRoot + "/" + folderName, "installed at \(result.product.path)")
            // Everything except the product (and the store's own folder) is as it was.
            let work = ProductInstaller.workFolderName
            func isProduct(_ path: String) -> Bool {
                path == folderName || path.hasPrefix(folderName + "/") || path == compiledName
            }
            let keptBefore = before.filter { !isProduct($0.key) && $0.key != work && !$0.key.hasPrefix(work + "/") }
            let keptAfter = after.filter { !isProduct($0.key) && $0.key != work && !$0.key.hasPrefix(work + "/") }
            FuzzCheck.require(
                keptBefore == keptAfter, "an install changed another product: \(differences(keptBefore, keptAfter))")
            // The store's folder holds the lock, empty work folders and the product's manifest.
            let keptManifest = work + "/manifests/" + manifest.id + ".json"
            let workAfter = after.filter { ($0.key == work || $0.key.hasPrefix(work + "/")) && $0.key != keptManifest }
            let workBefore = before.filter { $0.key == work || $0.key.hasPrefix(work + "/") }
            FuzzCheck.require(
                workAfter == workBefore, "an install left work files: \(differences(workBefore, workAfter))")
            // The product is exactly the manifest's content files.
            var expected: [String: Node] = [:]
            for file in manifest.contentFiles {
                expected[folderName + "/" + file.path] = .file(size: Int(file.size), digest: file.sha256.lowercased())
                var parent = (file.path as NSString).deletingLastPathComponent
                while !parent.isEmpty {
                    expected[folderName + "/" + parent] = .folder
                    parent = (parent as NSString).deletingLastPathComponent
                }
            }
            expected[folderName] = .folder
            let product = after.filter { $0.key == folderName || $0.key.hasPrefix(folderName + "/") }
            FuzzCheck.require(
                product == expected,
                "the installed folder is not the manifest's content: \(differences(expected, product))")
            guard case .file(let size, _)? = after[compiledName], size > 0 else {
                fatalError("no compiled file beside the installed theme")
            }
            FuzzCheck.require(
                installer.installed().contains { $0.id == manifest.id }, "the installed theme is not listed")
            return (result.replacedVersion == nil ? "installed " : "updated ") + manifest.id
        }
    }
}

/// A minimal zip writer (stored entries, Unix modes) that writes any name, including hostile ones.
enum StoredZip {
    static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static func bytes(_ entries: [(name: String, data: [UInt8], link: Bool)]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        func le16(_ value: Int, _ into: inout [UInt8]) { into += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }
        func le32(_ value: UInt32, _ into: inout [UInt8]) {
            into += [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)]
        }
        let entries = entries.prefix(0xFFFF)
        for entry in entries {
            let offset = UInt32(truncatingIfNeeded: out.count)
            let name = Array(entry.name.utf8.prefix(0xFFFF))
            let crc = crc32(entry.data)
            let size = UInt32(truncatingIfNeeded: entry.data.count)
            le32(0x0403_4B50, &out)
            le16(20, &out)
            le16(0x0800, &out)
            le16(0, &out)
            le16(0, &out)
            le16(0x21, &out)
            le32(crc, &out)
            le32(size, &out)
            le32(size, &out)
            le16(name.count, &out)
            le16(0, &out)
            out += name
            out += entry.data
            let folder = entry.name.hasSuffix("/")
            let mode: UInt32 = entry.link ? 0o120777 : folder ? 0o040755 : 0o100644
            le32(0x0201_4B50, &central)
            le16(0x0314, &central)
            le16(20, &central)
            le16(0x0800, &central)
            le16(0, &central)
            le16(0, &central)
            le16(0x21, &central)
            le32(crc, &central)
            le32(size, &central)
            le32(size, &central)
            le16(name.count, &central)
            le16(0, &central)
            le16(0, &central)
            le16(0, &central)
            le16(0, &central)
            le32(mode << 16 | (folder ? 0x10 : 0), &central)
            le32(offset, &central)
            central += name
        }
        let centralOffset = UInt32(truncatingIfNeeded: out.count)
        out += central
        le32(0x0605_4B50, &out)
        le16(0, &out)
        le16(0, &out)
        le16(entries.count, &out)
        le16(entries.count, &out)
        le32(UInt32(truncatingIfNeeded: central.count), &out)
        le32(centralOffset, &out)
        le16(0, &out)
        return out
    }
}
