import CGTK
import Foundation
import Livery

/// A theme image as a GDK texture, made from the asset's bytes (a compiled theme's images live
/// inside the `.livery` file, so no file path or CSS `url()` could reach them). Owns one
/// reference on the texture. Textures are immutable, so one may be shared between threads and
/// widgets; `GTKBindings.imageDecoder` makes them where the runtime decodes images, so a
/// `cache="true"` image is decoded once for every widget that shows it.
public final class Texture: @unchecked Sendable {
    /// The texture; valid as long as this object lives.
    public let gdkTexture: OpaquePointer
    /// The asset's scale factor (2 for `@2x`): the texture's pixels per logical pixel.
    public let scale: Int

    /// Decodes PNG, JPEG or TIFF bytes; nil when GDK cannot read them.
    public init?(data: Data, scale: Int) {
        let bytes = data.withUnsafeBytes { buffer in g_bytes_new(buffer.baseAddress, gsize(buffer.count)) }
        defer { g_bytes_unref(bytes) }
        var error: UnsafeMutablePointer<GError>?
        guard let texture = gdk_texture_new_from_bytes(bytes, &error) else {
            if let error { g_error_free(error) }
            return nil
        }
        gdkTexture = texture
        self.scale = max(1, scale)
    }

    /// The texture of a theme image: the one the image decoder made, else one made now.
    static func of(_ image: ThemeImage) -> Texture? {
        image.decoded(as: Texture.self) ?? Texture(data: image.data, scale: image.scale)
    }

    public var pixelWidth: Int { Int(gdk_texture_get_width(gdkTexture)) }
    public var pixelHeight: Int { Int(gdk_texture_get_height(gdkTexture)) }

    /// The size the image covers on screen, in logical pixels (an `@2x` image's pixels halved).
    var logicalSize: (width: Int32, height: Int32) {
        (Int32((Double(pixelWidth) / Double(scale)).rounded()), Int32((Double(pixelHeight) / Double(scale)).rounded()))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(gdkTexture))
    }
}
