import Foundation
import LiveryModel

// The workspace's caches behind its lock: decoded folders and Info.xml files, dropped by `forget` and `release`.
extension ThemeWorkspace {
    /// Drops what was read from a theme folder that may have changed, so that the next operation
    /// reads it again (a tool that edits one theme keeps the others it has read). What was worked
    /// out from the folder goes too: its entry in the index of the folder holding it is read
    /// again (its id may have changed, or the folder be new or gone), and the schema of every
    /// chain it is in is built again. Children are resolved from their parents' folders each
    /// time, so forgetting a parent is seen by all of them.
    public func forget(themeAt path: String) {
        let folder = FileSystem.parent(of: path)
        let entry = indexEntry(forThemeAt: path, readingAgain: true)
        _ = locked {
            canonicalPaths[path] = nil
            let dropped = dropLocked(canonicalLocked(path))
            let folderKey = canonicalLocked(folder)
            indexes[folderKey]?.remove(path: path)
            if let entry { indexes[folderKey]?.insert(entry) }
            return dropped
        }
    }

    /// Drops what was read from a theme folder that has not changed, so that a tool going
    /// through many themes holds only those in flight: the next operation on it reads it again.
    /// Unlike `forget(themeAt:)`, the index of the folder holding it stays as it is (a build
    /// with nothing to do reads no file twice).
    public func release(themeAt path: String) {
        _ = locked { dropLocked(canonicalLocked(path)) }
    }

    /// Drops what was read from the folder `key` and worked out from it, and returns it, to be
    /// destroyed once the lock is released (the resolutions are the largest things a
    /// workspace holds).
    private func dropLocked(_ key: String) -> (DecodedThemeFolder?, [Resolution]) {
        let theme = themes.removeValue(forKey: key)
        infos[key] = nil
        schemas = schemas.filter { !$0.key.contains(key) }
        let resolutions = recent.filter { $0.chain.contains(key) }.map(\.resolution)
        recent.removeAll { $0.chain.contains(key) }
        return (theme, resolutions)
    }

    /// `FileSystem.canonical`, remembered: it stats every component of the path.
    func canonical(_ path: String) -> String {
        if let known = locked({ canonicalPaths[path] }) { return known }
        let key = FileSystem.canonical(path)
        locked { canonicalPaths[path] = key }
        return key
    }

    private func canonicalLocked(_ path: String) -> String {
        if let known = canonicalPaths[path] { return known }
        let key = FileSystem.canonical(path)
        canonicalPaths[path] = key
        return key
    }

    /// A reader for one folder: the shared operation identities, the editor's unsaved buffers.
    func folderReader() -> ThemeFolderReader {
        var reader = ThemeFolderReader(limits: limits)
        reader.identities = identities
        reader.overlay = overlay
        return reader
    }

    /// The folder read with the dimensions `inherited` from its ancestors; with nil, as it was
    /// last read (for what does not depend on them: its header, its constants).
    func theme(
        at path: String, inherited: TraitDimensions? = nil, known: [DimensionDeclaration] = []
    ) -> DecodedThemeFolder {
        let key = canonical(path)
        func fits(_ theme: DecodedThemeFolder) -> Bool { inherited.map { theme.inherited == $0 } ?? true }
        if let theme = locked({ themes[key] }), fits(theme) { return theme }
        // Read outside the lock, so other threads read other folders meanwhile; the first
        // folder kept wins if two threads read the same one.
        var reader = folderReader()
        let read =
            inherited.map { reader.read(folder: path, inherited: $0, known: known) }
            ?? reader.read(folder: path, inherited: baseDimensions, known: loadedBase.declarations)
        return locked {
            if let theme = themes[key], fits(theme) { return theme }
            read.rebase(by: nextSerial)
            nextSerial = read.serials.upperBound
            themes[key] = read
            return read
        }
    }

    func info(at path: String) -> (InfoDecoder.Decoded?, [Diagnostic]) {
        let key = canonical(path)
        if let known = locked({ themes[key].map { ($0.header, [Diagnostic]()) } ?? infos[key] }) { return known }
        let result = folderReader().readInfo(folder: path)
        return locked {
            if let known = infos[key] { return known }
            infos[key] = result
            return result
        }
    }
}
