import Foundation
import Testing

@testable import LiveryStore

#if canImport(Glibc)
    import Glibc
#endif

/// A signed store served by nginx as static files, with Examples/nginx/livery-store.conf: what a
/// static host or CDN does. nginx must be installed (Scripts/install-dependencies.sh installs it):
/// a missing nginx fails here, it is never skipped.
@Suite(.serialized) struct NginxTests {
    static let nginx = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx", "/opt/homebrew/bin/nginx"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs nginx in the foreground on a free loopback port with the example configuration
    /// (`gzipStatic` replaces its `gzip_static on`), serving `folder`.
    static func withNginx(serving folder: String, gzipStatic: String = "on", _ body: (String) async throws -> Void)
        async throws
    {
        let executable = try #require(
            nginx, "nginx is not installed: run Scripts/install-dependencies.sh (apt-get install nginx)")
        let prefix = NSTemporaryDirectory() + "livery-nginx-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: prefix + "/temp", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        let port = try freePort()
        var server = try String(contentsOfFile: Repository.root + "/Examples/nginx/livery-store.conf", encoding: .utf8)
        server = server.replacingOccurrences(of: "listen 127.0.0.1:8080;", with: "listen 127.0.0.1:\(port);")
            .replacingOccurrences(of: "root /srv/livery-store;", with: "root \(folder);")
            .replacingOccurrences(of: "gzip_static on;", with: "gzip_static \(gzipStatic);")
        try #require(
            server.contains("127.0.0.1:\(port)") && server.contains(folder),
            "the example's listen and root lines changed")
        let temp = prefix + "/temp"
        let configuration = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(temp)/body;
                proxy_temp_path \(temp)/proxy;
                fastcgi_temp_path \(temp)/fastcgi;
                uwsgi_temp_path \(temp)/uwsgi;
                scgi_temp_path \(temp)/scgi;
            \(server)
            }
            """
        try configuration.write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/error.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            // SIGKILL: nginx without a master process does not always act on SIGTERM here.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let base = "http://127.0.0.1:\(port)"
        var ready = false
        for _ in 0..<100 where process.isRunning {
            let probe = CatalogClient(catalogURL: base, timeouts: StoreTimeouts(idle: .seconds(1), total: .seconds(2)))
            if (try? await probe.fetch(base + "/roots/1.json")) != nil {
                ready = true
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        let log = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
        try #require(ready, "nginx did not start: \(log)")
        try await body(base)
    }

    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRNOTAVAIL) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A signed store folder, with every file also precompressed (`.gz`, as `gzip_static` serves).
    static func signedStore(_ fixture: Fixture) throws -> SigningKey {
        try fixture.pack(
            fixture.makeTheme(
                id: "com.acme.ocean",
                extraFiles: ["Notes.xml": "<theme/>" + String(repeating: "<!-- padding -->", count: 400)]))
        let root = SigningKey.generate(), catalog = SigningKey.generate()
        try RootPublisher.publish(
            in: fixture.packages, rootKeys: [root.publicKey], catalogKeys: [catalog.publicKey], signers: [root])
        _ = try CatalogBuilder.build(
            packagesIn: fixture.packages,
            signing: CatalogSigning(key: catalog, expires: Date().addingTimeInterval(3_600)))
        let files = FileManager.default.enumerator(atPath: fixture.packages)?.allObjects as? [String] ?? []
        for file in files where !file.hasSuffix(".gz") {
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: fixture.packages + "/" + file, isDirectory: &isFolder)
            guard !isFolder.boolValue else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: fixture.packages + "/" + file))
            try FaultyServer.gzip(data).write(to: URL(fileURLWithPath: fixture.packages + "/" + file + ".gz"))
        }
        return root
    }

    @Test(arguments: ["on", "always"]) func installsFromNginxServingTheSignedStoreWithGzip(gzipStatic: String)
        async throws
    {
        let fixture = try Fixture()
        let root = try Self.signedStore(fixture)
        try await Self.withNginx(serving: fixture.packages, gzipStatic: gzipStatic) { base in
            let store = try await fixture.makeStore(
                manager: nil, catalogURL: base + "/catalog.json",
                trust: .signed(rootKeys: [root.publicKey.base64]))
            let catalog = try await store.refreshCatalog()
            let product = try #require(catalog.product(id: "com.acme.ocean"))
            #expect(product.packageURL == base + "/com.acme.ocean-1.0.0.liverypkg")
            #expect(try await store.details(for: product).description == "A test theme.")
            let state = await store.install(product).result()
            #expect(state == .finished, "\(state)")
        }
        #expect(try fixture.snapshot().keys.contains("com.acme.ocean.livery"))
        #expect(fixture.workFolderIsClean())
    }
}
