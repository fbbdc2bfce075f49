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
    /// What widgets show (a `GdkPaintable`): the texture itself at scale 1; for an `@Nx` asset,
    /// the texture drawn into its logical size (pixels / N), so a `GtkPicture` measures and draws
    /// it as UIKit draws `UIImage(data:scale:)`, with every pixel used on a display of scale N.
    /// Holds one reference.
    public let paintable: OpaquePointer

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
        paintable = Self.paintable(of: texture, scale: self.scale)
    }

    /// The texture at its logical size: a render node of the texture in a rectangle of
    /// pixels / scale, whose paintable reports that size as its intrinsic size.
    private static func paintable(of texture: OpaquePointer, scale: Int) -> OpaquePointer {
        let raw = UnsafeMutableRawPointer(texture)
        guard scale > 1, let snapshot = gtk_snapshot_new() else {
            g_object_ref(raw)
            return livery_paintable(raw)
        }
        var size = graphene_size_t(
            width: Float(gdk_texture_get_width(texture)) / Float(scale),
            height: Float(gdk_texture_get_height(texture)) / Float(scale))
        var bounds = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0), size: size)
        gtk_snapshot_append_texture(snapshot, texture, &bounds)
        // Transfers the snapshot; an empty one gives nil, which a texture's node never is.
        guard let paintable = gtk_snapshot_free_to_paintable(snapshot, &size) else {
            g_object_ref(raw)
            return livery_paintable(raw)
        }
        return paintable
    }

    /// The texture of a theme image: the one the image decoder made, else one made now.
    static func of(_ image: ThemeImage) -> Texture? {
        image.decoded(as: Texture.self) ?? Texture(data: image.data, scale: image.scale)
    }

    public var pixelWidth: Int { Int(gdk_texture_get_width(gdkTexture)) }
    public var pixelHeight: Int { Int(gdk_texture_get_height(gdkTexture)) }

    /// The size the image covers on screen, in logical pixels (an `@2x` image's pixels halved):
    /// the intrinsic size of `paintable`.
    public var logicalSize: (width: Int, height: Int) {
        (
            Int(gdk_paintable_get_intrinsic_width(livery_paintable(UnsafeMutableRawPointer(paintable)))),
            Int(gdk_paintable_get_intrinsic_height(livery_paintable(UnsafeMutableRawPointer(paintable))))
        )
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(paintable))
        g_object_unref(UnsafeMutableRawPointer(gdkTexture))
    }
}
