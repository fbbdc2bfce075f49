import CGTK
import Foundation
import Livery
import Testing

@testable import LiveryGTK

/// The theme's colour is the colour on screen where GTK's own style would alter it: a
/// placeholder GTK dims with `opacity: 0.55`, a header bar title GTK fades with `filter:
/// opacity(0.5)` in an unfocused window.
@MainActor
@Suite(.serialized) struct GTKThemeColourTests {
    let red = rgb(0xD01010)
    let font = Font(family: "DejaVu Sans", size: 28, weight: .bold)

    func setUp(_ instances: [ResolvedInstance]) -> Applicator {
        let manager = ThemeManager()
        manager.add(theme("t", instances))
        manager.activate(themeID: "t")
        return Applicator(manager: manager, bindings: GTKBindings.register(in:))
    }

    @Test func aPlaceholderShowsTheThemesExactColour() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let entry = gtk_entry_new()!
        gtk_entry_set_placeholder_text(livery_entry(entry), "WWW")
        window.add(entry)
        let applicator = setUp([
            ResolvedInstance(
                id: "field", component: "uitextfield",
                operations: [op("placeholderColor", .color(red)), op("font", .font(font))])
        ])
        applicator.style(entry, as: "field")
        window.settle()
        let image = try #require(Offscreen.render(entry))
        let shown = image.contains(red, inX: 0..<image.width, y: 0..<image.height, tolerance: 2)
        #expect(shown, "the placeholder's glyphs are the theme's colour, not dimmed")
    }

    @Test func aHeaderBarTitleShowsTheThemesExactColourInAnUnfocusedWindow() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let bar = gtk_header_bar_new()!
        let title = gtk_label_new("WWW")!
        gtk_widget_add_css_class(title, "title")
        gtk_header_bar_set_title_widget(livery_header_bar(bar), title)
        gtk_header_bar_set_show_title_buttons(livery_header_bar(bar), 0)
        window.add(bar)
        let applicator = setUp([
            ResolvedInstance(
                id: "bar", component: "uinavigationbar",
                operations: [op("titleColor", .color(red)), op("titleFont", .font(font))])
        ])
        applicator.style(bar, as: "bar")
        gtk_widget_set_state_flags(window.window, GTK_STATE_FLAG_BACKDROP, 0)
        window.settle()
        #expect(gtk_widget_get_state_flags(title).rawValue & GTK_STATE_FLAG_BACKDROP.rawValue != 0, "backdrop")
        let image = try #require(Offscreen.render(bar))
        let shown = image.contains(red, inX: 0..<image.width, y: 0..<image.height, tolerance: 2)
        #expect(shown, "the title's glyphs are the theme's colour in a backdrop window")
    }
}
