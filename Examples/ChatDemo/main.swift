import Foundation
import Livery
import LiveryDevelopment
import LiveryHeadless
import LiveryModel

// The chat demo: a small chat screen of headless components, styled from the sample themes
// and switched live between themes, traits and scales, printing what changed each time.
//
//   swift run livery-chat-demo
//   swift run livery-chat-demo --follow 'ws://127.0.0.1:PORT/follow?token=…'  # follow a livery studio
//
// The runtime's timings under 10,000 components are Benchmarks/'s livery-switch-bench.

let arguments = CommandLine.arguments.dropFirst()

if let index = arguments.firstIndex(of: "--follow"), arguments.index(after: index) < arguments.endIndex {
    // Follows a running `livery studio` until it stops (see Follow.swift).
    let theme = arguments.firstIndex(of: "--theme").flatMap {
        arguments.index(after: $0) < arguments.endIndex ? arguments[arguments.index(after: $0)] : nil
    }
    do {
        try await FollowDemo.run(url: arguments[arguments.index(after: index)], themeID: theme ?? "com.livery.base")
    } catch {
        print("Following the studio stopped: \(error)")
        exit(1)
    }
    exit(0)
}

let configuration = arguments.first { !$0.hasPrefix("-") } ?? "Examples/ChatDemo/Livery.xml"

// Step 1 is the XML (Themes/*.theme); step 2 is this: a manager, an applicator, one call per component.
let manager = ThemeManager.development(configurationFile: configuration)
let findings = manager.diagnostics.observe { print("  [\($0.severity.rawValue)] \($0.message) [\($0.code)]") }
let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
applicator.register(chatBubbleBinding())
guard manager.currentThemeID != nil else {
    print("No theme could be activated from \(configuration); run from the repository root.")
    exit(1)
}
print("Themes found: " + manager.themes.values.map { "\($0.info.name) (\($0.id))" }.sorted().joined(separator: ", "))

// Optional: the themes the screen switches between, prepared on other threads before it is
// built (setters looked up, values decoded, switch plans made). Worth it for big screens.
await applicator.preload(["com.livery.light", "com.livery.dark", "com.livery.highcontrast"])

let screen = ChatScreen(applicator: applicator)
print("\nStarted with \(manager.currentThemeID!), traits \(manager.traits), scale \(manager.scale):")
print(screen.describe())

applicator.onChange = { print("  ~ \($0)") }

@MainActor
func step(_ title: String, _ action: () -> Void) {
    print("\n== \(title)")
    action()
    let pass = applicator.lastPass
    print(
        "  \(pass.operationsApplied) setter calls, \(pass.operationsReverted) reverts, \(pass.componentsUpdated) component updates"
    )
    print(screen.describe())
}

step("Switch to Dark") { manager.activate(themeID: "com.livery.dark") }
step("Switch to HighContrast") { manager.activate(themeID: "com.livery.highcontrast") }
step("Back to Light") { manager.activate(themeID: "com.livery.light") }
step("Dark mode on") { manager.setTraits(TraitSet(appearance: .dark)) }
step("On an iPad at 2x") {
    manager.setTraits(TraitSet(idiom: .ipad, appearance: .dark), scale: 2)
}

print("\n== A scoped screen: a settings sheet that is always HighContrast")
let sheet = applicator.makeScope(ScopeOverrides(themeID: "com.livery.highcontrast"))
let header = Label(name: "header")
sheet.style(header, as: "label_section_header")
print(
    "  sheet header \(header.textColor?.hexString ?? "unset") in \(sheet.theme?.info.id ?? "-"); the chat keeps \(manager.currentThemeID!)"
)
step("Light mode again (the sheet keeps its theme)") { manager.setTraits(TraitSet(idiom: .ipad)) }
print("  sheet header \(header.textColor?.hexString ?? "unset")")
