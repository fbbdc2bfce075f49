import Foundation
import LiveryModel
import LiveryXML

/// An edit checked before it is written, with the rules `validate` applies: the theme folder that
/// holds the file is validated once with the file as it is and once with the file as the edit
/// leaves it, the edited text standing in for the file through a `SourceOverlay` (nothing is
/// written, nothing copied), and the errors that only the edited file has are the edit's. The
/// errors of the folder as it is can be given (`known`): the session keeps those of the last
/// edit's result, so an edit usually validates once.
struct EditCheck {
    /// Folders searched for parent themes, as the session's workspace searches them.
    let searchPaths: [String]

    /// The errors the edit brings: findings of severity error that `after` has and `before` has
    /// not, located relative to the theme folder (`Constants.xml:12:5`).
    func newErrors(
        themeFolder: String, file name: String, before: [UInt8]?, after: [UInt8], known: Errors? = nil
    ) -> (new: [Diagnostic], after: Errors) {
        let old = known ?? errors(themeFolder: themeFolder, file: name, bytes: before)
        let new = errors(themeFolder: themeFolder, file: name, bytes: after)
        let brought = new.filter { old[$0.key] == nil }.map(\.value).sorted {
            ($0.location?.line ?? 0, $0.code.rawValue) < ($1.location?.line ?? 0, $1.code.rawValue)
        }
        return (brought, new)
    }

    /// The errors of a theme folder by code, file (relative to the folder) and message.
    typealias Errors = [String: Diagnostic]

    /// The folder's errors with `name` holding `bytes` (as on disk when nil).
    private func errors(themeFolder: String, file name: String, bytes: [UInt8]?) -> Errors {
        let overlay = SourceOverlay()
        if let bytes { overlay.set(String(decoding: bytes, as: UTF8.self), forFileAt: themeFolder + "/" + name) }
        // A fresh workspace: it caches the folders it has read.
        let workspace = ThemeWorkspace(searchPaths: searchPaths, overlay: overlay)
        var result: Errors = [:]
        for finding in workspace.validate(paths: [themeFolder]) where finding.severity == .error {
            var relative = finding
            if let location = finding.location {
                relative.location = SourceLocation(
                    file: Self.relative(location.file, to: themeFolder), line: location.line,
                    column: location.column)
            }
            // Compared without the line: an inserted override moves what follows it.
            let key = [relative.code.rawValue, relative.location?.file ?? "", relative.message].joined(
                separator: "\u{1}")
            result[key] = relative
        }
        return result
    }

    static func relative(_ path: String, to folder: String) -> String {
        path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : (path as NSString).lastPathComponent
    }
}
