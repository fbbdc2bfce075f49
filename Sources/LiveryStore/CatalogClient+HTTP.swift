import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPCompression

// The HTTP transport: one GET (request, response head, body, errors) and the pooled client.
extension CatalogClient {
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
    func stream(
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
