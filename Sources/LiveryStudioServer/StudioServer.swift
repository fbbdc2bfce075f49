import Foundation
import Hummingbird
import HummingbirdWebSocket
import LiveryStudio
import Logging
import NIOCore

/// `livery studio`: a `StudioSession` over HTTP and WebSocket. Loopback by default; every
/// request and WebSocket is first checked by `StudioAccess` (one `Host` and a path as target,
/// then its `Host`, its `Origin`, then the token: `?token=` or the `X-Livery-Token` header); request bodies and WebSocket messages are
/// size-capped; a body that is not the JSON a route takes is refused with 400 and changes nothing. `/api/state?findings=later` answers with the screens alone, and
/// `/api/findings` with the findings of every trait set, which the page asks for once it has
/// redrawn. Browsers get `{"type":"changed"}` on `/live` after every change; apps
/// following the studio get the theme files on `/follow` (the whole set on connecting, then
/// what changed).
public struct StudioServer: Sendable {
    public var session: StudioSession
    public var host: String
    public var port: Int
    public var token: String
    /// Origins whose pages may use the studio beside its own (`http://host:port`).
    public var allowedOrigins: [String] = []
    /// Largest request body accepted.
    public var maxBodyBytes: Int = 64 * 1024
    /// Largest WebSocket message accepted from a client.
    public var maxMessageBytes: Int = 4 * 1024
    /// How often the folders are looked at for changes made by others.
    public var pollInterval: Duration = .milliseconds(100)

    public init(
        session: StudioSession, host: String = "127.0.0.1", port: Int = 0, token: String = StudioServer.makeToken()
    ) {
        self.session = session
        self.host = host
        self.port = port
        self.token = token
    }

    /// 128 random bits, hex.
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: 0...UInt32.max, using: &generator)) }
            .joined()
    }

    /// Runs until the task is cancelled (or, with `stopOnSignals`, SIGINT/SIGTERM arrive).
    /// `onRunning` receives the bound port.
    public func run(stopOnSignals: Bool = false, onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        async throws
    {
        var logger = Logger(label: "livery-studio")
        logger.logLevel = .warning
        let hub = PushHub()
        let router = Router(context: BasicWebSocketRequestContext.self)
        let access = StudioAccess(token: token, host: host, allowedOrigins: allowedOrigins)
        router.add(middleware: AccessMiddleware(access: access))
        let session = self.session
        let maxBody = maxBodyBytes
        let maxMessage = maxMessageBytes

        router.get("/") { _, _ in
            let page = StudioPage.html(dimensions: await session.dimensions())
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                    .contentSecurityPolicy:
                        "default-src 'self' 'unsafe-inline' data:; connect-src 'self' ws: ; img-src 'self' data:",
                ],
                body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        router.get("/api/state") { request, _ in
            let query = request.uri.queryParameters
            let state = await StudioTrace.measure("request.state") {
                await session.refreshIfChanged()
                return await session.state(
                    themeID: query.get("theme"), traits: query.get("traits"),
                    compareThemeID: query.get("compareTheme"), compareTraits: query.get("compareTraits"),
                    findings: query.get("findings") != "later")
            }
            return try json(state)
        }
        router.get("/api/findings") { request, _ in
            let query = request.uri.queryParameters
            let findings = await StudioTrace.measure("request.findings") {
                await session.findings(
                    themeID: query.get("theme"), traits: query.get("traits"),
                    compareThemeID: query.get("compareTheme"), compareTraits: query.get("compareTraits"))
            }
            return try json(findings)
        }
        router.get("/api/explain") { request, _ in
            let query = request.uri.queryParameters
            guard let theme = query.get("theme"), let id = query.get("id") else {
                return problem(.badRequest, "give theme and id")
            }
            do {
                let explanation = try await StudioTrace.measure("request.explain") {
                    try await session.explain(themeID: theme, traits: query.get("traits") ?? "", id: id)
                }
                return try json(explanation)
            } catch let error as StudioEditError {
                return problem(.notFound, error.message)
            }
        }
        router.post("/api/edit") { request, _ in
            let body: ByteBuffer
            do { body = try await request.body.collect(upTo: maxBody) } catch {
                return problem(.contentTooLarge, "the request body is larger than \(maxBody) bytes")
            }
            guard let edit = try? JSONDecoder().decode(StudioEditRequest.self, from: Data(buffer: body)) else {
                return problem(.badRequest, "the body is not an edit request (JSON with target, slot and text)")
            }
            let result = await StudioTrace.measure("request.edit.write") { await session.edit(edit) }
            await StudioTrace.measure("request.edit.push") { await hub.changed(session: session) }
            // A request that cannot be made as asked (a value `validate` refuses, an override
            // target that is not a layer file of its theme) is 400; one that clashes with the
            // files as they are (stale, read-only, outside the folders, generated) is 409.
            return try json(result, status: result.ok ? .ok : result.refusal == "invalid" ? .badRequest : .conflict)
        }
        for (path, undo) in [("/api/undo", true), ("/api/redo", false)] {
            router.post(RouterPath(path)) { request, _ in
                // The page sends `{}`; no body is accepted too. Anything else changes nothing.
                let body: ByteBuffer
                do { body = try await request.body.collect(upTo: maxBody) } catch {
                    return problem(.contentTooLarge, "the request body is larger than \(maxBody) bytes")
                }
                if body.readableBytes > 0,
                    (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] == nil
                {
                    return problem(.badRequest, "the body of \(path) must be empty or a JSON object ({})")
                }
                let result = undo ? await session.undo() : await session.redo()
                await hub.changed(session: session)
                return try json(result, status: result.ok ? .ok : .conflict)
            }
        }
        router.ws("/live") { inbound, outbound, _ in
            let (stream, id) = await hub.subscribe(files: false, session: session)
            try await serve(inbound: inbound, outbound: outbound, stream: stream, maxMessage: maxMessage)
            await hub.unsubscribe(id)
        }
        router.ws("/follow") { inbound, outbound, _ in
            let (stream, id) = await hub.subscribe(files: true, session: session)
            try await serve(inbound: inbound, outbound: outbound, stream: stream, maxMessage: maxMessage)
            await hub.unsubscribe(id)
        }

        let webSocketResponder = router.buildResponder()
        let app = Application(
            router: router,
            server: .init { responder in
                GatedUpgradeChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder,
                        configuration: .init(ws: .init(maxFrameSize: maxMessage))),
                    access: access)
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "livery-studio"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        let interval = pollInterval
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: interval)
                    // Whoever changed the files (this studio, an editor, git): one push per change.
                    await session.refreshIfChanged()
                    await hub.changed(session: session)
                }
            }
            group.addTask {
                try await app.runService(gracefulShutdownSignals: stopOnSignals ? [.sigterm, .sigint] : [])
            }
            try await group.next()
            group.cancelAll()
        }
    }
}

/// Writes what the hub pushes; reads the client's messages, of which only `{"type":"ping"}` is
/// understood: anything else (not JSON, binary, too large) closes the connection.
private func serve(
    inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, stream: AsyncStream<String>,
    maxMessage: Int
) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            for await text in stream { try await outbound.write(.text(text)) }
        }
        group.addTask {
            do {
                for try await message in inbound.messages(maxSize: maxMessage) {
                    guard case .text(let text) = message,
                        let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                        object["type"] as? String == "ping"
                    else {
                        try await outbound.close(.unacceptableData, reason: "only {\"type\":\"ping\"} is accepted")
                        return
                    }
                    try await outbound.write(.text("{\"type\":\"pong\"}"))
                }
            } catch {
                try? await outbound.close(.messageTooLarge, reason: "message refused")
            }
        }
        try await group.next()
        group.cancelAll()
    }
}

/// The open WebSockets and what each is sent on a change.
actor PushHub {
    private var subscribers: [Int: (files: Bool, continuation: AsyncStream<String>.Continuation)] = [:]
    private var next = 0
    private var generation = -1
    private var mirrored: [String: [UInt8]] = [:]

    func subscribe(files: Bool, session: StudioSession) async -> (AsyncStream<String>, Int) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        next += 1
        subscribers[next] = (files, continuation)
        let generation = await session.generation
        if files {
            let all = await session.allFiles()
            continuation.yield(Self.filesMessage(all, removed: [], generation: generation))
        } else {
            continuation.yield("{\"type\":\"changed\",\"generation\":\(generation)}")
        }
        return (stream, next)
    }

    func unsubscribe(_ id: Int) {
        subscribers[id]?.continuation.finish()
        subscribers[id] = nil
    }

    /// Tells every subscriber about the session's current generation (once per generation).
    func changed(session: StudioSession) async {
        let current = await session.generation
        guard current != generation else { return }
        generation = current
        let files = await session.allFiles()
        var changed: [String: [UInt8]] = [:]
        for (path, bytes) in files where mirrored[path] != bytes { changed[path] = bytes }
        let removed = mirrored.keys.filter { files[$0] == nil }.sorted()
        mirrored = files
        let filesMessage = Self.filesMessage(changed, removed: removed, generation: current)
        let changedMessage = "{\"type\":\"changed\",\"generation\":\(current)}"
        for (_, subscriber) in subscribers {
            subscriber.continuation.yield(subscriber.files ? filesMessage : changedMessage)
        }
    }

    static func filesMessage(_ files: [String: [UInt8]], removed: [String], generation: Int) -> String {
        let object: [String: Any] = [
            "type": "files", "generation": generation,
            "files": files.mapValues { Data($0).base64EncodedString() }, "removed": removed,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

private func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let data = try encoder.encode(value)
    return Response(
        status: status, headers: [.contentType: "application/json", .cacheControl: "no-store"],
        body: .init(byteBuffer: ByteBuffer(bytes: data)))
}
