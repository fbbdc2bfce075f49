import Foundation

#if canImport(Glibc)
    import Glibc
#endif

// The journal that makes an install atomic, and the file operations it is made of.
extension ProductInstaller {
    // MARK: Journal

    /// Written once everything is staged and verified; its presence means "finish this". Every
    /// step can tell whether it is already done, so a journal can be rolled forward any number
    /// of times, from a crash at any point of the previous attempt.
    struct Journal: Codable {
        enum Step: Codable, Hashable {
            /// `staging/name` becomes `installed/name`; an older version there is swapped out.
            /// The staged folder's inode tells whether the swap already happened.
            case placeFolder(name: String, inode: UInt64)
            /// `staging/staged` replaces `installed/target` (a file) in one rename.
            case placeFile(staged: String, target: String)
            /// `installed/name` (a file) is removed.
            case removeFile(String)
            /// `installed/name` (a folder) leaves for the trash in one rename.
            case removeFolder(String)
            /// `installed/name` moves to `parked/name` in one rename (replacing a parked older one).
            case parkFolder(String)
        }

        var id: String
        var staging: String
        var steps: [Step]

        func write(to path: String) throws {
            try ProductInstaller.writeDurably(try JSONEncoder().encode(self), to: path)
        }
    }

    func rollForward(_ journal: Journal) throws {
        for step in journal.steps {
            try perform(step, staging: journal.staging)
            try fault("step done")
        }
        fsyncFolder(installedFolder)
        unlink(journalPath)
        try fault("journal removed")
        try? FileManager.default.removeItem(atPath: journal.staging)
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: trashFolder)) ?? [] {
            try? FileManager.default.removeItem(atPath: trashFolder + "/" + entry)
        }
    }

    private func perform(_ step: Journal.Step, staging: String) throws {
        let files = FileManager.default
        switch step {
        case .placeFolder(let name, let inode):
            let staged = staging + "/" + name
            let target = installedFolder + "/" + name
            let trash = trashFolder + "/" + UUID().uuidString + "-" + name
            if (try? Self.inode(of: target)) == inode {
                // Already in place; after an exchange the old version waits at the staged path.
                if files.fileExists(atPath: staged) { try move(staged, to: trash) }
                return
            }
            guard files.fileExists(atPath: staged) else {
                throw StoreError.io("the staged \(name) is missing; the install cannot be completed")
            }
            if files.fileExists(atPath: target) {
                try Self.exchangeOrReplace(staged: staged, target: target, trash: trash, fault: fault)
            } else {
                try move(staged, to: target)
            }
        case .placeFile(let stagedName, let targetName):
            let staged = staging + "/" + stagedName
            if files.fileExists(atPath: staged) { try move(staged, to: installedFolder + "/" + targetName) }
        case .removeFile(let name):
            let file = installedFolder + "/" + name
            if unlink(file) != 0, errno != ENOENT {
                throw StoreError.io("cannot remove \(file): \(String(cString: strerror(errno)))")
            }
        case .removeFolder(let name):
            let folder = installedFolder + "/" + name
            if files.fileExists(atPath: folder) {
                try move(folder, to: trashFolder + "/" + UUID().uuidString + "-" + name)
            }
        case .parkFolder(let name):
            let item = installedFolder + "/" + name
            guard files.fileExists(atPath: item) else { return }
            let parked = parkedFolder + "/" + name
            if files.fileExists(atPath: parked) {
                try move(parked, to: trashFolder + "/" + UUID().uuidString + "-" + name)
            }
            try move(item, to: parked)
        }
    }

    /// Puts `staged` at `target`, where an older version is. On Linux one `renameat2` with
    /// RENAME_EXCHANGE swaps them, so the product is never absent; elsewhere the old one is
    /// renamed away first (absent for the moment between two renames, never half there).
    static func exchangeOrReplace(
        staged: String, target: String, trash: String,
        fault: (String) throws -> Void = { _ in }
    ) throws {
        #if os(Linux)
            if exchange(staged, target) {
                try fault("exchanged")
                if rename(staged, trash) != 0 { try? FileManager.default.removeItem(atPath: staged) }
                return
            }
        #endif
        guard rename(target, trash) == 0 else {
            throw StoreError.io("cannot move \(target) aside: \(String(cString: strerror(errno)))")
        }
        try fault("moved aside")
        guard rename(staged, target) == 0 else {
            let reason = String(cString: strerror(errno))
            _ = rename(trash, target)
            throw StoreError.io("cannot move the new version into place: \(reason)")
        }
    }

    static func inode(of path: String) throws -> UInt64 {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw StoreError.io("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        return UInt64(info.st_ino)
    }

    #if os(Linux)
        /// renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) through the syscall, since not every
        /// C library exports the wrapper.
        private static func exchange(_ first: String, _ second: String) -> Bool {
            LiveryStoreExchange.exchange(first, second)
        }
    #endif

    /// Stops here when a test asked for a crash at this step.
    func fault(_ step: String) throws {
        try faultInjection?(step)
    }

    // MARK: Files

    func withLock<Result>(_ body: () throws -> Result) throws -> Result {
        let descriptor = open(workFolder + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError.io("cannot open the store lock: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw StoreError.io("cannot lock the store: \(String(cString: strerror(errno)))")
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    func createFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw StoreError.io("cannot create \(path): \(error.localizedDescription)")
        }
    }

    private func move(_ source: String, to destination: String) throws {
        guard rename(source, destination) == 0 else {
            throw StoreError.io("cannot move \(source) to \(destination): \(String(cString: strerror(errno)))")
        }
    }

    static func writeDurably(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StoreError.io("cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        try data.withUnsafeBytes { try writeAll($0, to: descriptor, path: path) }
        guard fsync(descriptor) == 0 else { throw StoreError.io("cannot flush \(path)") }
    }

    private func fsyncFolder(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }
}

/// Thrown by the recovery tests' simulated crash (see `faultInjection`).
struct SimulatedCrash: Error {}
