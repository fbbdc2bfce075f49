import ArgumentParser
import Foundation
import LiveryStore
import LiveryThemeCommands

struct Catalog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Write a store catalog for a folder of packages.",
        discussion: """
            Reads every *.liverypkg in PACKAGES_DIR (checked like an install would), and writes \
            catalog.json (id, name, type, version, price, package URL, size, SHA-256, thumbnail and \
            details URLs, and the compiled files the package carries: format version, size, SHA-256 \
            and the chain of themes each was compiled from), details/<id>.json (description, preview URLs, sprite) and media/<id>/. \
            Prices come from an optional PACKAGES_DIR/prices.json: {"com.acme.ocean": {"amount": "0.99", \
            "currency": "EUR"}}; other products are free. Serve the folder with `livery serve`.
            """)

    @Argument(help: ArgumentHelp("A folder of .liverypkg files.", valueName: "PACKAGES_DIR"))
    var packages: String

    @Option(
        help: ArgumentHelp(
            "The URL the folder will be served at; without it, URLs in the catalog are relative, so the folder can be served from anywhere.",
            valueName: "URL"))
    var baseURL: String?

    @Option(
        help: ArgumentHelp(
            "Sign the catalog with this catalog key (a file from `livery keys generate`, kept outside the folder).",
            valueName: "KEY"))
    var signWith: String?

    @Option(
        help: ArgumentHelp(
            "With --sign-with: how long clients accept the catalog (30d, 12h) or an ISO 8601 date.",
            valueName: "DURATION"))
    var expires: String = "30d"

    @Option(
        help: ArgumentHelp(
            "With --sign-with: the catalog version (default: one more than the folder's current one).", valueName: "N"))
    var catalogVersion: Int?

    func run() throws {
        let catalog: LiveryStore.Catalog
        do {
            var signing: CatalogSigning?
            if let signWith {
                try StoreKeyFiles.refuseInside(signWith, store: packages)
                guard let date = Self.expiry(expires) else {
                    throw ValidationError("--expires takes a duration like 30d or 12h, or an ISO 8601 date")
                }
                // No client accepts an expired catalog: publishing one would freeze the store.
                guard date > Date() else {
                    throw ValidationError(
                        "--expires \(ISO8601DateFormatter().string(from: date)) is in the past; clients refuse a catalog after its expiry, so give a later date or a duration such as 30d"
                    )
                }
                signing = CatalogSigning(
                    key: try SigningKey(contentsOf: signWith), expires: date, version: catalogVersion)
            }
            catalog = try CatalogBuilder.build(packagesIn: packages, baseURL: baseURL, signing: signing)
        } catch let error as ValidationError {
            throw error
        } catch {
            writeError("error: \(error)\n")
            throw ExitCode.failure
        }
        // A private key in the folder would be served to everyone with it.
        for path in PrivateKeyFiles.find(in: packages) {
            writeError(
                "\(path): warning: this looks like a private key, inside a folder that is served to everyone; move it out and treat the key as exposed (livery serve refuses to serve it)\n"
            )
        }
        let rows = catalog.products.map { product in
            [
                product.id, product.version, product.type,
                product.price.map { "\($0.amount) \($0.currency)" } ?? "free",
                String(product.packageSize), product.parent.map { "\($0.id) >= \($0.minimumVersion)" } ?? "-",
            ]
        }
        printTable(header: ["product", "version", "type", "price", "bytes", "parent"], rows: rows)
        let signed = catalog.version.map { " (signed, version \($0), expires \(catalog.expires ?? "?"))" } ?? ""
        print(
            "wrote \(packages)/catalog.json with \(catalog.products.count) product\(catalog.products.count == 1 ? "" : "s")\(signed)"
        )
    }

    /// `30d`, `12h`, `90m` from now, or an ISO 8601 date.
    static func expiry(_ text: String, now: Date = Date()) -> Date? {
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        let units: [Character: Double] = ["d": 86_400, "h": 3_600, "m": 60]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count > 0 else {
            return nil
        }
        return now.addingTimeInterval(count * unit)
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
