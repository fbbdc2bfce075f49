import Foundation
import LiveryBinary
import LiveryHeadless
import LiveryModel
import LiveryXML
import Testing

@testable import Livery

/// What an app that ships compiled files can rely on: a damaged file is never read silently,
/// debug and release builds resolve bindings the same way, and the release manager says why a
/// theme it cannot read is missing.
@MainActor
@Suite struct TrustTests {
    /// A small theme (about 7 KB compiled, several checksum blocks) of standard components in
    /// two trait variants, with values of several kinds, so that every section has something in it
    /// and most instance records lie in blocks the load does not read.
    static func smallTheme() -> ThemeVariants {
        var generic: [ResolvedInstance] = []
        var dark: [ResolvedInstance] = []
        for index in 0..<6 {
            let shade = UInt32(index * 16)
            generic.append(
                instance(
                    "button_\(index)", "uibutton",
                    [
                        op("backgroundColor", "color", color(0x0077BE + shade)),
                        op("cornerRadius", "radius", .float(Double(index))),
                        op("titleColor", "color", color(0xFFFFFF - shade)),
                        op("titleColor", "color", color(0x999999), state: .disabled),
                    ]))
            generic.append(
                instance(
                    "label_\(index)", "uilabel",
                    [
                        op("textColor", "color", color(0x202020 + shade)),
                        op("text", "text", .string("Label \(index)")),
                        op("font", "font", .font(Font(family: "Helvetica", size: 12 + Double(index), weight: .bold))),
                    ]))
            generic.append(
                instance(
                    "view_\(index)", "uiview",
                    [
                        op("backgroundColor", "color", color(0xF0F0F0 - shade)),
                        op("alpha", "value", .float(0.5 + Double(index) / 40)),
                    ]))
            dark.append(
                instance("button_\(index)", "uibutton", [op("backgroundColor", "color", color(0x3399FF - shade))]))
            dark.append(
                instance(
                    "label_\(index)", "uilabel",
                    [op("textColor", "color", color(0xEDEDED - shade)), op("text", "text", .string("Dark \(index)"))]))
            dark.append(instance("view_\(index)", "uiview", [op("backgroundColor", "color", color(0x101010 + shade))]))
        }
        var axes = TraitAxes()
        axes.insert(TraitSet(appearance: .dark))
        return ThemeVariants(
            info: ThemeInfo(id: "com.test.small", name: "Small", version: "1.0.0"), ancestors: [], axes: axes,
            variants: [.none: generic, TraitSet(appearance: .dark): dark], assets: .empty)
    }

    static let ids = (0..<6).flatMap { ["button_\($0)", "label_\($0)", "view_\($0)"] }

    /// What an app sees through the release manager: the built theme for both trait sets and
    /// what styling each id by hand sets on headless components.
    struct Observed: Equatable {
        var built: [ResolvedTheme?]
        var styled: [[String: String]]
    }

    static func observe(configurationFile: String) -> (Observed, [Diagnostic]) {
        let manager = ThemeManager(configurationFile: configurationFile)
        var observed = Observed(built: [], styled: [])
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        for traits in [TraitSet.none, TraitSet(appearance: .dark)] {
            manager.setTraits(traits)
            observed.built.append(manager.buildCurrentTheme())
            var styled: [String: String] = [:]
            for id in ids {
                let component = StandardBindings.makeComponent(
                    ofType: id.hasPrefix("button") ? "uibutton" : id.hasPrefix("label") ? "uilabel" : "uiview")!
                applicator.style(component, as: id)
                // Every property the theme sets on this id in any variant, read back from the component.
                let operations = Set(
                    smallTheme().variants.values.flatMap { $0 }.filter { $0.id == id }.flatMap(\.operations)
                        .map { "\($0.name)/\($0.state.rawValue)" }
                ).sorted()
                styled[id] = operations.map { key in
                    let parts = key.split(separator: "/").map(String.init)
                    return
                        "\(key): \(String(describing: readBack(component, parts[0], ControlState(rawValue: parts[1]))))"
                }.joined(separator: "; ")
            }
            observed.styled.append(styled)
        }
        _ = applicator
        return (observed, manager.diagnostics.reported)
    }

    /// Every offset of a small compiled file, one bit flipped, read through the release manager's
    /// lazy path (`ThemeManager(configurationFile:)`): each read gives exactly what the intact file
    /// gives, or the damage is reported with the file, once per damaged place, never an empty
    /// theme in silence.
    @Test func everyFlippedBitIsReadIntactOrReportedWithTheFile() throws {
        let folder = NSTemporaryDirectory() + "livery-bitflip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bytes = try ThemeWriter.encode(CompiledThemeContents(theme: Self.smallTheme()))
        let file = folder + "/Small.livery"
        let configuration = folder + "/Livery.xml"
        try Data(
            #"<livery-configuration default-theme="com.test.small"><search-path>.</search-path></livery-configuration>"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: configuration))
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let (intact, intactFindings) = Self.observe(configurationFile: configuration)
        #expect(intactFindings.isEmpty, "\(intactFindings)")
        #expect(intact.built.map { $0?.instances.count } == [18, 18])
        #expect(bytes.count > 5000 && bytes.count < 10_000, "\(bytes.count) bytes")

        let damageCodes: Set<DiagnosticCode> = [.runtimeCompiledCorrupt, .runtimeCompiledUnusable]
        var silent: [Int] = []
        var differentWithoutReport: [Int] = []
        var reportedTwice: [Int] = []
        var builtDiffers: [Int] = []
        for offset in 0..<bytes.count {
            var damaged = bytes
            damaged[offset] ^= UInt8(1 << (offset % 8))
            try Data(damaged).write(to: URL(fileURLWithPath: file))
            let (observed, findings) = Self.observe(configurationFile: configuration)
            let damage = findings.filter { damageCodes.contains($0.code) }
            if observed == intact {
                continue
            }
            // Anything that differs from the intact file must come with a finding that names it.
            if damage.isEmpty {
                if observed.built.contains(where: { $0 != nil && $0?.instances.isEmpty == true }) {
                    silent.append(offset)
                }
                differentWithoutReport.append(offset)
                continue
            }
            #expect(
                damage.allSatisfy { ($0.location?.file as NSString?)?.standardizingPath == file },
                "offset \(offset): \(damage)")
            if Set(damage.map(\.description)).count != damage.count { reportedTwice.append(offset) }
            // A build that fails gives nil, never a theme missing instances.
            for (index, theme) in observed.built.enumerated() where theme != nil && theme != intact.built[index] {
                builtDiffers.append(offset)
            }
        }
        #expect(silent.isEmpty, "empty themes without a finding at offsets \(silent)")
        #expect(
            differentWithoutReport.isEmpty, "reads that differ without a finding at offsets \(differentWithoutReport)")
        #expect(reportedTwice.isEmpty, "the same finding twice at offsets \(reportedTwice)")
        #expect(
            builtDiffers.isEmpty, "a built theme that differs from the intact one (not nil) at offsets \(builtDiffers)")
    }

    /// The cheap and the expensive reads of a theme have names that say which is which, and a
    /// damaged compiled file is reported by the build, not read as an empty theme.
    @Test func buildingAThemeOfADamagedFileReportsIt() throws {
        let folder = NSTemporaryDirectory() + "livery-build-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var bytes = try ThemeWriter.encode(CompiledThemeContents(theme: Self.smallTheme()))
        let intact = try CompiledTheme(bytes: bytes)
        // Damage the last block that holds instance data (the verifier checks structure at load,
        // the blocks when they are read).
        let block = intact.blockSize
        bytes[min(bytes.count - 1, (intact.blockCount - 1) * block + 3)] ^= 0x10
        let file = folder + "/Small.livery"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let manager = ThemeManager(
            configuration: LiveryConfiguration(defaultThemeID: "com.test.small", searchPaths: [folder]))
        guard let loaded = manager.theme("com.test.small") else {
            // The damage was found at load: reported with the file.
            #expect(
                manager.diagnostics.reported.contains {
                    $0.code == .runtimeCompiledUnusable && $0.location?.file == file
                })
            return
        }
        #expect(throws: BinaryFormatError.self) { _ = try loaded.buildVariants() }
        #expect(manager.buildCurrentTheme() == nil)
        #expect(manager.buildCurrentTheme() == nil)
        #expect(
            manager.diagnostics.reported.filter { $0.code == .runtimeCompiledCorrupt }.map { $0.location?.file } == [
                file
            ])
    }

    /// A release manager given only theme folders says it found and skipped them, and what reads them.
    @Test func aReleaseManagerSaysItSkippedFolders() {
        let manager = ThemeManager(
            configuration: LiveryConfiguration(defaultThemeID: "com.livery.dark", searchPaths: [themesFolder]))
        #expect(manager.theme("com.livery.dark") == nil)
        let message = manager.diagnostics.reported.first { $0.code == .runtimeThemeUnavailable }?.message ?? ""
        #expect(message.contains("5 theme folders were found and skipped"), "\(message)")
        #expect(message.contains("ThemeManager.development(configuration:)"), "\(message)")
        #expect(message.contains("LiveryDevelopment"), "\(message)")
    }
}

/// The app's own component, bound without `extends:`: it inherits the same operations in debug and
/// release builds (none: the schema does not decide), and the development manager says why.
@MainActor
@Suite struct BindingParentTests {
    /// The app's own class: a subclass of the view class its `uiview` binding is for.
    final class Badge: View {
        var count = 0
    }

    static let theme = ThemeVariants(
        info: ThemeInfo(id: "com.test.badges", name: "Badges"), ancestors: [], axes: TraitAxes(),
        variants: [
            .none: [
                instance(
                    "badge_unread", "badge",
                    [op("backgroundColor", "color", color(0xFF0000)), op("count", "count", .integer(3))]),
                instance("title", "uilabel", [op("backgroundColor", "color", color(0x00FF00))]),
            ]
        ], assets: .empty)

    static func run(schema: Schema) -> (badge: Badge, label: Label, findings: [Diagnostic]) {
        let manager = ThemeManager(schema: schema)
        let recorder = DiagnosticsRecorder(manager.diagnostics)
        manager.add(LoadedTheme(variants: theme))
        manager.activate(themeID: "com.test.badges")
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        var badge = ComponentBinding<Badge>("badge")
        badge.bind("count", get: { $0.count }, set: { $0.count = $1 })
        applicator.register(badge)
        // A standard component bound without `extends:` inherits uiview's setters in both.
        var label = ComponentBinding<Label>("uilabel")
        label.bind("textColor", get: { $0.textColor }, set: { $0.textColor = $1 })
        applicator.register(label)
        let component = Badge(), title = Label()
        applicator.style(component, as: "badge_unread")
        applicator.style(title, as: "title")
        return (component, title, recorder.all)
    }

    @Test func debugAndReleaseResolveABindingWithoutExtendsTheSameWay() {
        var schema = Schema()
        schema.add(
            ComponentSchema(
                name: "uiview",
                operations: [
                    OperationSchema(name: "backgroundColor", params: [ParamSchema(name: "color", type: .color)])
                ]))
        schema.add(ComponentSchema(name: "uilabel", extends: "uiview", operations: []))
        schema.add(
            ComponentSchema(
                name: "badge", extends: "uiview",
                operations: [
                    OperationSchema(name: "count", params: [ParamSchema(name: "count", type: .integer)])
                ]))
        let debug = Self.run(schema: schema)
        let release = Self.run(schema: Schema())
        #expect(debug.badge.backgroundColor == release.badge.backgroundColor)
        #expect(release.badge.backgroundColor == nil, "a binding without extends: inherits nothing from the schema")
        #expect(debug.badge.count == 3 && release.badge.count == 3)
        #expect(debug.label.backgroundColor == release.label.backgroundColor)
        #expect(release.label.backgroundColor != nil, "uilabel extends uiview without a schema")
        #expect(
            debug.findings.filter { $0.code == .runtimeBindingInheritance }.map(\.message) == [
                "binding 'badge' (Badge) names no parent, but the schema says 'badge' extends 'uiview'; a release build has no schema, so in both builds it inherits nothing: register it with extends: \"uiview\""
            ])
        #expect(release.findings.filter { $0.code == .runtimeBindingInheritance }.isEmpty)
    }

    @Test func theStandardHierarchyMatchesTheStandardSchema() {
        // The runtime's copy of the standard schema's `extends` (the schema itself is in the XML
        // front end, which release builds do not link) must agree with it.
        let standard = StandardSchema.schema.components
        #expect(Set(StandardComponents.parents.keys) == Set(standard.keys))
        for (name, component) in standard {
            #expect(StandardComponents.parent(of: name) == component.extends, "\(name)")
        }
        #expect(StandardComponents.parent(of: "badge") == nil)
    }
}
