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

    init(readOnly: [String] = []) throws {
        copy = try ThemesCopy()
        session = StudioSession(paths: [copy.themes], readOnlyFolders: readOnly)
        server = StudioServer(session: session, port: 0)
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
