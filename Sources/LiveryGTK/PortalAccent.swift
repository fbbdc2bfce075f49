import CGTK
import LiveryModel

/// The desktop's accent colour (GNOME 47 and later) as the XDG settings portal gives it:
/// `org.freedesktop.appearance` `accent-color`, a `(ddd)` of sRGB components in 0...1, read with
/// `Read` and followed through `SettingChanged`, over the session bus (GIO's GDBus). A component
/// outside 0...1, a missing key, no portal and no session bus all mean "no accent" (nil).
///
/// It opens a connection of its own to the session bus (not GIO's shared one, whose closing would
/// end the process), reads asynchronously so that the app never waits for the bus, and closes the
/// connection when released.
@MainActor
final class PortalAccentColor {
    static let namespace = "org.freedesktop.appearance", key = "accent-color"

    /// The accent now; nil until the portal answered, and while the desktop has none.
    private(set) var color: Color?
    private let connection: OpaquePointer
    private var subscription: guint = 0
    private let cancellable: UnsafeMutablePointer<GCancellable>
    private var changed: (@MainActor () -> Void)?

    /// Connects to the session bus (`DBUS_SESSION_BUS_ADDRESS`); nil without one.
    init?() {
        var error: UnsafeMutablePointer<GError>?
        guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        defer { g_free(address) }
        let flags = GDBusConnectionFlags(
            G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            g_clear_error(&error)
            return nil
        }
        self.connection = connection
        cancellable = g_cancellable_new()!
    }

    /// Reads the accent now and again after every change the portal signals, calling `changed`
    /// each time the colour (or its absence) changes, until released.
    func startObserving(_ changed: @escaping @MainActor () -> Void) {
        self.changed = changed
        let listener = Unmanaged.passRetained(WeakPortal(self)).toOpaque()
        subscription = g_dbus_connection_signal_subscribe(
            connection, "org.freedesktop.portal.Desktop", "org.freedesktop.portal.Settings", "SettingChanged",
            "/org/freedesktop/portal/desktop", Self.namespace, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, listener in
                nonisolated(unsafe) let parameters = parameters
                nonisolated(unsafe) let listener = listener
                MainActor.assumeIsolated {
                    let portal = Unmanaged<WeakPortal>.fromOpaque(listener!).takeUnretainedValue().portal
                    portal?.settingChanged(parameters)
                }
            }, listener, { listener in Unmanaged<WeakPortal>.fromOpaque(listener!).release() })
        // The box lives until the reply comes (GIO always calls back, also when cancelled).
        let reader = Unmanaged.passRetained(WeakPortal(self)).toOpaque()
        g_dbus_connection_call(
            connection, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
            "org.freedesktop.portal.Settings", "Read", livery_variant_two_strings(Self.namespace, Self.key), nil,
            G_DBUS_CALL_FLAGS_NONE, 5000, cancellable,
            { connection, result, reader in
                nonisolated(unsafe) let connection = connection
                nonisolated(unsafe) let result = result
                nonisolated(unsafe) let reader = reader
                MainActor.assumeIsolated {
                    let box = Unmanaged<WeakPortal>.fromOpaque(reader!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    let reply = g_dbus_connection_call_finish(
                        connection.map(OpaquePointer.init), result, &error)
                    g_clear_error(&error)
                    defer { if let reply { g_variant_unref(reply) } }
                    // No portal, or no such key: no accent. A reply that came after release is dropped.
                    box.portal?.update(reply.flatMap(PortalAccentColor.accent(in:)))
                }
            }, reader)
    }

    /// The accent a `(ddd)` inside `value` gives: nil when there is none or a component is outside 0...1.
    static func accent(in value: OpaquePointer) -> Color? {
        var red = 0.0, green = 0.0, blue = 0.0
        guard livery_variant_rgb(value, &red, &green, &blue) != 0 else { return nil }
        let components = [red, green, blue]
        guard components.allSatisfy({ (0...1).contains($0) }) else { return nil }
        return Color(red: red, green: green, blue: blue)
    }

    private func settingChanged(_ parameters: OpaquePointer?) {
        guard let parameters else { return }
        var namespace: UnsafePointer<gchar>?, key: UnsafePointer<gchar>?
        var value: OpaquePointer?
        guard livery_variant_setting(parameters, &namespace, &key, &value) != 0, let value else { return }
        defer { g_variant_unref(value) }
        guard let namespace, let key, String(cString: namespace) == Self.namespace, String(cString: key) == Self.key
        else { return }
        update(Self.accent(in: value))
    }

    private func update(_ accent: Color?) {
        guard accent != color else { return }
        color = accent
        changed?()
    }

    isolated deinit {
        g_cancellable_cancel(cancellable)
        g_object_unref(UnsafeMutableRawPointer(cancellable))
        if subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        g_dbus_connection_close(connection, nil, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }
}

/// What GIO's callbacks hold: the reader is released before a late reply or signal can come.
private final class WeakPortal {
    weak var portal: PortalAccentColor?
    init(_ portal: PortalAccentColor) { self.portal = portal }
}
