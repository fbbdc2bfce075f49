import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// Uninstalling, parking the products whose base changed, and recovering after a crash.
extension ProductInstaller {
    // MARK: Uninstall

    /// Removes an installed product. Refuses while another installed product builds on it,
    /// saying which. (Whether it is in use is the store's question: it knows the manager.)
    public func uninstall(id: String) throws -> InstalledProduct {
        try withLock {
            let all = installed()
            guard let product = all.first(where: { $0.id == id }) else {
                // A parked product is removed from the work folder, with its manifest.
                guard let parked = parked().first(where: { $0.id == id }) else { throw StoreError.notInstalled(id) }
                let name = (parked.path as NSString).lastPathComponent
                let journal = Journal(
                    id: id, staging: stagingFolder + "/" + UUID().uuidString,
                    steps: [
                        .removeFile(Self.workFolderName + "/parked/" + name), .removeFile(Self.manifestPath(of: id)),
                    ])
                try journal.write(to: journalPath)
                try fault("journal written")
                try rollForward(journal)
                return parked
            }
            let dependents = all.filter { $0.parent == id }.map(\.id)
            guard dependents.isEmpty else {
                throw StoreError.refused(
                    "'\(id)' cannot be uninstalled: \(dependents.joined(separator: ", ")) \(dependents.count == 1 ? "inherits" : "inherit") from it; uninstall \(dependents.count == 1 ? "it" : "them") first"
                )
            }
            let handler = try handlers.handler(for: product.type)
            // Derived files first (the folder alone is still a whole product), then the folder
            // leaves in one rename; a journal makes recovery finish what a crash interrupted.
            let steps =
                handler.derivedFileExtensions.map { Journal.Step.removeFile(id + "." + $0) }
                + [.removeFolder((product.path as NSString).lastPathComponent), .removeFile(Self.manifestPath(of: id))]
            let staging = stagingFolder + "/" + UUID().uuidString
            let journal = Journal(id: id, staging: staging, steps: steps)
            try journal.write(to: journalPath)
            try fault("journal written")
            try rollForward(journal)
            return product
        }
    }

    // MARK: Parking

    /// Products moved out of the installed folder because what they build on changed (the app's
    /// copy of a compiled theme's parent): never shown, installed again from the catalog.
    public func parked() -> [InstalledProduct] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: parkedFolder)) ?? []
        return entries.sorted().flatMap { entry in
            handlers.all.filter { $0.folderExtension == (entry as NSString).pathExtension }.compactMap {
                $0.describe(installedFolder: parkedFolder + "/" + entry)
            }
        }
    }

    /// Parks every installed product that no longer fits what it builds on (`ContentHandler.mismatch`):
    /// after an app update changed a bundled parent, a compiled child made from the old one is
    /// moved to `parked/` before the theme manager can show it. Call at start, after `recover()`;
    /// returns what it did, for logs.
    @discardableResult
    public func parkMismatched() -> [String] {
        (try? withLock { () -> [String] in
            var actions: [String] = []
            // Parents before children: a child of a parked product is parked too.
            var parkedIDs: Set<String> = []
            let all = installed()
            let roots = all.filter { product in !all.contains { $0.id == product.parent } }
            let ordered = roots + roots.flatMap { Self.descendants(of: $0.id, in: all) }
            var steps: [Journal.Step] = []
            let context = InstallContext(
                installedFolder: installedFolder, bundledSearchPaths: bundledSearchPaths, installed: all)
            for product in ordered {
                guard let handler = try? handlers.handler(for: product.type) else { continue }
                let reason =
                    product.parent.map { parkedIDs.contains($0) } == true
                    ? "what it builds on is parked" : handler.mismatch(ofInstalledAt: product.path, context: context)
                guard let reason else { continue }
                parkedIDs.insert(product.id)
                steps.append(.parkFolder((product.path as NSString).lastPathComponent))
                actions.append("parked \(product.id) \(product.version): \(reason)")
            }
            guard !steps.isEmpty else { return [] }
            let journal = Journal(id: "parking", staging: stagingFolder + "/" + UUID().uuidString, steps: steps)
            try journal.write(to: journalPath)
            try fault("journal written")
            try rollForward(journal)
            return actions
        }) ?? []
    }

    // MARK: Recovery

    /// Cleans up after an interrupted operation; call at start, before the theme manager
    /// discovers themes. Returns what it did, for logs.
    @discardableResult
    public func recover() -> [String] {
        (try? withLock { () -> [String] in
            var actions: [String] = []
            if let data = FileManager.default.contents(atPath: journalPath) {
                if let journal = try? JSONDecoder().decode(Journal.self, from: data) {
                    do {
                        try rollForward(journal)
                        actions.append("completed the interrupted operation on \(journal.id)")
                    } catch {
                        actions.append("could not complete the interrupted operation on \(journal.id): \(error)")
                    }
                } else {
                    actions.append("removed an unreadable journal")
                }
                unlink(journalPath)
            }
            // A partial download with its record is kept, to be resumed; anything else goes.
            let resumable = Set(
                ((try? FileManager.default.contentsOfDirectory(atPath: downloadsFolder)) ?? []).filter {
                    $0.hasSuffix(".part") && PartialDownload.load(for: downloadsFolder + "/" + $0) != nil
                }.flatMap { [$0, $0 + ".json"] })
            for folder in [stagingFolder, trashFolder, downloadsFolder] {
                for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                where folder != downloadsFolder || !resumable.contains(entry) {
                    try? FileManager.default.removeItem(atPath: folder + "/" + entry)
                    actions.append("removed leftover \((folder as NSString).lastPathComponent)/\(entry)")
                }
            }
            // Temporary files of atomic writes, and derived files whose folder is gone.
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: installedFolder)) ?? []
            let names = Set(entries)
            for entry in entries where entry != Self.workFolderName {
                if entry.hasPrefix("."), entry.hasSuffix(".tmp") {
                    unlink(installedFolder + "/" + entry)
                    actions.append("removed leftover \(entry)")
                    continue
                }
                let ext = (entry as NSString).pathExtension
                let id = (entry as NSString).deletingPathExtension
                for handler in handlers.all where handler.derivedFileExtensions.contains(ext) {
                    if !names.contains(id + "." + handler.folderExtension),
                        handlers.all.allSatisfy({ !names.contains(id + "." + $0.folderExtension) })
                    {
                        unlink(installedFolder + "/" + entry)
                        actions.append("removed \(entry), whose product folder is missing")
                    }
                }
            }
            return actions
        }) ?? []
    }
}
