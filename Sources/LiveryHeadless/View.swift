import Livery
import LiveryModel

/// Headless reference components: plain Swift objects with the properties the standard schema
/// names, used by the tests, the benchmarks and the chat example. They show how a binding maps
/// a theme onto a toolkit, without any toolkit; defaults follow UIKit's.
///
/// Their properties are plain stored properties, with Swift's exclusivity checks, like any
/// app's own component: the runtime benchmarks measure the engine driving ordinary Swift code.

/// The `uiview` of the standard schema. Open so that apps (and the chat example's bubble)
/// can build their own components on it.
@MainActor
open class View {
    /// A name for printing the tree; not themed.
    public var name: String
    public private(set) var subviews: [View] = []
    public private(set) weak var superview: View?

    public var frame = Rect(x: 0, y: 0, width: 0, height: 0)
    public var backgroundColor: Color?
    public var cornerRadius: Double = 0
    public var borderColor: Color?
    public var borderWidth: Double = 0
    public var alpha: Double = 1
    public var isHidden = false
    public var tintColor: Color?
    public var clipsToBounds = false
    public var shadowColor: Color?
    public var shadowOpacity: Double = 0
    public var shadowRadius: Double = 3
    public var shadowOffset = Size(width: 0, height: -3)

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
    public var text: String?
    public var textColor: Color?
    public var font: Font?
    public var textAlignment = TextAlignment.natural
    public var numberOfLines = 1
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
    public var state = ControlState.normal
    public var titles = PerState<String>()
    public var titleColors = PerState<Color>()
    public var images = PerState<ThemeImage>()
    public var backgroundImages = PerState<ThemeImage>()
    public var titleFont: Font?
    public var contentEdgeInsets = Insets(top: 0, left: 0, bottom: 0, right: 0)

    public var currentTitle: String? { titles.resolved(for: state) }
    public var currentTitleColor: Color? { titleColors.resolved(for: state) }
    public var currentImage: ThemeImage? { images.resolved(for: state) }
    public var currentBackgroundImage: ThemeImage? { backgroundImages.resolved(for: state) }
}

/// The `uiimageview` of the standard schema.
@MainActor
open class ImageView: View {
    public var image: ThemeImage?
    public var contentMode = ContentMode.scaleToFill
}

/// The `uiswitch` of the standard schema.
@MainActor
open class Switch: View {
    public var isOn = false
    public var onTintColor: Color?
    public var thumbTintColor: Color?
}

/// The `uislider` of the standard schema; the thumb image differs per state.
@MainActor
open class Slider: View {
    public var value: Double = 0
    public var minimumTrackTintColor: Color?
    public var maximumTrackTintColor: Color?
    public var thumbTintColor: Color?
    public var thumbImages = PerState<ThemeImage>()
}

/// The `uiprogressview` of the standard schema.
@MainActor
open class ProgressView: View {
    public var progress: Double = 0
    public var progressTintColor: Color?
    public var trackTintColor: Color?
}

/// The `uitextfield` of the standard schema.
@MainActor
open class TextField: View {
    public var text: String?
    public var placeholder: String?
    public var textColor: Color?
    public var font: Font?
    public var textAlignment = TextAlignment.natural
    public var placeholderColor: Color?
    public var borderStyle = BorderStyle.none
}

/// The `uitextview` of the standard schema.
@MainActor
open class TextView: View {
    public var text: String?
    public var textColor: Color?
    public var font: Font?
    public var textAlignment = TextAlignment.natural
    public var textContainerInset = Insets(top: 8, left: 0, bottom: 8, right: 0)
}

/// The `uinavigationbar` of the standard schema.
@MainActor
open class NavigationBar: View {
    public var title: String?
    public var barTintColor: Color?
    public var titleColor: Color?
    public var titleFont: Font?
    public var backgroundImage: ThemeImage?
    public var isTranslucent = true
}
