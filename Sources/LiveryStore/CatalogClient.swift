import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression

/// Timeouts for every request the store makes.
public struct StoreTimeouts: Hashable, Sendable {
    /// The longest wait for the next bytes (or the response head): a stalled server fails here.
    public var idle: Duration
    /// The longest a whole request may take, download included.
    public var total: Duration
    public init(idle: Duration = .seconds(20), total: Duration = .seconds(600)) {
        self.idle = idle
        self.total = total
    }
}

/// Talks to a store over HTTP: the catalog, product details and package downloads.
///
/// Built on AsyncHTTPClient (SwiftNIO), whose response bodies are read from the socket only as
/// fast as the client consumes them: a refused download stops at its cap plus what socket
/// buffers hold, in bytes and in memory. Foundation's URLSession on Linux (libcurl) has no such
/// backpressure: its delegate is handed data as fast as loopback delivers it, and refusing an
/// endless body read gigabytes first (docs/Packages.md, "Limits of the download caps"). The
/// price is a TLS stack (BoringSSL, through swift-nio-ssl) in apps that link the store; apps
/// that link only the runtime (`Livery`) get none of it.
///
/// Copies share one HTTP client (pooled connections), shut down when the last copy goes.
public struct CatalogClient: Sendable {
    public var catalogURL: String
    /// Fixed at `init`, like the caps: the HTTP client is configured from them.
    public let timeouts: StoreTimeouts
    /// Documents (catalog, details) larger than this are refused.
    public let maxDocumentBytes: Int
    /// No download is larger than this, with or without a catalog size (a catalog's size is
    /// the cap when it is smaller).
    public let maxDownloadBytes: Int64
    /// When a request that failed in a way that can heal is tried again.
    public var retry: RetryPolicy
    /// The clock, sleep and randomness of retries.
    public var retryEnvironment: RetryEnvironment
    /// Where the last verified catalog, roots and details are kept, to be revalidated
    /// (`If-None-Match`, `If-Modified-Since`) or used while fresh (`max-age`); nil: no cache, every
    /// fetch is a plain GET. A `ThemeStore` keeps them in its work folder.
    public var documentCacheFolder: String?
    /// The connection pool, configured from `timeouts` and the caps.
    let http: StoreHTTPClient

    public init(
        catalogURL: String, timeouts: StoreTimeouts = StoreTimeouts(), maxDocumentBytes: Int = 4 << 20,
        maxDownloadBytes: Int64 = 64 << 20, retry: RetryPolicy = .default,
        retryEnvironment: RetryEnvironment = .live, documentCacheFolder: String? = nil
    ) {
        self.catalogURL = catalogURL
        self.documentCacheFolder = documentCacheFolder
        self.retry = retry
        self.retryEnvironment = retryEnvironment
        self.timeouts = timeouts
        self.maxDocumentBytes = maxDocumentBytes
        self.maxDownloadBytes = maxDownloadBytes
        http = StoreHTTPClient(timeouts: timeouts, maxDecodedBytes: max(Int64(maxDocumentBytes), maxDownloadBytes))
    }

    /// Fetches the catalog and checks it as `trust` says: the roots from the trusted one on
    /// (`roots/N.json` beside the catalog), then the catalog's signature, version and expiry.
    /// Returns the catalog with absolute URLs, and the trust state to keep once it is accepted:
    /// nil when there is nothing to keep (development trust remembers nothing).
    func fetchCatalog(trust: CatalogTrust, state: TrustState, now: Date = Date()) async throws -> (Catalog, TrustState?)
    {
        let hadCopy = documentCacheFolder.map { DocumentCache(folder: $0).load(catalogURL) != nil } ?? false
        do {
            return try await fetchCatalog(trust: trust, state: state, now: now, useCache: true)
        } catch let error as StoreError where hadCopy && error != .cancelled && !error.isResumable {
            // A cached copy that no longer verifies (expired, edited on disk) is never trusted:
            // the documents are fetched again without it, and verified as always.
            return try await fetchCatalog(trust: trust, state: state, now: now, useCache: false)
        }
    }

    private func fetchCatalog(trust: CatalogTrust, state: TrustState, now: Date, useCache: Bool) async throws -> (
        Catalog, TrustState?
    ) {
        let verifier = CatalogVerifier(trust: trust, now: now)
        let signed: Bool
        if case .signed = trust { signed = true } else { signed = false }
        let fetched = Locked([FetchedDocument]())
        let root = try await verifier.verifyRoots(trusted: signed ? state.root : nil) { version in
            let url = try CatalogURL.resolve(RootDocument.folder(version), against: catalogURL)
            do {
                let document = try await fetchRevalidating(url, useCache: useCache)
                fetched.withValue { $0.append(document) }
                return document.data
            } catch StoreError.httpStatus(404, _) {
                return nil
            }
        }
        let document = try await fetchRevalidating(catalogURL, useCache: useCache)
        let catalog = try verifier.verifyCatalog(
            document.data, root: root?.0,
            lastVersion: signed ? state.lastCatalogVersion : 0, url: catalogURL)
        // Verified: these are now the copies to revalidate next time.
        for verified in fetched.withValue({ $0 }) + [document] { remember(verified) }
        guard signed, let root else { return (try catalog.resolvingURLs(against: catalogURL), nil) }
        var next = state
        next.root = root.1
        if let version = catalog.version { next.lastCatalogVersion = max(version, state.lastCatalogVersion) }
        return (try catalog.resolvingURLs(against: catalogURL), next)
    }

    /// What a conditional request sends: the cached copy's validators.
    struct Validators: Sendable {
        var etag: String?
        var lastModified: String?
    }

    /// A document through the cache: the cached copy while fresh, else a request with its
    /// validators, whose `304` confirms the cached copy; without a cache folder (or `useCache`
    /// false), a plain GET. Nothing is kept until `remember` is called, after verification.
    func fetchRevalidating(_ url: String, useCache: Bool = true) async throws -> FetchedDocument {
        guard let folder = documentCacheFolder else {
            return FetchedDocument(data: try await fetch(url), fromCache: false, record: nil)
        }
        let cache = DocumentCache(folder: folder)
        let now = retryEnvironment.now()
        let cached = useCache ? cache.load(url) : nil
        if let (record, body) = cached, record.isFresh(at: now) {
            return FetchedDocument(data: body, fromCache: true, record: nil)
        }
        let validators = cached.map { Validators(etag: $0.0.etag, lastModified: $0.0.lastModified) }
        let (head, data) = try await withRetries(retry, retryEnvironment) { _ in
            try await fetchOnce(url, validators: validators)
        }
        if head.status == 304, let (record, body) = cached {
            var confirmed = record
            confirmed.storedAt = now
            if head.cacheControl != nil { confirmed.freshFor = head.freshFor }
            return FetchedDocument(data: body, fromCache: true, record: confirmed)
        }
        let record = CachedDocument(
            url: url, etag: head.etag, lastModified: head.lastModified, storedAt: now, freshFor: head.freshFor,
            sha256: Hashing.sha256(data))
        return FetchedDocument(data: data, fromCache: false, record: record)
    }

    /// Keeps a verified document's copy for the next revalidation.
    func remember(_ document: FetchedDocument) {
        guard let folder = documentCacheFolder, let record = document.record else { return }
        DocumentCache(folder: folder).save(record, body: document.data)
    }

    /// The details of a product; from a signed catalog, they must have the digest it gives them.
    public func fetchDetails(for product: CatalogProduct, in catalog: Catalog? = nil) async throws -> ProductDetails {
        let data = try await fetchDocument(product.detailsURL, in: catalog, revalidating: true)
        do {
            return try JSONDecoder().decode(ProductDetails.self, from: data).resolvingURLs(against: product.detailsURL)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.invalidContent("the details at \(product.detailsURL) are not valid: \(error)")
        }
    }

    /// A details document or media file; when `catalog` is signed (has digests), its bytes must
    /// be the ones it names, so a document from another catalog version is refused.
    public func fetchDocument(_ url: String, in catalog: Catalog?) async throws -> Data {
        try await fetchDocument(url, in: catalog, revalidating: false)
    }

    /// The same, through the document cache when `revalidating` (details; media are not kept): a
    /// cached copy that no longer has the catalog's digest is fetched again without the cache.
    func fetchDocument(_ url: String, in catalog: Catalog?, revalidating: Bool) async throws -> Data {
        if let documents = catalog?.documents, documents[url] == nil {
            throw StoreError.untrusted("\(url) is not among the documents the signed catalog names")
        }
        guard revalidating else { return try await checked(url, try await fetch(url), in: catalog) }
        let document = try await fetchRevalidating(url)
        do {
            let data = try checked(url, document.data, in: catalog)
            remember(document)
            return data
        } catch StoreError.untrusted(let message) {
            guard document.fromCache else { throw StoreError.untrusted(message) }
            let fresh = try await fetchRevalidating(url, useCache: false)
            let data = try checked(url, fresh.data, in: catalog)
            remember(fresh)
            return data
        }
    }

    private func checked(_ url: String, _ data: Data, in catalog: Catalog?) throws -> Data {
        guard let documents = catalog?.documents else { return data }
        guard let digest = documents[url] else {
            throw StoreError.untrusted("\(url) is not among the documents the signed catalog names")
        }
        let actual = Hashing.sha256(data)
        guard Int64(data.count) == digest.size, actual == digest.sha256 else {
            throw StoreError.untrusted(
                "\(url) has \(data.count) bytes with SHA-256 \(actual.prefix(16))…, the signed catalog says \(digest.size) bytes with \(digest.sha256.prefix(16))… (a document of another catalog version?)"
            )
        }
        return data
    }

    /// `fetch`, with nil for a 404.
    func fetchIfPresent(_ url: String) async throws -> Data? {
        do {
            return try await fetch(url)
        } catch StoreError.httpStatus(404, _) {
            return nil
        }
    }

    /// A small document in memory, retried as `retry` says.
    public func fetch(_ url: String) async throws -> Data {
        try await withRetries(retry, retryEnvironment) { _ in try await fetchOnce(url, validators: nil) }.1
    }

    /// One GET, conditional when `validators` are given (then a `304` comes back with no body).
    private func fetchOnce(_ url: String, validators: Validators?) async throws -> (ResponseHead, Data) {
        let box = Locked(Data())
        let heads = Locked<ResponseHead?>(nil)
        let limit = maxDocumentBytes
        try await stream(url, validators: validators) { head in
            heads.withValue { $0 = head }
            if let length = head.length, length > limit {
                throw StoreError.tooLarge("\(url) announces \(length) bytes, more than \(limit)")
            }
        } body: { chunk in
            try box.withValue { data in
                if data.count + chunk.readableBytes > limit {
                    throw StoreError.tooLarge("\(url) is larger than \(limit) bytes")
                }
                data.append(contentsOf: chunk.readableBytesView)
            }
        }
        return (heads.withValue { $0 } ?? ResponseHead(length: nil, isEncoded: false), box.withValue { $0 })
    }

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
        if resume, let record = PartialDownload.load(for: path), record.url == url,
            record.expectedSize == expectedSize, record.expectedSHA256 == expectedDigest,
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int64, size > 0,
            size <= cap, let hashed = Self.hash(path)
        {
            resumeFrom = size
            digest = hashed
            validator = record.validator
        } else {
            PartialDownload.remove(at: path)
        }
        if resumeFrom > 0, resumeFrom == expectedSize {
            // Whole already: checked like any download.
            progress(resumeFrom, expectedSize)
            try Self.check(digest, expectedSize: expectedSize, expectedSHA256: expectedDigest, path: path)
            return
        }
        if resumeFrom == 0, !FileManager.default.createFile(atPath: path, contents: nil) {
            throw StoreError.io("cannot create \(path)")
        }
        guard let handle = FileHandle(forWritingAtPath: path) else { throw StoreError.io("cannot open \(path)") }
        defer { try? handle.close() }
        do {
            try handle.truncate(atOffset: UInt64(resumeFrom))
            try handle.seekToEnd()
        } catch {
            throw StoreError.io("cannot write \(path): \(error.localizedDescription)")
        }
        struct State: Sendable {
            var digest: StreamingDigest
            /// The whole file's size, when the response says it.
            var announced: Int64?
        }
        @Sendable func tooMany(_ count: Int64) -> StoreError {
            if let expectedSize, expectedSize <= maxDownloadBytes {
                return .sizeMismatch(expected: expectedSize, actual: count)
            }
            return .tooLarge("\(url) has more than \(cap) bytes, the most a download may have")
        }
        let state = Locked(State(digest: digest))
        let sendableHandle = UncheckedBox(handle)
        let range = resumeFrom > 0 ? validator.map { RangeRequest(from: resumeFrom, ifRange: $0) } : nil
        do {
            try await stream(url, range: range) { head in
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

    /// What a response's head says about its body.
    struct ResponseHead: Sendable {
        /// 200, or 206 for a range request.
        var status: Int = 200
        /// Content-Length, when announced.
        var length: Int64?
        /// A Content-Encoding other than identity: `length` counts compressed bytes.
        var isEncoded: Bool
        /// Content-Range, for a 206.
        var contentRange: String? = nil
        /// A strong ETag, else Last-Modified.
        var validator: String? = nil
        /// ETag and Last-Modified as sent, for conditional requests.
        var etag: String? = nil
        var lastModified: String? = nil
        /// Cache-Control as sent, and the seconds it says the response is fresh for.
        var cacheControl: String? = nil
        var freshFor: Double? = nil
    }

    /// GETs `url`, calling `head` with what the response head says and `body` per chunk (decoded
    /// when the server compressed it anyway), with the idle timeout between any two events and
    /// the total timeout over all. The body is read only as fast as `body` consumes it
    /// (AsyncHTTPClient's backpressure), and the first error closes the connection: nothing more
    /// is read once the answer is known.
    private func stream(
        _ url: String, range: RangeRequest? = nil, validators: Validators? = nil,
        head: @escaping @Sendable (ResponseHead) async throws -> Void,
        body: @escaping @Sendable (ByteBuffer) throws -> Void
    ) async throws {
        guard let requestURL = URL(string: url), let scheme = requestURL.scheme?.lowercased(),
            scheme == "http" || scheme == "https", requestURL.host != nil
        else {
            throw StoreError.network("'\(url)' is not an http(s) URL")
        }
        let watchdog = Watchdog(idle: timeouts.idle, total: timeouts.total)
        let http = self.http.client
        let now = retryEnvironment.now
        do {
            try await run(watchdog, http, url, range, validators, now, head: head, body: body)
        } catch StoreError.timeout(let message) {
            // A stall or a slow server: another attempt may find it well.
            throw TransientFailure(error: .timeout(message))
        }
    }

    private func run(
        _ watchdog: Watchdog, _ http: HTTPClient, _ url: String, _ range: RangeRequest?, _ validators: Validators?,
        _ now: @escaping @Sendable () -> Date,
        head: @escaping @Sendable (ResponseHead) async throws -> Void,
        body: @escaping @Sendable (ByteBuffer) throws -> Void
    ) async throws {
        try await watchdog.run {
            do {
                var request = HTTPClientRequest(url: url)
                request.method = .GET
                // Sizes and digests in catalogs are those of the bytes as stored.
                request.headers.add(name: "Accept-Encoding", value: "identity")
                if let range {
                    request.headers.add(name: "Range", value: "bytes=\(range.from)-")
                    request.headers.add(name: "If-Range", value: range.ifRange)
                }
                if let etag = validators?.etag { request.headers.add(name: "If-None-Match", value: etag) }
                if let lastModified = validators?.lastModified {
                    request.headers.add(name: "If-Modified-Since", value: lastModified)
                }
                let response = try await http.execute(request, deadline: .distantFuture)
                watchdog.touch()
                // Leaving without reading the body (a status or head refused) closes the connection.
                let status = Int(response.status.code)
                if status == 416, range != nil { throw RestartDownload() }
                if status == 304, validators != nil {
                    try await head(
                        ResponseHead(
                            status: 304, length: 0, isEncoded: false,
                            cacheControl: response.headers.first(name: "Cache-Control"),
                            freshFor: CachedDocument.freshness(
                                cacheControl: response.headers.first(name: "Cache-Control"),
                                age: response.headers.first(name: "Age"))))
                    return
                }
                guard status == 200 || (status == 206 && range != nil) else {
                    guard RetryableStatus.codes.contains(status) else { throw StoreError.httpStatus(status, url: url) }
                    throw TransientFailure(
                        error: .httpStatus(status, url: url),
                        retryAfter: RetryAfter.parse(response.headers.first(name: "Retry-After"), now: now()))
                }
                let encoding = (response.headers.first(name: "Content-Encoding") ?? "identity").trimmingCharacters(
                    in: .whitespaces
                ).lowercased()
                guard ["", "identity", "gzip", "deflate"].contains(encoding) else {
                    throw StoreError.network(
                        "\(url) is sent with Content-Encoding '\(encoding)', which the store does not decode (it asks for identity)"
                    )
                }
                let lengths = response.headers["Content-Length"]
                var length: Int64?
                if let first = lengths.first {
                    guard let value = Int64(first.trimmingCharacters(in: .whitespaces)), value >= 0,
                        lengths.allSatisfy({ $0 == first })
                    else {
                        throw StoreError.network(
                            "\(url) has an invalid Content-Length (\(lengths.joined(separator: ", ")))")
                    }
                    length = value
                }
                try await head(
                    ResponseHead(
                        status: status, length: length, isEncoded: encoding != "" && encoding != "identity",
                        contentRange: response.headers.first(name: "Content-Range"),
                        validator: PartialDownload.validator(
                            etag: response.headers.first(name: "ETag"),
                            lastModified: response.headers.first(name: "Last-Modified")),
                        etag: response.headers.first(name: "ETag"),
                        lastModified: response.headers.first(name: "Last-Modified"),
                        cacheControl: response.headers.first(name: "Cache-Control"),
                        freshFor: CachedDocument.freshness(
                            cacheControl: response.headers.first(name: "Cache-Control"),
                            age: response.headers.first(name: "Age"))))
                for try await chunk in response.body {
                    watchdog.touch()
                    try body(chunk)
                }
            } catch {
                throw Self.translate(error, url: url)
            }
        }
    }

    /// A `StoreError`, or a `TransientFailure` for what another attempt may heal: a connection
    /// that could not be made, timed out or was lost (socket, DNS and TLS errors included).
    static func translate(_ error: any Error, url: String) -> any Error {
        if error is StoreError || error is TransientFailure || error is RestartDownload { return error }
        if error is CancellationError { return StoreError.cancelled }
        if let error = error as? HTTPClientError {
            switch error {
            case .cancelled: return StoreError.cancelled
            case .connectTimeout, .getConnectionFromPoolTimeout, .tlsHandshakeTimeout:
                return TransientFailure(error: .timeout("cannot connect to \(url) in time"))
            case .readTimeout: return TransientFailure(error: .timeout("\(url) did not answer in time"))
            case .deadlineExceeded:
                return TransientFailure(error: .timeout("the request for \(url) took longer than its deadline"))
            case .remoteConnectionClosed: return TransientFailure(error: .network("the connection to \(url) was lost"))
            case .redirectCycleDetected, .redirectLimitReached:
                return StoreError.network("\(url): too many redirects")
            case .invalidURL, .emptyHost, .emptyScheme:
                return StoreError.network("\(url): \(error)")
            default: return TransientFailure(error: .network("\(url): \(error)"))
            }
        }
        if let error = error as? NIOHTTPDecompression.DecompressionError, error == .limit {
            return StoreError.tooLarge("\(url) decodes to more bytes than the store accepts")
        }
        // Connection refused or reset, DNS, TLS: the network, which may heal.
        return TransientFailure(error: .network("\(url): \(error)"))
    }
}

/// The HTTP client of a `CatalogClient` and its copies: connections are pooled and reused, on
/// NIO's shared event loops (no threads of its own). AsyncHTTPClient must be shut down before it
/// is released; this owner does it when the last copy goes, and the shutdown keeps the client
/// alive until the pool has closed its connections.
final class StoreHTTPClient: Sendable {
    let client: HTTPClient

    init(timeouts: StoreTimeouts, maxDecodedBytes: Int64) {
        // Redirects: followed as before (up to 5, no cycles; http and https). Read timeouts are
        // the watchdog's, which also bounds the whole request.
        let configuration = HTTPClient.Configuration(
            redirectConfiguration: .follow(max: 5, allowCycles: false),
            timeout: .init(connect: .nanoseconds(Int64(timeouts.idle.seconds * 1e9))),
            // Only when a server compresses although asked for identity; the decoded bytes are
            // capped as they arrive, and this bounds one response's decoded bytes as well.
            decompression: .enabled(limit: .size(Int(clamping: maxDecodedBytes))))
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    deinit {
        client.shutdown { _ in }
    }
}

extension Duration {
    /// As a TimeInterval.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Fails the work it runs with `StoreError.timeout` when `touch()` is not called for `idle`, or
/// when the whole work takes longer than `total` (a server dripping one byte at a time). Time the
/// process spends starved of threads counts little toward `idle` (see `run`), and fully toward `total`.
final class Watchdog: @unchecked Sendable {
    private let idle: Duration
    private let total: Duration
    private let lock = NSLock()
    private var last = ContinuousClock.now

    init(idle: Duration, total: Duration) {
        self.idle = idle
        self.total = total
    }

    func touch() {
        lock.lock()
        last = .now
        lock.unlock()
    }

    private var lastTouch: ContinuousClock.Instant {
        lock.lock()
        defer { lock.unlock() }
        return last
    }

    func run(_ work: @escaping @Sendable () async throws -> Void) async throws {
        touch()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await work() }
            let start = ContinuousClock.now
            group.addTask { [idle, total] in
                let interval = min(idle / 4, total / 4, .milliseconds(250))
                var previous = ContinuousClock.now
                var seen = self.lastTouch
                var quiet = Duration.zero
                while true {
                    try await Task.sleep(for: interval)
                    let now = ContinuousClock.now
                    // The reader runs on the same thread pool as this check: when the process is
                    // starved (a busy machine), the data may be there with nobody to touch. So a
                    // late wake-up counts as two intervals of silence at most, not all of it.
                    let step = min(now - previous, interval * 2)
                    previous = now
                    let touched = self.lastTouch
                    if touched != seen {
                        seen = touched
                        quiet = min(now - touched, step)
                    } else {
                        quiet += step
                    }
                    if quiet > idle {
                        throw StoreError.timeout("no data arrived for \(idle)")
                    }
                    if now - start > total {
                        throw StoreError.timeout("the request took longer than \(total)")
                    }
                }
            }
            defer { group.cancelAll() }
            do {
                try await group.next()
            } catch is CancellationError {
                throw StoreError.cancelled
            }
        }
    }
}

/// A value behind a lock, for state shared with `@Sendable` callbacks.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// A non-Sendable reference used from one task at a time.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
