import Foundation
import Hummingbird
import Logging
import NIOCore

/// Serves a catalog folder (`catalog.json`, `details/`, `media/`, packages) over HTTP with
/// Hummingbird: `livery serve`, for designers and tests. Loopback by default.
public struct CatalogServer: Sendable {
    public var folder: String
    public var host: String
    /// 0 picks a free port; `run` reports the one bound.
    public var port: Int

    public init(folder: String, host: String = "127.0.0.1", port: Int = 8080) {
        self.folder = folder
        self.host = host
        self.port = port
    }

    /// Runs until the task is cancelled (or, with `stopOnSignals`, SIGINT/SIGTERM arrive).
    /// `onRunning` receives the bound port.
    public func run(stopOnSignals: Bool = false, onRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        async throws
    {
        var logger = Logger(label: "livery-serve")
        logger.logLevel = .warning
        let router = Router()
        router.add(middleware: PrivateKeyGuard(folder: folder))
        router.add(middleware: FileMiddleware(folder, searchForIndexHtml: false, logger: logger))
        router.get("/health") { _, _ in "ok" }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "livery-serve"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        try await app.runService(gracefulShutdownSignals: stopOnSignals ? [.sigterm, .sigint] : [])
    }
}

/// Refuses (403) to serve a private key, wherever it sits in the folder: a file named `*.key`, or
/// a small file holding the private key JSON `livery keys generate` writes. Such a file has no
/// business in a served folder; `livery catalog` warns about one.
struct PrivateKeyGuard<Context: RequestContext>: RouterMiddleware {
    let folder: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let path = request.uri.path.removingPercentEncoding ?? request.uri.path
        if Self.isPrivateKey(at: folder + "/" + path) {
            return Response(
                status: .forbidden, headers: [.contentType: "text/plain"],
                body: .init(byteBuffer: ByteBuffer(string: "private keys are not served\n")))
        }
        return try await next(request, context)
    }

    static func isPrivateKey(at path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        if name.hasSuffix(".key") { return true }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = attributes[.size] as? Int, size <= 64 * 1024,
            let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["privateKey"] != nil
    }
}
