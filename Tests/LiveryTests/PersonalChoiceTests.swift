import Foundation
import Livery
import LiveryCompiler
import LiveryDevelopment
import LiveryHeadless
import LiveryModel
import LiveryXML
import Testing

/// Personal choices at run time (format 1.3, section 9.2), through the public API only: values
/// in `ScopeOverrides.constants` for the whole app and for one scope, kept through `Codable`,
/// theme switches and trait changes, reported (never fatal) when the theme cannot take them, and
/// the same from a theme folder and from its compiled file.
@MainActor
@Suite struct PersonalChoiceTests {
    static let colors = """
        <theme>
          <constants>
            <color name="accent" overridable="true">#007AFF</color>
            <color name="accentPressed" ref="accent" darken="0.2"/>
            <color name="onAccent" contrast-with="accent" min-ratio="4.5">#FFFFFF</color>
            <color name="bubbleIncoming" overridable="true">#E5E5EA</color>
            <color name="ink">#111111</color>
            <float name="radius" overridable="true">8</float>
          </constants>
          <instances>
            <uilabel id="title"><operation name="textColor"><param name="color"><color ref="accent"/></param></operation></uilabel>
            <uilabel id="caption"><operation name="textColor"><param name="color"><color ref="onAccent"/></param></operation></uilabel>
            <uilabel id="pressed"><operation name="textColor"><param name="color"><color ref="accentPressed"/></param></operation></uilabel>
            <uiview id="bubble">
              <operation name="backgroundColor"><param name="color"><color ref="bubbleIncoming"/></param></operation>
              <operation name="cornerRadius"><param name="radius"><float ref="radius"/></param></operation>
            </uiview>
            <uilabel id="plain"><operation name="textColor"><param name="color"><color ref="ink"/></param></operation></uilabel>
          </instances>
        </theme>
        """
    static let dark = """
        <theme><constants><color name="bubbleIncoming">#2C2C2E</color><color name="ink">#EEEEEE</color></constants></theme>
        """
    /// A second theme with `accent` overridable (but no bubble colour) and `radius` a colour.
    static let other = """
        <theme>
          <constants>
            <color name="accent" overridable="true">#FF9500</color>
            <color name="radius">#000000</color>
          </constants>
          <instances>
            <uilabel id="title"><operation name="textColor"><param name="color"><color ref="accent"/></param></operation></uilabel>
            <uiview id="bubble"><operation name="backgroundColor"><param name="color"><color ref="radius"/></param></operation></uiview>
          </instances>
        </theme>
        """

    /// `themes/C.theme`, `themes/O.theme`, and both compiled into `compiled/`.
    static func folders() throws -> String {
        let root = NSTemporaryDirectory() + "livery-choices-\(UUID().uuidString)"
        func write(_ text: String, _ path: String) throws {
            try FileManager.default.createDirectory(
                atPath: (root + "/" + path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: root + "/" + path, atomically: true, encoding: .utf8)
        }
        try write(#"<theme-info id="c" name="C"/>"#, "themes/C.theme/Info.xml")
        try write(colors, "themes/C.theme/Colors.xml")
        try write(dark, "themes/C.theme/Colors~dark.xml")
        try write(#"<theme-info id="o" name="O"/>"#, "themes/O.theme/Info.xml")
        try write(other, "themes/O.theme/Colors.xml")
        try FileManager.default.createDirectory(atPath: root + "/compiled", withIntermediateDirectories: true)
        let workspace = ThemeWorkspace()
        for name in ["C", "O"] {
            let bytes = try #require(
                ThemeCompiler.compile(themeAt: root + "/themes/\(name).theme", workspace: workspace).value)
            try ThemeCompiler.writeAtomically(bytes, to: root + "/compiled/\(name).livery", durably: false)
        }
        return root
    }

    /// A manager of the folders (LiveryDevelopment) or of the compiled files only.
    static func manager(_ root: String, compiled: Bool, diagnostics: DiagnosticHook = DiagnosticHook()) -> ThemeManager
    {
        compiled
            ? ThemeManager(
                configuration: LiveryConfiguration(defaultThemeID: "c", compiledPaths: [root + "/compiled"]),
                compiledLoader: CompiledFileThemeLoader(), diagnostics: diagnostics)
            : ThemeManager.development(
                configuration: LiveryConfiguration(defaultThemeID: "c", searchPaths: [root + "/themes"]),
                diagnostics: diagnostics)
    }

    static func hex(_ value: UInt32) -> Color {
        Color(
            red: Double(value >> 16 & 0xFF) / 255, green: Double(value >> 8 & 0xFF) / 255,
            blue: Double(value & 0xFF) / 255)
    }

    @MainActor struct Screen {
        let title = Label(), caption = Label(), pressed = Label(), plain = Label(), bubble = View()
        let scoped = View()

        func style(_ applicator: Applicator, scope: ThemeScope) {
            applicator.style(title, as: "title")
            applicator.style(caption, as: "caption")
            applicator.style(pressed, as: "pressed")
            applicator.style(plain, as: "plain")
            applicator.style(bubble, as: "bubble")
            scope.style(scoped, as: "bubble")
        }

        /// Every property the theme sets, as text: what "byte for byte" compares.
        var state: [String] {
            [title.textColor, caption.textColor, pressed.textColor, plain.textColor, bubble.backgroundColor]
                .map { $0.map { "\($0.red) \($0.green) \($0.blue) \($0.alpha)" } ?? "nil" }
                + [
                    "\(bubble.cornerRadius)",
                    "\(scoped.backgroundColor.map { "\($0)" } ?? "nil") \(scoped.cornerRadius)",
                ]
        }
    }

    @Test(arguments: [false, true])
    func appWideAndScopedValuesReachUsesAndDerivedColours(compiled: Bool) throws {
        let root = try Self.folders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = Self.manager(root, compiled: compiled)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let contact = applicator.makeScope(ScopeOverrides())
        let screen = Screen()
        screen.style(applicator, scope: contact)
        #expect(screen.title.textColor == Self.hex(0x007AFF))
        let before = screen.state

        let green = Self.hex(0x00AA88)
        applicator.rootScope.overrides.constants["accent"] = .color(green)
        #expect(screen.title.textColor == green)
        #expect(
            screen.pressed.textColor == ColorModifiers(shift: .darken(0.2)).apply(to: green), "derived colours follow")
        #expect(screen.plain.textColor == Self.hex(0x111111), "what does not depend on it stays")
        // one contact's chat: its own bubble colour, the app's accent
        contact.overrides.constants["bubbleIncoming"] = .color(Self.hex(0xFFCC00))
        #expect(screen.scoped.backgroundColor == Self.hex(0xFFCC00))
        #expect(screen.bubble.backgroundColor == Self.hex(0xE5E5EA), "the app outside the scope keeps the theme's")
        applicator.rootScope.overrides.constants["radius"] = .float(20)
        #expect(
            screen.bubble.cornerRadius == 20 && screen.scoped.cornerRadius == 20, "a scope inherits the app's values")

        // trait changes keep the values; the theme's own dark bubble is replaced in the scope only
        manager.setTraits(TraitSet(appearance: .dark))
        #expect(screen.title.textColor == green)
        #expect(screen.bubble.backgroundColor == Self.hex(0x2C2C2E))
        #expect(screen.scoped.backgroundColor == Self.hex(0xFFCC00))
        manager.setTraits(.none)

        // removing every value gives back exactly what the theme gave
        applicator.rootScope.overrides.constants = [:]
        contact.overrides.constants = [:]
        #expect(screen.state == before)
    }

    /// Switching to another theme and back with values set leaves every property as it was;
    /// the other theme takes the values it can (its own `accent`) and reports those it cannot
    /// (`radius` is a plain colour there, and it has no bubble colour), each once.
    @Test(arguments: [false, true])
    func switchAndRevertKeepValuesByteForByte(compiled: Bool) throws {
        let root = try Self.folders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hook = DiagnosticHook()
        let manager = Self.manager(root, compiled: compiled, diagnostics: hook)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let contact = applicator.makeScope(ScopeOverrides(constants: ["bubbleIncoming": .color(Self.hex(0x34C759))]))
        let screen = Screen()
        screen.style(applicator, scope: contact)
        applicator.rootScope.overrides.constants = ["accent": .color(Self.hex(0xAF52DE)), "radius": .float(3)]
        let chosen = screen.state
        #expect(manager.activate(themeID: "o"))
        #expect(screen.title.textColor == Self.hex(0xAF52DE), "the value survives the switch")
        #expect(screen.bubble.backgroundColor == Self.hex(0x000000))
        #expect(manager.activate(themeID: "c"))
        #expect(screen.state == chosen)
        #expect(manager.activate(themeID: "o"))
        #expect(manager.activate(themeID: "c"))
        let refused = hook.reported.filter { $0.code == .runtimeChoiceRefused }
        #expect(refused.count == 2, "radius and bubbleIncoming, each once: \(refused.map(\.message))")
        #expect(refused.contains { $0.message.contains("theme 'o' has no overridable constant 'radius'") })
    }

    @Test(arguments: [false, true])
    func valuesTheThemeCannotTakeAreReportedNeverFatal(compiled: Bool) throws {
        let root = try Self.folders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let hook = DiagnosticHook()
        let manager = Self.manager(root, compiled: compiled, diagnostics: hook)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let screen = Screen()
        screen.style(applicator, scope: applicator.rootScope)
        let before = screen.state
        applicator.rootScope.overrides.constants = [
            "missing": .color(Self.hex(0xFF0000)), "ink": .color(Self.hex(0xFF0000)), "accent": .float(2),
        ]
        #expect(screen.state == before, "nothing applies")
        applicator.rootScope.overrides.constants["radius"] = .float(4)
        #expect(screen.bubble.cornerRadius == 4, "the values it can take still apply")
        let messages = hook.reported.filter { $0.code == .runtimeChoiceRefused }.map(\.message).sorted()
        #expect(messages.count == 3, "each once, though applied twice: \(messages)")
        #expect(messages.contains { $0.contains("no overridable constant 'ink'") })
        #expect(messages.contains { $0.contains("no overridable constant 'missing'") })
        #expect(messages.contains { $0.contains("'accent'") && $0.contains("a color, not a float") })
    }

    /// A value changed again and again (a colour picker dragged): each change sets only the
    /// operations that depend on it, components styled between changes follow, and removing the
    /// value gives back the theme's.
    @Test(arguments: [false, true])
    func onlyWhatDependsOnAChoiceIsApplied(compiled: Bool) throws {
        let root = try Self.folders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = Self.manager(root, compiled: compiled)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let screen = Screen()
        screen.style(applicator, scope: applicator.rootScope)
        let before = screen.state
        var later: [Label] = []
        for step in 0..<20 {
            let value = Color(red: Double(step) / 20, green: 0.3, blue: 0.6)
            applicator.rootScope.overrides.constants["accent"] = .color(value)
            // the title group (the screen's and the labels styled since), pressed and caption (whose
            // contrast guard may keep white) follow accent: never plain's or the bubble's setters.
            let applied = applicator.lastPass.operationsApplied
            #expect(applied >= 2 + later.count && applied <= 3 + later.count, "step \(step): \(applied)")
            let label = Label()
            applicator.style(label, as: "title")
            later.append(label)
            #expect(later.allSatisfy { $0.textColor == value })
            #expect(screen.title.textColor == value && screen.plain.textColor == Self.hex(0x111111))
        }
        applicator.rootScope.overrides.constants = [:]
        #expect(screen.state == before)
        #expect(later.allSatisfy { $0.textColor == Self.hex(0x007AFF) })
    }

    /// An identifier first styled between two changes of the values (from a compiled file, its
    /// id is numbered only then) follows the next change like the others, also when that change
    /// takes back the value that reached it.
    @Test(arguments: [false, true])
    func anIdentifierFirstStyledBetweenChangesFollowsTheNext(compiled: Bool) throws {
        let root = try Self.folders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = Self.manager(root, compiled: compiled)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let title = Label(), pressed = Label(), bubble = View()
        applicator.style(title, as: "title")
        applicator.rootScope.overrides.constants = ["accent": .color(Self.hex(0x00AA88)), "radius": .float(20)]
        applicator.style(pressed, as: "pressed")
        applicator.style(bubble, as: "bubble")
        let darker = ColorModifiers(shift: .darken(0.2))
        #expect(pressed.textColor == darker.apply(to: Self.hex(0x00AA88)) && bubble.cornerRadius == 20)
        for value in [Self.hex(0xAF52DE), Self.hex(0x34C759)] {
            applicator.rootScope.overrides.constants = ["accent": .color(value)]
            #expect(title.textColor == value)
            #expect(pressed.textColor == darker.apply(to: value))
            #expect(bubble.cornerRadius == 8, "the theme's radius is back")
        }
    }

    /// A change of values tells `onChange` what it set, with the new values, as a switch does,
    /// and nothing for a value that did not change.
    @Test(arguments: [false, true])
    func aChangeReportsTheValuesItSets(compiled: Bool) throws {
        let root = try Self.folders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = Self.manager(root, compiled: compiled)
        let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        let title = Label(), bubble = View()
        applicator.style(title, as: "title")
        applicator.style(bubble, as: "bubble")
        var changes: [String: StyleChange.Kind] = [:]
        applicator.onChange = { changes["\($0.identifier).\($0.operation.name)"] = $0.kind }
        for (accent, radius) in [(0xAF52DE, 20.0), (0x34C759, 30.0), (0x34C759, 8.0)] as [(UInt32, Double)] {
            changes = [:]
            applicator.rootScope.overrides.constants = ["accent": .color(Self.hex(accent)), "radius": .float(radius)]
            let sameAccent = accent == 0x34C759 && radius == 8
            #expect(changes["title.textColor"] == (sameAccent ? nil : .set(.color(Self.hex(accent)))), "\(changes)")
            #expect(changes["bubble.cornerRadius"] == .set(.float(radius)), "\(changes)")
        }
    }

    /// The user's choices saved with one line and read back give the same components.
    @Test func choicesPersistThroughCodable() throws {
        let root = try Self.folders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let first = Applicator(manager: Self.manager(root, compiled: true), bindings: StandardBindings.register(in:))
        first.rootScope.overrides.constants = ["accent": .color(Color(red: 0.123456789, green: 0.5, blue: 0.9))]
        let saved = try JSONEncoder().encode(first.rootScope.overrides)
        let one = Screen()
        one.style(first, scope: first.rootScope)

        let second = Applicator(manager: Self.manager(root, compiled: true), bindings: StandardBindings.register(in:))
        second.rootScope.overrides = try JSONDecoder().decode(ScopeOverrides.self, from: saved)
        let two = Screen()
        two.style(second, scope: second.rootScope)
        #expect(two.state == one.state)
        #expect(two.title.textColor == Color(red: 0.123456789, green: 0.5, blue: 0.9))
    }

    /// Folder and compiled file, the same values, every trait set the theme distinguishes: the
    /// same properties.
    @Test func folderAndCompiledFileGiveTheSameResult() throws {
        let root = try Self.folders()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var states: [[String]] = []
        for compiled in [false, true] {
            let manager = Self.manager(root, compiled: compiled)
            let applicator = Applicator(manager: manager, bindings: StandardBindings.register(in:))
            let contact = applicator.makeScope(
                ScopeOverrides(constants: ["bubbleIncoming": .color(Self.hex(0x5856D6))]))
            let screen = Screen()
            screen.style(applicator, scope: contact)
            var state: [String] = []
            for accent: UInt32 in [0x000000, 0xFFFFFF, 0xFFD60A, 0x007AFF] {
                applicator.rootScope.overrides.constants["accent"] = .color(Self.hex(accent))
                for traits in [TraitSet.none, TraitSet(appearance: .dark)] {
                    manager.setTraits(traits)
                    state += screen.state
                }
            }
            states.append(state)
        }
        #expect(states[0] == states[1])
        #expect(Set(states[0]).count > 8)
    }
}
