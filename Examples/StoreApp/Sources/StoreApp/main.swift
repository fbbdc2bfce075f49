import Foundation
import Livery
import LiveryStore

// An app with a theme store: its configuration names the bundled compiled themes, the downloads
// folder and the store (catalog URL and root key). It lists the signed catalog, downloads and
// installs a product with progress, switches to it and styles a label with it; `--update` then
// installs the catalog's newer version if there is one, `--uninstall` removes the product.
//
//   .build/release/StoreApp Livery.xml Downloads com.acme.ocean label_title [--uninstall]

@MainActor
final class Label {
    var textColor: Color?
}

@MainActor
func style(_ identifier: String, with manager: ThemeManager) -> Color? {
    var label = ComponentBinding<Label>("uilabel")
    label.bind("textColor", get: { $0.textColor }, set: { $0.textColor = $1 })
    let applicator = Applicator(manager: manager, bindings: { $0.register(label) })
    let title = Label()
    applicator.style(title, as: identifier)
    return title.textColor
}

@MainActor
func run(configurationFile: String, downloads: String, productID: String, identifier: String, uninstall: Bool)
    async throws -> Int32
{
    let loaded = LiveryConfiguration.load(path: configurationFile)
    guard let configuration = loaded.value else {
        print("configuration: \(loaded.diagnostics)")
        return 1
    }
    let manager = ThemeManager(configuration: configuration, traits: TraitSet(appearance: .dark))
    let store = try await ThemeStore(configuration: configuration, installedFolder: downloads, manager: manager)
    for action in store.recoveryActions { print("recovered: \(action)") }
    // Downloaded themes stay within 64 MiB: the least recently used go first, never the one in use.
    await store.setCacheBudget(64 << 20)

    let catalog = try await store.refreshCatalog()
    for product in catalog.products {
        let formats = (product.compiled ?? []).map { "v\($0.formatVersion)" }.joined(separator: ", ")
        print("catalog: \(product.id) \(product.version) (compiled \(formats))")
    }
    guard let product = catalog.product(id: productID) else {
        print("the catalog has no \(productID)")
        return 1
    }
    let task = await store.install(product)
    var last = -1
    for await state in task.states() {
        if case .downloading(let received, let expected) = state, let expected, expected > 0 {
            let percent = Int(received * 100 / expected)
            if percent / 25 != last / 25 { print("downloading \(product.id): \(percent)%") }
            last = percent
        }
    }
    guard task.state == .finished else {
        print("install failed: \(task.state)")
        return 1
    }
    let state = await store.state(of: product)
    print("installed \(product.id) \(state.installedVersion ?? "?")")
    guard manager.activate(themeID: productID) else {
        print("cannot activate \(productID)")
        return 1
    }
    let color = style(identifier, with: manager)
    print("\(manager.currentThemeID ?? "no theme"): \(identifier).textColor = \(color?.hexString ?? "unset")")
    guard color != nil else { return 1 }
    if uninstall {
        let removed = try await store.uninstall(id: productID, whenInUse: .switchToDefault)
        print("uninstalled \(removed.id) \(removed.version); now \(manager.currentThemeID ?? "no theme")")
    }
    return 0
}

let arguments = CommandLine.arguments
guard arguments.count == 5 || (arguments.count == 6 && arguments[5] == "--uninstall") else {
    print("usage: StoreApp CONFIGURATION-FILE DOWNLOADS-FOLDER PRODUCT-ID IDENTIFIER [--uninstall]")
    exit(64)
}
do {
    exit(
        try await run(
            configurationFile: arguments[1], downloads: arguments[2], productID: arguments[3],
            identifier: arguments[4], uninstall: arguments.count == 6))
} catch {
    print("error: \(error)")
    exit(1)
}
