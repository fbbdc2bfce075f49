import Foundation
import LiveryModel

/// Each theme's own check from `ThemeWorkspace.validate(paths:reusing:)`, kept so that a later
/// `validate` checks again only the themes marked stale and reuses the others'. `validate` puts
/// a finding in a parent's file together from every child's check (once, with the themes and
/// trait sets it applies to in notes), so a tool that checks one child again after an edit still
/// needs its siblings' checks to report that file as `validate` does (the language server).
///
/// Whoever keeps it marks stale every theme whose own check an edit may change: the edited
/// theme, every theme whose chain held it before the edit or holds it after, and every theme
/// whose parent resolves differently. Themes are named as `validate` names them: a theme folder
/// given, or a folder of themes joined with the theme folder's name.
public final class ThemeChecks: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String: ThemeWorkspace.ThemeValidation] = [:]

    public init() {}

    /// The theme at `path` is checked again by the next `validate`.
    public func markStale(_ path: String) {
        lock.withLock { kept[path] = nil }
    }

    /// Every theme is checked again by the next `validate`.
    public func markAllStale() {
        lock.withLock { kept = [:] }
    }

    /// The kept check of the theme at `path`, or `check()`'s, kept from now on.
    func validation(of path: String, check: () -> ThemeWorkspace.ThemeValidation) -> ThemeWorkspace.ThemeValidation {
        if let known = lock.withLock({ kept[path] }) { return known }
        let checked = check()
        lock.withLock { kept[path] = checked }
        return checked
    }
}
