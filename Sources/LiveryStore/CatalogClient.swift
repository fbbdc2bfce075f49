import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
/// Built on Foundation's URLSession (libcurl on Linux), which every app already has: no
/// TLS stack of its own is compiled into apps that link the store.
public struct CatalogClient: Sendable {
    public var catalogURL: String
    public var timeouts: StoreTimeouts
    /// Documents (catalog, details) larger than this are refused.
    public var maxDocumentBytes: Int

    public init(catalogURL: String, timeouts: StoreTimeouts = StoreTimeouts(), maxDocumentBytes: Int = 4 << 20) {
        self.catalogURL = catalogURL
        self.timeouts = timeouts
        self.maxDocumentBytes = maxDocumentBytes
    }

    public func fetchCatalog() async throws -> Catalog {
        let data = try await fetch(catalogURL)
        let catalog: Catalog
        do {
            catalog = try JSONDecoder().decode(Catalog.self, from: data)
        } catch {
            throw StoreError.invalidContent("the catalog at \(catalogURL) is not valid catalog JSON: \(error)")
        }
        guard catalog.formatVersion <= Catalog.currentFormatVersion else {
            throw StoreError.invalidContent("the catalog's format \(catalog.formatVersion) is newer than this app reads; update the app")
        }
        return catalog
    }

    public func fetchDetails(for product: CatalogProduct) async throws -> ProductDetails {
        let data = try await fetch(product.detailsURL)
        do {
            return try JSONDecoder().decode(ProductDetails.self, from: data)
        } catch {
            throw StoreError.invalidContent("the details at \(product.detailsURL) are not valid: \(error)")
        }
    }

    /// A small document in memory.
    public func fetch(_ url: String) async throws -> Data {
        let box = Locked(Data())
        let limit = maxDocumentBytes
        try await stream(url) { _ in } body: { chunk in
            try box.withValue { data in
                data.append(chunk)
                if data.count > limit { throw StoreError.invalidContent("\(url) is larger than \(limit) bytes") }
            }
        }
        return box.withValue { $0 }
    }

    /// Downloads `url` to a new file at `path`, hashing as bytes arrive. Fails as soon as more
    /// bytes than `expectedSize` arrive; checks the size and SHA-256 at the end. The file is
    /// removed on any failure.
    public func download(_ url: String, to path: String, expectedSize: Int64?, expectedSHA256: String?,
                         progress: @escaping @Sendable (_ received: Int64, _ expected: Int64?) -> Void) async throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw StoreError.io("cannot create \(path)")
        }
        var succeeded = false
        defer {
            try? handle.close()
            if !succeeded { try? FileManager.default.removeItem(atPath: path) }
        }
        struct State: Sendable {
            var digest = StreamingDigest()
            var announced: Int64?
        }
        let state = Locked(State())
        let sendableHandle = UncheckedBox(handle)
        try await stream(url) { length in
            state.withValue { $0.announced = length }
            if let expectedSize, let length, length != expectedSize {
                throw StoreError.sizeMismatch(expected: expectedSize, actual: length)
            }
            progress(0, expectedSize ?? length)
        } body: { chunk in
            let (count, announced) = try state.withValue { state -> (Int64, Int64?) in
                chunk.withUnsafeBytes { state.digest.update($0) }
                if let expectedSize, state.digest.count > expectedSize {
                    throw StoreError.sizeMismatch(expected: expectedSize, actual: state.digest.count)
                }
                return (state.digest.count, state.announced)
            }
            do {
                try sendableHandle.value.write(contentsOf: chunk)
            } catch {
                throw StoreError.io("cannot write \(path): \(error.localizedDescription)")
            }
            progress(count, expectedSize ?? announced)
        }
        let final = state.withValue { $0 }
        if let announced = final.announced, final.digest.count != announced {
            throw StoreError.network("the connection closed after \(final.digest.count) of \(announced) bytes")
        }
        if let expectedSize, final.digest.count != expectedSize {
            throw StoreError.sizeMismatch(expected: expectedSize, actual: final.digest.count)
        }
        let actual = final.digest.finish()
        if let expectedSHA256, actual != expectedSHA256.lowercased() {
            throw StoreError.checksumMismatch(expected: expectedSHA256.lowercased(), actual: actual)
        }
        do {
            try handle.synchronize()
        } catch {
            throw StoreError.io("cannot flush \(path)")
        }
        succeeded = true
    }

    /// GETs `url`, calling `head` with the Content-Length and `body` per chunk, with the idle
    /// timeout between any two events and the total timeout over all.
    private func stream(_ url: String, head: @escaping @Sendable (Int64?) throws -> Void,
                        body: @escaping @Sendable (Data) throws -> Void) async throws {
        guard let requestURL = URL(string: url), let scheme = requestURL.scheme?.lowercased(),
              scheme == "http" || scheme == "https" else {
            throw StoreError.network("'\(url)' is not an http(s) URL")
        }
        let watchdog = Watchdog(idle: timeouts.idle)
        let timeouts = self.timeouts
        try await watchdog.run {
            let delegate = StreamingDelegate(url: url, watchdog: watchdog, head: head, body: body)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeouts.idle.seconds
            configuration.timeoutIntervalForResource = timeouts.total.seconds
            configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
            configuration.urlCache = nil
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
            defer { session.invalidateAndCancel() }
            let task = session.dataTask(with: URLRequest(url: requestURL))
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    delegate.start(continuation)
                    task.resume()
                }
            } onCancel: {
                task.cancel()
            }
            try Task.checkCancellation()
        }
    }

    static func translate(_ error: any Error, url: String) -> StoreError {
        if let error = error as? StoreError { return error }
        if error is CancellationError { return .cancelled }
        if let error = error as? URLError {
            switch error.code {
            case .timedOut: return .timeout("\(url) did not answer in time")
            case .cancelled: return .cancelled
            case .networkConnectionLost: return .network("the connection to \(url) was lost")
            case .cannotConnectToHost: return .network("cannot connect to \(url)")
            default: return .network("\(url): \(error.localizedDescription) (\(error.code.rawValue))")
            }
        }
        return .network("\(url): \(error)")
    }
}

/// Receives one request's events on the session's serial queue.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let url: String
    private let watchdog: Watchdog
    private let head: @Sendable (Int64?) throws -> Void
    private let body: @Sendable (Data) throws -> Void
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Void, any Error>?
    private var failure: StoreError?

    init(url: String, watchdog: Watchdog, head: @escaping @Sendable (Int64?) throws -> Void,
         body: @escaping @Sendable (Data) throws -> Void) {
        self.url = url
        self.watchdog = watchdog
        self.head = head
        self.body = body
    }

    func start(_ continuation: CheckedContinuation<Void, any Error>) {
        lock.lock()
        self.continuation = continuation
        lock.unlock()
    }

    private func fail(_ error: StoreError) {
        lock.lock()
        if failure == nil { failure = error }
        lock.unlock()
    }

    private var hasFailed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return failure != nil
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        watchdog.touch()
        guard let http = response as? HTTPURLResponse else {
            fail(.network("\(url) did not answer over HTTP"))
            return completionHandler(.cancel)
        }
        guard http.statusCode == 200 else {
            fail(.httpStatus(http.statusCode, url: url))
            return completionHandler(.cancel)
        }
        do {
            try head(http.expectedContentLength >= 0 ? http.expectedContentLength : nil)
            completionHandler(.allow)
        } catch {
            fail(CatalogClient.translate(error, url: url))
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        watchdog.touch()
        guard !hasFailed else { return }
        do {
            try body(data)
        } catch {
            fail(CatalogClient.translate(error, url: url))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        lock.lock()
        let continuation = self.continuation
        self.continuation = nil
        let failure = self.failure
        lock.unlock()
        if let failure {
            continuation?.resume(throwing: failure)
        } else if let error {
            continuation?.resume(throwing: CatalogClient.translate(error, url: url))
        } else {
            continuation?.resume()
        }
    }
}

extension Duration {
    /// As a TimeInterval.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Fails the work it runs with `StoreError.timeout` when `touch()` is not called for `idle`.
final class Watchdog: @unchecked Sendable {
    private let idle: Duration
    private let lock = NSLock()
    private var last = ContinuousClock.now

    init(idle: Duration) { self.idle = idle }

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
            group.addTask { [idle] in
                while true {
                    try await Task.sleep(for: min(idle / 4, .milliseconds(250)))
                    if ContinuousClock.now - self.lastTouch > idle {
                        throw StoreError.timeout("no data arrived for \(idle)")
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
