import Foundation
import LiveryModel
import LiveryXML

/// An edit checked before it is written, with the rules `validate` applies: the theme folder that
/// holds the file is copied to a temporary folder (its files and assets; parents are found where
/// they are), validated once with the file as it is and once with the file as the edit leaves it,
/// and the errors that only the edited file has are the edit's. Nothing in the studio's folders
/// is touched; the temporary folder is removed when the check ends. The errors of the folder as it
/// is can be given (`before`): the session keeps those of the last edit's result, so an edit
/// usually validates once.
struct EditCheck {
    /// Folders searched for parent themes, as the session's workspace searches them.
    let searchPaths: [String]

    /// The errors the edit brings: findings of severity error that `after` has and `before` has
    /// not, located relative to the theme folder (`Constants.xml:12:5`).
    func newErrors(
        themeFolder: String, file name: String, before: [UInt8]?, after: [UInt8], known: Errors? = nil
    ) throws -> (new: [Diagnostic], after: Errors) {
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-studio-check-\(UUID().uuidString)"
        ).path
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let copy = staging + "/" + (themeFolder as NSString).lastPathComponent
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        try Self.copyTheme(themeFolder, to: copy, skipping: name)

        func errors(_ bytes: [UInt8]?) throws -> Errors {
            let path = copy + "/" + name
            if let bytes {
                try Data(bytes).write(to: URL(fileURLWithPath: path))
            } else {
                try? FileManager.default.removeItem(atPath: path)
            }
            // A fresh workspace: it caches the folders it has read. The copy's parents are found
            // where the original's are: the search paths, and the folder beside it.
            let workspace = ThemeWorkspace(
                searchPaths: searchPaths + [(themeFolder as NSString).deletingLastPathComponent])
            var result: [String: Diagnostic] = [:]
            for finding in workspace.validate(paths: [copy]) where finding.severity == .error {
                var relative = finding
                if let location = finding.location {
                    relative.location = SourceLocation(
                        file: Self.relative(location.file, to: copy), line: location.line, column: location.column)
                }
                // Compared without the line: an inserted override moves what follows it.
                let message = relative.message.replacingOccurrences(of: staging, with: "")
                let key = [relative.code.rawValue, relative.location?.file ?? "", message].joined(separator: "\u{1}")
                result[key] = relative
            }
            return result
        }
        let old = try known ?? errors(before)
        let new = try errors(after)
        let brought = new.filter { old[$0.key] == nil }.map(\.value).sorted {
            ($0.location?.line ?? 0, $0.code.rawValue) < ($1.location?.line ?? 0, $1.code.rawValue)
        }
        return (brought, new)
    }

    /// The errors of a theme folder by code, file (relative to the folder) and message.
    typealias Errors = [String: Diagnostic]

    static func relative(_ path: String, to folder: String) -> String {
        path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : (path as NSString).lastPathComponent
    }

    /// The theme's files and its `assets/` tree, hard-linked where the file system allows (else
    /// copied); `skipping` is written by the check itself. Hidden files (the studio's own
    /// temporary files) are left out.
    static func copyTheme(_ folder: String, to copy: String, skipping: String) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: folder) where name != skipping && !name.hasPrefix(".") {
            let source = folder + "/" + name
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: source, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                // Only assets/ is read from a theme's subfolders.
                guard name == "assets" else { continue }
                try manager.createDirectory(atPath: copy + "/" + name, withIntermediateDirectories: true)
                try copyTree(source, to: copy + "/" + name)
            } else {
                try linkOrCopy(source, to: copy + "/" + name)
            }
        }
    }

    static func copyTree(_ folder: String, to copy: String) throws {
        let manager = FileManager.default
        for name in try manager.contentsOfDirectory(atPath: folder) where !name.hasPrefix(".livery-studio-") {
            let source = folder + "/" + name
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: source, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                try manager.createDirectory(atPath: copy + "/" + name, withIntermediateDirectories: true)
                try copyTree(source, to: copy + "/" + name)
            } else {
                try linkOrCopy(source, to: copy + "/" + name)
            }
        }
    }

    static func linkOrCopy(_ source: String, to target: String) throws {
        if link(source, target) == 0 { return }
        try FileManager.default.copyItem(atPath: source, toPath: target)
    }
}
