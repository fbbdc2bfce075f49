import CGTK
import Foundation
import Livery
import LiveryHeadless
import Testing

@testable import LiveryGTK

/// What the bindings do to widgets, read back through GTK's API: positions, text, line counts,
/// the diagnostics of operations GTK has no meaning for, and the CSS a style becomes.
@MainActor
@Suite(.serialized) struct GTKBindingTests {
    func setUp(_ instances: [ResolvedInstance], _ second: [ResolvedInstance] = []) -> (ThemeManager, Applicator) {
        let manager = ThemeManager()
        manager.add(theme("a", instances))
        manager.add(theme("b", second))
        manager.activate(themeID: "a")
        return (manager, Applicator(manager: manager, bindings: GTKBindings.register(in:)))
    }

    @Test func operationsWithoutGTKMeaningAreReportedOnceAndChangeNothing() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let bars = [gtk_header_bar_new()!, gtk_header_bar_new()!]
        for bar in bars { window.add(bar) }
        let label = gtk_label_new("x")!
        window.add(label)
        let (_, applicator) = setUp([
            ResolvedInstance(id: "bar", component: "uinavigationbar", operations: [op("translucent", .bool(true))]),
            ResolvedInstance(
                id: "title", component: "uilabel",
                operations: [
                    op("frame", .rect(Rect(x: 5, y: 5, width: 50, height: 20)), param: "rect")
                ]),
        ])
        for bar in bars { applicator.style(bar, as: "bar") }
        applicator.style(label, as: "title")
        let findings = applicator.diagnostics.reported.filter { $0.code == .gtkNoMeaning }
        #expect(findings.count == 2, "\(findings.map(\.message))")
        #expect(findings.contains { $0.message.contains("uinavigationbar.translucent") })
        #expect(findings.contains { $0.message.contains("uiview.frame") && $0.message.contains("GtkFixed") })
        var width: Int32 = 0, height: Int32 = 0
        gtk_widget_get_size_request(label, &width, &height)
        #expect(width == -1 && height == -1, "a label outside a GtkFixed keeps its size")
    }

    @Test func aFramePlacesAChildOfAFixedAndRevertPutsItBack() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let fixed = gtk_fixed_new()!
        window.add(fixed)
        let label = gtk_label_new("placed")!
        gtk_fixed_put(livery_fixed(fixed), label, 1, 2)
        let (manager, applicator) = setUp([
            ResolvedInstance(
                id: "title", component: "uilabel",
                operations: [
                    op("frame", .rect(Rect(x: 40, y: 30, width: 120, height: 24)), param: "rect"),
                    op("text", .string("Themed")),
                    op("numberOfLines", .integer(0)),
                    op("textAlignment", .enumeration("right")),
                ])
        ])
        applicator.style(label, as: "title")
        let handle = try #require(LiveryGTK.Widget.wrapping(label) as? LiveryGTK.Label)
        #expect(handle.frame == Rect(x: 40, y: 30, width: 120, height: 24))
        #expect(String(cString: gtk_label_get_text(livery_label(label))) == "Themed")
        #expect(gtk_label_get_wrap(livery_label(label)) != 0)
        #expect(gtk_label_get_xalign(livery_label(label)) == 1)

        manager.activate(themeID: "b")
        #expect(handle.frame == Rect(x: 1, y: 2, width: -1, height: -1))
        #expect(String(cString: gtk_label_get_text(livery_label(label))) == "placed")
        #expect(gtk_label_get_wrap(livery_label(label)) == 0)
        #expect(gtk_label_get_xalign(livery_label(label)) == 0.5)
        #expect(
            !applicator.diagnostics.reported.contains { $0.code == .gtkNoMeaning }, "frame has a meaning in a GtkFixed")
    }

    @Test func widgetsThatLookTheSameShareOneGeneratedClass() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let labels = (0..<5).map { _ in gtk_label_new("x")! }
        for label in labels { window.add(label) }
        let (manager, applicator) = setUp(
            [ResolvedInstance(id: "title", component: "uilabel", operations: [op("textColor", .color(rgb(0x112233)))])],
            [ResolvedInstance(id: "title", component: "uilabel", operations: [op("textColor", .color(rgb(0x445566)))])])
        for label in labels { applicator.style(label, as: "title") }
        GTKBindings.flushStyles()
        let classes = Set(labels.map { LiveryGTK.Widget.wrapping($0).cssClass?.name })
        #expect(classes.count == 1 && classes.first! != nil)
        let recorded = labels.map { ObjectIdentifier(LiveryGTK.Widget.wrapping($0).recordedStyle) }
        #expect(Set(recorded).count == 1, "widgets styled alike keep one copy of their style")
        let sheet = StyleSheet.shared.sheetText
        #expect(sheet.contains(".\(classes.first!!) { color: rgba(17,34,51,1); }"), "\(sheet)")
        let reloads = StyleSheet.shared.reloadCount
        manager.activate(themeID: "b")
        GTKBindings.flushStyles()
        #expect(
            Set(labels.map { LiveryGTK.Widget.wrapping($0).cssClass?.name }) == classes,
            "a switch that changes every widget of a class alike keeps their class")
        #expect(StyleSheet.shared.sheetText.contains(".\(classes.first!!) { color: rgba(68,85,102,1); }"))
        #expect(StyleSheet.shared.reloadCount == reloads + 1, "one parse of the sheet per switch, as GTK's own swap")
        #expect(Set(labels.map { ObjectIdentifier(LiveryGTK.Widget.wrapping($0).recordedStyle) }).count == 1)
    }

    @Test func widgetsWhoseLooksPartGetClassesOfTheirOwn() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let first = gtk_label_new("x")!, second = gtk_label_new("y")!
        window.add(first)
        window.add(second)
        let grey = op("textColor", .color(rgb(0x777777)))
        let (manager, applicator) = setUp(
            [
                ResolvedInstance(id: "one", component: "uilabel", operations: [grey]),
                ResolvedInstance(id: "two", component: "uilabel", operations: [grey]),
            ],
            [
                ResolvedInstance(id: "one", component: "uilabel", operations: [op("textColor", .color(rgb(0x010203)))]),
                ResolvedInstance(id: "two", component: "uilabel", operations: [grey]),
            ])
        applicator.style(first, as: "one")
        applicator.style(second, as: "two")
        GTKBindings.flushStyles()
        let shared = LiveryGTK.Widget.wrapping(first).cssClass
        #expect(shared != nil && shared === LiveryGTK.Widget.wrapping(second).cssClass)
        #expect(
            LiveryGTK.Widget.wrapping(first).recordedStyle === LiveryGTK.Widget.wrapping(second).recordedStyle,
            "two identifiers with equal styles share one recorded style")
        manager.activate(themeID: "b")
        GTKBindings.flushStyles()
        #expect(LiveryGTK.Widget.wrapping(first).style.textColor == rgb(0x010203))
        #expect(
            LiveryGTK.Widget.wrapping(second).style.textColor == rgb(0x777777),
            "changing one widget's shared style leaves the other's as it was")
        let firstClass = try #require(LiveryGTK.Widget.wrapping(first).cssClass)
        #expect(firstClass !== shared, "the label whose look changed moved to another class")
        #expect(LiveryGTK.Widget.wrapping(second).cssClass === shared, "the other kept its class and look")
        #expect(
            gtk_widget_has_css_class(first, firstClass.name) != 0 && gtk_widget_has_css_class(first, shared!.name) == 0)
        #expect(StyleSheet.shared.sheetText.contains(".\(firstClass.name) { color: rgba(1,2,3,1); }"))
        #expect(StyleSheet.shared.sheetText.contains(".\(shared!.name) { color: rgba(119,119,119,1); }"))
    }

    @Test func stylesBecomeCSS() {
        var style = WidgetStyle()
        style.font = Font(family: "Helvetica Neue", size: 16.5, weight: .semibold)
        style.fillColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5)
        style.stateTextColors[.highlighted] = Color(red: 0, green: 0, blue: 1)
        let css = style.rules(kind: .scale)
        #expect(
            css.contains("%C { font-family: \"Helvetica Neue\", sans-serif; font-size: 16.500px; font-weight: 600; }"),
            "\(css)")
        #expect(
            css.contains("%C > trough > highlight { background-color: rgba(255,0,0,0.500); background-image: none; }"),
            "\(css)")
        #expect(css.contains("%C:active { color: rgba(0,0,255,1); }"), "\(css)")
        #expect(WidgetStyle().rules(kind: .view).isEmpty)

        var typography = WidgetStyle()
        typography.font = Font(family: "Inter", size: 12, weight: .regular, letterSpacing: -0.25, lineHeight: 1.4)
        #expect(
            typography.rules(kind: .view).contains("letter-spacing: -0.250px; line-height: 1.400; }"),
            "\(typography.rules(kind: .view))")
    }
}

/// The GTK bindings cover the standard schema exactly as the headless reference bindings do, and
/// the parts GTK draws on child nodes take the theme's colours.
@MainActor
@Suite(.serialized) struct GTKCoverageTests {
    @Test func everyStandardOperationIsBoundOnGTK() {
        let manager = ThemeManager()
        let gtk = Applicator(manager: manager, bindings: GTKBindings.register(in:))
        let headless = Applicator(manager: manager, bindings: StandardBindings.register(in:))
        for component in [
            "uiview", "uilabel", "uibutton", "uiimageview", "uiswitch", "uislider", "uiprogressview",
            "uitextfield", "uitextview", "uinavigationbar",
        ] {
            #expect(gtk.boundOperations(of: component) == headless.boundOperations(of: component), "\(component)")
        }
    }

    @Test func aProgressBarShowsItsProgressAndTrackColours() throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let bar = gtk_progress_bar_new()!
        gtk_progress_bar_set_fraction(livery_progress_bar(bar), 0.5)
        gtk_widget_set_size_request(bar, 200, -1)
        gtk_widget_set_halign(bar, GTK_ALIGN_START)
        window.add(bar)
        let red = rgb(0xD01010), blue = rgb(0x1030C0)
        let manager = ThemeManager()
        manager.add(
            theme(
                "t",
                [
                    ResolvedInstance(
                        id: "upload", component: "uiprogressview",
                        operations: [
                            op("progressTintColor", .color(red)), op("trackTintColor", .color(blue)),
                        ])
                ]))
        manager.activate(themeID: "t")
        let applicator = Applicator(manager: manager, bindings: GTKBindings.register(in:))
        applicator.style(bar, as: "upload")
        window.settle()
        let image = try #require(Offscreen.render(bar))
        let row = image.height / 2
        #expect(close(image.pixel(x: 40, y: row), red), "progress: \(String(describing: image.pixel(x: 40, y: row)))")
        #expect(close(image.pixel(x: 160, y: row), blue), "track: \(String(describing: image.pixel(x: 160, y: row)))")
    }
}
