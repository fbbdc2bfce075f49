import Foundation
import NIOCore

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
}
