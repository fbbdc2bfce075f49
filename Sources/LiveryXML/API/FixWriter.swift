import Foundation
import LiveryModel

/// Applies a finding's fix to the files on disk, as an editor would: every edit located on the
/// files as they are now, then each changed file written whole through a temporary file beside
/// it renamed over it, so a reader sees the old file or the new one, never half of one.
public enum FixWriter {
    /// Applies `finding`'s fix; returns the files it changed. Nothing is written when an edit
    /// does not find its text or two overlap (`Diagnostic.FixError`), so a fix is applied whole
    /// or not at all; a file that cannot be written throws its error.
    /// - Parameter path: the path on disk of a file named by an edit (default: the name itself).
    @discardableResult
    public static func apply(_ finding: Diagnostic, path: (String) -> String = { $0 }) throws -> [String] {
        guard let fix = finding.fix else { return [] }
        let changed = try fix.applied(at: finding.location) { file in
            try? String(contentsOfFile: path(file), encoding: .utf8)
        }
        for (file, text) in changed { try AtomicFile.save(Array(text.utf8), to: path(file)) }
        return changed.map(\.file)
    }
}
