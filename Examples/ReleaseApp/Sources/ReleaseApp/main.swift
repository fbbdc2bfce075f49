import Foundation
import Livery

// A release app: compiled themes named by a configuration file, one component type of its own
// with its binding, styled by identifier. `import Livery` is the only import it needs.
//
//   .build/release/ReleaseApp Livery.xml label_title

@MainActor
final class Label {
    var textColor: Color?
}

@MainActor
func run(configurationFile: String, identifier: String) -> Int32 {
    let manager = ThemeManager(configurationFile: configurationFile, traits: TraitSet(appearance: .dark))
    let findings = manager.diagnostics.observe { print("\($0)") }
    defer { findings.cancel() }
    var label = ComponentBinding<Label>("uilabel")
    label.bind("textColor", get: { $0.textColor }, set: { $0.textColor = $1 })
    let applicator = Applicator(manager: manager, bindings: { $0.register(label) })
    let title = Label()
    applicator.style(title, as: identifier)
    print("\(manager.currentThemeID ?? "no theme"): \(identifier).textColor = \(title.textColor?.hexString ?? "unset")")
    return title.textColor == nil ? 1 : 0
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    print("usage: ReleaseApp CONFIGURATION-FILE IDENTIFIER")
    exit(64)
}
exit(MainActor.assumeIsolated { run(configurationFile: arguments[1], identifier: arguments[2]) })
