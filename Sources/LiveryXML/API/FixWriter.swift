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
        for (file, text) in changed { try writeAtomically(text, to: path(file)) }
        return changed.map(\.file)
    }

    /// A temporary file in the same folder, flushed, then renamed over `path`.
    static func writeAtomically(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (folder.isEmpty ? "." : folder) + "/.\(name).\(UInt32.random(in: 0...UInt32.max)).fix.tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        Array(text.utf8).withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                written += result
            }
        }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
    }
}
