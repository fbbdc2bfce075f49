import CAdwaita
import LiveryGTK

/// Dark mode and high contrast as libadwaita decides them (`AdwStyleManager`'s `dark` and
/// `high-contrast`): the XDG settings portal's `color-scheme`, GNOME's high-contrast setting and
/// the app's own `AdwStyleManager` color scheme. What a libadwaita app gives `GTKSystemTraits`:
///
/// ```swift
/// adw_init()   // or an AdwApplication
/// let system = GTKSystemTraits.follow(manager, window: window, appearanceSource: AdwaitaAppearance())
/// ```
@MainActor
public final class AdwaitaAppearance: SystemAppearanceSource {
    private let manager: UnsafeMutableRawPointer
    private var handlers: [gulong] = []
    private var changed: (@MainActor () -> Void)?

    /// The default style manager's view; nil before `adw_init` (or an `AdwApplication`) ran.
    public init?() {
        guard adw_is_initialized() != 0, let manager = adw_style_manager_get_default() else { return nil }
        self.manager = UnsafeMutableRawPointer(manager)
    }

    public var prefersDark: Bool { adw_style_manager_get_dark(OpaquePointer(manager)) != 0 }
    public var prefersHighContrast: Bool { adw_style_manager_get_high_contrast(OpaquePointer(manager)) != 0 }

    public func startObserving(_ changed: @escaping @MainActor () -> Void) {
        stopObserving()
        self.changed = changed
        let callback:
            @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) ->
                Void = { _, _, data in
                    nonisolated(unsafe) let data = data
                    MainActor.assumeIsolated {
                        Unmanaged<AdwaitaAppearance>.fromOpaque(data!).takeUnretainedValue().changed?()
                    }
                }
        for signal in ["notify::dark", "notify::high-contrast"] {
            handlers.append(
                livery_signal_connect(
                    manager, signal, unsafeBitCast(callback, to: GCallback.self),
                    Unmanaged.passUnretained(self).toOpaque()))
        }
    }

    public func stopObserving() {
        for handler in handlers { g_signal_handler_disconnect(manager, handler) }
        handlers = []
        changed = nil
    }

    isolated deinit {
        stopObserving()
    }
}
