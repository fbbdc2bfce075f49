import ArgumentParser
import Foundation
import LiveryServe
import LiveryThemeCommands

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a catalog folder over HTTP on loopback (127.0.0.1), for designers and tests.",
        discussion: "Runs until interrupted (Ctrl-C). Port 0 picks a free port; the URL is printed on stdout.")

    @Argument(help: ArgumentHelp("The catalog folder (after `livery catalog`).", valueName: "DIR"))
    var folder: String

    @Option(help: "The port (0: any free port).")
    var port: Int = 8080

    func run() async throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("\(folder) is not a folder")
        }
        let server = CatalogServer(folder: folder, host: "127.0.0.1", port: port)
        let folder = self.folder
        // Ctrl-C or SIGTERM shuts the server down gracefully.
        try await server.run(stopOnSignals: true) { port in
            // Written straight to the descriptor so that a pipe reader sees it at once.
            let line =
                "serving \(folder) at http://127.0.0.1:\(port)/ (catalog: http://127.0.0.1:\(port)/catalog.json)\n"
            FileHandle.standardOutput.write(Data(line.utf8))
        }
    }
}
