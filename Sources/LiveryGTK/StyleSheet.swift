import CGTK
import Livery

/// The CSS of every styled widget, as one style provider for the display holding one rule set
/// per distinct look, each under a generated class (`.livery-12`).
///
/// Why generated classes rather than a provider per widget: GTK 4 draws parts of widgets on
/// child widgets (a switch's `slider`, a scale's `trough > highlight` are widgets of their own),
/// which a provider added to one widget's style context never reaches, while a selector from a
/// class does. Widgets that look the same share one class (the chat screen's thirty bubbles
/// share two), so the sheet holds one rule set per look, not per widget, and a widget costs one
/// class name. The sheet keeps looks no widget shows any more until they outnumber the ones in
/// use, so switching back to a theme seen before changes class names only and the sheet is not
/// parsed again; every reload restyles the whole display, as GTK's own stylesheet swap does.
///
/// Changes are batched: setters record the style and mark the widget, and the sheet catches up
/// once, before GTK's next frame (an idle source of higher priority than GDK's redraw) or when
/// `flush()` is called.
@MainActor
final class StyleSheet {
    static let shared = StyleSheet()

    /// One distinct look: its rules and the class that carries them.
    final class Entry {
        let name: String
        let number: Int
        let rules: String
        var users = 0

        init(number: Int, rules: String) {
            self.number = number
            self.name = "livery-\(number)"
            self.rules = rules
        }
    }

    /// Above the app's own CSS (`GTK_STYLE_PROVIDER_PRIORITY_APPLICATION`), below the user's.
    static let priority = UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION) + 10

    private var entries: [String: Entry] = [:]
    private var unusedCount = 0
    private var nextNumber = 0
    private var pending: [Widget] = []
    private var flushSource: guint = 0
    private var needsReload = false
    private var provider: UnsafeMutablePointer<GtkCssProvider>?
    /// How many times the sheet was parsed: what the benchmark reports.
    private(set) var reloadCount = 0

    /// Distinct looks in the sheet, and how many of them no widget shows.
    var lookCount: Int { entries.count }
    var unusedLookCount: Int { unusedCount }
    var sheetText: String { text() }

    func needsUpdate(_ widget: Widget) {
        if !widget.needsStyleUpdate {
            widget.needsStyleUpdate = true
            pending.append(widget)
        }
        if flushSource == 0 {
            flushSource = g_idle_add_full(G_PRIORITY_HIGH_IDLE, { _ in
                MainActor.assumeIsolated {
                    StyleSheet.shared.flushSource = 0
                    StyleSheet.shared.flush()
                }
                return 0
            }, nil, nil)
        }
    }

    /// A widget GTK disposed of: its look loses a user, and it is never touched again.
    func forget(_ widget: Widget) {
        if widget.needsStyleUpdate {
            widget.needsStyleUpdate = false
            pending.removeAll { $0 === widget }
        }
        if let entry = widget.cssClass {
            release(entry)
            widget.cssClass = nil
        }
    }

    /// Gives every widget marked since the last flush the class of its look, and reparses the
    /// sheet if a new look appeared.
    func flush() {
        if flushSource != 0 {
            g_source_remove(flushSource)
            flushSource = 0
        }
        let widgets = pending
        pending.removeAll(keepingCapacity: true)
        for widget in widgets {
            widget.needsStyleUpdate = false
            guard let gtkWidget = widget.gtkWidget else { continue }
            let entry = widget.style.isEmpty ? nil : intern(widget.style.rules(kind: widget.kind))
            guard entry !== widget.cssClass else { continue }
            if let old = widget.cssClass {
                gtk_widget_remove_css_class(gtkWidget, old.name)
                release(old)
            }
            if let entry {
                if entry.users == 0 { unusedCount -= 1 }
                entry.users += 1
                gtk_widget_add_css_class(gtkWidget, entry.name)
            }
            widget.cssClass = entry
        }
        if unusedCount > 256, unusedCount > entries.count / 2 { prune() }
        if needsReload { reload() }
    }

    private func intern(_ rules: String) -> Entry? {
        if rules.isEmpty { return nil }
        if let entry = entries[rules] { return entry }
        let entry = Entry(number: nextNumber, rules: rules)
        nextNumber += 1
        entries[rules] = entry
        unusedCount += 1
        needsReload = true
        return entry
    }

    private func release(_ entry: Entry) {
        entry.users -= 1
        if entry.users == 0 { unusedCount += 1 }
    }

    private func prune() {
        entries = entries.filter { $0.value.users > 0 }
        unusedCount = 0
        needsReload = true
    }

    private func text() -> String {
        var text = ""
        for entry in entries.values.sorted(by: { $0.number < $1.number }) {
            text += entry.rules.replacingOccurrences(of: "%C", with: "." + entry.name)
        }
        return text
    }

    private func reload() {
        needsReload = false
        guard let display = gdk_display_get_default() else { return }
        let provider: UnsafeMutablePointer<GtkCssProvider>
        if let existing = self.provider {
            provider = existing
        } else {
            provider = gtk_css_provider_new()!
            gtk_style_context_add_provider_for_display(display, livery_style_provider(UnsafeMutableRawPointer(provider)), Self.priority)
            self.provider = provider
        }
        gtk_css_provider_load_from_data(provider, text(), -1)
        reloadCount += 1
    }
}
