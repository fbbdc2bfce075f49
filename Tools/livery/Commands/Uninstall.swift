import ArgumentParser
import Foundation
import LiveryStore
import LiveryStoreDevelopment
import LiveryThemeCommands

struct Uninstall: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove an installed theme.",
        discussion:
            "Refused while another installed theme inherits from it (uninstall that one first). Exits 0 on success, 1 when refused."
    )

    @Argument(help: ArgumentHelp("The theme id.", valueName: "ID"))
    var id: String

    @Option(help: ArgumentHelp("The installed-themes folder.", valueName: "DIR"))
    var from: String

    func run() async throws {
        do {
            let store = try await ThemeStore(
                installedFolder: from, handlers: StoreLayout.handlers(compiled: StoreLayout.isCompiled(from)))
            let removed = try await store.uninstall(id: id)
            print("uninstalled \(removed.id) \(removed.version) from \(from)")
        } catch let error as StoreError {
            writeError("error: \(error)\n")
            throw ExitCode.failure
        }
    }
}
