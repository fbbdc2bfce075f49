import Livery
import LiveryModel

/// Headless reference components: plain Swift objects with the properties the standard schema
/// names, used by the tests, the benchmarks and the chat example. They show how a binding maps
/// a theme onto a toolkit, without any toolkit; defaults follow UIKit's.
///
/// Their properties are `@exclusivity(unchecked)`. Invariant: every access is a single load or
/// store made on the main actor (the components are `@MainActor`), and no access spans a call, so
/// no two accesses to one property can overlap and the dynamic check could never fire. They stand
/// in for toolkit properties (UIKit's are Objective-C, with no Swift exclusivity check); with the
/// check on, every themed write calls into Swift's runtime, which the warm-switch row of
/// `livery-bench runtime` shows, and the benchmark would measure that bookkeeping, not the engine.

/// The `uiview` of the standard schema. Open so that apps (and the chat example's bubble)
/// can build their own components on it.
@MainActor
open class View {
    /// A name for printing the tree; not themed.
    public var name: String
    public private(set) var subviews: [View] = []
    public private(set) weak var superview: View?

    @exclusivity(unchecked) public var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    @exclusivity(unchecked) public var backgroundColor: Color?
    @exclusivity(unchecked) public var cornerRadius: Double = 0
    @exclusivity(unchecked) public var borderColor: Color?
    @exclusivity(unchecked) public var borderWidth: Double = 0
    @exclusivity(unchecked) public var alpha: Double = 1
    @exclusivity(unchecked) public var isHidden = false
    @exclusivity(unchecked) public var tintColor: Color?
    @exclusivity(unchecked) public var clipsToBounds = false
    @exclusivity(unchecked) public var shadowColor: Color?
    @exclusivity(unchecked) public var shadowOpacity: Double = 0
    @exclusivity(unchecked) public var shadowRadius: Double = 3
    @exclusivity(unchecked) public var shadowOffset = Size(width: 0, height: -3)

    public init(name: String = "") {
        self.name = name
    }

    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// This view and every view below it, depth first.
    public var subtree: [View] { [self] + subviews.flatMap(\.subtree) }
}

/// The `uilabel` of the standard schema.
@MainActor
open class Label: View {
    @exclusivity(unchecked) public var text: String?
    @exclusivity(unchecked) public var textColor: Color?
    @exclusivity(unchecked) public var font: Font?
    @exclusivity(unchecked) public var textAlignment = TextAlignment.natural
    @exclusivity(unchecked) public var numberOfLines = 1
}

/// Values that differ per control state, as UIKit buttons keep them. `value(for:)` reads
/// exactly what was set for a state (what revert needs); `resolved(for:)` falls back to
/// `normal` the way a control displays it.
///
/// The normal state's value has a field of its own and the few others a small list, so a state
/// lookup hashes nothing (the first-application row of `livery-bench report` shows it).
public struct PerState<Value: Sendable>: Sendable {
    private var normal: Value?
    private var others: [(state: ControlState, value: Value)] = []
    public init() {}

    /// Every state's value.
    public var values: [ControlState: Value] {
        var all = Dictionary(uniqueKeysWithValues: others.map { ($0.state, $0.value) })
        if let normal { all[.normal] = normal }
        return all
    }

    public func value(for state: ControlState) -> Value? {
        if state == .normal { return normal }
        for entry in others where entry.state == state { return entry.value }
        return nil
    }

    public func resolved(for state: ControlState) -> Value? { value(for: state) ?? normal }

    public mutating func set(_ value: Value?, for state: ControlState) {
        if state == .normal {
            normal = value
            return
        }
        if let index = others.firstIndex(where: { $0.state == state }) {
            if let value { others[index].value = value } else { others.remove(at: index) }
        } else if let value {
            others.append((state, value))
        }
    }
}

/// The `uibutton` of the standard schema: title, title colour and images per state.
@MainActor
open class Button: View {
    /// The state the button displays (`current...` accessors follow it).
    @exclusivity(unchecked) public var state = ControlState.normal
    @exclusivity(unchecked) public var titles = PerState<String>()
    @exclusivity(unchecked) public var titleColors = PerState<Color>()
    @exclusivity(unchecked) public var images = PerState<ThemeImage>()
    @exclusivity(unchecked) public var backgroundImages = PerState<ThemeImage>()
    @exclusivity(unchecked) public var titleFont: Font?
    @exclusivity(unchecked) public var contentEdgeInsets = Insets(top: 0, left: 0, bottom: 0, right: 0)

    public var currentTitle: String? { titles.resolved(for: state) }
    public var currentTitleColor: Color? { titleColors.resolved(for: state) }
    public var currentImage: ThemeImage? { images.resolved(for: state) }
    public var currentBackgroundImage: ThemeImage? { backgroundImages.resolved(for: state) }
}

/// The `uiimageview` of the standard schema.
@MainActor
open class ImageView: View {
    @exclusivity(unchecked) public var image: ThemeImage?
    @exclusivity(unchecked) public var contentMode = ContentMode.scaleToFill
}

/// The `uiswitch` of the standard schema.
@MainActor
open class Switch: View {
    @exclusivity(unchecked) public var isOn = false
    @exclusivity(unchecked) public var onTintColor: Color?
    @exclusivity(unchecked) public var thumbTintColor: Color?
}

/// The `uislider` of the standard schema; the thumb image differs per state.
@MainActor
open class Slider: View {
    @exclusivity(unchecked) public var value: Double = 0
    @exclusivity(unchecked) public var minimumTrackTintColor: Color?
    @exclusivity(unchecked) public var maximumTrackTintColor: Color?
    @exclusivity(unchecked) public var thumbTintColor: Color?
    @exclusivity(unchecked) public var thumbImages = PerState<ThemeImage>()
}

/// The `uiprogressview` of the standard schema.
@MainActor
open class ProgressView: View {
    @exclusivity(unchecked) public var progress: Double = 0
    @exclusivity(unchecked) public var progressTintColor: Color?
    @exclusivity(unchecked) public var trackTintColor: Color?
}

/// The `uitextfield` of the standard schema.
@MainActor
open class TextField: View {
    @exclusivity(unchecked) public var text: String?
    @exclusivity(unchecked) public var placeholder: String?
    @exclusivity(unchecked) public var textColor: Color?
    @exclusivity(unchecked) public var font: Font?
    @exclusivity(unchecked) public var textAlignment = TextAlignment.natural
    @exclusivity(unchecked) public var placeholderColor: Color?
    @exclusivity(unchecked) public var borderStyle = BorderStyle.none
}

/// The `uitextview` of the standard schema.
@MainActor
open class TextView: View {
    @exclusivity(unchecked) public var text: String?
    @exclusivity(unchecked) public var textColor: Color?
    @exclusivity(unchecked) public var font: Font?
    @exclusivity(unchecked) public var textAlignment = TextAlignment.natural
    @exclusivity(unchecked) public var textContainerInset = Insets(top: 8, left: 0, bottom: 8, right: 0)
}

/// The `uinavigationbar` of the standard schema.
@MainActor
open class NavigationBar: View {
    @exclusivity(unchecked) public var title: String?
    @exclusivity(unchecked) public var barTintColor: Color?
    @exclusivity(unchecked) public var titleColor: Color?
    @exclusivity(unchecked) public var titleFont: Font?
    @exclusivity(unchecked) public var backgroundImage: ThemeImage?
    @exclusivity(unchecked) public var isTranslucent = true
}
