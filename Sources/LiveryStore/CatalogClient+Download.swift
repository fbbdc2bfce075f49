import Foundation
import NIOCore

// Downloading a package to a file: resumed, capped, hashed and checked as bytes arrive.
extension CatalogClient {
    /// Downloads `url` to the file at `path`, hashing as bytes arrive. Fails as soon as more
    /// bytes than `expectedSize` (or `maxDownloadBytes`) arrive or are announced; checks the size
    /// and SHA-256 of the whole file at the end. A failure that can heal is retried as `retry`
    /// says, `waiting` hearing of each wait.
    ///
    /// Resumable: when the server gave a validator (a strong ETag or Last-Modified), it is kept
    /// beside the file (`<path>.json`), and a later attempt, or a later call after a restart,
    /// asks only for the missing bytes (`Range` and `If-Range`). The file and its record stay
    /// after a failure the network caused (connection, timeout, a retryable status); any other
    /// failure removes them.
    ///
    /// Sizes and digests are those of the decoded bytes: the request asks for the identity
    /// encoding, and a server that compresses anyway (`Content-Encoding: gzip`) is decoded, its
    /// compressed Content-Length then bounding nothing but the cap.
    ///
    /// `admit` hears, on every response, the whole file's size as the response announces it (its
    /// Content-Length, or the total of its Content-Range; nil when it announces none or is
    /// compressed) before any byte of the body is written; throwing from it ends the download
    /// with that error (what `ThemeStore` does when the file cannot fit its cache budget).
    public func download(
        _ url: String, to path: String, expectedSize: Int64?, expectedSHA256: String?,
        admit: (@Sendable (_ announcedSize: Int64?) async throws -> Void)? = nil,
        waiting: (@Sendable (RetryWait) -> Void)? = nil,
        progress: @escaping @Sendable (_ received: Int64, _ expected: Int64?) -> Void
    ) async throws {
        do {
            try await withRetries(retry, retryEnvironment, onWait: waiting) { _ in
                try await downloadOnce(
                    url, to: path, expectedSize: expectedSize, expectedSHA256: expectedSHA256, admit: admit,
                    progress: progress)
            }
        } catch let error as StoreError {
            // What the network interrupted stays, with its record, to be resumed by the next
            // attempt or run; what was refused or cancelled goes.
            if !error.isResumable || PartialDownload.load(for: path) == nil { PartialDownload.remove(at: path) }
            throw error
        } catch {
            PartialDownload.remove(at: path)
            throw error
        }
    }

    /// One attempt: resumes the partial file at `path` when its record says it is the same
    /// download (`Range` from its size, `If-Range` with its validator), otherwise starts over.
    /// Starts over, in the same attempt, when the server answers a range request with something
    /// that does not continue those bytes: a `416`, or a `206` whose `Content-Range`, size or
    /// validator does not fit (a `200` simply sends the whole file again).
    private func downloadOnce(
        _ url: String, to path: String, expectedSize: Int64?, expectedSHA256: String?, resume: Bool = true,
        admit: (@Sendable (_ announcedSize: Int64?) async throws -> Void)?,
        progress: @escaping @Sendable (_ received: Int64, _ expected: Int64?) -> Void
    ) async throws {
        let expectedDigest = expectedSHA256?.lowercased()
        let cap = min(expectedSize ?? maxDownloadBytes, maxDownloadBytes)
        var resumeFrom: Int64 = 0
        var digest = StreamingDigest()
        var validator: String?
        if resume, let partial = Self.partial(at: path, url, expectedSize, expectedDigest, cap: cap) {
            (resumeFrom, digest, validator) = partial
        } else {
            PartialDownload.remove(at: path)
        }
        if resumeFrom > 0, resumeFrom == expectedSize {
            // Whole already: checked like any download.
            progress(resumeFrom, expectedSize)
            try Self.check(digest, expectedSize: expectedSize, expectedSHA256: expectedDigest, path: path)
            return
        }
        let handle = try Self.openForWriting(path, from: resumeFrom)
        defer { try? handle.close() }
        @Sendable func tooMany(_ count: Int64) -> StoreError {
            if let expectedSize, expectedSize <= maxDownloadBytes {
                return .sizeMismatch(expected: expectedSize, actual: count)
            }
            return .tooLarge("\(url) has more than \(cap) bytes, the most a download may have")
        }
        let state = Locked(DownloadState(digest: digest))
        let sendableHandle = UncheckedBox(handle)
        let range = resumeFrom > 0 ? validator.map { RangeRequest(from: resumeFrom, ifRange: $0) } : nil
        do {
            try await stream(url, range: range) { head in
                let (announced, resumed) = try Self.announcedSize(
                    of: head, range: range, cap: cap, expectedSize: expectedSize, tooMany: tooMany)
                try await admit?(announced)
                if !resumed {
                    // The whole file: from the start, whatever was on disk.
                    state.withValue { $0.digest = StreamingDigest() }
                    do {
                        try sendableHandle.value.truncate(atOffset: 0)
                    } catch {
                        throw StoreError.io("cannot write \(path): \(error.localizedDescription)")
                    }
                    if let validator = head.validator {
                        try PartialDownload(
                            url: url, validator: validator, expectedSize: expectedSize, expectedSHA256: expectedDigest
                        ).save(for: path)
                    } else {
                        unlink(PartialDownload.recordPath(for: path))
                    }
                }
                let received = state.withValue { state in
                    state.announced = announced
                    return state.digest.count
                }
                progress(received, expectedSize ?? announced)
            } body: { chunk in
                let (count, announced) = try state.withValue { state -> (Int64, Int64?) in
                    if state.digest.count + Int64(chunk.readableBytes) > cap {
                        throw tooMany(state.digest.count + Int64(chunk.readableBytes))
                    }
                    chunk.withUnsafeReadableBytes { state.digest.update($0) }
                    return (state.digest.count, state.announced)
                }
                do {
                    try chunk.withUnsafeReadableBytes { try sendableHandle.value.write(contentsOf: $0) }
                } catch {
                    throw StoreError.io("cannot write \(path): \(error.localizedDescription)")
                }
                progress(count, expectedSize ?? announced)
            }
        } catch is RestartDownload {
            try? handle.close()
            PartialDownload.remove(at: path)
            try await downloadOnce(
                url, to: path, expectedSize: expectedSize, expectedSHA256: expectedSHA256, resume: false,
                admit: admit, progress: progress)
            return
        }
        let final = state.withValue { $0 }
        if let announced = final.announced, final.digest.count != announced {
            throw TransientFailure(
                error: .network("the connection closed after \(final.digest.count) of \(announced) bytes"))
        }
        try Self.check(final.digest, expectedSize: expectedSize, expectedSHA256: expectedDigest, path: path)
        do {
            try handle.synchronize()
        } catch {
            throw StoreError.io("cannot flush \(path)")
        }
    }

    /// What one attempt has received: the digest of the bytes on disk so far.
    private struct DownloadState: Sendable {
        var digest: StreamingDigest
        /// The whole file's size, when the response says it.
        var announced: Int64?
    }

    /// The partial file at `path` when its record says it is the same download and its bytes can
    /// be read: its size, their digest, and the validator to resume with.
    private static func partial(
        at path: String, _ url: String, _ expectedSize: Int64?, _ expectedDigest: String?, cap: Int64
    ) -> (Int64, StreamingDigest, String?)? {
        guard let record = PartialDownload.load(for: path), record.url == url,
            record.expectedSize == expectedSize, record.expectedSHA256 == expectedDigest,
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int64, size > 0,
            size <= cap, let hashed = Self.hash(path)
        else { return nil }
        return (size, hashed, record.validator)
    }

    /// The file at `path`, created when starting from 0, cut to `offset` bytes and open at its end.
    private static func openForWriting(_ path: String, from offset: Int64) throws -> FileHandle {
        if offset == 0, !FileManager.default.createFile(atPath: path, contents: nil) {
            throw StoreError.io("cannot create \(path)")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw StoreError.io("cannot open \(path)") }
        do {
            try handle.truncate(atOffset: UInt64(offset))
            try handle.seekToEnd()
        } catch {
            try? handle.close()
            throw StoreError.io("cannot write \(path): \(error.localizedDescription)")
        }
        return handle
    }

    /// The whole file's size as a response's head announces it, checked against the cap and the
    /// expected size before any byte of the body is written, and whether the response resumes a
    /// range request. A `206` that does not continue the requested bytes throws `RestartDownload`.
    private static func announcedSize(
        of head: ResponseHead, range: RangeRequest?, cap: Int64, expectedSize: Int64?,
        tooMany: (Int64) -> StoreError
    ) throws -> (announced: Int64?, resumed: Bool) {
        let announced: Int64?
        let resumed = head.status == 206 && range != nil
        if resumed, let range {
            // The rest of the same file, or nothing of it.
            guard !head.isEncoded, let contentRange = PartialDownload.parseContentRange(head.contentRange),
                contentRange.start == range.from,
                contentRange.total.map({ $0 == contentRange.end + 1 }) ?? false,
                head.length.map({ $0 == contentRange.end - contentRange.start + 1 }) ?? true,
                head.validator.map({ $0 == range.ifRange }) ?? true
            else { throw RestartDownload() }
            announced = contentRange.total
        } else {
            announced = head.isEncoded ? nil : head.length
        }
        if let announced {
            if announced > cap { throw tooMany(announced) }
            if let expectedSize, announced != expectedSize {
                throw StoreError.sizeMismatch(expected: expectedSize, actual: announced)
            }
        } else if let length = head.length, length > cap {
            throw tooMany(length)
        }
        return (announced, resumed)
    }

    /// The size and SHA-256 a whole download must have.
    private static func check(
        _ digest: StreamingDigest, expectedSize: Int64?, expectedSHA256: String?, path: String
    ) throws {
        if let expectedSize, digest.count != expectedSize {
            throw StoreError.sizeMismatch(expected: expectedSize, actual: digest.count)
        }
        let actual = digest.finish()
        if let expectedSHA256, actual != expectedSHA256 {
            throw StoreError.checksumMismatch(expected: expectedSHA256, actual: actual)
        }
    }

    /// The digest of a file's bytes, nil when it cannot be read.
    private static func hash(_ path: String) -> StreamingDigest? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var digest = StreamingDigest()
        while true {
            // nil or empty at the end of the file.
            guard let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty else {
                return (try? handle.offset()) == UInt64(digest.count) ? digest : nil
            }
            data.withUnsafeBytes { digest.update($0) }
        }
    }

    /// A range request: the bytes from `from` on, if the file is still the one `ifRange` names.
    struct RangeRequest: Sendable {
        var from: Int64
        var ifRange: String
    }

    /// The server's answer to a range request does not continue the bytes on disk.
    struct RestartDownload: Error {}
}
