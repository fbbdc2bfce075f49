import CGTK
import Foundation
import Livery
import Testing

@testable import LiveryGTK

/// Following the desktop through GTK's real settings object: `GtkSettings` properties set in
/// the test process reach the theme, in pixels; the app's overrides win.
@MainActor
@Suite(.serialized) struct GTKSystemTraitsTests {
    let red = rgb(0xD01010), blue = rgb(0x1030C0), yellow = rgb(0xFFE000), green = rgb(0x10A040)

    /// The button is red, blue in dark mode, yellow in high contrast, green with large text; the
    /// label's font is 16 px, scaled with the text.
    func followTheme() -> LoadedTheme {
        func instances(_ color: Color) -> [ResolvedInstance] {
            [
                ResolvedInstance(
                    id: "send", component: "uibutton", operations: [op("backgroundColor", .color(color))]),
                ResolvedInstance(
                    id: "title", component: "uilabel",
                    operations: [op("font", .font(Font(family: "DejaVu Sans", size: 16)))]),
            ]
        }
        var axes = TraitAxes()
        let dark = TraitSet(appearance: .dark), contrast = TraitSet(contrast: .highcontrast)
        let large = TraitSet(textSize: .largetext)
        for traits in [dark, contrast, large] { axes.insert(traits) }
        var variants: [TraitSet: [ResolvedInstance]] = [:]
        for traits in axes.traitSets {
            let color =
                traits.contrast != nil
                ? yellow : traits.appearance == .dark ? blue : traits.textSize != nil ? green : red
            variants[traits] = instances(color)
        }
        variants[.none] = instances(red)
        return LoadedTheme(
            variants: ThemeVariants(
                info: ThemeInfo(id: "follow", name: "follow"), ancestors: [], axes: axes, variants: variants,
                assets: .empty))
    }

    /// GTK's settings as they were, put back after the test (they are the process's).
    struct SavedSettings {
        let settings = UnsafeMutableRawPointer(gtk_settings_get_default()!)
        let dark: gboolean, theme: String, dpi: Int32

        @MainActor init() {
            dark = livery_get_bool_property(settings, "gtk-application-prefer-dark-theme")
            let name = livery_get_string_property(settings, "gtk-theme-name")
            theme = name.map { String(cString: $0) } ?? "Default"
            g_free(name)
            dpi = livery_get_int_property(settings, "gtk-xft-dpi")
        }

        @MainActor func restore() {
            livery_set_bool_property(settings, "gtk-application-prefer-dark-theme", dark)
            livery_set_string_property(settings, "gtk-theme-name", theme)
            livery_set_int_property(settings, "gtk-xft-dpi", dpi)
        }
    }

    @Test func theWindowFollowsTheDesktopsDarkModeContrastAndTextScalingAndTheAppsOverridesWin() throws {
        try GTKTestEnvironment.start()
        let saved = SavedSettings()
        defer { saved.restore() }
        livery_set_int_property(saved.settings, "gtk-xft-dpi", 96 * 1024)
        let window = TestWindow()
        defer { window.destroy() }
        let button = gtk_button_new_with_label("W")!
        gtk_widget_set_size_request(button, 120, 40)
        gtk_widget_set_halign(button, GTK_ALIGN_START)
        let label = gtk_label_new("Hello")!
        gtk_widget_set_halign(label, GTK_ALIGN_START)
        window.add(button)
        window.add(label)
        let manager = ThemeManager()
        manager.add(followTheme())
        manager.activate(themeID: "follow")
        let applicator = Applicator(manager: manager, bindings: GTKBindings.register(in:))
        applicator.style(button, as: "send")
        applicator.style(label, as: "title")
        let system = GTKSystemTraits.follow(manager, window: window.window)
        func fill() -> Color? {
            window.settle()
            let image = Offscreen.render(button)
            return image?.pixel(x: 10, y: image!.height / 2)
        }
        func labelHeight() -> Int32 {
            window.settle()
            var minimum: Int32 = 0, natural: Int32 = 0
            gtk_widget_measure(label, GTK_ORIENTATION_VERTICAL, -1, &minimum, &natural, nil, nil)
            return natural
        }
        #expect(close(fill(), red), "light, standard contrast and text")
        #expect(manager.scale == Int(gtk_widget_get_scale_factor(window.window)), "the window's scale factor")
        let standardHeight = labelHeight()

        livery_set_bool_property(saved.settings, "gtk-application-prefer-dark-theme", 1)
        #expect(manager.traits.appearance == .dark)
        #expect(close(fill(), blue), "the desktop went dark")

        system.appearanceOverride = .light
        #expect(close(fill(), red), "the app's light override wins over the desktop's dark mode")
        system.appearanceOverride = nil
        #expect(close(fill(), blue), "back to following")
        livery_set_bool_property(saved.settings, "gtk-application-prefer-dark-theme", 0)
        #expect(close(fill(), red), "the desktop went light again")

        livery_set_string_property(saved.settings, "gtk-theme-name", "HighContrast")
        #expect(manager.traits.contrast == .highcontrast)
        #expect(close(fill(), yellow), "the desktop's high contrast")
        system.highContrastOverride = false
        #expect(close(fill(), red), "the app's override wins over high contrast")
        system.highContrastOverride = nil
        livery_set_string_property(saved.settings, "gtk-theme-name", "Adwaita-dark")
        #expect(close(fill(), blue), "a -dark theme name is dark mode")
        livery_set_string_property(saved.settings, "gtk-theme-name", saved.theme)

        livery_set_int_property(saved.settings, "gtk-xft-dpi", 144 * 1024)
        #expect(manager.textScale == 1.5)
        #expect(manager.traits.textSize == .largetext, "1.5 is large text")
        #expect(close(fill(), green), "large text selects the largetext variant")
        let largerHeight = labelHeight()
        let ratio = Double(largerHeight) / Double(standardHeight)
        #expect(ratio > 1.3 && ratio < 1.7, "the 16 px font at 1.5x: \(standardHeight) -> \(largerHeight)")
        system.largeTextOverride = false
        #expect(close(fill(), red), "the app turned largetext off")
        #expect(manager.textScale == 1.5, "the text scale still follows")
        system.textScaleOverride = 1
        #expect(manager.textScale == 1)
        livery_set_int_property(saved.settings, "gtk-xft-dpi", 120 * 1024)
        #expect(manager.textScale == 1, "the app's text scale wins")

        system.stop()
        livery_set_bool_property(saved.settings, "gtk-application-prefer-dark-theme", 1)
        #expect(manager.traits.appearance == nil, "a stopped follower follows nothing")
    }

    @Test func aFollowerLeavesOutTheAspectsItIsNotGiven() throws {
        try GTKTestEnvironment.start()
        let saved = SavedSettings()
        defer { saved.restore() }
        let manager = ThemeManager()
        manager.setTraits(TraitSet(contrast: .highcontrast))
        livery_set_bool_property(saved.settings, "gtk-application-prefer-dark-theme", 1)
        let system = GTKSystemTraits.follow(manager, aspects: [.appearance])
        #expect(manager.traits.appearance == .dark)
        #expect(manager.traits.contrast == .highcontrast, "contrast is the app's")
        livery_set_int_property(saved.settings, "gtk-xft-dpi", 144 * 1024)
        #expect(manager.textScale == 1, "text size is the app's")
        withExtendedLifetime(system) {}
    }

    /// The layout direction follows GTK's default direction (the user interface language's) and
    /// the window's own, live; the app's override wins.
    @Test func theDirectionFollowsGTKsDefaultAndTheWindowsDirection() throws {
        try GTKTestEnvironment.start()
        let savedDefault = gtk_widget_get_default_direction()
        defer { gtk_widget_set_default_direction(savedDefault) }
        gtk_widget_set_default_direction(GTK_TEXT_DIR_LTR)
        let window = TestWindow()
        defer { window.destroy() }
        let manager = ThemeManager()
        let system = GTKSystemTraits.follow(manager, window: window.window, aspects: [.direction])
        #expect(manager.traits.direction == .ltr)
        gtk_widget_set_default_direction(GTK_TEXT_DIR_RTL)
        #expect(manager.traits.direction == .rtl, "GTK's default direction changed")
        gtk_widget_set_direction(window.window, GTK_TEXT_DIR_LTR)
        #expect(manager.traits.direction == .ltr, "the window's own direction wins over the default")
        system.directionOverride = .rtl
        #expect(manager.traits.direction == .rtl, "the app's override wins")
        system.directionOverride = nil
        #expect(manager.traits.direction == .ltr)
        gtk_widget_set_direction(window.window, GTK_TEXT_DIR_NONE)
        #expect(manager.traits.direction == .rtl, "back to the default")
        withExtendedLifetime(system) {}
    }
}
