import Foundation

/// Keeps downloaded themes within a byte budget (`ThemeStore.setCacheBudget`). What counts: the
/// installed products' files, parked products, and partial downloads. To make room for an
/// install, it removes, in this order, partial downloads of other packages, parked products, then
/// installed products by oldest use, and never the theme in use, its parents, a pinned product,
/// a product another installed one builds on, or the product being installed.
struct CacheBudget {
    let installer: ProductInstaller

    var usagePath: String { installer.workFolder + "/usage.json" }
    var pinnedPath: String { installer.workFolder + "/pinned.json" }

    func lastUse() -> [String: Date] {
        guard let data = FileManager.default.contents(atPath: usagePath),
            let usage = try? JSONDecoder().decode([String: Date].self, from: data)
        else { return [:] }
        return usage
    }

    func recordUse(_ id: String, at date: Date = Date()) {
        var usage = lastUse()
        usage[id] = date
        save(usage, to: usagePath)
    }

    func pinned() -> Set<String> {
        guard let data = FileManager.default.contents(atPath: pinnedPath),
            let ids = try? JSONDecoder().decode([String].self, from: data)
        else { return [] }
        return Set(ids)
    }

    func setPinned(_ ids: Set<String>) { save(ids.sorted(), to: pinnedPath) }

    private func save<Value: Encodable>(_ value: Value, to path: String) {
        guard let data = try? JSONEncoder().encode(value),
            (try? ProductInstaller.writeDurably(data, to: path + ".tmp")) != nil
        else { return }
        rename(path + ".tmp", path)
    }

    /// Bytes of a file, or of every file under a folder.
    static func size(of path: String) -> Int64 {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return 0 }
        if !isFolder.boolValue {
            return ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
        }
        let files = FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []
        return files.reduce(0) { $0 + size(of: path + "/" + $1) }
    }

    /// Something that can be removed to make room, and what it frees.
    enum Candidate: Equatable {
        case partial(path: String)
        case parked(id: String)
        case installed(id: String)
    }

    /// What the budget counts now.
    func used() -> Int64 {
        let products = installer.installed().reduce(Int64(0)) { $0 + Self.size(of: $1.path) }
        return products + Self.size(of: installer.parkedFolder) + Self.size(of: installer.downloadsFolder)
    }

    /// What may go, in the order it goes, with the bytes each frees.
    func candidates(protecting protected: Set<String>, keepingPartial partial: String?) -> [(Candidate, Int64)] {
        var result: [(Candidate, Int64)] = []
        let downloads = installer.downloadsFolder
        for entry in ((try? FileManager.default.contentsOfDirectory(atPath: downloads)) ?? []).sorted()
        where entry.hasSuffix(".part") && downloads + "/" + entry != partial {
            let path = downloads + "/" + entry
            result.append(
                (.partial(path: path), Self.size(of: path) + Self.size(of: PartialDownload.recordPath(for: path))))
        }
        for product in installer.parked() {
            result.append((.parked(id: product.id), Self.size(of: product.path)))
        }
        let installed = installer.installed()
        let usage = lastUse()
        let parents = Set(installed.compactMap(\.parent))
        let removable = installed.filter { !protected.contains($0.id) && !parents.contains($0.id) }
        func used(_ product: InstalledProduct) -> Date {
            usage[product.id]
                ?? ((try? FileManager.default.attributesOfItem(atPath: product.path))?[.modificationDate] as? Date)
                ?? .distantPast
        }
        for product in removable.sorted(by: { (used($0), $0.id) < (used($1), $1.id) }) {
            result.append((.installed(id: product.id), Self.size(of: product.path)))
        }
        return result
    }

    /// The ids that must stay: the theme in use with its installed parents, the pinned ones, and
    /// `also` (the product being installed, when known).
    func protected(inUse: String?, also: String?) -> Set<String> {
        var kept = pinned().union(also.map { [$0] } ?? [])
        let byID = Dictionary(installer.installed().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var next = inUse
        var seen = Set<String>()
        while let id = next, seen.insert(id).inserted {
            kept.insert(id)
            next = byID[id]?.parent
        }
        return kept
    }
}
