import Foundation
import LiveryModel
import LiveryXML

/// What a handler answers instead of a result: a JSON-RPC error.
struct ResponseError: Error {
    var code: Int
    var message: String

    static func invalidParams(_ message: String) -> ResponseError { ResponseError(code: -32602, message: message) }
    static let methodNotFound = -32601
    static let serverNotInitialized = -32002
    static let invalidRequest = -32600
    static let requestCancelled = -32800
    static let contentModified = -32801
    static let requestFailed = -32803
}

/// Settings the command line gives (`livery lsp --themes DIR --schema FILE`); the client's
/// `initializationOptions` and a workspace's `.livery-lsp.json` add to them.
public struct LanguageServerOptions: Sendable {
    public var themeFolders: [String]
    public var schemaFiles: [String]

    public init(themeFolders: [String] = [], schemaFiles: [String] = []) {
        self.themeFolders = themeFolders
        self.schemaFiles = schemaFiles
    }
}

/// The Livery language server: LSP 3.17 over a pair of file handles (stdin and stdout for
/// `livery lsp`). One thread reads and frames messages; the thread calling `run()` handles them
/// in order, so the front end (not thread-safe) is used from one thread only. Diagnostics are
/// computed when no message is waiting, so a burst of keystrokes costs one check.
public final class LanguageServer {
    private let reader: MessageReader
    let writer: MessageWriter
    let inbox = Inbox()
    let options: LanguageServerOptions

    enum Phase { case starting, running, shutDown }
    var phase = Phase.starting
    /// Open documents by URI, as the client spelled it.
    var documents: [String: TextDocument] = [:]
    /// The URI of each open document, by path.
    var openURIs: [String: String] = [:]
    /// Files read from disk while one request or one publication runs (nil between them).
    var diskTexts: [String: TextDocument?]?
    var project: ThemeProject?
    /// Files whose diagnostics were last published non-empty, by path.
    var published: Set<String> = []
    /// The findings last published, by file path: what code actions and hovers look up.
    var findings: [String: [Diagnostic]] = [:]
    /// Each file's names, with the text stamp they were read at.
    var symbolCache: [String: (stamp: String, symbols: FileSymbols)] = [:]

    public init(
        input: FileHandle = .standardInput, output: FileHandle = .standardOutput,
        options: LanguageServerOptions = LanguageServerOptions()
    ) {
        self.reader = MessageReader(handle: input)
        self.writer = MessageWriter(handle: output)
        self.options = options
    }

    /// Serves until the client sends `exit` or closes the stream. Returns the exit status LSP
    /// asks for: 0 after a `shutdown` request, 1 otherwise.
    public func run() -> Int32 {
        let reader = self.reader
        let inbox = self.inbox
        let writer = self.writer
        let thread = Thread {
            while true {
                do {
                    let body = try reader.next()
                    guard let message = DecodedJSON.parse(body) else {
                        writer.send(Self.errorResponse(id: .null, ResponseError(code: -32700, message: "parse error")))
                        continue
                    }
                    guard let method = message["method"]?.string else {
                        // a response to a request of ours, or a malformed message
                        if message["id"] != nil, message["result"] == nil, message["error"] == nil {
                            writer.send(
                                Self.errorResponse(
                                    id: message["id"] ?? .null,
                                    ResponseError(code: ResponseError.invalidRequest, message: "no method")))
                        }
                        continue
                    }
                    inbox.put(IncomingMessage(id: message["id"], method: method, params: message["params"] ?? .null))
                } catch {
                    inbox.close()
                    return
                }
            }
        }
        thread.stackSize = 8 << 20
        thread.start()
        while true {
            guard let message = inbox.take(waiting: !hasPendingWork) else {
                if inbox.isClosed { return 1 }
                doPendingWork()
                continue
            }
            if message.method == "exit" { return phase == .shutDown ? 0 : 1 }
            handle(message)
        }
    }

    // MARK: - Dispatch

    private func handle(_ message: IncomingMessage) {
        guard let id = message.id else {
            handleNotification(message)
            return
        }
        if inbox.takeCancellation(of: id) {
            writer.send(
                Self.errorResponse(id: id, ResponseError(code: ResponseError.requestCancelled, message: "cancelled")))
            return
        }
        let result: JSONValue
        diskTexts = [:]
        defer { diskTexts = nil }
        do {
            result = try answer(message)
        } catch {
            writer.send(Self.errorResponse(id: id, error))
            return
        }
        if inbox.takeCancellation(of: id) {
            writer.send(
                Self.errorResponse(id: id, ResponseError(code: ResponseError.requestCancelled, message: "cancelled")))
            return
        }
        writer.send(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
    }

    private func answer(_ message: IncomingMessage) throws(ResponseError) -> JSONValue {
        switch (phase, message.method) {
        case (.starting, "initialize"):
            return initialize(message.params)
        case (.starting, _):
            throw ResponseError(code: ResponseError.serverNotInitialized, message: "the server is not initialized yet")
        case (_, "initialize"):
            throw ResponseError(code: ResponseError.invalidRequest, message: "initialize was already sent")
        case (.shutDown, _):
            throw ResponseError(code: ResponseError.invalidRequest, message: "the server is shutting down")
        case (.running, "shutdown"):
            phase = .shutDown
            return .null
        case (.running, let method):
            guard let result = try route(method, message.params) else {
                throw ResponseError(code: ResponseError.methodNotFound, message: "unsupported method \(method)")
            }
            return result
        }
    }

    /// The handler of a request method; nil for a method the server does not know.
    private func route(_ method: String, _ params: JSONValue) throws(ResponseError) -> JSONValue? {
        switch method {
        case "textDocument/codeAction": try codeActions(params)
        case "textDocument/definition": try definition(params)
        case "textDocument/references": try references(params)
        case "textDocument/documentSymbol": try documentSymbols(params)
        case "workspace/symbol": try workspaceSymbols(params)
        case "textDocument/completion": try completion(params)
        case "textDocument/hover": try hover(params)
        case "textDocument/prepareRename": try prepareRename(params)
        case "textDocument/rename": try rename(params)
        case "textDocument/documentColor": try documentColors(params)
        case "textDocument/colorPresentation": try colorPresentations(params)
        default: nil
        }
    }

    private func handleNotification(_ message: IncomingMessage) {
        guard phase == .running else { return }
        switch message.method {
        case "initialized": project?.markAllDirty()
        case "textDocument/didOpen": didOpen(message.params)
        case "textDocument/didChange": didChange(message.params)
        case "textDocument/didClose": didClose(message.params)
        case "textDocument/didSave": didSave(message.params)
        case "workspace/didChangeWatchedFiles": didChangeWatchedFiles(message.params)
        default: break  // `$/` notifications and others the server has no use for
        }
    }

    static func errorResponse(id: JSONValue, _ error: Error) -> JSONValue {
        let failure = (error as? ResponseError) ?? ResponseError(code: ResponseError.requestFailed, message: "\(error)")
        return .object([
            ("jsonrpc", .string("2.0")), ("id", id),
            ("error", .object([("code", .int(failure.code)), ("message", .string(failure.message))])),
        ])
    }

    func notify(_ method: String, _ params: JSONValue) {
        writer.send(.object([("jsonrpc", .string("2.0")), ("method", .string(method)), ("params", params)]))
    }

    // MARK: - Lifecycle

    private func initialize(_ params: JSONValue) -> JSONValue {
        var roots: [String] = []
        for folder in params["workspaceFolders"]?.array ?? [] {
            if let path = folder["uri"]?.string.flatMap(Self.path(ofURI:)) { roots.append(path) }
        }
        if roots.isEmpty, let path = params["rootUri"]?.string.flatMap(Self.path(ofURI:)) { roots.append(path) }
        if roots.isEmpty, let path = params["rootPath"]?.string { roots.append(Self.standardized(path)) }
        let settings = ProjectSettings(
            options: options, initializationOptions: params["initializationOptions"] ?? .null, roots: roots)
        project = ThemeProject(roots: roots, settings: settings)
        phase = .running
        return .object([
            (
                "capabilities",
                .object([
                    (
                        "textDocumentSync",
                        .object([
                            ("openClose", .bool(true)), ("change", .int(2)),
                            ("save", .object([("includeText", .bool(false))])),
                        ])
                    ),
                    (
                        "completionProvider",
                        .object([
                            ("triggerCharacters", .array(["<", "\"", " "].map(JSONValue.string))),
                            ("resolveProvider", .bool(false)),
                        ])
                    ),
                    ("hoverProvider", .bool(true)),
                    ("renameProvider", .object([("prepareProvider", .bool(true))])),
                    ("colorProvider", .bool(true)),
                    ("definitionProvider", .bool(true)),
                    ("referencesProvider", .bool(true)),
                    ("documentSymbolProvider", .bool(true)),
                    ("workspaceSymbolProvider", .bool(true)),
                    ("codeActionProvider", .object([("codeActionKinds", .array([.string("quickfix")]))])),
                ])
            ),
            ("serverInfo", .object([("name", .string("livery lsp"))])),
        ])
    }

    // MARK: - Documents

    private func didOpen(_ params: JSONValue) {
        guard let item = params["textDocument"], let uri = item["uri"]?.string, let text = item["text"]?.string,
            let path = Self.path(ofURI: uri)
        else { return }
        documents[uri] = TextDocument(text: text, version: item["version"]?.int ?? 0)
        openURIs[path] = uri
        project?.hold(text, at: path)
        // The buffer's markup is read now, while the first check is waiting anyway: completion
        // and hover then find it, and typing inside a value keeps it up to date in place.
        _ = symbols(of: path)
    }

    private func didChange(_ params: JSONValue) {
        guard let uri = params["textDocument"]?["uri"]?.string, var document = documents[uri],
            let path = Self.path(ofURI: uri)
        else { return }
        for change in params["contentChanges"]?.array ?? [] {
            guard let text = change["text"]?.string else { continue }
            document.apply(text, in: change["range"].flatMap(Self.range))
        }
        document.version = params["textDocument"]?["version"]?.int ?? document.version + 1
        documents[uri] = document
        project?.hold(document.text, at: path)
    }

    private func didClose(_ params: JSONValue) {
        guard let uri = params["textDocument"]?["uri"]?.string, documents[uri] != nil,
            let path = Self.path(ofURI: uri)
        else { return }
        documents[uri] = nil
        openURIs[path] = nil
        project?.release(path)
    }

    private func didSave(_ params: JSONValue) {
        guard let uri = params["textDocument"]?["uri"]?.string, let path = Self.path(ofURI: uri) else { return }
        project?.fileChangedOnDisk(path)
    }

    private func didChangeWatchedFiles(_ params: JSONValue) {
        for change in params["changes"]?.array ?? [] {
            if let path = change["uri"]?.string.flatMap(Self.path(ofURI:)) { project?.fileChangedOnDisk(path) }
        }
    }

    /// The open document a request names, or an error answer when the client never opened it.
    func openDocument(_ params: JSONValue) throws(ResponseError) -> (uri: String, path: String, TextDocument) {
        guard let uri = params["textDocument"]?["uri"]?.string else {
            throw .invalidParams("textDocument.uri is missing")
        }
        guard let document = documents[uri], let path = Self.path(ofURI: uri) else {
            throw .invalidParams("\(uri) is not open; send textDocument/didOpen first")
        }
        return (uri, path, document)
    }

    /// The position a request names, or an error answer.
    func requestPosition(_ params: JSONValue) throws(ResponseError) -> Position {
        guard let position = params["position"].flatMap(Self.position) else {
            throw .invalidParams("position is missing")
        }
        return position
    }

    // MARK: - Pending work

    private var hasPendingWork: Bool { project?.hasDirtyThemes ?? false }

    /// Checks the themes edits touched (and reuses the others' checks) and publishes the
    /// diagnostics that changed, unless an edit arrived meanwhile (then the result is stale and
    /// the next round publishes).
    private func doPendingWork() {
        guard let project, phase == .running else { return }
        let (checked, found) = project.checkDirtyThemes()
        guard !inbox.hasPendingEdit else {
            project.markDirty(checked)
            return
        }
        diskTexts = [:]
        defer { diskTexts = nil }
        publish(found, checkedFiles: project.files(ofThemes: checked))
    }

    // MARK: - Conversions

    static func path(ofURI uri: String) -> String? {
        guard let url = URL(string: uri), url.isFileURL else { return nil }
        return standardized(url.path)
    }

    static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    static func uri(ofPath path: String) -> String { URL(fileURLWithPath: path).absoluteString }

    /// The URI the client uses for a path: its own spelling when the file is open.
    func uri(of path: String) -> String {
        openURIs[path] ?? Self.uri(ofPath: path)
    }

    static func position(_ json: JSONValue) -> Position? {
        guard let line = json["line"]?.int, let character = json["character"]?.int, line >= 0, character >= 0 else {
            return nil
        }
        return Position(line: line, character: character)
    }

    static func range(_ json: JSONValue) -> TextRange? {
        guard let start = json["start"].flatMap(position), let end = json["end"].flatMap(position) else { return nil }
        return TextRange(start: start, end: end)
    }

    static func json(_ position: Position) -> JSONValue {
        .object([("line", .int(position.line)), ("character", .int(position.character))])
    }

    static func json(_ range: TextRange) -> JSONValue {
        .object([("start", json(range.start)), ("end", json(range.end))])
    }

    /// The text of a file: the open buffer, else the disk.
    func document(at path: String) -> TextDocument? {
        if let uri = openURIs[path], let open = documents[uri] { return open }
        if let known = diskTexts?[path] { return known }
        let read = FileManager.default.contents(atPath: path).map { TextDocument(bytes: [UInt8]($0)) }
        diskTexts?[path] = read
        return read
    }

    func location(_ location: SourceLocation) -> JSONValue? {
        guard let range = range(of: location) else { return nil }
        return .object([("uri", .string(uri(of: location.file))), ("range", Self.json(range))])
    }

    /// The range a location points at: from its column to the end of the word there.
    func range(of location: SourceLocation) -> TextRange? {
        guard let line = location.line else {
            return TextRange(start: Position(line: 0, character: 0), end: Position(line: 0, character: 0))
        }
        guard let document = document(at: location.file) else { return nil }
        return Self.wordRange(in: document, line: line, column: location.column)
    }

    static func wordRange(in document: TextDocument, line: Int, column: Int?) -> TextRange {
        let start = document.position(line: line, column: column)
        let text = document.lineBytes(start.line)
        var index = document.offset(of: start) - (document.lineStarts[min(start.line, document.lineCount - 1)])
        index += text.startIndex
        let begin = index
        if index < text.endIndex, text[index] == UInt8(ascii: "<") { index += 1 }
        while index < text.endIndex, Self.isWordByte(text[index]) { index += 1 }
        if index == begin, index < text.endIndex { index += 1 }
        return TextRange(start: start, end: document.position(ofOffset: index))
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "#") || byte >= 0x80
    }
}
