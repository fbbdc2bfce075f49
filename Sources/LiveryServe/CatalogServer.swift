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
    public func run(stopOnSignals: Bool = false, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        var logger = Logger(label: "livery-serve")
        logger.logLevel = .warning
        let router = Router()
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
