import Foundation
import LiveryHeadless
import LiveryModel

@testable import Livery

// Themes built by hand, so these tests do not depend on the XML front end.

func color(_ hex: UInt32) -> Value {
    .color(
        Color(
            red: Double((hex >> 16) & 0xFF) / 255, green: Double((hex >> 8) & 0xFF) / 255,
            blue: Double(hex & 0xFF) / 255))
}

func op(_ name: String, _ param: String, _ value: Value, state: ControlState = .normal) -> ResolvedOperation {
    ResolvedOperation(name: name, state: state, params: [Param(name: param, value: value)])
}

func instance(_ id: String, _ component: String, _ operations: [ResolvedOperation]) -> ResolvedInstance {
    ResolvedInstance(id: id, component: component, operations: operations)
}

/// A theme with a generic variant and, optionally, variants for other trait sets.
func loadedTheme(
    _ id: String, _ instances: [ResolvedInstance], variants: [TraitSet: [ResolvedInstance]] = [:],
    assets: AssetCatalog = .empty, files: [AssetFileKey: Data] = [:]
) -> LoadedTheme {
    var axes = TraitAxes()
    for traits in variants.keys { axes.insert(traits) }
    var all: [TraitSet: [ResolvedInstance]] = [:]
    for traits in axes.traitSets { all[traits] = variants[traits] ?? instances }
    all[.none] = instances
    return LoadedTheme(
        variants: ThemeVariants(
            info: ThemeInfo(id: id, name: id), ancestors: [], axes: axes, variants: all, assets: assets),
        assets: InMemoryAssetSource(files: files), origin: .memory)
}

@MainActor
func makeApplicator(_ themes: LoadedTheme..., activate: String? = nil) -> (ThemeManager, Applicator) {
    let manager = ThemeManager()
    for theme in themes { manager.add(theme) }
    if let activate { manager.activate(themeID: activate) }
    return (manager, Applicator(manager: manager, bindings: StandardBindings.register(in:)))
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
    binding.bind(
        "fill", get: { $0.fill },
        set: {
            $0.counter.sets["fill", default: 0] += 1
            $0.fill = $1
        })
    binding.bind(
        "stroke", get: { $0.stroke },
        set: {
            $0.counter.sets["stroke", default: 0] += 1
            $0.stroke = $1
        })
    binding.bind(
        "label", get: { $0.label },
        set: {
            $0.counter.sets["label", default: 0] += 1
            $0.label = $1
        })
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

// MARK: Sample themes

/// The repository's `Themes/` folder.
let themesFolder: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("Themes").path
}()

enum TailStyle: String, ThemeValueConvertible {
    case none, round, pointed
}

/// The sample themes' custom component, as an app would write it.
@MainActor
final class ChatBubble: View {
    var bubbleColors = PerState<Color>()
    var tailStyle = TailStyle.none
    var textInsets = Insets(top: 0, left: 0, bottom: 0, right: 0)
}

/// `extends: "uiview"`, as an app writes it: the binding, not the schema, says what it inherits
/// (a release build has no schema).
@MainActor
func chatBubbleBinding(extends parent: String? = "uiview") -> ComponentBinding<ChatBubble> {
    var binding = ComponentBinding<ChatBubble>("chatbubble", extends: parent)
    binding.bindPerState(
        "bubbleColor", get: { $0.bubbleColors.value(for: $1) }, set: { $0.bubbleColors.set($1, for: $2) })
    binding.bind("tailStyle", \.tailStyle)
    binding.bind("textInsets", \.textInsets)
    return binding
}

/// A fresh component of the Swift class bound to a component type.
@MainActor
func makeComponent(_ type: String) -> View {
    type == "chatbubble" ? ChatBubble() : StandardBindings.makeComponent(ofType: type) ?? View()
}

/// What a property holds, read independently of the bindings (so a wrong setter shows up).
enum Readback: Equatable {
    case value(Value?)
    case image(name: String?, theme: String?, file: String?)

    init(image: ThemeImage?) {
        self = .image(name: image?.name, theme: image?.themeID, file: image?.file)
    }
}

@MainActor
func readBack(_ object: View, _ operation: String, _ state: ControlState) -> Readback? {
    func v(_ value: Value?) -> Readback { .value(value) }
    func c(_ color: Color?) -> Readback { .value(color.map(Value.color)) }
    func f(_ font: Font?) -> Readback { .value(font.map(Value.font)) }
    func e(_ text: String) -> Readback { .value(.enumeration(text)) }
    switch (object, operation) {
    case (let o as Button, "titleColor"): return c(o.titleColors.value(for: state))
    case (let o as Button, "title"): return v(o.titles.value(for: state).map(Value.string))
    case (let o as Button, "image"): return Readback(image: o.images.value(for: state))
    case (let o as Button, "backgroundImage"): return Readback(image: o.backgroundImages.value(for: state))
    case (let o as Button, "titleFont"): return f(o.titleFont)
    case (let o as Button, "contentEdgeInsets"): return v(.insets(o.contentEdgeInsets))
    case (let o as Slider, "thumbImage"): return Readback(image: o.thumbImages.value(for: state))
    case (let o as ChatBubble, "bubbleColor"): return c(o.bubbleColors.value(for: state))
    case _ where state != .normal: return nil
    case (let o as Label, "textColor"): return c(o.textColor)
    case (let o as Label, "font"): return f(o.font)
    case (let o as Label, "textAlignment"): return e(o.textAlignment.rawValue)
    case (let o as Label, "numberOfLines"): return v(.integer(Int64(o.numberOfLines)))
    case (let o as Label, "text"): return v(o.text.map(Value.string))
    case (let o as ImageView, "image"): return Readback(image: o.image)
    case (let o as ImageView, "contentMode"): return e(o.contentMode.rawValue)
    case (let o as Switch, "onTintColor"): return c(o.onTintColor)
    case (let o as Switch, "thumbTintColor"): return c(o.thumbTintColor)
    case (let o as Slider, "minimumTrackTintColor"): return c(o.minimumTrackTintColor)
    case (let o as Slider, "maximumTrackTintColor"): return c(o.maximumTrackTintColor)
    case (let o as Slider, "thumbTintColor"): return c(o.thumbTintColor)
    case (let o as ProgressView, "progressTintColor"): return c(o.progressTintColor)
    case (let o as ProgressView, "trackTintColor"): return c(o.trackTintColor)
    case (let o as TextField, "textColor"): return c(o.textColor)
    case (let o as TextField, "font"): return f(o.font)
    case (let o as TextField, "textAlignment"): return e(o.textAlignment.rawValue)
    case (let o as TextField, "placeholderColor"): return c(o.placeholderColor)
    case (let o as TextField, "borderStyle"): return e(o.borderStyle.rawValue)
    case (let o as TextView, "textColor"): return c(o.textColor)
    case (let o as TextView, "font"): return f(o.font)
    case (let o as TextView, "textAlignment"): return e(o.textAlignment.rawValue)
    case (let o as TextView, "textContainerInset"): return v(.insets(o.textContainerInset))
    case (let o as NavigationBar, "barTintColor"): return c(o.barTintColor)
    case (let o as NavigationBar, "titleColor"): return c(o.titleColor)
    case (let o as NavigationBar, "titleFont"): return f(o.titleFont)
    case (let o as NavigationBar, "backgroundImage"): return Readback(image: o.backgroundImage)
    case (let o as NavigationBar, "translucent"): return v(.bool(o.isTranslucent))
    case (let o as ChatBubble, "tailStyle"): return e(o.tailStyle.rawValue)
    case (let o as ChatBubble, "textInsets"): return v(.insets(o.textInsets))
    case (let o, "frame"): return v(.rect(o.frame))
    case (let o, "backgroundColor"): return c(o.backgroundColor)
    case (let o, "cornerRadius"): return v(.float(o.cornerRadius))
    case (let o, "borderColor"): return c(o.borderColor)
    case (let o, "borderWidth"): return v(.float(o.borderWidth))
    case (let o, "alpha"): return v(.float(o.alpha))
    case (let o, "hidden"): return v(.bool(o.isHidden))
    case (let o, "tintColor"): return c(o.tintColor)
    case (let o, "clipsToBounds"): return v(.bool(o.clipsToBounds))
    case (let o, "shadowColor"): return c(o.shadowColor)
    case (let o, "shadowOpacity"): return v(.float(o.shadowOpacity))
    case (let o, "shadowRadius"): return v(.float(o.shadowRadius))
    case (let o, "shadowOffset"): return v(.size(o.shadowOffset))
    default: return nil
    }
}

/// What the dump says a property must hold: the value, or for images the file picked.
func expected(_ value: Value, theme: ResolvedTheme, scale: Int) -> Readback {
    guard case .image(let reference) = value else { return .value(value) }
    let file = theme.assets.select(reference.name, traits: theme.traits, scale: scale)
    return .image(name: reference.name, theme: file?.themeID, file: file?.file)
}
