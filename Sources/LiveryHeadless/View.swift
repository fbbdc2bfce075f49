import Livery
import LiveryModel

/// Headless reference components: plain Swift objects with the properties the standard schema
/// names, used by the tests, the benchmarks and the chat example. They show how a binding maps
/// a theme onto a toolkit, without any toolkit; defaults follow UIKit's.
//
// Every themed property is public and computed, over a private stored property that is
// `@exclusivity(unchecked)`. Invariant that makes the unchecked storage safe: it is private, so
// only its own accessors touch it; each accessor is a single load or store (or, for `PerState`
// values, one `_modify` yield whose caller mutates the value and returns without calling out),
// made on the main actor (the components are `@MainActor`), so no two accesses to one property
// can overlap and the dynamic check could never fire. The components stand in for toolkit
// properties, which have no Swift exclusivity check (UIKit's are Objective-C): with the check
// on, every themed write would call into Swift's runtime, and the warm switch of
// `livery-switch-bench` would measure that bookkeeping, not the engine. The public accessors are
// `final`, so the module's bindings call them directly.

/// The `uiview` of the standard schema. Open so that apps (and the chat example's bubble)
/// can build their own components on it.
@MainActor
open class View {
    /// A name for printing the tree; not themed.
    public var name: String
    public private(set) var subviews: [View] = []
    public private(set) weak var superview: View?

    @exclusivity(unchecked) private var storedFrame: Rect = Rect(x: 0, y: 0, width: 0, height: 0)
    public final var frame: Rect {
        get { storedFrame }
        set { storedFrame = newValue }
    }
    @exclusivity(unchecked) private var storedBackgroundColor: Color?
    public final var backgroundColor: Color? {
        get { storedBackgroundColor }
        set { storedBackgroundColor = newValue }
    }
    @exclusivity(unchecked) private var storedCornerRadius: Double = 0
    public final var cornerRadius: Double {
        get { storedCornerRadius }
        set { storedCornerRadius = newValue }
    }
    @exclusivity(unchecked) private var storedBorderColor: Color?
    public final var borderColor: Color? {
        get { storedBorderColor }
        set { storedBorderColor = newValue }
    }
    @exclusivity(unchecked) private var storedBorderWidth: Double = 0
    public final var borderWidth: Double {
        get { storedBorderWidth }
        set { storedBorderWidth = newValue }
    }
    @exclusivity(unchecked) private var storedAlpha: Double = 1
    public final var alpha: Double {
        get { storedAlpha }
        set { storedAlpha = newValue }
    }
    @exclusivity(unchecked) private var storedIsHidden: Bool = false
    public final var isHidden: Bool {
        get { storedIsHidden }
        set { storedIsHidden = newValue }
    }
    @exclusivity(unchecked) private var storedTintColor: Color?
    public final var tintColor: Color? {
        get { storedTintColor }
        set { storedTintColor = newValue }
    }
    @exclusivity(unchecked) private var storedClipsToBounds: Bool = false
    public final var clipsToBounds: Bool {
        get { storedClipsToBounds }
        set { storedClipsToBounds = newValue }
    }
    @exclusivity(unchecked) private var storedShadowColor: Color?
    public final var shadowColor: Color? {
        get { storedShadowColor }
        set { storedShadowColor = newValue }
    }
    @exclusivity(unchecked) private var storedShadowOpacity: Double = 0
    public final var shadowOpacity: Double {
        get { storedShadowOpacity }
        set { storedShadowOpacity = newValue }
    }
    @exclusivity(unchecked) private var storedShadowRadius: Double = 3
    public final var shadowRadius: Double {
        get { storedShadowRadius }
        set { storedShadowRadius = newValue }
    }
    @exclusivity(unchecked) private var storedShadowOffset: Size = Size(width: 0, height: -3)
    public final var shadowOffset: Size {
        get { storedShadowOffset }
        set { storedShadowOffset = newValue }
    }

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
    @exclusivity(unchecked) private var storedText: String?
    public final var text: String? {
        get { storedText }
        set { storedText = newValue }
    }
    @exclusivity(unchecked) private var storedTextColor: Color?
    public final var textColor: Color? {
        get { storedTextColor }
        set { storedTextColor = newValue }
    }
    @exclusivity(unchecked) private var storedFont: Font?
    public final var font: Font? {
        get { storedFont }
        set { storedFont = newValue }
    }
    @exclusivity(unchecked) private var storedTextAlignment: TextAlignment = TextAlignment.natural
    public final var textAlignment: TextAlignment {
        get { storedTextAlignment }
        set { storedTextAlignment = newValue }
    }
    @exclusivity(unchecked) private var storedNumberOfLines: Int = 1
    public final var numberOfLines: Int {
        get { storedNumberOfLines }
        set { storedNumberOfLines = newValue }
    }
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
    @exclusivity(unchecked) private var storedState: ControlState = ControlState.normal
    public final var state: ControlState {
        get { storedState }
        set { storedState = newValue }
    }
    @exclusivity(unchecked) private var storedTitles: PerState<String> = PerState<String>()
    public final var titles: PerState<String> {
        get { storedTitles }
        set { storedTitles = newValue }
        _modify { yield &storedTitles }
    }
    @exclusivity(unchecked) private var storedTitleColors: PerState<Color> = PerState<Color>()
    public final var titleColors: PerState<Color> {
        get { storedTitleColors }
        set { storedTitleColors = newValue }
        _modify { yield &storedTitleColors }
    }
    @exclusivity(unchecked) private var storedImages: PerState<ThemeImage> = PerState<ThemeImage>()
    public final var images: PerState<ThemeImage> {
        get { storedImages }
        set { storedImages = newValue }
        _modify { yield &storedImages }
    }
    @exclusivity(unchecked) private var storedBackgroundImages: PerState<ThemeImage> = PerState<ThemeImage>()
    public final var backgroundImages: PerState<ThemeImage> {
        get { storedBackgroundImages }
        set { storedBackgroundImages = newValue }
        _modify { yield &storedBackgroundImages }
    }
    @exclusivity(unchecked) private var storedTitleFont: Font?
    public final var titleFont: Font? {
        get { storedTitleFont }
        set { storedTitleFont = newValue }
    }
    @exclusivity(unchecked) private var storedContentEdgeInsets: Insets = Insets(top: 0, left: 0, bottom: 0, right: 0)
    public final var contentEdgeInsets: Insets {
        get { storedContentEdgeInsets }
        set { storedContentEdgeInsets = newValue }
    }

    public var currentTitle: String? { titles.resolved(for: state) }
    public var currentTitleColor: Color? { titleColors.resolved(for: state) }
    public var currentImage: ThemeImage? { images.resolved(for: state) }
    public var currentBackgroundImage: ThemeImage? { backgroundImages.resolved(for: state) }
}

/// The `uiimageview` of the standard schema.
@MainActor
open class ImageView: View {
    @exclusivity(unchecked) private var storedImage: ThemeImage?
    public final var image: ThemeImage? {
        get { storedImage }
        set { storedImage = newValue }
    }
    @exclusivity(unchecked) private var storedContentMode: ContentMode = ContentMode.scaleToFill
    public final var contentMode: ContentMode {
        get { storedContentMode }
        set { storedContentMode = newValue }
    }
}

/// The `uiswitch` of the standard schema.
@MainActor
open class Switch: View {
    @exclusivity(unchecked) private var storedIsOn: Bool = false
    public final var isOn: Bool {
        get { storedIsOn }
        set { storedIsOn = newValue }
    }
    @exclusivity(unchecked) private var storedOnTintColor: Color?
    public final var onTintColor: Color? {
        get { storedOnTintColor }
        set { storedOnTintColor = newValue }
    }
    @exclusivity(unchecked) private var storedThumbTintColor: Color?
    public final var thumbTintColor: Color? {
        get { storedThumbTintColor }
        set { storedThumbTintColor = newValue }
    }
}

/// The `uislider` of the standard schema; the thumb image differs per state.
@MainActor
open class Slider: View {
    @exclusivity(unchecked) private var storedValue: Double = 0
    public final var value: Double {
        get { storedValue }
        set { storedValue = newValue }
    }
    @exclusivity(unchecked) private var storedMinimumTrackTintColor: Color?
    public final var minimumTrackTintColor: Color? {
        get { storedMinimumTrackTintColor }
        set { storedMinimumTrackTintColor = newValue }
    }
    @exclusivity(unchecked) private var storedMaximumTrackTintColor: Color?
    public final var maximumTrackTintColor: Color? {
        get { storedMaximumTrackTintColor }
        set { storedMaximumTrackTintColor = newValue }
    }
    @exclusivity(unchecked) private var storedThumbTintColor: Color?
    public final var thumbTintColor: Color? {
        get { storedThumbTintColor }
        set { storedThumbTintColor = newValue }
    }
    @exclusivity(unchecked) private var storedThumbImages: PerState<ThemeImage> = PerState<ThemeImage>()
    public final var thumbImages: PerState<ThemeImage> {
        get { storedThumbImages }
        set { storedThumbImages = newValue }
        _modify { yield &storedThumbImages }
    }
}

/// The `uiprogressview` of the standard schema.
@MainActor
open class ProgressView: View {
    @exclusivity(unchecked) private var storedProgress: Double = 0
    public final var progress: Double {
        get { storedProgress }
        set { storedProgress = newValue }
    }
    @exclusivity(unchecked) private var storedProgressTintColor: Color?
    public final var progressTintColor: Color? {
        get { storedProgressTintColor }
        set { storedProgressTintColor = newValue }
    }
    @exclusivity(unchecked) private var storedTrackTintColor: Color?
    public final var trackTintColor: Color? {
        get { storedTrackTintColor }
        set { storedTrackTintColor = newValue }
    }
}

/// The `uitextfield` of the standard schema.
@MainActor
open class TextField: View {
    @exclusivity(unchecked) private var storedText: String?
    public final var text: String? {
        get { storedText }
        set { storedText = newValue }
    }
    @exclusivity(unchecked) private var storedPlaceholder: String?
    public final var placeholder: String? {
        get { storedPlaceholder }
        set { storedPlaceholder = newValue }
    }
    @exclusivity(unchecked) private var storedTextColor: Color?
    public final var textColor: Color? {
        get { storedTextColor }
        set { storedTextColor = newValue }
    }
    @exclusivity(unchecked) private var storedFont: Font?
    public final var font: Font? {
        get { storedFont }
        set { storedFont = newValue }
    }
    @exclusivity(unchecked) private var storedTextAlignment: TextAlignment = TextAlignment.natural
    public final var textAlignment: TextAlignment {
        get { storedTextAlignment }
        set { storedTextAlignment = newValue }
    }
    @exclusivity(unchecked) private var storedPlaceholderColor: Color?
    public final var placeholderColor: Color? {
        get { storedPlaceholderColor }
        set { storedPlaceholderColor = newValue }
    }
    @exclusivity(unchecked) private var storedBorderStyle: BorderStyle = BorderStyle.none
    public final var borderStyle: BorderStyle {
        get { storedBorderStyle }
        set { storedBorderStyle = newValue }
    }
}

/// The `uitextview` of the standard schema.
@MainActor
open class TextView: View {
    @exclusivity(unchecked) private var storedText: String?
    public final var text: String? {
        get { storedText }
        set { storedText = newValue }
    }
    @exclusivity(unchecked) private var storedTextColor: Color?
    public final var textColor: Color? {
        get { storedTextColor }
        set { storedTextColor = newValue }
    }
    @exclusivity(unchecked) private var storedFont: Font?
    public final var font: Font? {
        get { storedFont }
        set { storedFont = newValue }
    }
    @exclusivity(unchecked) private var storedTextAlignment: TextAlignment = TextAlignment.natural
    public final var textAlignment: TextAlignment {
        get { storedTextAlignment }
        set { storedTextAlignment = newValue }
    }
    @exclusivity(unchecked) private var storedTextContainerInset: Insets = Insets(top: 8, left: 0, bottom: 8, right: 0)
    public final var textContainerInset: Insets {
        get { storedTextContainerInset }
        set { storedTextContainerInset = newValue }
    }
}

/// The `uinavigationbar` of the standard schema.
@MainActor
open class NavigationBar: View {
    @exclusivity(unchecked) private var storedTitle: String?
    public final var title: String? {
        get { storedTitle }
        set { storedTitle = newValue }
    }
    @exclusivity(unchecked) private var storedBarTintColor: Color?
    public final var barTintColor: Color? {
        get { storedBarTintColor }
        set { storedBarTintColor = newValue }
    }
    @exclusivity(unchecked) private var storedTitleColor: Color?
    public final var titleColor: Color? {
        get { storedTitleColor }
        set { storedTitleColor = newValue }
    }
    @exclusivity(unchecked) private var storedTitleFont: Font?
    public final var titleFont: Font? {
        get { storedTitleFont }
        set { storedTitleFont = newValue }
    }
    @exclusivity(unchecked) private var storedBackgroundImage: ThemeImage?
    public final var backgroundImage: ThemeImage? {
        get { storedBackgroundImage }
        set { storedBackgroundImage = newValue }
    }
    @exclusivity(unchecked) private var storedIsTranslucent: Bool = true
    public final var isTranslucent: Bool {
        get { storedIsTranslucent }
        set { storedIsTranslucent = newValue }
    }
}
