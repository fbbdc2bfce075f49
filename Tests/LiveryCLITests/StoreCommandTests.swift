import Foundation
import Testing

/// `livery pack`, `catalog`, `serve`, `install`, `list`, `uninstall`: the README's path, run as a
/// newcomer would, against `livery serve` on a free loopback port.
@Suite struct StoreCommandTests {
    /// A store folder is the folder a catalog is written to and served from (`catalog.json` or
    /// `roots/1.json`, or packages in the key's own folder): a key below one is refused; a
    /// package downloaded somewhere above the key makes no store.
    @Test func keysGenerateRefusesAKeyInsideAStoreFolderOnly() throws {
        let home = NSTemporaryDirectory() + "livery-keys-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let manager = FileManager.default
        for folder in ["keys", "project/src", "project/keys", "project/packages", "store/private"] {
            try manager.createDirectory(atPath: home + "/" + folder, withIntermediateDirectories: true)
        }
        try Data("downloaded".utf8).write(to: URL(fileURLWithPath: home + "/ocean.liverypkg"))
        try Data("built".utf8).write(to: URL(fileURLWithPath: home + "/project/packages/ocean.liverypkg"))
        try Data("{}".utf8).write(to: URL(fileURLWithPath: home + "/store/catalog.json"))

        let beside = try Livery.run(["keys", "generate", "--output", home + "/keys/root.key"])
        #expect(beside.status == 0, "a package in the home folder makes no store: \(beside.stderr)")
        #expect(manager.fileExists(atPath: home + "/keys/root.key"))
        let project = try Livery.run(["keys", "generate", "--output", home + "/project/keys/catalog.key"])
        #expect(project.status == 0, "\(project.stderr)")

        let inPackages = try Livery.run(["keys", "generate", "--output", home + "/project/packages/oops.key"])
        #expect(inPackages.status == 64 && inPackages.stderr.contains("looks like a store folder"))
        let inStore = try Livery.run(["keys", "generate", "--output", home + "/store/private/oops.key"])
        #expect(inStore.status == 64 && inStore.stderr.contains("\(home)/store looks like a store folder"))
        #expect(!manager.fileExists(atPath: home + "/store/private/oops.key"))
    }

    @Test func packCatalogServeInstallListUninstall() throws {
        let scratch = NSTemporaryDirectory() + "livery-store-cli-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let theme = scratch + "/Ocean.theme"
        try FileManager.default.createDirectory(atPath: scratch + "/store", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Livery.root + "/Themes/Light.theme", toPath: theme)
        try Data(#"<theme-info id="com.acme.ocean" name="Ocean" version="1.2.0" parent="com.livery.base"/>"#.utf8)
            .write(to: URL(fileURLWithPath: theme + "/Info.xml"))

        let pack = try Livery.run(["pack", theme, "--themes", "Themes", "--output", scratch + "/store/ocean.liverypkg"])
        #expect(pack.status == 0, "\(pack.stderr)")
        #expect(pack.stdout.hasPrefix("packed com.acme.ocean 1.2.0, parent com.livery.base >= 1.0.0: 3 files"))

        // livery serve on port 0 prints the URL it bound.
        let server = Process()
        server.executableURL = Livery.executable
        server.arguments = ["serve", scratch + "/store", "--port", "0"]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let line = try #require(
            Self.firstLine(of: out.fileHandleForReading, within: 30), "livery serve printed nothing")
        let base = try #require(
            line.range(of: "http://127.0.0.1:[0-9]+", options: .regularExpression).map { String(line[$0]) })

        // The key ceremony: a root key and a catalog key, outside the store folder; a root naming them.
        let keys = scratch + "/keys"
        try FileManager.default.createDirectory(atPath: keys, withIntermediateDirectories: true)
        for name in ["root", "catalog"] {
            let generate = try Livery.run(["keys", "generate", "--output", keys + "/\(name).key"])
            #expect(generate.status == 0, "\(generate.stderr)")
            #expect(generate.stdout.contains("public key: "))
            let mode =
                try FileManager.default.attributesOfItem(atPath: keys + "/\(name).key")[.posixPermissions] as? Int
            #expect(mode == 0o600)
        }
        let inStore = try Livery.run(["keys", "generate", "--output", scratch + "/store/oops.key"])
        #expect(inStore.status == 64 && inStore.stderr.contains("looks like a store folder"))
        #expect(!FileManager.default.fileExists(atPath: scratch + "/store/oops.key"))
        let root = try Livery.run([
            "keys", "root", scratch + "/store", "--root-key", keys + "/root.key", "--catalog-key",
            keys + "/catalog.key.pub",
        ])
        #expect(root.status == 0, "\(root.stderr)")
        #expect(root.stdout.hasPrefix("wrote \(scratch)/store/roots/1.json"))
        // Every level of the store is checked, not only its top.
        try FileManager.default.createDirectory(atPath: scratch + "/store/private", withIntermediateDirectories: true)
        let nested = try Livery.run(["keys", "generate", "--output", scratch + "/store/private/new.key"])
        #expect(nested.status == 64 && nested.stderr.contains("looks like a store folder"), "\(nested.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/store/private/new.key"))

        // A catalog no client would accept is not published.
        let expired = try Livery.run([
            "catalog", scratch + "/store", "--sign-with", keys + "/catalog.key", "--expires", "2001-01-01T00:00:00Z",
        ])
        #expect(
            expired.status == 64 && expired.stderr.contains("--expires 2001-01-01T00:00:00Z is in the past"),
            "\(expired.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch + "/store/catalog.json"))

        // Stray private keys in the store: `catalog` warns about each, `serve` refuses them.
        try FileManager.default.copyItem(atPath: keys + "/catalog.key", toPath: scratch + "/store/private/stray.key")
        try FileManager.default.copyItem(atPath: keys + "/root.key", toPath: scratch + "/store/private/notes.json")
        let catalog = try Livery.run([
            "catalog", scratch + "/store", "--sign-with", keys + "/catalog.key", "--expires", "30d",
        ])
        #expect(catalog.status == 0, "\(catalog.stderr)")
        for stray in ["private/notes.json", "private/stray.key"] {
            #expect(
                catalog.stderr.contains("\(scratch)/store/\(stray): warning: this looks like a private key"),
                "\(catalog.stderr)")
            let get = try Livery.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/" + stray],
                in: scratch)
            #expect(get.stdout == "403", "GET /\(stray) answered \(get.stdout)")
        }
        let served = try Livery.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/catalog.json"],
            in: scratch)
        #expect(served.stdout == "200")
        #expect(catalog.stdout.contains("com.acme.ocean  1.2.0"))
        #expect(
            catalog.stdout.contains("wrote \(scratch)/store/catalog.json with 1 product (signed, version 1, expires "))

        let installed = scratch + "/Downloads"
        let unsigned = try Livery.run([
            "install", base + "/catalog.json", "--id", "com.acme.ocean", "--into", installed, "--themes", "Themes",
        ])
        #expect(
            unsigned.status == 64 && unsigned.stderr.contains("--root-key"), "no catalog is trusted without a root key")
        // A root key that is not one is a usage error too: not base64, 31 bytes, 64 bytes.
        for key in ["not base64!", Data(count: 31).base64EncodedString(), Data(count: 64).base64EncodedString()] {
            let malformed = try Livery.run([
                "install", base + "/catalog.json", "--id", "com.acme.ocean", "--into", installed, "--root-key", key,
            ])
            #expect(
                malformed.status == 64 && malformed.stderr.contains("is not an Ed25519 public key"),
                "\(key): \(malformed.stderr)")
        }
        let wrongKey = try Livery.run([
            "install", base + "/catalog.json", "--id", "com.acme.ocean", "--into", installed, "--themes", "Themes",
            "--root-key", keys + "/catalog.key.pub",
        ])
        #expect(wrongKey.status == 1)
        #expect(wrongKey.stderr.hasPrefix("error: untrusted: root 1 is signed by unknown key"), "\(wrongKey.stderr)")
        let install = try Livery.run([
            "install", base + "/catalog.json", "--id", "com.acme.ocean", "--into", installed, "--themes", "Themes",
            "--root-key", keys + "/root.key.pub",
        ])
        #expect(install.status == 0, "\(install.stderr)")
        #expect(install.stdout == "installed com.acme.ocean 1.2.0 in \(installed)\n")
        #expect(install.stderr.isEmpty, "no progress bar without a terminal")

        let list = try Livery.run(["list", installed])
        #expect(list.status == 0)
        #expect(
            list.stdout == """
                id              version  parent           type   compiled
                com.acme.ocean  1.2.0    com.livery.base  theme  yes

                """)

        let bad = try Livery.run(["install", scratch + "/store/catalog.json", "--into", installed])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("error: invalid package: not a zip archive"))

        let uninstall = try Livery.run(["uninstall", "com.acme.ocean", "--from", installed])
        #expect(uninstall.status == 0, "\(uninstall.stderr)")
        #expect(uninstall.stdout == "uninstalled com.acme.ocean 1.2.0 from \(installed)\n")
        #expect(try Livery.run(["list", installed]).stdout == "no themes installed in \(installed)\n")
    }

    /// `livery install --cache-budget --in-use`, end to end against `livery serve`: the budget's
    /// figures are read from the error an install that cannot fit prints (what must stay, what it
    /// needs), then a budget with room for one more theme once the oldest removable one goes.
    @Test func cacheBudgetEvictsTheOldestUseAndKeepsTheThemeInUseAndItsParents() throws {
        let scratch = NSTemporaryDirectory() + "livery-store-budget-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let files = FileManager.default
        try files.createDirectory(atPath: scratch + "/store", withIntermediateDirectories: true)
        let themes = [
            ("p", "com.livery.base"), ("child", "com.acme.p"), ("x", "com.livery.base"), ("y", "com.livery.base"),
            ("z", "com.livery.base"),
        ]
        for (name, parent) in themes {
            let theme = scratch + "/src/\(name).theme"
            try files.createDirectory(atPath: scratch + "/src", withIntermediateDirectories: true)
            try files.copyItem(atPath: Livery.root + "/Themes/Light.theme", toPath: theme)
            try Data(
                #"<theme-info id="com.acme.\#(name)" name="\#(name)" version="1.0.0" parent="\#(parent)"/>"#.utf8
            ).write(to: URL(fileURLWithPath: theme + "/Info.xml"))
            let pack = try Livery.run([
                "pack", theme, "--themes", "Themes", "--themes", scratch + "/src",
                "--output", scratch + "/store/\(name).liverypkg",
            ])
            #expect(pack.status == 0, "\(name): \(pack.stderr)")
        }
        #expect(try Livery.run(["catalog", scratch + "/store"]).status == 0)
        let server = Process()
        server.executableURL = Livery.executable
        server.arguments = ["serve", scratch + "/store", "--port", "0"]
        let out = Pipe()
        server.standardOutput = out
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let line = try #require(
            Self.firstLine(of: out.fileHandleForReading, within: 30), "livery serve printed nothing")
        let base = try #require(
            line.range(of: "http://127.0.0.1:[0-9]+", options: .regularExpression).map { String(line[$0]) })
        let installed = scratch + "/Downloads"
        func install(_ name: String, _ extra: [String] = []) throws -> LiveryRun {
            try Livery.run(
                [
                    "install", base + "/catalog.json", "--id", "com.acme.\(name)", "--into", installed, "--themes",
                    "Themes", "--allow-unsigned",
                ] + extra)
        }
        func list() throws -> [String] {
            try Livery.run(["list", installed]).stdout.split(separator: "\n").dropFirst()
                .compactMap { $0.split(separator: " ").first.map(String.init) }
        }
        // Installed oldest first: p, child (built on p), x, y.
        for name in ["p", "child", "x", "y"] {
            let run = try install(name)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            Thread.sleep(forTimeInterval: 0.05)  // distinct use times
        }
        let four = ["com.acme.child", "com.acme.p", "com.acme.x", "com.acme.y"]
        #expect(try list() == four)

        // A budget nothing fits in: refused before downloading, nothing removed, and the message
        // says what z needs and what must stay with each theme in use.
        func refusal(inUse: String) throws -> (needed: Int64, kept: Int64) {
            let run = try install("z", ["--cache-budget", "1", "--in-use", "com.acme.\(inUse)"])
            #expect(run.status == 1, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("error: 'com.acme.z' needs "), "\(run.stderr)")
            let numbers = run.stderr.split(whereSeparator: { !$0.isNumber }).compactMap { Int64($0) }
            try #require(numbers.count >= 3, "\(run.stderr)")
            #expect(numbers[1] == 1, "the budget in the message")
            return (numbers[0], numbers[2])
        }
        let inUseChild = try refusal(inUse: "child")  // child and its parent p stay
        let inUseY = try refusal(inUse: "y")  // y, and p (child builds on it)
        let inUseP = try refusal(inUse: "p")
        #expect(try list() == four, "a refused install removes nothing")
        #expect(
            !((try? files.contentsOfDirectory(atPath: installed + "/.liverystore/downloads")) ?? []).contains {
                $0.hasSuffix(".part")
            }, "nor downloads anything")
        let sizeOfY = inUseY.kept - inUseP.kept
        #expect(inUseChild.kept > inUseP.kept && sizeOfY > 0)

        // Room for z once one theme goes: x, the least recently used that may go, not child or
        // p (older, but in use and its parent) nor y.
        let budget = inUseChild.kept + sizeOfY + inUseChild.needed
        let fits = try install("z", ["--cache-budget", "\(budget)", "--in-use", "com.acme.child"])
        #expect(fits.status == 0, "\(fits.stderr)")
        #expect(try list() == ["com.acme.child", "com.acme.p", "com.acme.y", "com.acme.z"])
        let left = files.enumerator(atPath: installed)?.allObjects as? [String] ?? []
        #expect(left.filter { $0.contains("com.acme.x") }.isEmpty, "x leaves nothing behind: \(left)")

        let help = try Livery.run(["install", "--help"])
        #expect(help.status == 0)
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in ["--cache-budget <BYTES>", "--in-use <ID>", "least recently used", "exit status 1"] {
            #expect(text.contains(option), "--help lacks \(option)")
        }
    }

    /// `livery install URL` against an endless body and a 10 GB Content-Length, measured by
    /// Scripts/store-download-caps.py: refused at the 64 MiB cap having read at most a few MiB past
    /// it (socket buffers), with a small peak memory. With URLSession the same run read 0.3-3 GB
    /// and peaked at 0.2-2.8 GiB.
    @Test func hostileDownloadsAreCutAtTheCapInBytesAndMemory() throws {
        let run = try Livery.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", "Scripts/store-download-caps.py", Livery.executable.path, "endless", "huge"], in: Livery.root)
        #expect(run.status == 0, "\(run.stderr)")
        var rows: [String: [String]] = [:]
        for line in run.stdout.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ").map(String.init)
            if let name = fields.first { rows[name] = fields }
        }
        for (name, maxSent) in [("endless", (64 << 20) + (8 << 20)), ("huge", 8 << 20)] {
            let row = try #require(rows[name], "no \(name) row in:\n\(run.stdout)")
            try #require(row.count > 6)
            #expect(row[1] == "1", "\(name) exits 1")
            #expect(row[5...].joined(separator: " ").hasPrefix("error: too large:"), "\(name): \(row)")
            let sent = try #require(Int(row[3])), peak = try #require(Double(row[4]))
            #expect(sent <= maxSent, "\(name): the server sent \(sent) bytes, more than \(maxSent)")
            #expect(peak < 128, "\(name): the client peaked at \(peak) MiB")
        }
    }

    /// Reads until the first newline, for at most `seconds`.
    static func firstLine(of handle: FileHandle, within seconds: Double) -> String? {
        let result = LineBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            var data = Data()
            while !data.contains(0x0A) {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                data.append(chunk)
            }
            result.set(String(decoding: data, as: UTF8.self))
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result.get()
    }
}

private final class LineBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: String?
    func set(_ new: String) {
        lock.lock()
        value = new
        lock.unlock()
    }
    func get() -> String? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
