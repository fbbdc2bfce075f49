import AsyncHTTPClient
import Foundation
import HummingbirdWSClient
import LiveryStudio
import LiveryStudioServer
import Logging
import NIOCore
import Testing

/// A studio served on a free loopback port for one test, over a copy of the sample themes.
final class RunningStudio: @unchecked Sendable {
    let copy: ThemesCopy
    let session: StudioSession
    let server: StudioServer
    var task: Task<Void, Error>?
    var port = 0
    var base: String { "http://127.0.0.1:\(port)" }
    var token: String { server.token }

    init(readOnly: [String] = [], allowedOrigins: [String] = []) throws {
        copy = try ThemesCopy()
        session = StudioSession(paths: [copy.themes], readOnlyFolders: readOnly)
        var server = StudioServer(session: session, port: 0)
        server.allowedOrigins = allowedOrigins
        self.server = server
    }

    /// Sends `head` (request line and header lines, without the blank line) and `body` over a
    /// plain socket, as a hostile page or program could, and returns the response's status code
    /// (0 when the connection closed without one).
    /// The socket blocks, so it runs off Swift's cooperative pool: that pool has one thread a core,
    /// and the server's handlers need them while a test waits for the answer.
    func raw(_ head: [String], body: [UInt8] = []) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.rawBlocking(head, body: body) })
            }
        }
    }

    private func rawBlocking(_ head: [String], body: [UInt8]) throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // A server that answers before reading a large body stops reading it.
        var sendTimeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let bytes = Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8) + body
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
            // The server may answer (and close) before the whole body is read.
            if count <= 0 { break }
            sent += count
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !response.contains(UInt8(ascii: "\n")) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            response += buffer[..<count]
        }
        let line = String(decoding: response, as: UTF8.self).split(separator: "\r\n").first ?? ""
        let parts = line.split(separator: " ")
        return parts.count > 1 ? Int(parts[1]) ?? 0 : 0
    }

    /// Sends each request (head lines without the blank line, no body) on one connection, the
    /// next once the answer to the previous one was read, and returns the status codes read
    /// (fewer when the connection closed early).
    func rawSequence(_ heads: [[String]]) async throws -> [Int] {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.rawSequenceBlocking(heads) })
            }
        }
    }

    private func rawSequenceBlocking(_ heads: [[String]]) throws -> [Int] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        var statuses: [Int] = []
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let separator = Array("\r\n\r\n".utf8)
        for head in heads {
            let bytes = Array((head.joined(separator: "\r\n") + "\r\n\r\n").utf8)
            guard bytes.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, 0) }) == bytes.count else { break }
            // The response head, then as many body bytes as its Content-Length says.
            func headEnd() -> Int? {
                guard pending.count >= separator.count else { return nil }
                return (0...(pending.count - separator.count)).first {
                    Array(pending[$0..<$0 + separator.count]) == separator
                }
            }
            while headEnd() == nil {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count <= 0 { return statuses }
                pending += buffer[..<count]
            }
            let end = headEnd()! + separator.count
            let lines = String(decoding: pending[..<end], as: UTF8.self).split(separator: "\r\n")
            let parts = lines.first?.split(separator: " ") ?? []
            statuses.append(parts.count > 1 ? Int(parts[1]) ?? 0 : 0)
            let length =
                lines.lazy.compactMap { line -> Int? in
                    let pair = line.split(separator: ":", maxSplits: 1)
                    guard pair.count == 2, pair[0].lowercased() == "content-length" else { return nil }
                    return Int(pair[1].trimmingCharacters(in: .whitespaces))
                }.first ?? 0
            while pending.count < end + length {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count <= 0 { return statuses }
                pending += buffer[..<count]
            }
            pending.removeFirst(end + length)
        }
        return statuses
    }

    /// A WebSocket upgrade of `path` with these header lines.
    func upgrade(_ path: String, _ headers: [String]) async throws -> Int {
        try await raw(
            [
                "GET \(path) HTTP/1.1", "Upgrade: websocket", "Connection: Upgrade",
                "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13",
            ] + headers)
    }

    func start() async throws {
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let server = self.server
        task = Task { try await server.run { port in continuation.yield(port) } }
        for await port in stream {
            self.port = port
            break
        }
    }

    func stop() async {
        task?.cancel()
        _ = try? await task?.value
    }

    /// Every file under the copy, by path: to prove nothing was written.
    func files() throws -> [String: Data] {
        var result: [String: Data] = [:]
        let root = copy.path
        for case let relative as String in FileManager.default.enumerator(atPath: root)! {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                result[relative] = FileManager.default.contents(atPath: root + "/" + relative)
            }
        }
        return result
    }

    func request(_ path: String, method: String = "GET", body: [UInt8]? = nil, token: String?) async throws -> (
        Int, String
    ) {
        var request = HTTPClientRequest(url: base + path)
        request.method = .init(rawValue: method)
        if let token { request.headers.add(name: "X-Livery-Token", value: token) }
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(20))
        let bytes = try await response.body.collect(upTo: 16 * 1024 * 1024)
        return (Int(response.status.code), String(buffer: bytes))
    }
}

@Suite(.serialized) struct StudioServerTests {
    @Test func requestsWithoutTheTokenAreRefused() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let wrong = "/?token=" + String(studio.token.dropLast()) + (studio.token.hasSuffix("0") ? "1" : "0")
        let missing = try await studio.request("/", token: nil as String?).0
        let short = try await studio.request("/api/state", token: "0123").0
        let mistyped = try await studio.request(wrong, token: nil as String?).0
        #expect(missing == 401 && short == 401 && mistyped == 401)
        let (status, page) = try await studio.request("/?token=" + studio.token, token: nil as String?)
        #expect(status == 200)
        #expect(page.contains("Livery Studio"))
        #expect(try await studio.request("/api/state", token: studio.token).0 == 200)
        await studio.stop()
    }

    @Test func hostileEditsAreRefusedAndWriteNothing() async throws {
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent(
            "livery-outside-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try Data("<theme/>\n".utf8).write(to: URL(fileURLWithPath: outside + "/Evil.xml"))
        let studio = try RunningStudio()
        try FileManager.default.createSymbolicLink(
            atPath: studio.copy.themes + "/Base.theme/Evil.xml", withDestinationPath: outside + "/Evil.xml")
        try FileManager.default.createSymbolicLink(atPath: studio.copy.themes + "/Escape", withDestinationPath: outside)
        try await studio.start()
        let before = try studio.files()
        let outsideBefore = FileManager.default.contents(atPath: outside + "/Evil.xml")

        func edit(file: String, kind: String = "override", version: String? = nil) -> [UInt8] {
            var target: [String: Any] = [
                "kind": kind, "label": "x", "file": file, "themeID": "com.livery.base", "layer": "Chat.xml",
                "operation": "alpha", "state": "normal", "param": "value", "instanceID": "button_send",
                "component": "uibutton", "valueType": "float",
            ]
            if let version { target["version"] = version }
            return [UInt8](
                try! JSONSerialization.data(withJSONObject: ["target": target, "slot": "content", "text": "0.5"]))
        }
        let evilVersion = ThemeFiles.version(of: [UInt8]("<theme/>\n".utf8))
        let refusals: [([UInt8], Int, String)] = [
            (edit(file: "Themes/../../etc/passwd"), 409, "outside-folders"),
            (edit(file: "Themes/Base.theme/../../Outside.xml"), 409, "outside-folders"),
            (edit(file: "/etc/passwd"), 409, "outside-folders"),
            (edit(file: "Elsewhere/Chat.xml"), 409, "outside-folders"),
            (edit(file: "Themes/Base.theme/Evil.xml", version: evilVersion), 409, "outside-folders"),
            (edit(file: "Themes/Escape/Evil.xml", version: evilVersion), 409, "outside-folders"),
            (edit(file: "Themes/Base.theme/Chat.xml", version: "not-the-version"), 409, "stale"),
            (edit(file: "Themes/Tokens.theme/Tokens.xml", kind: "value"), 409, "generated"),
            (Array("{\"target\":".utf8), 400, ""),
            (Array("not json at all".utf8), 400, ""),
            (Array(repeating: UInt8(ascii: " "), count: 70 * 1024), 413, ""),
        ]
        for (body, status, refusal) in refusals {
            let (code, text) = try await studio.request("/api/edit", method: "POST", body: body, token: studio.token)
            #expect(code == status, "\(text)")
            if !refusal.isEmpty { #expect(text.contains("\"refusal\":\"\(refusal)\""), "\(text)") }
        }
        // An edit without the token is refused before it is read.
        let (code, _) = try await studio.request(
            "/api/edit", method: "POST", body: edit(file: "Themes/Base.theme/Chat.xml"), token: nil as String?)
        #expect(code == 401)
        #expect(try studio.files() == before, "a refused request wrote something")
        #expect(FileManager.default.contents(atPath: outside + "/Evil.xml") == outsideBefore)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside) == ["Evil.xml"])
        await studio.stop()
    }

    @Test func readOnlyFoldersAreNotWritten() async throws {
        let parents = try ThemesCopy()
        let copy = try ThemesCopy()
        // The child theme is edited; its parents come from a read-only folder.
        try FileManager.default.removeItem(atPath: copy.themes + "/Base.theme")
        let session = StudioSession(paths: [copy.themes + "/Dark.theme"], readOnlyFolders: [parents.themes])
        let explanation = try await session.explain(themeID: "com.livery.dark", traits: "", id: "button_send")
        let inherited = try #require(explanation.operations.first { $0.origin.file.hasPrefix("Themes/Base.theme") })
        let baseTargets = inherited.targets.filter { $0.file.hasPrefix("Themes/Base.theme") }
        #expect(!baseTargets.isEmpty)
        #expect(baseTargets.allSatisfy { $0.readOnly != nil })
        let before = try parents.bytes("Base.theme/Classes.xml") + parents.bytes("Base.theme/Constants.xml")
        for target in baseTargets {
            let result = await session.edit(StudioEditRequest(target: target, slot: "content", text: "#102030"))
            #expect(!result.ok)
            #expect(result.refusal == "read-only")
            #expect(!result.message.contains(parents.path), "an absolute path in: \(result.message)")
        }
        #expect(try parents.bytes("Base.theme/Classes.xml") + parents.bytes("Base.theme/Constants.xml") == before)
    }

    @Test func malformedWebSocketMessagesCloseTheConnection() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let before = try studio.files()
        let logger = Logger(label: "test")
        // Without the token the upgrade is refused.
        await #expect(throws: (any Error).self) {
            try await WebSocketClient.connect(url: "ws://127.0.0.1:\(studio.port)/live", logger: logger) { _, _, _ in }
        }
        for bad in ["not json", "{\"type\":\"edit\",\"file\":\"../x\"}", String(repeating: "x", count: 10_000)] {
            let closed = try await WebSocketClient.connect(
                url: "ws://127.0.0.1:\(studio.port)/live?token=\(studio.token)",
                configuration: .init(maxFrameSize: 1 << 20), logger: logger
            ) { inbound, outbound, _ in
                try await outbound.write(.text(bad))
                for try await _ in inbound {}
            }
            #expect(closed != nil && closed?.closeCode != .normalClosure, "'\(bad.prefix(20))' was accepted")
        }
        #expect(try studio.files() == before)
        await studio.stop()
    }
}

/// The studio as a local server a designer leaves running beside a browser open on other sites:
/// a page elsewhere reaches it by DNS rebinding (a foreign `Host`) or a cross-origin WebSocket.
@Suite(.serialized) struct StudioAccessTests {
    @Test func aForeignHostOrOriginIsRefusedBeforeAnythingElse() async throws {
        let studio = try RunningStudio(allowedOrigins: ["http://designer.example:3000"])
        try await studio.start()
        let before = try studio.files()
        let token = studio.token
        let own = "127.0.0.1:\(studio.port)"
        let evil = "evil.example:\(studio.port)"
        // A rebound name: every route, with the token and without it, and WebSocket upgrades.
        for path in ["/?token=\(token)", "/api/state?token=\(token)", "/", "/api/state"] {
            #expect(
                try await studio.raw(["GET \(path) HTTP/1.1", "Host: \(evil)", "Connection: close"]) == 403, "\(path)")
        }
        for path in ["/live?token=\(token)", "/follow?token=\(token)", "/live", "/follow"] {
            #expect(try await studio.upgrade(path, ["Host: \(evil)", "Origin: http://\(evil)"]) == 403, "\(path)")
        }
        #expect(
            try await studio.raw(["GET /api/state?token=\(token) HTTP/1.1", "Connection: close"]) == 403, "no Host")
        // A foreign origin on the studio's own host: WebSockets and edits are refused.
        for path in ["/live?token=\(token)", "/follow?token=\(token)"] {
            #expect(try await studio.upgrade(path, ["Host: \(own)", "Origin: http://evil.example"]) == 403, "\(path)")
            #expect(try await studio.upgrade(path, ["Host: \(own)", "Origin: null"]) == 403, "\(path)")
            #expect(try await studio.upgrade(path, ["Host: \(own)", "Origin: ws://evil.example"]) == 403, "\(path)")
        }
        let undo = Array("{}".utf8)
        #expect(
            try await studio.raw(
                [
                    "POST /api/undo?token=\(token) HTTP/1.1", "Host: \(own)", "Origin: http://evil.example",
                    "Content-Type: application/json", "Content-Length: \(undo.count)", "Connection: close",
                ], body: undo) == 403)
        // Without the token, on the studio's own host: 401, WebSockets too.
        #expect(try await studio.upgrade("/live", ["Host: \(own)", "Origin: http://\(own)"]) == 401)
        #expect(try await studio.upgrade("/follow", ["Host: \(own)"]) == 401)
        #expect(try await studio.raw(["GET /api/state HTTP/1.1", "Host: \(own)", "Connection: close"]) == 401)
        // What is allowed: the loopback names, the page's own origin, an origin given with
        // --allow-origin, and apps that send no Origin.
        for host in [own, "localhost:\(studio.port)", "LOCALHOST:\(studio.port)"] {
            #expect(
                try await studio.raw(["GET /api/state?token=\(token) HTTP/1.1", "Host: \(host)", "Connection: close"])
                    == 200)
        }
        #expect(try await studio.upgrade("/live?token=\(token)", ["Host: \(own)", "Origin: http://\(own)"]) == 101)
        #expect(
            try await studio.upgrade("/live?token=\(token)", ["Host: \(own)", "Origin: http://designer.example:3000"])
                == 101)
        #expect(try await studio.upgrade("/follow?token=\(token)", ["Host: \(own)"]) == 101)
        // What WebSocket client libraries (an app following the studio) send.
        #expect(try await studio.upgrade("/follow?token=\(token)", ["Host: \(own)", "Origin: ws://127.0.0.1"]) == 101)
        #expect(try studio.files() == before, "a refused request wrote something")
        await studio.stop()
    }

    /// RFC 9112 §3.2: a request with more than one `Host` gets 400. §3.2.2: in an absolute-form
    /// target (`GET http://evil.example/api/state`) the target's host replaces `Host`; the studio
    /// refuses absolute-form targets outright (400). Both before any work: reads, writes (an undo
    /// that would change a file) and WebSocket upgrades.
    @Test func moreThanOneHostOrAnAbsoluteTargetIsRefusedBeforeAnythingElse() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let token = studio.token
        let own = "127.0.0.1:\(studio.port)"
        let evil = "evil.example:\(studio.port)"
        // A change an undo would revert: every refused undo below must leave it in place.
        let explanation = try await studio.session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let target = try #require(explanation.operations.first { $0.name == "backgroundColor" }?.targets.first)
        #expect(await studio.session.edit(StudioEditRequest(target: target, slot: "content", text: "#102030")).ok)
        let edited = try studio.files()
        let undo = Array("{}".utf8)
        func post(_ line: String, _ hosts: [String]) async throws -> Int {
            try await studio.raw(
                [line] + hosts.map { "Host: \($0)" } + [
                    "Content-Type: application/json", "Content-Length: \(undo.count)", "Connection: close",
                ], body: undo)
        }
        for hosts in [[own, evil], [evil, own], [own, own], [own, "localhost:\(studio.port)"]] {
            let label = hosts.joined(separator: ", ")
            for path in ["/?token=\(token)", "/api/state?token=\(token)", "/api/findings?token=\(token)"] {
                #expect(
                    try await studio.raw(["GET \(path) HTTP/1.1"] + hosts.map { "Host: \($0)" } + ["Connection: close"])
                        == 400, "\(path) with Host \(label)")
            }
            #expect(try await post("POST /api/undo?token=\(token) HTTP/1.1", hosts) == 400, "undo with Host \(label)")
            for path in ["/live?token=\(token)", "/follow?token=\(token)"] {
                #expect(
                    try await studio.upgrade(path, hosts.map { "Host: \($0)" }) == 400, "\(path) with Host \(label)")
            }
        }
        // Absolute-form targets, whatever their authority, with the studio's own Host.
        for authority in [evil, "evil.example", own, "localhost:\(studio.port)"] {
            for path in ["/api/state?token=\(token)", "/?token=\(token)"] {
                #expect(
                    try await studio.raw([
                        "GET http://\(authority)\(path) HTTP/1.1", "Host: \(own)", "Connection: close",
                    ])
                        == 400, "http://\(authority)\(path)")
            }
            #expect(
                try await post("POST http://\(authority)/api/undo?token=\(token) HTTP/1.1", [own]) == 400,
                "undo through http://\(authority)")
            for path in ["/live?token=\(token)", "/follow?token=\(token)"] {
                #expect(
                    try await studio.upgrade("http://\(authority)\(path)", ["Host: \(own)", "Origin: http://\(own)"])
                        == 400, "upgrade of http://\(authority)\(path)")
            }
        }
        #expect(try studio.files() == edited, "a refused request wrote something")
        // A second request on a kept-alive connection is checked as the first was.
        #expect(
            try await studio.rawSequence([
                ["GET /api/state?token=\(token) HTTP/1.1", "Host: \(own)"],
                ["POST /api/undo?token=\(token) HTTP/1.1", "Host: \(own)", "Host: \(evil)", "Content-Length: 0"],
            ]) == [200, 400])
        #expect(try studio.files() == edited, "a refused request wrote something")
        // The same undo, asked as it should be, is done.
        #expect(try await post("POST /api/undo?token=\(token) HTTP/1.1", [own]) == 200)
        #expect(try studio.files() != edited)
        await studio.stop()
    }

    @Test func undoAndRedoRefuseBodiesTheyDoNotTake() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let explanation = try await studio.session.explain(themeID: "com.livery.base", traits: "", id: "button_send")
        let target = try #require(explanation.operations.first { $0.name == "backgroundColor" }?.targets.first)
        let file = String(target.file.dropFirst("Themes/".count))
        let original = try studio.copy.bytes(file)
        #expect(await studio.session.edit(StudioEditRequest(target: target, slot: "content", text: "#102030")).ok)
        let edited = try studio.copy.bytes(file)
        let own = "127.0.0.1:\(studio.port)"
        func post(_ path: String, _ body: [UInt8]) async throws -> Int {
            try await studio.raw(
                [
                    "POST \(path)?token=\(studio.token) HTTP/1.1", "Host: \(own)", "Content-Type: application/json",
                    "Content-Length: \(body.count)", "Connection: close",
                ], body: body)
        }
        let huge =
            Array("{\"x\":\"".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 5 * 1024 * 1024)
            + Array("\"}".utf8)
        for path in ["/api/undo", "/api/redo"] {
            for (body, status) in [
                (huge, 413), (Array("{".utf8), 400), (Array("not json".utf8), 400), (Array("[1]".utf8), 400),
            ] {
                #expect(try await post(path, body) == status, "\(path) with \(body.count) bytes")
                #expect(try studio.copy.bytes(file) == edited, "\(path) acted on a refused body")
            }
        }
        #expect(try await post("/api/undo", Array("{}".utf8)) == 200)
        #expect(try studio.copy.bytes(file) == original)
        #expect(try await post("/api/redo", []) == 200)
        #expect(try studio.copy.bytes(file) == edited)
        await studio.stop()
    }

    /// An override names the file it goes into; a new file is created only as a layer file of the
    /// theme overridden.
    @Test func anOverrideGoesOnlyIntoALayerFileOfItsTheme() async throws {
        let studio = try RunningStudio()
        try await studio.start()
        let before = try studio.files()
        let info = try studio.copy.bytes("Base.theme/Info.xml")
        func edit(_ file: String, theme: String = "com.livery.base", version: String? = nil) -> [UInt8] {
            var target: [String: Any] = [
                "kind": "override", "label": "x", "file": file, "themeID": theme, "layer": "Chat.xml",
                "operation": "alpha", "state": "normal", "param": "value", "instanceID": "button_send",
                "component": "uibutton", "valueType": "float",
            ]
            if let version { target["version"] = version }
            return [UInt8](
                try! JSONSerialization.data(withJSONObject: ["target": target, "slot": "content", "text": "0.5"]))
        }
        for body in [
            edit("Themes/%2e%2e%2fdecoy%2fDecoy.xml"), edit("Themes/..%2fNew.xml"), edit("Themes/New.xml"),
            edit("Themes/Base.theme/assets/Chat.xml"), edit("Themes/Base.theme/Chat.txt"),
            edit("Themes/Base.theme/Chat"), edit("Themes/Base.theme/Chat~bogus.xml"),
            edit("Themes/Base.theme/Chat~.xml"), edit("Themes/Base.theme/.Chat.xml"),
            edit("Themes/Base.theme/Chat%2fx.xml"), edit("Themes/Dark.theme/Chat.xml"),
            edit("Themes/Base.theme/Info.xml", version: ThemeFiles.version(of: info)),
        ] {
            let (code, text) = try await studio.request("/api/edit", method: "POST", body: body, token: studio.token)
            #expect(code == 400, "\(text)")
            #expect(text.contains("is not a layer file of com.livery.base"), "\(text)")
        }
        #expect(try studio.files() == before, "a refused override wrote something")
        // A layer file of the theme is created.
        let (code, text) = try await studio.request(
            "/api/edit", method: "POST", body: edit("Themes/Base.theme/Overrides~dark.xml"), token: studio.token)
        #expect(code == 200, "\(text)")
        #expect(FileManager.default.fileExists(atPath: studio.copy.themes + "/Base.theme/Overrides~dark.xml"))
        await studio.stop()
    }
}
