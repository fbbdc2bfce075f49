import ArgumentParser
import Foundation
import LiveryStore
import LiveryStoreDevelopment
import LiveryThemeCommands

struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the themes installed in a folder: ids, versions, parents.")

    @Argument(help: ArgumentHelp("The installed-themes folder.", valueName: "DIR"))
    var folder: String

    func run() async throws {
        do {
            let store = try await ThemeStore(
                installedFolder: folder, handlers: StoreLayout.handlers(compiled: StoreLayout.isCompiled(folder)))
            let products = await store.installed()
            guard !products.isEmpty else {
                print("no themes installed in \(folder)")
                return
            }
            let rows = products.map { product in
                let compiled = FileManager.default.fileExists(
                    atPath: store.installer.installedFolder + "/\(product.id).livery")
                return [product.id, product.version, product.parent ?? "-", product.type, compiled ? "yes" : "no"]
            }
            printTable(header: ["id", "version", "parent", "type", "compiled"], rows: rows)
        } catch let error as StoreError {
            writeError("error: \(error)\n")
            throw ExitCode.failure
        }
    }
}
