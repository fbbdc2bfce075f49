import CGTK
import Glibc

/// Runs the work scheduled on the main dispatch queue (`DispatchQueue.main.async`, `@MainActor`
/// tasks, the runtime's preloading and live reload) while GLib's main loop runs the thread.
///
/// On Linux the main queue is drained only by `dispatch_main()` or by an event loop that asks
/// libdispatch to drain it; a GTK app's thread sits in `g_main_loop_run` or
/// `g_application_run`, so without this the main queue never runs. `install()` watches the
/// main queue's wake-up descriptor from GLib's default context and drains the queue whenever it
/// has work: no polling, no latency beyond GLib's own dispatch.
@MainActor
public enum GLibMainQueue {
    private static var source: guint = 0

    /// Installs the watch once; call it on the main thread before the GLib loop runs.
    public static func install() {
        guard source == 0 else { return }
        let descriptor = _dispatch_get_main_queue_handle_4CF()
        guard descriptor >= 0 else { return }
        source = g_unix_fd_add(
            descriptor, G_IO_IN,
            { descriptor, _, _ in
                // The descriptor is an eventfd: reading resets it until the queue signals again.
                var count: UInt64 = 0
                _ = read(descriptor, &count, MemoryLayout<UInt64>.size)
                _dispatch_main_queue_callback_4CF(nil)
                return 1
            }, nil)
    }

    /// Whether the watch is installed.
    public static var isInstalled: Bool { source != 0 }
}
