import Foundation
import LiveryModel
@testable import Livery

// Themes built by hand, so these tests do not depend on the XML front end.

func color(_ hex: UInt32) -> Value {
    .color(Color(red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
                 blue: Double(hex & 0xFF) / 255))
}

func op(_ name: String, _ param: String, _ value: Value, state: String = "normal") -> ResolvedOperation {
    ResolvedOperation(name: name, state: state, params: [Param(name: param, value: value)])
}

func instance(_ id: String, _ component: String, _ operations: [ResolvedOperation]) -> ResolvedInstance {
    ResolvedInstance(id: id, component: component, operations: operations)
}

/// A theme with a generic variant and, optionally, variants for other trait sets.
func loadedTheme(_ id: String, _ instances: [ResolvedInstance], variants: [TraitSet: [ResolvedInstance]] = [:],
                 assets: AssetCatalog = .empty, files: [String: Data] = [:]) -> LoadedTheme {
    var axes = TraitAxes()
    for traits in variants.keys { axes.insert(traits) }
    var all: [TraitSet: [ResolvedInstance]] = [:]
    for traits in axes.traitSets { all[traits] = variants[traits] ?? instances }
    all[.none] = instances
    return LoadedTheme(
        variants: ThemeVariants(info: ThemeInfo(id: id, name: id), ancestors: [], axes: axes, variants: all, assets: assets),
        assets: InMemoryAssetSource(files: files), origin: .memory)
}

@MainActor
func makeApplicator(_ themes: LoadedTheme..., activate: String? = nil) -> (ThemeManager, Applicator) {
    let manager = ThemeManager()
    for theme in themes { manager.add(theme) }
    if let activate { manager.activate(themeID: activate) }
    return (manager, Applicator(manager: manager))
}

/// A custom component whose setters count their calls, shared with the test through `Counter`
/// so that calls can be counted even after the probe is released.
@MainActor
final class Counter {
    var sets: [String: Int] = [:]
    var total: Int { sets.values.reduce(0, +) }
}

@MainActor
final class Probe {
    let counter: Counter
    var fill: Color? = nil
    var stroke: Double = 1
    var label: String = "original"
    init(_ counter: Counter) { self.counter = counter }
}

@MainActor
func probeBinding() -> ComponentBinding<Probe> {
    var binding = ComponentBinding<Probe>("probe")
    binding.bind("fill", get: { $0.fill }, set: { $0.counter.sets["fill", default: 0] += 1; $0.fill = $1 })
    binding.bind("stroke", get: { $0.stroke }, set: { $0.counter.sets["stroke", default: 0] += 1; $0.stroke = $1 })
    binding.bind("label", get: { $0.label }, set: { $0.counter.sets["label", default: 0] += 1; $0.label = $1 })
    return binding
}

/// Collects every finding the hook delivers, as an app's observer would.
@MainActor
final class DiagnosticsRecorder {
    @MainActor final class Box { var items: [Diagnostic] = [] }
    private let box = Box()
    private var token: ObservationToken?
    init(_ hook: DiagnosticHook) {
        let box = self.box
        token = hook.observe { box.items.append($0) }
    }
    var all: [Diagnostic] { box.items }
    func count(_ code: DiagnosticCode) -> Int { box.items.filter { $0.code == code }.count }
}
