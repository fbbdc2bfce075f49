import CGTK
import Foundation
import Livery
import Testing

@testable import LiveryGTK

/// `@Nx` assets drawn at their logical size (pixels / N) on every widget that shows an image, at
/// display scales 1 and 2, in pixels.
@MainActor
@Suite(.serialized) struct GTKImageTests {
    static let red = rgb(0xE01010)

    /// A PNG of `size` x `size` pixels of one colour, made by GDK.
    static func png(size: Int, color: Color) -> Data {
        var pixels = [UInt8]()
        for _ in 0..<size * size {
            pixels += [UInt8(color.red * 255), UInt8(color.green * 255), UInt8(color.blue * 255), 255]
        }
        let bytes = pixels.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        defer { g_bytes_unref(bytes) }
        let texture = gdk_memory_texture_new(Int32(size), Int32(size), GDK_MEMORY_R8G8B8A8, bytes, gsize(size * 4))!
        defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
        let png = gdk_texture_save_to_png_bytes(texture)!
        defer { g_bytes_unref(png) }
        var length: gsize = 0
        let data = g_bytes_get_data(png, &length)!
        return Data(bytes: data, count: Int(length))
    }

    /// A theme whose `dot` is 8 x 8 points: 8 pixels at @1x, 16 at @2x.
    static func dotTheme() -> LoadedTheme {
        let assets = AssetCatalog(
            searchOrder: ["dots"],
            variants: [
                AssetVariant(name: "dot", themeID: "dots", file: "assets/dot.png", scale: 1),
                AssetVariant(name: "dot", themeID: "dots", file: "assets/dot@2x.png", scale: 2),
            ])
        let dot = Value.image(ImageReference(name: "dot"))
        let instances = [
            // `center`: drawn at its own size, never scaled to the picture's allocation.
            ResolvedInstance(
                id: "picture", component: "uiimageview",
                operations: [op("image", dot, param: "image"), op("contentMode", .enumeration("center"))]),
            ResolvedInstance(id: "icon", component: "uibutton", operations: [op("image", dot, param: "image")]),
        ]
        return LoadedTheme(
            variants: ThemeVariants(
                info: ThemeInfo(id: "dots", name: "dots"), ancestors: [], axes: TraitAxes(),
                variants: [.none: instances], assets: assets),
            assets: InMemoryAssetSource(files: [
                AssetFileKey(themeID: "dots", file: "assets/dot.png"): png(size: 8, color: red),
                AssetFileKey(themeID: "dots", file: "assets/dot@2x.png"): png(size: 16, color: red),
            ]), origin: .memory)
    }

    /// The bounding box of the pixels of `color` in `image`, as (width, height); (0, 0) if none.
    func extent(of color: Color, in image: RenderedImage) -> (width: Int, height: Int) {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<image.height {
            for x in 0..<image.width where close(image.pixel(x: x, y: y), color, tolerance: 6) {
                minX = min(minX, x)
                minY = min(minY, y)
                maxX = max(maxX, x)
                maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? (0, 0) : (maxX - minX + 1, maxY - minY + 1)
    }

    @Test(arguments: [1, 2])
    func anImageCoversItsLogicalSizeOnPicturesAndButtons(scale: Int) throws {
        try GTKTestEnvironment.start()
        let window = TestWindow()
        defer { window.destroy() }
        let picture = gtk_picture_new()!
        gtk_widget_set_halign(picture, GTK_ALIGN_START)
        gtk_widget_set_valign(picture, GTK_ALIGN_START)
        let icon = gtk_button_new_with_label("")!
        gtk_widget_set_halign(icon, GTK_ALIGN_START)
        for widget in [picture, icon] { window.add(widget) }
        let manager = ThemeManager(scale: scale)
        manager.add(Self.dotTheme())
        manager.activate(themeID: "dots")
        let applicator = Applicator(manager: manager, bindings: GTKBindings.register(in:))
        applicator.style(picture, as: "picture")
        applicator.style(icon, as: "icon")
        window.settle()

        let shown = try #require(LiveryGTK.Widget.wrapping(picture) as? Picture)
        #expect(shown.image?.scale == scale, "the asset of the display's scale was picked")
        var minimum: Int32 = 0, natural: Int32 = 0
        gtk_widget_measure(picture, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, nil, nil)
        #expect(natural == 8, "the picture measures the image's 8 points, not its \(8 * scale) pixels")
        let pictureImage = try #require(Offscreen.render(picture))
        let drawn = extent(of: Self.red, in: pictureImage)
        #expect(drawn.width == 8 && drawn.height == 8, "the picture draws 8 x 8 logical pixels: \(drawn)")
        let iconImage = try #require(Offscreen.render(icon))
        let iconDrawn = extent(of: Self.red, in: iconImage)
        #expect(iconDrawn.width == 8 && iconDrawn.height == 8, "the button's icon covers 8 x 8: \(iconDrawn)")
    }

    @Test func aTextureOfAnAtTwoXAssetHasHalfItsPixelsAsItsSize() throws {
        try GTKTestEnvironment.start()
        let texture = try #require(Texture(data: Self.png(size: 16, color: Self.red), scale: 2))
        #expect(texture.pixelWidth == 16)
        #expect(texture.logicalSize.width == 8 && texture.logicalSize.height == 8)
        let single = try #require(Texture(data: Self.png(size: 16, color: Self.red), scale: 1))
        #expect(single.logicalSize.width == 16)
    }
}
