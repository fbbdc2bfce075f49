import CGTK
import Foundation
import Livery

/// The CSS of every styled widget, as one style provider for the display holding one rule set
/// per distinct look, each under a generated class (`.livery-12`).
///
/// Why generated classes rather than a provider per widget: GTK 4 draws parts of widgets on
/// child widgets (a switch's `slider`, a scale's `trough > highlight` are widgets of their own),
/// which a provider added to one widget's style context never reaches, while a selector from a
/// class does. Widgets that look the same share one class (the chat screen's thirty bubbles
/// share two), so the sheet holds one rule set per look, not per widget, and a widget costs one
/// class name; widgets of one look met in one catch-up also share one copy of their recorded
/// style (`RecordedStyle`). A switch that changes every widget of a class alike rewrites the class's rules
/// (one parse, no widget touched, as GTK's own stylesheet swap); widgets whose looks part move
/// to another class. Looks no widget shows any more stay until they outnumber the ones in use.
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
        /// What the class stands for; rewritten when every widget of the class changes look alike.
        var rules: String
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
            flushSource = g_idle_add_full(
                G_PRIORITY_HIGH_IDLE,
                { _ in
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
    /// sheet if a look appeared or changed.
    ///
    /// A live switch usually changes every widget of a class alike (they are styled with the
    /// same identifier): the class then keeps its widgets and its rules are rewritten, so the
    /// switch costs one parse of the sheet and no widget's classes change, which is GTK's own
    /// way to restyle. Widgets whose looks part get the class of their new look.
    func flush() {
        if flushSource != 0 {
            g_source_remove(flushSource)
            flushSource = 0
        }
        let widgets = pending
        pending.removeAll(keepingCapacity: true)
        // Per look met in this flush: its CSS and the recorded style its widgets share.
        var written: [Look: (rules: String, style: RecordedStyle)] = [:]
        var looks: [String?] = []
        looks.reserveCapacity(widgets.count)
        // Per class left by marked widgets: the look they go to (nil once they part), how many.
        var departures: [ObjectIdentifier: (entry: Entry, rules: String?, count: Int)] = [:]
        for widget in widgets {
            widget.needsStyleUpdate = false
            guard widget.gtkWidget != nil else {
                looks.append(nil)
                continue
            }
            let rules: String
            if widget.style.isEmpty {
                rules = ""
            } else {
                // Widgets styled alike (one identifier) have equal styles: their CSS is written once
                // and they keep one copy of the style.
                let key = Look(style: widget.style, kind: widget.kind)
                if let known = written[key] {
                    rules = known.rules
                    if known.style !== widget.recordedStyle { widget.shareStyle(known.style) }
                } else {
                    rules = widget.style.rules(kind: widget.kind)
                    written[key] = (rules, widget.recordedStyle)
                }
            }
            looks.append(rules)
            guard let old = widget.cssClass, old.rules != rules else { continue }
            let key = ObjectIdentifier(old)
            if var departure = departures[key] {
                if departure.rules != rules { departure.rules = nil }
                departure.count += 1
                departures[key] = departure
            } else {
                departures[key] = (old, rules, 1)
            }
        }
        for departure in departures.values {
            guard let rules = departure.rules, !rules.isEmpty, departure.count == departure.entry.users,
                entries[rules] == nil
            else { continue }
            entries.removeValue(forKey: departure.entry.rules)
            departure.entry.rules = rules
            entries[rules] = departure.entry
            needsReload = true
        }
        for (widget, rules) in zip(widgets, looks) {
            guard let rules, let gtkWidget = widget.gtkWidget else { continue }
            let entry = intern(rules)
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

    private struct Look: Hashable {
        var style: WidgetStyle
        var kind: WidgetKind
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
            gtk_style_context_add_provider_for_display(
                display, livery_style_provider(UnsafeMutableRawPointer(provider)), Self.priority)
            self.provider = provider
        }
        gtk_css_provider_load_from_data(provider, text(), -1)
        reloadCount += 1
    }
}
