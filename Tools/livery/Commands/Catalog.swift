import ArgumentParser
import Foundation
import LiveryStore

struct Catalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Write a store catalog for a folder of packages.",
        discussion: """
        Reads every *.liverypkg in PACKAGES_DIR (checked like an install would), and writes \
        catalog.json (id, name, type, version, price, package URL, size, SHA-256, thumbnail and \
        details URLs), details/<id>.json (description, preview URLs, sprite) and media/<id>/. \
        Prices come from an optional PACKAGES_DIR/prices.json: {"com.acme.ocean": {"amount": "0.99", \
        "currency": "EUR"}}; other products are free. Serve the folder with `livery serve`.
        """)

    @Argument(help: ArgumentHelp("A folder of .liverypkg files.", valueName: "PACKAGES_DIR"))
    var packages: String

    @Option(help: ArgumentHelp("The URL the folder will be served at.", valueName: "URL"))
    var baseURL: String

    func run() throws {
        let catalog: LiveryStore.Catalog
        do {
            catalog = try CatalogBuilder.build(packagesIn: packages, baseURL: baseURL)
        } catch {
            writeError("error: \(error)\n")
            throw ExitCode.failure
        }
        let rows = catalog.products.map { product in
            [product.id, product.version, product.type, product.price.map { "\($0.amount) \($0.currency)" } ?? "free",
             String(product.packageSize), product.parent.map { "\($0.id) >= \($0.minimumVersion)" } ?? "-"]
        }
        printTable(header: ["product", "version", "type", "price", "bytes", "parent"], rows: rows)
        print("wrote \(packages)/catalog.json with \(catalog.products.count) product\(catalog.products.count == 1 ? "" : "s")")
    }
}

/// Left-aligned columns, two spaces apart.
func printTable(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    for row in all {
        let cells = row.enumerated().map { index, cell in
            index == row.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
        }
        print(cells.joined(separator: "  "))
    }
}
