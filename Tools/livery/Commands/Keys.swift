import ArgumentParser
import Foundation
import LiveryStore
import LiveryThemeCommands

/// `livery keys`: the keys and root documents of a signed store (see docs/Packages.md, "Key ceremony").
struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Generate signing keys and publish the root document that names a store's keys.",
        subcommands: [Generate.self, Root.self])

    struct Generate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new Ed25519 private key (mode 0600) and print its public key.",
            discussion: """
                Writes FILE (the private key, readable by its owner only) and FILE.pub (the public key, \
                base64). Keep root keys offline; never put a private key in the store folder.
                """)

        @Option(name: .shortAndLong, help: ArgumentHelp("The private key file to create.", valueName: "FILE"))
        var output: String

        func run() throws {
            try StoreKeyFiles.refuseInsideStore(output)
            guard !FileManager.default.fileExists(atPath: output) else {
                throw ValidationError("\(output) exists; a key is never overwritten")
            }
            let key = SigningKey.generate()
            do {
                try key.write(to: output)
                try Data((key.publicKey.base64 + "\n").utf8).write(
                    to: URL(fileURLWithPath: output + ".pub"), options: .atomic)
            } catch {
                writeError("error: \(error)\n")
                throw ExitCode.failure
            }
            print("wrote \(output) (private, 0600) and \(output).pub")
            print("public key: \(key.publicKey.base64)")
            print("key id: \(key.publicKey.id)")
        }
    }

    struct Root: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign and write the store's next root document (roots/N.json).",
            discussion: """
                The root names the root key (--root-key's public key) and the catalog keys. After the \
                first root, --previous-root-key must be a root key of the current root: clients that \
                trust it accept the new one. To replace a compromised catalog key, publish a root with \
                the new catalog key, then sign the catalog with it. To rotate the root key, pass the new \
                one as --root-key and the old one as --previous-root-key.
                """)

        @Argument(help: ArgumentHelp("The store folder (served as is).", valueName: "STORE_DIR"))
        var store: String

        @Option(help: ArgumentHelp("The new root's private root key.", valueName: "KEY"))
        var rootKey: String

        @Option(
            help: ArgumentHelp("The current root's private root key, when rotating the root key.", valueName: "KEY"))
        var previousRootKey: String?

        @Option(
            help: ArgumentHelp(
                "A catalog public key (base64, a .pub file or a key file; repeatable).", valueName: "KEY"))
        var catalogKey: [String] = []

        func run() throws {
            guard !catalogKey.isEmpty else { throw ValidationError("name at least one --catalog-key") }
            do {
                for path in [rootKey] + (previousRootKey.map { [$0] } ?? []) {
                    try StoreKeyFiles.refuseInside(path, store: store)
                }
                let root = try SigningKey(contentsOf: rootKey)
                var signers = [root]
                if let previousRootKey { signers.append(try SigningKey(contentsOf: previousRootKey)) }
                let catalogKeys = try catalogKey.map(StoreKeyFiles.publicKey)
                let written = try RootPublisher.publish(
                    in: store, rootKeys: [root.publicKey], catalogKeys: catalogKeys, signers: signers)
                print(
                    "wrote \(store)/\(RootDocument.folder(written.version)): root key \(root.publicKey.id.prefix(16)), \(catalogKeys.count) catalog key\(catalogKeys.count == 1 ? "" : "s")"
                )
            } catch let error as StoreError {
                writeError("error: \(error)\n")
                throw ExitCode.failure
            }
        }
    }
}

/// Reading keys named on the command line, and keeping private keys out of store folders.
enum StoreKeyFiles {
    /// A public key given as base64, a `.pub` file, or a private key file (its public half).
    static func publicKey(_ argument: String) throws -> PublicKey {
        if let data = FileManager.default.contents(atPath: argument) {
            if let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let key = json["publicKey"] as? String
            {
                return try PublicKey(base64: key)
            }
            return try PublicKey(base64: String(decoding: data, as: UTF8.self))
        }
        return try PublicKey(base64: argument)
    }

    /// A private key never sits in a folder that is served.
    static func refuseInside(_ keyPath: String, store: String) throws {
        let key = real(
            (keyPath as NSString).deletingLastPathComponent.isEmpty
                ? "." : (keyPath as NSString).deletingLastPathComponent)
        let folder = real(store)
        if key == folder || key.hasPrefix(folder + "/") {
            throw StoreError.refused(
                "the private key \(keyPath) is inside the store folder \(store), which is served to everyone; keep it elsewhere"
            )
        }
    }

    /// Refuses a key file inside a store folder: the folder a catalog is written to and served
    /// from, with everything below it. A folder is a store folder when it holds `catalog.json`
    /// or `roots/1.json` (what `livery catalog` and `livery keys root` write). The key's own
    /// folder is one too when it holds packages, since `livery catalog` makes a store of the
    /// packages in the folder it is given. A package elsewhere above the key (one downloaded to
    /// the home folder) does not make a store.
    static func refuseInsideStore(_ keyPath: String) throws {
        let absolute = keyPath.hasPrefix("/") ? keyPath : FileManager.default.currentDirectoryPath + "/" + keyPath
        let keyFolder = ((absolute as NSString).standardizingPath as NSString).deletingLastPathComponent
        var folder = keyFolder
        while true {
            if isStoreFolder(folder, holdingKey: folder == keyFolder) {
                throw ValidationError(
                    "\(folder) looks like a store folder (it is served to everyone) and \(keyPath) is inside it; write private keys elsewhere"
                )
            }
            guard folder != "/", !folder.isEmpty else { return }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    /// See `refuseInsideStore`.
    static func isStoreFolder(_ folder: String, holdingKey: Bool) -> Bool {
        let manager = FileManager.default
        if manager.fileExists(atPath: folder + "/catalog.json") || manager.fileExists(atPath: folder + "/roots/1.json")
        {
            return true
        }
        guard holdingKey else { return false }
        let entries = (try? manager.contentsOfDirectory(atPath: folder)) ?? []
        return entries.contains { $0.hasSuffix("." + CatalogBuilder.packageExtension) }
    }

    private static func real(_ path: String) -> String {
        guard let pointer = realpath(path, nil) else { return (path as NSString).standardizingPath }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
