import Foundation

/// Writes whole files so that readers see the old file or the new one, never half of one: the
/// bytes go to a temporary file beside the target, which is renamed over it. The compiler's
/// outputs and the fixes applied to theme sources are written through it.
public enum AtomicFile {
    /// Writes to a temporary file beside `path`, flushes it, then renames it over `path` (a mapped
    /// old file stays intact). Without `durably`, the file is not flushed to the disk before the
    /// rename: after a power loss it may be empty or short, so only a writer that checks what it
    /// finds before trusting it (`build`, whose stamps vouch for a file's digest) may leave it out.
    public static func save(_ bytes: [UInt8], to path: String, durably: Bool = true) throws {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        let temporary = directory + "/.\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        var failure: Int32 = 0
        bytes.withUnsafeBytes { buffer in
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
        if failure == 0, durably, fsync(descriptor) != 0 { failure = errno }
        if close(descriptor) != 0, failure == 0 { failure = errno }
        if failure == 0, rename(temporary, path) != 0 { failure = errno }
        if failure != 0 {
            unlink(temporary)
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EIO)
        }
    }
}
