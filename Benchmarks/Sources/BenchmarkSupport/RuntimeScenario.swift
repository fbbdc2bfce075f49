import Foundation
import Livery
import LiveryBinary
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import LiveryXML

/// The runtime scenario, through the public API only: three generated themes in a folder (A;
/// B where every value differs; a child of A changing one operation of every tenth instance),
/// `components` headless components (label, button, view, text field), and a compiled file of
/// A for lookups.
@MainActor
public final class RuntimeScenario {
    public let instances: Int
    public let themeA: SourceTheme
    public let themeB: SourceTheme
    public let child: SourceTheme
    public let compiled: CompiledTheme
    /// Every identifier, in a scattered order.
    public let lookupOrder: [String]
    public let manager: ThemeManager
    public private(set) var applicator: Applicator!
    public private(set) var components: [View] = []

    public init(instances: Int, folder: String) throws {
        self.instances = instances
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        themeA = ThemeGenerator.theme(instances: instances, flavor: 0, id: "com.livery.bench")
        themeB = ThemeGenerator.theme(instances: instances, flavor: 1, id: "com.livery.bench.b")
        child = ThemeGenerator.child(of: themeA, instances: instances)
        let pathA = try themeA.writeXML(into: folder, name: "BenchA")
        try themeB.writeXML(into: folder, name: "BenchB")
        try child.writeXML(into: folder, name: "BenchChild")
        guard let variants = ThemeWorkspace().variants(ofThemeAt: pathA).value else {
            throw LoaderError.invalid(pathA, "does not load")
        }
        compiled = try CompiledTheme(bytes: ThemeWriter.encode(CompiledThemeContents(theme: variants)))
        lookupOrder = (0..<instances).map { ThemeGenerator.identifier(($0 &* 7_919) % instances) }
        manager = ThemeManager.development(configuration: LiveryConfiguration(searchPaths: [folder]))
        for id in [themeA.id, themeB.id, child.id] where manager.theme(id) == nil {
            throw LoaderError.invalid(id, "the runtime could not load it")
        }
        manager.activate(themeID: themeA.id)
    }

    /// Makes the components and styles every one: the first application. Returns nanoseconds.
    public func applyFirstTime() -> Double {
        components = Self.makeComponents(instances)
        applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        // The identifiers are made before timing, as an app's are string literals: made in the
        // loop (`String(format:)`), they added 14 ms to the engine's time.
        let identifiers = (0..<instances).map(ThemeGenerator.identifier)
        let start = now()
        for (index, component) in components.enumerated() {
            applicator.style(component, as: identifiers[index])
        }
        return Double(now() - start)
    }

    /// The first application and the first switch to B (everything changes) with both themes
    /// prepared ahead (`Applicator.preload`, untimed, as an app does at launch), on a manager
    /// and components of their own. Returns nanoseconds.
    public func applyAndSwitchPreloaded(folder: String) async -> (apply: Double, firstSwitch: Double) {
        let manager = ThemeManager.development(configuration: LiveryConfiguration(searchPaths: [folder]))
        manager.activate(themeID: themeA.id)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        await applicator.preload([themeA.id, themeB.id])
        let components = Self.makeComponents(instances)
        let identifiers = (0..<instances).map(ThemeGenerator.identifier)
        let start = now()
        for (index, component) in components.enumerated() {
            applicator.style(component, as: identifiers[index])
        }
        let styled = now()
        manager.activate(themeID: themeB.id)
        let switched = now()
        withExtendedLifetime(components) {}
        return (Double(styled - start), Double(switched - styled))
    }

    /// Label, button, view, text field, in turn.
    static func makeComponents(_ count: Int) -> [View] {
        (0..<count).map { index in
            switch index % 4 {
            case 0: Label()
            case 1: Button()
            case 2: View()
            default: TextField()
            }
        }
    }

    /// Looks every identifier up in the compiled file; returns how many were found.
    public func lookUpAll() -> Int {
        var found = 0
        for id in lookupOrder where compiled.handle(for: id) != nil { found += 1 }
        return found
    }

    public enum Switch: String, CaseIterable, Sendable {
        case everything, tenth, traits
    }

    /// The switch there (`forth`) and back.
    public func perform(_ kind: Switch, forth: Bool) {
        switch kind {
        case .everything: manager.activate(themeID: forth ? themeB.id : themeA.id)
        case .tenth: manager.activate(themeID: forth ? child.id : themeA.id)
        case .traits: manager.setTraits(forth ? TraitSet(appearance: .dark) : .none)
        }
    }

    /// Warms both directions (both themes prepared), leaving the scenario where it started.
    public func warm(_ kind: Switch) {
        for _ in 0..<2 {
            perform(kind, forth: true)
            perform(kind, forth: false)
        }
    }

    /// Setter calls of the last pass.
    public var lastOperationsApplied: Int { applicator.lastPass.operationsApplied }
}
