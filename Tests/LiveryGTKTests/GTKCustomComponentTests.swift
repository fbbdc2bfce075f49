import CGTK
import Foundation
import Livery
import Testing

@testable import LiveryGTK

/// An app's own component type: the CSS the standard bindings use (text colour, font, border,
/// corner radius) through public properties, and attaching it to a widget that already has a
/// plain handle replaces that handle instead of crashing.
@MainActor
@Suite(.serialized) struct GTKCustomComponentTests {
    final class Badge: LiveryGTK.Widget {}

    let red = rgb(0xD01010), blue = rgb(0x1030C0), white = rgb(0xFFFFFF), yellow = rgb(0xFFE000)

    @Test func aCustomComponentGetsTextColourFontBorderAndCornersAndReplacesAPlainHandle() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let label = gtk_label_new("WWW")!
        gtk_widget_set_halign(label, GTK_ALIGN_START)
        window.add(label)
        var binding = ComponentBinding<Badge>("badge", extends: "uiview")
        binding.bind("textColor", get: { $0.cssTextColor }, set: { $0.cssTextColor = $1 })
        binding.bind("font", get: { $0.cssFont }, set: { $0.cssFont = $1 })
        let manager = ThemeManager()
        manager.add(
            theme(
                "t",
                [
                    ResolvedInstance(
                        id: "plain", component: "uilabel", operations: [op("backgroundColor", .color(yellow))]),
                    ResolvedInstance(
                        id: "badge", component: "badge",
                        operations: [
                            op("textColor", .color(red)),
                            op("font", .font(Font(family: "DejaVu Sans", size: 28, weight: .bold))),
                            op("backgroundColor", .color(white)),
                            op("borderColor", .color(blue)), op("borderWidth", .float(4)),
                            op("cornerRadius", .float(3)),
                        ]),
                ]))
        manager.activate(themeID: "t")
        let applicator = Applicator(manager: manager) { applicator in
            GTKBindings.register(in: applicator)
            applicator.register(binding)
        }
        // The app styled the label before it attached its own type: a plain `Label` handle.
        applicator.style(label, as: "plain")
        window.settle()
        #expect(LiveryGTK.Widget.wrapping(label) is Label)

        let badge = Badge(attachingTo: label)
        #expect(LiveryGTK.Widget.wrapping(label) === badge, "the new handle replaced the plain one")
        applicator.style(badge, as: "badge")
        window.settle()
        #expect(applicator.liveComponentCount() == 1, "the replaced handle was forgotten")
        #expect(badge.cssTextColor == red && badge.cssBorderWidth == 4 && badge.cssCornerRadius == 3)
        let image = try #require(Offscreen.render(label))
        let glyphs = image.contains(red, inX: 6..<image.width - 6, y: 6..<image.height - 6, tolerance: 3)
        #expect(glyphs, "the text colour reaches the glyphs")
        #expect(close(image.pixel(x: 1, y: image.height / 2), blue, tolerance: 3), "the border colour and width")
        #expect(image.height > 30, "the font's size: \(image.height)")
        let plainBackground = image.contains(yellow, inX: 0..<image.width, y: 0..<image.height, tolerance: 3)
        #expect(!plainBackground, "the plain handle's look went with it")
    }
}
