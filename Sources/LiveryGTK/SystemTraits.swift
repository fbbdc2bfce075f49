import CGTK
import Livery

/// Where the desktop's dark mode and high contrast are read from: `GTKSettingsAppearance` (GTK's
/// own settings) by default, `AdwaitaAppearance` (the `LiveryAdwaita` product) in a libadwaita app.
@MainActor
public protocol SystemAppearanceSource: AnyObject {
    /// Whether the desktop asks for dark mode now.
    var prefersDark: Bool { get }
    /// Whether the desktop asks for high contrast now.
    var prefersHighContrast: Bool { get }
    /// Calls `changed` after every change of either, until `stopObserving()`.
    /// - Parameter changed: what to call; the source reads the new values from itself.
    func startObserving(_ changed: @escaping @MainActor () -> Void)
    /// Stops calling the closure given to `startObserving(_:)`.
    func stopObserving()
}

/// Dark mode and high contrast from `GtkSettings`: dark when `gtk-application-prefer-dark-theme`
/// is on or the GTK theme's name ends in `-dark` (`Adwaita-dark`); high contrast when the theme's
/// name starts with `HighContrast` (`HighContrastInverse` is dark as well).
@MainActor
public final class GTKSettingsAppearance: SystemAppearanceSource {
    private let settings: UnsafeMutableRawPointer
    private var handlers = SignalHandlers()
    private var changed: (@MainActor () -> Void)?

    /// Reads the settings of the default display; nil before GTK is initialised.
    public init?() {
        guard let settings = gtk_settings_get_default() else { return nil }
        self.settings = UnsafeMutableRawPointer(settings)
    }

    private var themeName: String {
        guard let name = livery_get_string_property(settings, "gtk-theme-name") else { return "" }
        defer { g_free(name) }
        return String(cString: name)
    }

    public var prefersDark: Bool {
        let name = themeName.lowercased()
        return livery_get_bool_property(settings, "gtk-application-prefer-dark-theme") != 0 || name.hasSuffix("-dark")
            || name == "highcontrastinverse"
    }

    public var prefersHighContrast: Bool { themeName.lowercased().hasPrefix("highcontrast") }

    public func startObserving(_ changed: @escaping @MainActor () -> Void) {
        self.changed = changed
        for property in ["notify::gtk-application-prefer-dark-theme", "notify::gtk-theme-name"] {
            handlers.connect(settings, property) { [weak self] in self?.changed?() }
        }
    }

    public func stopObserving() {
        handlers.disconnectAll()
        changed = nil
    }

    isolated deinit {
        handlers.disconnectAll()
    }
}

/// The desktop's settings reach the theme live, with no other code in the app: dark mode and
/// high contrast (from a `SystemAppearanceSource`), the desktop's text scaling (`GtkSettings`'
/// `gtk-xft-dpi` relative to 96 dpi), the window's scale factor, its layout direction (GTK's
/// default direction, which follows the user interface language, or the window's own) and, given
/// a scope to write it to, the desktop's accent colour (the XDG settings portal's `accent-color`)
/// as the value of an overridable colour constant.
///
/// ```swift
/// let system = GTKSystemTraits.follow(manager, window: window, accentScope: applicator.rootScope)
/// system.appearanceOverride = .dark                               // the app's choice wins
/// system.accentOverride = Color(red: 0.9, green: 0.2, blue: 0.4)  // the user's own accent wins too
/// ```
///
/// Each aspect the app overrides, or leaves out of `aspects`, is the app's: the follower never
/// sets it. Releasing the follower (or `stop()`) stops following; the traits stay as they are.
///
/// The accent rule: the follower writes `accentOverride`, else the desktop's accent, to
/// `accentScope`'s value of `accentConstant`. When there is neither (no portal, no accent picked
/// on the desktop, or a value outside 0...1), it writes nothing: a value the app set on the scope
/// itself stays, and only a value the follower wrote is taken back (the theme's own accent
/// returns).
@MainActor
public final class GTKSystemTraits {
    /// What the follower maps from the desktop.
    public struct Aspects: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Dark mode to the `dark` appearance trait.
        public static let appearance = Aspects(rawValue: 1)
        /// High contrast to the `highcontrast` trait.
        public static let contrast = Aspects(rawValue: 2)
        /// The desktop's text scaling to `setTextSize(scale:largeText:)`.
        public static let textSize = Aspects(rawValue: 4)
        /// The window's scale factor to the scale images are picked for.
        public static let scale = Aspects(rawValue: 8)
        /// The layout direction (the window's, else GTK's default) to the `ltr`/`rtl` trait.
        public static let direction = Aspects(rawValue: 16)
        /// The desktop's accent colour to an overridable constant (given `accentScope`).
        public static let accent = Aspects(rawValue: 32)
        /// Every aspect.
        public static let all: Aspects = [.appearance, .contrast, .textSize, .scale, .direction, .accent]
    }

    /// What the desktop says now.
    public struct Settings: Hashable, Sendable {
        /// Dark mode is asked for.
        public var dark: Bool
        /// High contrast is asked for.
        public var highContrast: Bool
        /// The text scale: `gtk-xft-dpi` / (96 x 1024), 1 when GTK has no value.
        public var textScale: Double
        /// The window's scale factor, 1 without a window.
        public var scaleFactor: Int
        /// The layout direction: the window's (`gtk_widget_get_direction`), else GTK's default
        /// (`gtk_widget_get_default_direction`, from the user interface language).
        public var direction: LayoutDirection = .ltr
        /// The desktop's accent colour (the settings portal's `accent-color`); nil when the desktop
        /// has none, has no portal, or the follower reads no accent (no `accentScope`).
        public var accent: Color? = nil
    }

    /// From this text scale on, the `largetext` trait is on (unless `largeTextOverride` says).
    public static let largeTextThreshold = 1.25

    /// The manager the desktop's settings are mapped to.
    public let manager: ThemeManager
    /// The aspects followed.
    public let aspects: Aspects
    /// Where dark mode and high contrast come from.
    public let appearanceSource: any SystemAppearanceSource
    /// The scope whose value of `accentConstant` follows the desktop's accent; nil follows none.
    public let accentScope: ThemeScope?
    /// The overridable colour constant the accent is written to (`accent` in the sample themes).
    public let accentConstant: String

    /// The app's appearance, whatever the desktop says; nil follows the desktop.
    public var appearanceOverride: Appearance? { didSet { apply() } }
    /// The app's contrast (true: `highcontrast`), whatever the desktop says; nil follows it.
    public var highContrastOverride: Bool? { didSet { apply() } }
    /// The app's text scale, whatever the desktop says; nil follows it.
    public var textScaleOverride: Double? { didSet { apply() } }
    /// Whether `largetext` is on, whatever the text scale; nil: on from `largeTextThreshold`.
    public var largeTextOverride: Bool? { didSet { apply() } }
    /// The app's display scale, whatever the window's scale factor; nil follows the window.
    public var scaleOverride: Int? { didSet { apply() } }
    /// The app's layout direction, whatever GTK says; nil follows the window (or GTK's default).
    public var directionOverride: LayoutDirection? { didSet { apply() } }
    /// The app's accent colour (the user's pick in the app), whatever the desktop's; nil follows
    /// the desktop.
    public var accentOverride: Color? { didSet { apply() } }

    private let settings: UnsafeMutableRawPointer?
    private var window: UnsafeMutablePointer<GtkWidget>?
    private var handlers = SignalHandlers()
    private var isFollowing = true
    /// Reads the desktop's accent; nil when no accent is followed or there is no session bus.
    private var portal: PortalAccentColor?
    /// The value the follower last wrote to the accent constant: the only one it takes back.
    private var writtenAccent: Color?

    /// Starts following: applies the desktop's settings now and after every change, as long as
    /// the returned object is kept. `window` gives the scale factor; `appearanceSource` defaults
    /// to `GTKSettingsAppearance`. Call it after GTK is initialised.
    /// - Parameters:
    ///   - manager: the manager whose traits, text scale and scale follow the desktop.
    ///   - window: the window whose scale factor is followed; nil leaves the scale at 1.
    ///   - aspects: what is followed; the others are the app's.
    ///   - appearanceSource: where dark mode and high contrast come from.
    ///   - accentScope: the scope (the applicator's `rootScope` for the whole app) whose value of
    ///     `accentConstant` follows the desktop's accent colour; nil follows no accent.
    ///   - accentConstant: the name of the theme's overridable colour constant the accent becomes.
    public static func follow(
        _ manager: ThemeManager, window: UnsafeMutablePointer<GtkWidget>? = nil, aspects: Aspects = .all,
        appearanceSource: (any SystemAppearanceSource)? = nil, accentScope: ThemeScope? = nil,
        accentConstant: String = "accent"
    ) -> GTKSystemTraits {
        GTKSystemTraits(
            manager: manager, window: window, aspects: aspects,
            appearanceSource: appearanceSource ?? GTKSettingsAppearance() ?? NoAppearance(),
            accentScope: accentScope, accentConstant: accentConstant)
    }

    private init(
        manager: ThemeManager, window: UnsafeMutablePointer<GtkWidget>?, aspects: Aspects,
        appearanceSource: any SystemAppearanceSource, accentScope: ThemeScope?, accentConstant: String
    ) {
        self.manager = manager
        self.aspects = aspects
        self.appearanceSource = appearanceSource
        self.accentScope = accentScope
        self.accentConstant = accentConstant
        self.settings = gtk_settings_get_default().map { UnsafeMutableRawPointer($0) }
        self.window = window
        appearanceSource.startObserving { [weak self] in self?.apply() }
        if accentScope != nil, aspects.contains(.accent) {
            portal = PortalAccentColor()
            portal?.startObserving { [weak self] in self?.apply() }
        }
        if let settings {
            handlers.connect(settings, "notify::gtk-xft-dpi") { [weak self] in self?.apply() }
        }
        if let window {
            handlers.connect(UnsafeMutableRawPointer(window), "notify::scale-factor") { [weak self] in self?.apply() }
            // Emitted for the window's own direction and, on a window that has none, when GTK's
            // default direction changes (`gtk_widget_set_default_direction`). Its second argument
            // is an enum passed where `connect`'s callbacks take a pointer they ignore.
            handlers.connect(UnsafeMutableRawPointer(window), "direction-changed") { [weak self] in self?.apply() }
            // The window may go first: its handlers go with it, and the follower forgets it.
            g_object_weak_ref(livery_object(window), Self.windowDisposed, Unmanaged.passUnretained(self).toOpaque())
        }
        apply()
    }

    /// What the desktop says now (before the app's overrides).
    public var system: Settings {
        var dpi: Int32 = 0
        if let settings { dpi = livery_get_int_property(settings, "gtk-xft-dpi") }
        return Settings(
            dark: appearanceSource.prefersDark, highContrast: appearanceSource.prefersHighContrast,
            textScale: dpi > 0 ? Double(dpi) / (96 * 1024) : 1,
            scaleFactor: window.map { Int(gtk_widget_get_scale_factor($0)) } ?? 1,
            direction: (window.map { gtk_widget_get_direction($0) } ?? gtk_widget_get_default_direction())
                == GTK_TEXT_DIR_RTL ? .rtl : .ltr,
            accent: portal?.color)
    }

    /// Maps the desktop's settings and the app's overrides to the manager, in one change of
    /// traits and scale and one of the text scale.
    public func apply() {
        guard isFollowing else { return }
        let system = system
        var traits = manager.traits
        var scale = manager.scale
        if aspects.contains(.appearance) {
            traits.appearance = appearanceOverride ?? (system.dark ? .dark : nil)
        }
        if aspects.contains(.contrast) {
            traits.contrast = (highContrastOverride ?? system.highContrast) ? .highcontrast : nil
        }
        let textScale = textScaleOverride ?? system.textScale
        if aspects.contains(.textSize) {
            traits.textSize = (largeTextOverride ?? (textScale >= Self.largeTextThreshold)) ? .largetext : nil
        }
        if aspects.contains(.scale) { scale = max(1, scaleOverride ?? system.scaleFactor) }
        if aspects.contains(.direction) { traits.direction = directionOverride ?? system.direction }
        manager.setTraits(traits, scale: scale)
        if aspects.contains(.textSize) { manager.setTextScale(textScale) }
        if aspects.contains(.accent) { applyAccent(accentOverride ?? system.accent) }
    }

    /// Writes `accent` to the scope's constant; with no accent, takes back only the follower's own value.
    private func applyAccent(_ accent: Color?) {
        guard let accentScope else { return }
        var overrides = accentScope.overrides
        let current = overrides.constants[accentConstant]
        if let accent {
            writtenAccent = accent
            guard current != .color(accent) else { return }
            overrides.constants[accentConstant] = .color(accent)
        } else {
            guard let written = writtenAccent else { return }
            writtenAccent = nil
            guard current == .color(written) else { return }
            overrides.constants[accentConstant] = nil
        }
        accentScope.overrides = overrides
    }

    /// Stops following; the traits stay as they are.
    public func stop() {
        isFollowing = false
        appearanceSource.stopObserving()
        portal = nil
        handlers.disconnectAll()
        if let window {
            g_object_weak_unref(livery_object(window), Self.windowDisposed, Unmanaged.passUnretained(self).toOpaque())
        }
        window = nil
    }

    /// The window's weak-reference callback; with the follower as data, it identifies the reference.
    private static let windowDisposed: GWeakNotify = { data, _ in
        nonisolated(unsafe) let data = data
        MainActor.assumeIsolated {
            let follower = Unmanaged<GTKSystemTraits>.fromOpaque(data!).takeUnretainedValue()
            // GTK disconnected the window's handlers as it disposed it.
            follower.handlers.forget(follower.window.map { UnsafeMutableRawPointer($0) })
            follower.window = nil
        }
    }

    isolated deinit {
        stop()
    }
}

/// No desktop appearance: what `follow` uses before GTK is initialised.
@MainActor
private final class NoAppearance: SystemAppearanceSource {
    var prefersDark: Bool { false }
    var prefersHighContrast: Bool { false }
    func startObserving(_ changed: @escaping @MainActor () -> Void) {}
    func stopObserving() {}
}

/// Signal handlers connected to GObjects, disconnected together. The callbacks get the data
/// pointer given to `connect`; its owner disconnects before it goes.
@MainActor
struct SignalHandlers {
    private var connected: [(instance: UnsafeMutableRawPointer, id: gulong)] = []

    /// Connects a `notify::` (or any `(instance, param, data)`) signal to `action`.
    mutating func connect(
        _ instance: UnsafeMutableRawPointer, _ signal: String, _ action: @escaping @MainActor () -> Void
    ) {
        let box = Unmanaged.passRetained(CallbackBox(action)).toOpaque()
        let callback:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) ->
                Void = { _, _, box in
                    let box = Unmanaged<CallbackBox>.fromOpaque(box!).takeUnretainedValue()
                    MainActor.assumeIsolated { box.action() }
                }
        let id = g_signal_connect_data(
            instance, signal, unsafeBitCast(callback, to: GCallback.self), box,
            { box, _ in Unmanaged<CallbackBox>.fromOpaque(box!).release() }, GConnectFlags(0))
        connected.append((instance, id))
    }

    /// Forgets the handlers of an instance GTK disposed (which disconnected them).
    mutating func forget(_ instance: UnsafeMutableRawPointer?) {
        connected.removeAll { $0.instance == instance }
    }

    mutating func disconnectAll() {
        for handler in connected where g_signal_handler_is_connected(handler.instance, handler.id) != 0 {
            g_signal_handler_disconnect(handler.instance, handler.id)
        }
        connected = []
    }
}

/// What a connected handler calls, released when GLib drops the handler.
private final class CallbackBox {
    let action: @MainActor () -> Void
    init(_ action: @escaping @MainActor () -> Void) { self.action = action }
}
