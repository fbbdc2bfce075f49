import Foundation
import Livery
import LiveryBinary
import LiveryHeadless

// `.labelTitle` and `.buttonSend` are generated at build time from the themes in Themes/ by the
// Livery build plugin (ThemeIdentifiers.swift): write `.labelTitel` and this file fails to compile.

// The release path: the manager reads the compiled files the plugin bundled, nothing else.
let resources = Bundle.module.resourceURL!.path
let manager = ThemeManager(
    configuration: LiveryConfiguration(defaultThemeID: "com.example.base", searchPaths: [resources]))

@MainActor func run() throws {
    let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
    let title = Label()
    let send = Button()
    applicator.style(title, as: .labelTitle)
    applicator.style(send, as: .buttonSend)
    print("base: title \(title.textColor?.hexString ?? "unset"), send \(send.backgroundColor?.hexString ?? "unset")")
    manager.activate(themeID: "com.example.dark")
    print(
        "themes from \(Set(manager.themes.values.map { $0.compiledFile != nil ? "compiled files" : "folders" }).sorted())"
    )
    print("dark: title \(title.textColor?.hexString ?? "unset"), send \(send.backgroundColor?.hexString ?? "unset")")

    // The compiled files the plugin wrote, bundled as resources.
    for name in ["Base", "Dark"] {
        let path = Bundle.module.path(forResource: name, ofType: "livery")!
        let compiled = try CompiledTheme(contentsOf: path)
        print(
            "\(name).livery: \(compiled.info.id), \(compiled.fileSize) bytes, has \(ThemeIdentifiers.UIButton.buttonSend): \(compiled.handle(for: .buttonSend) != nil)"
        )
    }
    print("classes: \(ThemeClasses.rounded); constants: \(ThemeConstants.brand), \(ThemeConstants.title)")
}

try MainActor.assumeIsolated { try run() }
