import CGTK
import Foundation
import Livery
import LiveryGTK
import Testing

/// The GTK adapter in real pixels, under Xvfb: every check renders the window offscreen with
/// GTK's own renderer and reads pixels back.
@MainActor
@Suite(.serialized) struct GTKPixelTests {
    let red = rgb(0xD01010), blue = rgb(0x1030C0), white = rgb(0xFFFFFF), yellow = rgb(0xFFE000)

    func buttonTheme(_ id: String, background: Color, title: Color) -> LoadedTheme {
        theme(
            id,
            [
                ResolvedInstance(
                    id: "send", component: "uibutton",
                    operations: [
                        op("backgroundColor", .color(background)),
                        op("titleColor", .color(title)),
                        op("titleFont", .font(Font(family: "DejaVu Sans", size: 28, weight: .bold))),
                    ])
            ])
    }

    func setUp(_ themes: LoadedTheme..., activate: String) -> (ThemeManager, Applicator) {
        let manager = ThemeManager()
        for theme in themes { manager.add(theme) }
        manager.activate(themeID: activate)
        return (manager, Applicator(manager: manager, bindings: GTKBindings.register(in:)))
    }

    func makeButton(_ window: TestWindow) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_with_label("WWW")!
        gtk_widget_set_size_request(button, 200, 60)
        gtk_widget_set_halign(button, GTK_ALIGN_START)
        window.add(button)
        return button
    }

    /// A point inside the button, away from its centred label and its rounded corners.
    func fillPixel(_ image: RenderedImage) -> Color? { image.pixel(x: 12, y: image.height / 2) }

    @Test func aButtonShowsTheThemesColoursSwitchesLiveAndRevertsToGTKsOwn() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let button = makeButton(window)
        window.settle()
        let unstyled = try #require(Offscreen.render(button))
        let gtkDefault = try #require(fillPixel(unstyled))
        #expect(!close(gtkDefault, red) && !close(gtkDefault, blue))

        let (manager, applicator) = setUp(
            buttonTheme("a", background: red, title: white),
            buttonTheme("b", background: blue, title: yellow),
            theme("plain", []), activate: "a")
        applicator.style(button, as: "send")
        window.settle()
        var image = try #require(Offscreen.render(button))
        #expect(close(fillPixel(image), red), "background after styling: \(String(describing: fillPixel(image)))")
        let middle = image.width / 2
        #expect(
            image.contains(white, inX: middle - 30..<middle + 30, y: 10..<image.height - 10),
            "the title's glyphs are white")

        manager.activate(themeID: "b")
        window.settle()
        image = try #require(Offscreen.render(button))
        #expect(close(fillPixel(image), blue), "background after the switch: \(String(describing: fillPixel(image)))")
        #expect(
            image.contains(yellow, inX: middle - 30..<middle + 30, y: 10..<image.height - 10),
            "the title's glyphs are yellow")
        #expect(!image.contains(white, inX: middle - 30..<middle + 30, y: 10..<image.height - 10, tolerance: 3))

        manager.activate(themeID: "plain")
        window.settle()
        image = try #require(Offscreen.render(button))
        #expect(close(fillPixel(image), gtkDefault, tolerance: 1), "reverted to GTK's own background")
        let identical = image.rgba == unstyled.rgba
        #expect(identical, "the reverted button renders exactly as before styling")
    }

    @Test func aScopedDialogKeepsItsThemeWhileTheWindowSwitches() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        let dialog = TestWindow()
        defer {
            window.destroy()
            dialog.destroy()
        }
        let main = makeButton(window)
        let inDialog = makeButton(dialog)
        let (manager, applicator) = setUp(
            buttonTheme("a", background: red, title: white),
            buttonTheme("b", background: blue, title: yellow), activate: "a")
        let scope = applicator.makeScope(ScopeOverrides(themeID: "a"))
        applicator.style(main, as: "send")
        scope.style(inDialog, as: "send")
        manager.activate(themeID: "b")
        window.settle()
        dialog.settle()
        #expect(close(fillPixel(try #require(Offscreen.render(main))), blue), "the window follows the app's theme")
        #expect(close(fillPixel(try #require(Offscreen.render(inDialog))), red), "the dialog keeps its scope's theme")
    }

    @Test func aDestroyedWidgetIsForgottenAndNeverTouched() throws {
        try GTKTestEnvironment.start()
        let (manager, applicator) = setUp(
            buttonTheme("a", background: red, title: white),
            buttonTheme("b", background: blue, title: yellow), activate: "a")
        weak var handle: LiveryGTK.Widget?
        do {
            let window = TestWindow()
            let button = makeButton(window)
            handle = LiveryGTK.Widget.wrapping(button)
            applicator.style(button, as: "send")
            window.settle()
            #expect(applicator.liveComponentCount() == 1)
            window.destroy()
        }
        #expect(handle == nil, "GTK finalized the button, and its handle went with it")
        #expect(applicator.liveComponentCount() == 0, "the applicator forgot the button")
        manager.activate(themeID: "b")
        manager.activate(themeID: "a")
        GTKBindings.flushStyles()
        #expect(applicator.lastPass.componentsUpdated == 0, "a switch touched no widget")
    }

    @Test func aLabelGrowsWithTheTextScaleUntilItsMaxSize() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let label = gtk_label_new("Hello")!
        gtk_widget_set_halign(label, GTK_ALIGN_START)
        window.add(label)
        let (manager, applicator) = setUp(
            theme(
                "t",
                [
                    ResolvedInstance(
                        id: "title", component: "uilabel",
                        operations: [
                            op("font", .font(Font(family: "DejaVu Sans", size: 16, maxSize: 24)))
                        ])
                ]), activate: "t")
        applicator.style(label, as: "title")
        func height() -> Int32 {
            window.settle()
            var minimum: Int32 = 0, natural: Int32 = 0
            gtk_widget_measure(label, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, nil, nil)
            return natural
        }
        let standard = height()
        manager.setTextScale(1.5)
        let larger = height()
        manager.setTextScale(2)
        let capped = height()
        #expect(larger > standard, "16 pt at 1.5x is 24 pt: \(standard) -> \(larger)")
        #expect(capped == larger, "32 pt is capped at the max-size 24: \(larger) -> \(capped)")
    }

    @Test func stateColoursAppearWhenTheStateIsEntered() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let button = makeButton(window)
        let entry = gtk_entry_new()!
        window.add(entry)
        let (_, applicator) = setUp(
            theme(
                "t",
                [
                    ResolvedInstance(
                        id: "send", component: "uibutton",
                        operations: [
                            op("backgroundColor", .color(blue)),
                            op("titleColor", .color(white)),
                            op("titleColor", .color(yellow), state: .highlighted),
                            op("titleColor", .color(red), state: .disabled),
                            op("title", .string("Send")),
                            op("title", .string("Sending"), state: .highlighted),
                            op("titleFont", .font(Font(family: "DejaVu Sans", size: 28, weight: .bold))),
                        ]),
                    ResolvedInstance(
                        id: "field", component: "uitextfield", operations: [op("backgroundColor", .color(yellow))]),
                ]), activate: "t")
        applicator.style(button, as: "send")
        applicator.style(entry, as: "field")
        window.settle()
        let handle = try #require(LiveryGTK.Widget.wrapping(button) as? LiveryGTK.Button)
        let middle = 100
        var image = try #require(Offscreen.render(button))
        #expect(image.contains(white, inX: middle - 60..<middle + 60, y: 10..<50))
        #expect(!image.contains(yellow, inX: middle - 60..<middle + 60, y: 10..<50, tolerance: 3))
        #expect(handle.shownTitle == "Send")

        gtk_widget_set_state_flags(button, GTK_STATE_FLAG_ACTIVE, 0)
        window.settle()
        image = try #require(Offscreen.render(button))
        #expect(
            image.contains(yellow, inX: middle - 60..<middle + 60, y: 10..<50), "pressed: the highlighted title colour")
        #expect(handle.shownTitle == "Sending", "pressed: the highlighted title")

        gtk_widget_unset_state_flags(button, GTK_STATE_FLAG_ACTIVE)
        gtk_widget_set_sensitive(button, 0)
        gtk_widget_set_sensitive(entry, 0)
        window.settle()
        image = try #require(Offscreen.render(button))
        #expect(
            image.contains(red, inX: middle - 60..<middle + 60, y: 10..<50, tolerance: 12),
            "disabled: the disabled title colour")
        #expect(handle.shownTitle == "Send", "disabled: no disabled title, so the normal one")
        let field = try #require(Offscreen.render(entry))
        #expect(
            close(field.pixel(x: 6, y: field.height / 2), yellow, tolerance: 4),
            "a disabled entry keeps the theme's background over GTK's :disabled look")
    }
}
