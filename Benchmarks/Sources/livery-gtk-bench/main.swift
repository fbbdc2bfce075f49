import CGTK
import Foundation
import Livery
import LiveryDevelopment
@_spi(Benchmarks) import LiveryGTK

// Livery on 1,001 real GTK 4 widgets (the chat screen, 13 widgets, repeated 77 times) against
// GTK's own way to change the same look: one CSS provider for the display holding one rule set
// per identifier, swapped with a new stylesheet (as GTK apps switch to dark). Both render with
// the same renderer (GSK_RENDERER=cairo under Xvfb); text, images, ranges and frames are left
// out of both, so both change exactly the same CSS.
//
//   bash Benchmarks/Scripts/bench-gtk.sh            (builds in release, starts Xvfb)
//
// Reported: the time from `activate(themeID:)` (or `gtk_css_provider_load_from_data`) to the end
// of the first frame painted after it (the frame clock's `after-paint`), alternated, medians of
// 30; where Livery's time goes; the first styling of the widgets; resident memory per widget,
// one-time costs apart (a further window styled once both were), and the one-time costs.

setenv("GSK_RENDERER", "cairo", 0)
guard gtk_init_check() != 0 else {
    print(
        "GTK could not open a display (DISPLAY=\(ProcessInfo.processInfo.environment["DISPLAY"] ?? "unset")); run Benchmarks/Scripts/bench-gtk.sh"
    )
    exit(1)
}
let arguments = CommandLine.arguments
let rounds = arguments.firstIndex(of: "--rounds").flatMap { Int(arguments[$0 + 1]) } ?? 30
let screens = arguments.firstIndex(of: "--screens").flatMap { Int(arguments[$0 + 1]) } ?? 77

// The sample themes, reduced to the operations that are CSS on GTK.
let cssOperations: Set<String> = [
    "backgroundColor", "cornerRadius", "borderColor", "borderWidth", "tintColor", "shadowColor", "shadowOpacity",
    "shadowRadius", "shadowOffset", "textColor", "font", "titleColor", "titleFont", "contentEdgeInsets",
    "placeholderColor", "borderStyle", "barTintColor", "progressTintColor", "trackTintColor", "bubbleColor",
    "textInsets",
]
let source = ThemeManager.development(configurationFile: "Examples/GTKDemo/Livery.xml")
@MainActor func cssOnly(_ id: String, as newID: String) -> LoadedTheme {
    guard let resolved = source.resolvedTheme(themeID: id, traits: TraitSet()) else {
        print("theme \(id) not found; run from the repository root")
        exit(1)
    }
    let instances = resolved.instances.map { instance in
        ResolvedInstance(
            id: instance.id, component: instance.component,
            operations: instance.operations.filter { cssOperations.contains($0.name) })
    }
    return LoadedTheme(
        variants: ThemeVariants(
            info: ThemeInfo(id: newID, name: newID), ancestors: [], axes: TraitAxes(),
            variants: [.none: instances], assets: .empty))
}
let manager = ThemeManager(schema: source.schema)
manager.add(cssOnly("com.livery.light", as: "light"))
manager.add(cssOnly("com.livery.dark", as: "dark"))
manager.activate(themeID: "light")

/// The app's chat bubble, as the demo binds it (CSS background and padding).
@MainActor
final class Bubble: LiveryGTK.Widget {}
@MainActor
func bubbleBinding() -> ComponentBinding<Bubble> {
    var binding = ComponentBinding<Bubble>("chatbubble")
    binding.bindPerState(
        "bubbleColor", get: { $1 == .normal ? $0.cssBackgroundColor : nil },
        set: { if $2 == .normal { $0.cssBackgroundColor = $1 } })
    binding.bind("textInsets", get: { $0.cssPadding }, set: { $0.cssPadding = $1 })
    return binding
}

// MARK: Windows

let identifiers = [
    "chat_background", "nav_bar_main", "label_title", "progress_upload", "image_avatar",
    "bubble_incoming", "label_message", "label_timestamp", "bubble_outgoing", "label_message",
    "label_timestamp", "textfield_message", "button_send",
]

/// A window of `screens` chat screens side by side in a scrolled grid.
@MainActor
func makeWindow() -> (window: UnsafeMutablePointer<GtkWidget>, widgets: [(UnsafeMutablePointer<GtkWidget>, String)]) {
    let window = gtk_window_new()!
    gtk_window_set_default_size(livery_window(window), 1200, 900)
    let scroller = gtk_scrolled_window_new()!
    let grid = gtk_grid_new()!
    gtk_scrolled_window_set_child(OpaquePointer(scroller), grid)
    gtk_window_set_child(livery_window(window), scroller)
    var widgets: [(UnsafeMutablePointer<GtkWidget>, String)] = []
    for screen in 0..<screens {
        for (column, identifier) in identifiers.enumerated() {
            let widget: UnsafeMutablePointer<GtkWidget>
            switch identifier {
            case "chat_background": widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
            case "nav_bar_main":
                widget = gtk_header_bar_new()
                gtk_header_bar_set_show_title_buttons(livery_header_bar(widget), 0)
                gtk_header_bar_set_title_widget(livery_header_bar(widget), gtk_label_new("Chat"))
            case "label_title": widget = gtk_label_new("Chat")
            case "progress_upload":
                widget = gtk_progress_bar_new()
                gtk_progress_bar_set_fraction(livery_progress_bar(widget), 0.6)
            case "image_avatar": widget = gtk_picture_new()
            case "bubble_incoming", "bubble_outgoing":
                widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
                gtk_box_append(livery_box(widget), gtk_label_new("bubble"))
                _ = Bubble(attachingTo: widget)
            case "label_message": widget = gtk_label_new("Switching live, watch.")
            case "label_timestamp": widget = gtk_label_new("21:05")
            case "textfield_message": widget = gtk_entry_new()
            default: widget = gtk_button_new_with_label("Send")
            }
            gtk_widget_set_size_request(widget, 24, 24)
            gtk_grid_attach(
                UnsafeMutableRawPointer(grid).assumingMemoryBound(to: GtkGrid.self), widget, Int32(column),
                Int32(screen), 1, 1)
            widgets.append((widget, identifier))
        }
    }
    return (window, widgets)
}

@MainActor
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
        let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

/// The bytes malloc has handed out and not taken back, from glibc's `malloc_info` report (looked
/// up at run time: Swift's Glibc module leaves malloc.h out): what the arenas hold minus their
/// free chunks, plus the blocks mapped on their own. Unlike resident memory it does not hide
/// allocations served from pages freed earlier. 0 when unavailable.
@MainActor
func heapBytes() -> Int {
    typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_info") else { return 0 }
    var buffer: UnsafeMutablePointer<CChar>?
    var size = 0
    guard let stream = open_memstream(&buffer, &size) else { return 0 }
    _ = unsafeBitCast(symbol, to: MallocInfo.self)(0, stream)
    fclose(stream)
    defer { free(buffer) }
    guard let buffer else { return 0 }
    // The totals follow the last </heap>: <total type="fast|rest|mmap" count= size=/>, then
    // <system type="current" size=/>.
    let text = String(cString: buffer)
    guard let tail = text.range(of: "</heap>", options: .backwards).map({ text[$0.upperBound...] }) else { return 0 }
    func value(_ prefix: String) -> Int {
        guard let start = tail.range(of: prefix) else { return 0 }
        let rest = tail[start.upperBound...]
        guard let sizeStart = rest.range(of: "size=\"") else { return 0 }
        return Int(rest[sizeStart.upperBound...].prefix { $0.isNumber }) ?? 0
    }
    return value("<system type=\"current\"") - value("<total type=\"fast\"") - value("<total type=\"rest\"")
        + value("<total type=\"mmap\"")
}

/// Waits `frames` frames of `window` after requesting one, and returns the time of the first
/// `after-paint` after `start`: ms from `start`.
@MainActor
final class PaintClock {
    let window: UnsafeMutablePointer<GtkWidget>
    var lastPaint: UInt64 = 0
    var paints = 0

    init(_ window: UnsafeMutablePointer<GtkWidget>) {
        self.window = window
        let callback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            MainActor.assumeIsolated {
                let clock = Unmanaged<PaintClock>.fromOpaque(data!).takeUnretainedValue()
                clock.lastPaint = DispatchTime.now().uptimeNanoseconds
                clock.paints += 1
            }
        }
        livery_signal_connect(
            UnsafeMutableRawPointer(gtk_widget_get_frame_clock(window)), "after-paint",
            unsafeBitCast(callback, to: GCallback.self), Unmanaged.passRetained(self).toOpaque())
    }

    /// Runs the loop until the next paint; ms from `start` to its after-paint.
    func waitForPaint(since start: UInt64) -> Double {
        let before = paints
        let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        while paints == before, DispatchTime.now().uptimeNanoseconds < deadline { g_main_context_iteration(nil, 1) }
        return Double(lastPaint &- start) / 1e6
    }

    /// A few idle frames: nothing changes, GTK paints what it had queued and settles.
    func idle(frames: Int = 4) {
        for _ in 0..<frames {
            gtk_widget_queue_draw(window)
            _ = waitForPaint(since: DispatchTime.now().uptimeNanoseconds)
        }
        let until = DispatchTime.now().uptimeNanoseconds + 50_000_000
        while DispatchTime.now().uptimeNanoseconds < until {
            g_main_context_iteration(nil, 0)
            g_usleep(1000)
        }
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty
        ? .nan
        : sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
func ms(_ value: Double) -> String { String(format: "%.2f ms", value) }

// MARK: Memory and first styling (Livery's window)

let (liveryWindow, liveryWidgets) = makeWindow()
gtk_window_present(livery_window(liveryWindow))
let liveryClock = PaintClock(liveryWindow)
liveryClock.idle(frames: 6)
let unstyledBytes = residentBytes()

let applicator = Applicator(manager: manager) { applicator in
    GTKBindings.register(in: applicator)
    applicator.register(bubbleBinding())
}
var start = now()
for (widget, identifier) in liveryWidgets { applicator.style(widget, as: identifier) }
let styleCalls = Double(now() - start) / 1e6
GTKBindings.flushStyles()
let firstFlush = Double(now() - start) / 1e6 - styleCalls
let firstOwnBytes = residentBytes()
let firstStyling = liveryClock.waitForPaint(since: start)
liveryClock.idle(frames: 6)
let styledBytes = residentBytes()

// The same look as GTK's own stylesheet: one rule set per identifier, from the CSS Livery made.
@MainActor func nativeStylesheet(_ themeID: String) -> String {
    manager.activate(themeID: themeID)
    GTKBindings.flushStyles()
    var seen: Set<String> = []
    var sheet = ""
    for (widget, identifier) in liveryWidgets where seen.insert(identifier).inserted {
        if let rules = LiveryGTK.Widget.wrapping(widget).cssRules {
            sheet += rules.replacingOccurrences(of: "%C", with: ".id-" + identifier)
        }
    }
    return sheet
}
let nativeSheets = ["light": nativeStylesheet("light"), "dark": nativeStylesheet("dark")]
manager.activate(themeID: "light")
GTKBindings.flushStyles()
liveryClock.idle()

// GTK's own: a second, identical window whose widgets carry one class per identifier.
let (nativeWindow, nativeWidgets) = makeWindow()
for (widget, identifier) in nativeWidgets { gtk_widget_add_css_class(widget, "id-" + identifier) }
gtk_widget_set_visible(liveryWindow, 0)
gtk_window_present(livery_window(nativeWindow))
let nativeClock = PaintClock(nativeWindow)
nativeClock.idle(frames: 6)
let nativeUnstyledBytes = residentBytes()
let nativeProvider = gtk_css_provider_new()!
gtk_style_context_add_provider_for_display(
    gdk_display_get_default(), livery_style_provider(UnsafeMutableRawPointer(nativeProvider)),
    UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION) + 10)
gtk_css_provider_load_from_data(nativeProvider, nativeSheets["light"]!, -1)
nativeClock.idle(frames: 6)
let nativeStyledBytes = residentBytes()

// MARK: Alternated switches

var liveryTimes: [Double] = [], nativeTimes: [Double] = []
var activateTimes: [Double] = [], flushTimes: [Double] = []
var nativeLoadTimes: [Double] = []
var themeIndex = 0
let themes = ["dark", "light"]
for _ in 0..<rounds {
    let target = themes[themeIndex % 2]
    themeIndex += 1

    gtk_widget_set_visible(nativeWindow, 0)
    gtk_widget_set_visible(liveryWindow, 1)
    liveryClock.idle()
    start = now()
    manager.activate(themeID: target)
    let activated = now()
    GTKBindings.flushStyles()
    let flushed = now()
    liveryTimes.append(liveryClock.waitForPaint(since: start))
    activateTimes.append(Double(activated - start) / 1e6)
    flushTimes.append(Double(flushed - activated) / 1e6)

    gtk_widget_set_visible(liveryWindow, 0)
    gtk_widget_set_visible(nativeWindow, 1)
    nativeClock.idle()
    start = now()
    gtk_css_provider_load_from_data(nativeProvider, nativeSheets[target]!, -1)
    nativeLoadTimes.append(Double(now() - start) / 1e6)
    nativeTimes.append(nativeClock.waitForPaint(since: start))
}

// MARK: Memory per widget, one-time costs apart

// The first styled window pays one-time costs (Livery's code paged in, the prepared theme, the
// tables' first growth; GTK's first restyle with these styles: fonts, style caches) that the
// native window, styled second, finds paid. A further window styled by Livery, once both were,
// shows what each widget costs: Livery's part (handles, registry slots, the class) when the
// style sheet has caught up, GTK's part after the paint.
gtk_widget_set_visible(nativeWindow, 0)
let (furtherWindow, furtherWidgets) = makeWindow()
gtk_window_present(livery_window(furtherWindow))
let furtherClock = PaintClock(furtherWindow)
furtherClock.idle(frames: 6)
let furtherUnstyledBytes = residentBytes()
let furtherUnstyledHeap = heapBytes()
for (widget, identifier) in furtherWidgets { applicator.style(widget, as: identifier) }
GTKBindings.flushStyles()
let furtherOwnBytes = residentBytes()
let furtherOwnHeap = heapBytes()
furtherClock.idle(frames: 6)
let furtherStyledBytes = residentBytes()
let perWidget = { (bytes: Int) in Double(bytes) / Double(furtherWidgets.count) }
let liveryWidgetBytes = perWidget(furtherStyledBytes - furtherUnstyledBytes)
let liveryOwnWidgetBytes = perWidget(furtherOwnHeap - furtherUnstyledHeap)
let nativeWidgetBytes = perWidget(nativeStyledBytes - nativeUnstyledBytes)
let firstWindowBytes = styledBytes - unstyledBytes
let oneTimeBytes = firstWindowBytes - (furtherStyledBytes - furtherUnstyledBytes)
let oneTimeLiveryBytes = (firstOwnBytes - unstyledBytes) - (furtherOwnBytes - furtherUnstyledBytes)

let liveryMedian = median(liveryTimes), nativeMedian = median(nativeTimes)
let widgetCount = liveryWidgets.count
let statistics = GTKBindings.styleSheetStatistics
print(
    """
    # Livery on GTK 4: \(widgetCount) real widgets (\(screens) chat screens), GSK_RENDERER=\(ProcessInfo.processInfo.environment["GSK_RENDERER"] ?? "default")

    Live switch, light <-> dark, activate(themeID:) to the end of the next frame's after-paint, \(rounds) rounds alternated with GTK's own stylesheet swap:

    | | median | min | max |
    |---|---|---|---|
    | Livery: activate(themeID:) to after-paint | \(ms(liveryMedian)) | \(ms(liveryTimes.min() ?? .nan)) | \(ms(liveryTimes.max() ?? .nan)) |
    | GTK: gtk_css_provider_load_from_data to after-paint | \(ms(nativeMedian)) | \(ms(nativeTimes.min() ?? .nan)) | \(ms(nativeTimes.max() ?? .nan)) |
    | ratio Livery / GTK | \(String(format: "%.2f", liveryMedian / nativeMedian)) | | |

    Where Livery's time goes (medians): activate (runtime + setters) \(ms(median(activateTimes))), style sheet catch-up (CSS written, classes, parse) \(ms(median(flushTimes))), GTK's restyle, layout and paint \(ms(liveryMedian - median(activateTimes) - median(flushTimes))). GTK's stylesheet parse: \(ms(median(nativeLoadTimes))), then restyle, layout and paint \(ms(nativeMedian - median(nativeLoadTimes))).

    First styling of \(widgetCount) widgets to after-paint: \(ms(firstStyling)) (style calls \(ms(styleCalls)), style sheet \(ms(firstFlush)), the rest GTK's restyle, layout and paint).
    Style sheet: \(statistics.looks) distinct looks, parsed \(statistics.reloads) times in the whole run.
    Resident memory per styled widget, one-time costs apart: Livery \(String(format: "%.0f", liveryWidgetBytes)) bytes on a further window of \(furtherWidgets.count) widgets styled once the first was, of which \(String(format: "%.0f", liveryOwnWidgetBytes)) bytes of heap the style calls and the style sheet's catch-up took (handles, registry slots, each widget's class) and the rest GTK's restyle; the same look through GTK's own stylesheet on its window: \(String(format: "%.0f", nativeWidgetBytes)) bytes (ratio \(String(format: "%.2f", liveryWidgetBytes / nativeWidgetBytes))). A recorded style: \(LiveryGTK.Widget.styleStorageSize) bytes, one copy per look, shared by the widgets that show it.
    One-time costs, paid by the first styled window (unstyled \(unstyledBytes / 1024) KiB, styled \(styledBytes / 1024) KiB, \(String(format: "%.0f", Double(firstWindowBytes) / Double(widgetCount))) bytes per widget of that window): \(oneTimeBytes / 1024) KiB, of which Livery's (code paged in, prepared theme, tables' first growth) \(oneTimeLiveryBytes / 1024) KiB and GTK's first restyle with these styles (fonts, style caches) \((oneTimeBytes - oneTimeLiveryBytes) / 1024) KiB.
    """)
// The numbers the one performance table shows (Benchmarks/Scripts/summary.py reads them).
if let index = CommandLine.arguments.firstIndex(of: "--json"), index + 1 < CommandLine.arguments.count {
    let json: [String: Any] = [
        "widgets": widgetCount,
        "livery_switch_ns": liveryMedian * 1e6,
        "css_swap_ns": nativeMedian * 1e6,
        "livery_engine_ns": (median(activateTimes) + median(flushTimes)) * 1e6,
        "first_styling_ns": firstStyling * 1e6,
        "bytes_per_widget": liveryWidgetBytes,
        "css_bytes_per_widget": nativeWidgetBytes,
        "first_window_bytes_per_widget": Double(firstWindowBytes) / Double(widgetCount),
        "one_time_bytes": oneTimeBytes,
        "rounds": rounds,
    ]
    let data = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
    try data.write(to: URL(fileURLWithPath: CommandLine.arguments[index + 1]))
}
exit(0)
