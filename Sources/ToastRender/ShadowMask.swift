internal import CCairo

/// A drop shadow kept as coverage, one byte a pixel (cairo's A8), with the colour it is drawn in:
/// `Canvas.composite(_:atPixelX:y:opacity:clip:)` blends the colour through it. A shadow is kept as
/// long as its toast is shown and read by every frame that blends it, so a quarter of the bytes of a
/// coloured ARGB picture of it is a quarter of the memory and of the pixels a fade's frame reads.
public final class ShadowMask {
    /// Width and height in buffer pixels.
    public let width: Int
    public let height: Int
    let surface: OpaquePointer
    /// Premultiplied into each pixel's coverage when blended.
    public let color: Color

    /// A mask of `width × height` buffer pixels, all clear; nil when memory is short.
    init?(width: Int, height: Int, color: Color) {
        precondition(width > 0 && height > 0, "ShadowMask: bad geometry")
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        (self.width, self.height, self.surface, self.color) = (width, height, surface, color)
    }

    deinit { cairo_surface_destroy(surface) }

    /// Bytes per row.
    var stride: Int { Int(cairo_image_surface_get_stride(surface)) }

    /// The bytes its pixels hold.
    public var byteCount: Int { stride * height }

    /// How much of the colour the pixel at buffer coordinates gets: 0 (none) to 255 (all of it).
    public func coverage(x: Int, y: Int) -> UInt8 {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "ShadowMask.coverage: out of bounds")
        cairo_surface_flush(surface)
        return cairo_image_surface_get_data(surface)![y * stride + x]
    }
}
