import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// Who may talk to the studio, decided before any route runs. A page on another site in the same
/// browser can reach a loopback server: by DNS rebinding (its own name resolving to 127.0.0.1, so
/// the request carries `Host: evil.example:PORT`) or by opening a WebSocket, which browsers allow
/// across origins. So, in this order:
/// 0. the request must name its host once: one `Host` (RFC 9112 §3.2: more than one is 400) and
///    a target in origin form (`/path?query`); an absolute-form target (`http://host/path`, whose
///    host RFC 9112 §3.2.2 puts in place of `Host`) is 400 too (`headRefusal`);
/// 1. the `Host` must name the studio: `localhost`, `127.0.0.1`, `::1`, or the `--host` given
///    (else 403);
/// 2. an `Origin`, when the request carries one (browsers send it on every WebSocket and every
///    POST), must be the studio's own (`http://` and the request's `Host`), one allowed with
///    `--allow-origin`, or the `ws://` origin a WebSocket client library sends (else 403);
/// 3. the token must be presented (`?token=` or the `X-Livery-Token` header; else 401).
public struct StudioAccess: Sendable {
    /// Host names accepted, lower case, without brackets or port.
    public let hosts: Set<String>
    /// Origins accepted beside the studio's own, lower case, as `scheme://host[:port]`.
    public let allowedOrigins: Set<String>
    let token: String

    public init(token: String, host: String, allowedOrigins: [String] = []) {
        self.token = token
        hosts = Set(["localhost", "127.0.0.1", "::1", Self.hostName(host)])
        self.allowedOrigins = Set(allowedOrigins.map(Self.normalizedOrigin))
    }

    /// Why a request is refused, with its status, or nil when it may go on.
    public func refusal(host: String?, origin: String?, token presented: String?) -> (
        status: HTTPResponse.Status, message: String
    )? {
        guard let host, hosts.contains(Self.hostName(host)) else {
            return (
                .forbidden,
                "the studio answers only requests addressed to it (Host \(hosts.sorted().joined(separator: ", "))); start it with --host NAME to reach it by another name"
            )
        }
        if let origin, !isAllowed(origin: origin, host: host) {
            return (
                .forbidden,
                "the studio answers only its own page (origin \(origin) refused); start it with --allow-origin ORIGIN to allow another"
            )
        }
        guard Self.constantTimeEqual(presented ?? "", token) else {
            return (.unauthorized, "open the URL `livery studio` printed: it carries the token")
        }
        return nil
    }

    /// Why a request head is refused before `Host` is even read (400), or nil: more than one
    /// `Host` (RFC 9112 §3.2), or a target that is not in origin form (`/path?query`). The
    /// studio is never a proxy, so no client of its sends an absolute-form target
    /// (`http://host/path`); RFC 9112 §3.2.2 puts that target's host in place of `Host`, so a
    /// second name for the host, refused outright rather than checked as a second `Host`.
    public static func headRefusal(hostCount: Int, target: String) -> String? {
        if hostCount > 1 {
            return "the request names its host \(hostCount) times (Host); send one Host header"
        }
        if !target.hasPrefix("/") {
            return
                "the request target must be a path (/api/state), not \(target.hasPrefix("*") ? "*" : "an absolute URL")"
        }
        return nil
    }

    /// The page's own origin (`http://` and the request's `Host`), one given with
    /// `--allow-origin`, or what WebSocket client libraries send for a program following the
    /// studio (`ws://` or `wss://` and a host the studio answers to; a browser page's origin is
    /// never `ws:`).
    func isAllowed(origin: String, host: String) -> Bool {
        let origin = Self.normalizedOrigin(origin)
        if origin == "http://" + host.lowercased() || allowedOrigins.contains(origin) { return true }
        for scheme in ["ws://", "wss://"] where origin.hasPrefix(scheme) {
            return hosts.contains(Self.hostName(String(origin.dropFirst(scheme.count))))
        }
        return false
    }

    /// `Host`'s name: `[::1]:8123` gives `::1`, `Localhost:80` gives `localhost`.
    static func hostName(_ host: String) -> String {
        let lower = host.lowercased()
        if lower.hasPrefix("["), let end = lower.firstIndex(of: "]") {
            return String(lower[lower.index(after: lower.startIndex)..<end])
        }
        // One colon: a port. More: an IPv6 address written without brackets (as --host takes it).
        if lower.filter({ $0 == ":" }).count == 1, let colon = lower.firstIndex(of: ":") {
            return String(lower[..<colon])
        }
        return lower
    }

    static func normalizedOrigin(_ origin: String) -> String {
        var lower = origin.lowercased()
        while lower.hasSuffix("/") { lower.removeLast() }
        return lower
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }

    /// The token a request presents: the `X-Livery-Token` header, else `?token=`.
    static func presentedToken(header: String?, uri: String) -> String? {
        header ?? URI(uri).queryParameters.get("token")
    }
}

/// Checks every HTTP request with `StudioAccess` before any route runs.
struct AccessMiddleware<Context: RequestContext>: RouterMiddleware {
    let access: StudioAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let token = StudioAccess.presentedToken(
            header: request.headers.first(where: { $0.name.canonicalName == "x-livery-token" })?.value,
            uri: request.uri.description)
        if let (status, message) = access.refusal(
            host: request.head.authority, origin: request.headers[.origin], token: token)
        {
            return problem(status, message)
        }
        return try await next(request, context)
    }
}

/// Refuses, with 400, every request head that names its host more than once or not in `Host`
/// alone (`StudioAccess.headRefusal`): the server library reads the first `Host` and drops the
/// host of an absolute-form target, so neither is seen after it. Checks a WebSocket upgrade with
/// `StudioAccess` and answers a refused one with its own status (403 or 401): the upgrade path of
/// the server library answers every refused upgrade with 400, before any middleware's response is
/// seen. It sits right after the HTTP decoder and sees every request head of a connection until
/// an upgrade goes on; then it leaves the pipeline, and WebSocket frames do not pass through it.
final class UpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let access: StudioAccess
    /// Set once a request was refused: its body parts are dropped until the connection closes.
    /// Read from the server's task too (`QuietWhenRefused`), hence the lock.
    private let lock = NSLock()
    private var _refused = false
    var refused: Bool {
        get { lock.withLock { _refused } }
        set { lock.withLock { _refused = newValue } }
    }

    init(access: StudioAccess) { self.access = access }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard case .head(let head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let upgrade = head.headers["upgrade"].contains { $0.lowercased().contains("websocket") }
        let refusal: (status: HTTPResponse.Status, message: String)? =
            if let message = StudioAccess.headRefusal(hostCount: head.headers["host"].count, target: head.uri) {
                (.badRequest, message)
            } else if upgrade {
                access.refusal(
                    host: head.headers["host"].first, origin: head.headers["origin"].first,
                    token: StudioAccess.presentedToken(header: head.headers["x-livery-token"].first, uri: head.uri))
            } else {
                nil
            }
        if let (status, message) = refusal {
            refused = true
            let body = (try? JSONSerialization.data(withJSONObject: ["ok": false, "message": message])) ?? Data()
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            headers.add(name: "Content-Length", value: String(body.count))
            headers.add(name: "Connection", value: "close")
            let response = HTTPResponseHead(
                version: head.version, status: HTTPResponseStatus(statusCode: Int(status.code)), headers: headers)
            context.write(wrapOutboundOut(.head(response)), promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
            return
        }
        context.fireChannelRead(data)
        // An upgrade that goes on leaves the pipeline to WebSocket frames; plain HTTP requests
        // keep coming through here, each head checked as the first was.
        if upgrade { context.pipeline.syncOperations.removeHandler(context: context, promise: nil) }
    }
}

extension UpgradeGate: @unchecked Sendable {}

/// The server library's HTTP/1 channel with WebSocket upgrade, with an `UpgradeGate` in front.
struct GatedUpgradeChannel: ServerChildChannel {
    struct Value: ServerChildChannelValue {
        let inner: HTTP1WebSocketUpgradeChannel.Value
        let gate: UpgradeGate
        var channel: any Channel { inner.channel }
    }

    let inner: HTTP1WebSocketUpgradeChannel
    let access: StudioAccess

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let decoder = try channel.pipeline.syncOperations.handler(
                type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let gate = UpgradeGate(access: access)
            try channel.pipeline.syncOperations.addHandler(gate, position: .after(decoder))
            return Value(inner: value, gate: gate)
        }
    }

    /// A connection the gate refused and closed ends, in the server library, with an error logged
    /// about the upgrade it never saw: that connection logs nothing.
    func handle(value: Value, logger: Logger) async {
        let quiet = Logger(label: logger.label) { _ in QuietWhenRefused(base: logger.handler, gate: value.gate) }
        await inner.handle(value: value.inner, logger: quiet)
    }
}

/// Passes log records to `base` unless the gate refused the connection.
struct QuietWhenRefused: LogHandler {
    var base: any LogHandler
    let gate: UpgradeGate

    var logLevel: Logger.Level {
        get { base.logLevel }
        set { base.logLevel = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        guard !gate.refused else { return }
        base.log(event: event)
    }
}

func problem(_ status: HTTPResponse.Status, _ message: String) -> Response {
    let data = (try? JSONSerialization.data(withJSONObject: ["ok": false, "message": message])) ?? Data()
    return Response(
        status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: data)))
}
