import Foundation

// Pinning, recording use, and making room in the cache budget before a download.
extension ThemeStore {
    /// Keeps a product through evictions (persisted).
    public func pin(_ id: String) {
        let budget = CacheBudget(installer: installer)
        budget.setPinned(budget.pinned().union([id]))
    }

    public func unpin(_ id: String) {
        let budget = CacheBudget(installer: installer)
        budget.setPinned(budget.pinned().subtracting([id]))
    }

    public var pinnedIDs: Set<String> { CacheBudget(installer: installer).pinned() }

    /// Records that a product was used now (the app calls it when it shows a theme); eviction
    /// removes the least recently used first. Installing counts as a use.
    public func markUsed(_ id: String) { CacheBudget(installer: installer).recordUse(id) }

    /// The bytes the budget counts now.
    public func storageUsed() -> Int64 { CacheBudget(installer: installer).used() }

    /// Removes what may go until `package`, of `packageSize` bytes, fits; throws before removing
    /// anything when it cannot. Returns what was removed.
    @discardableResult
    func makeRoom(for package: PackageDownload, packageSize: Int64, partial: String) async throws -> [String] {
        guard let budget = cacheBudget else { return [] }
        let state = CacheBudget(installer: installer)
        let manager = await currentThemeID()
        let id = package.expectation.id
        let protected = state.protected(inUse: manager, also: id).union(state.protected(inUse: themeInUse, also: id))
        let onDisk = CacheBudget.size(of: partial) + CacheBudget.size(of: PartialDownload.recordPath(for: partial))
        let needed = package.needed(packageSize: packageSize, onDisk: onDisk)
        let used = state.used()
        guard used + needed > budget else { return [] }
        let candidates = state.candidates(protecting: protected, keepingPartial: partial)
        let freeable = candidates.reduce(Int64(0)) { $0 + $1.1 }
        guard used - freeable + needed <= budget else {
            throw StoreError.cacheBudgetExceeded(
                product: id ?? package.url, needed: needed, budget: budget, kept: used - freeable)
        }
        var current = used
        var removed: [String] = []
        for (candidate, bytes) in candidates where current + needed > budget {
            switch candidate {
            case .partial(let path):
                PartialDownload.remove(at: path)
                removed.append((path as NSString).lastPathComponent)
            case .parked(let id), .installed(let id):
                _ = try installer.uninstall(id: id)
                removed.append(id)
            }
            current -= bytes
        }
        await Self.tellManager(self.manager)
        return removed
    }
}
