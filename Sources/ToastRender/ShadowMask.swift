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

    /// The soft shadow of a box of `size` (logical pixels) with `cornerRadius`: `shadow.radius` larger
    /// than the box on every side, the box's shape dropped by `shadow.drop` and blurred so that it fades
    /// out within that, and nothing where the box is (a translucent box shows what is behind it rather
    /// than its own shadow). Nil when memory is short.
    convenience init?(box size: Size, cornerRadius: Double, shadow: ToastStyle.Shadow, scale: PixelScale) {
        let extent = Double(shadow.radius)
        let outer = Size(width: size.width + 2 * shadow.radius, height: size.height + 2 * shadow.radius)
        self.init(width: max(1, outer.width * scale), height: max(1, outer.height * scale), color: shadow.color)
        fill(scale: scale) { cr in
            CairoDrawing.roundedRect(cr, x: extent, y: extent + Double(shadow.drop), width: Double(size.width),
                                     height: Double(size.height), radius: cornerRadius)
        }
        if let data = cairo_image_surface_get_data(surface) {
            let spread = (shadow.radius - shadow.drop) * scale
            ShadowBlur.blur(data, width: width, height: height, stride: stride, radius: max(1, spread / 3))
        }
        cairo_surface_mark_dirty(surface)
        fill(scale: scale, clearing: true) { cr in
            CairoDrawing.roundedRect(cr, x: extent, y: extent, width: Double(size.width), height: Double(size.height),
                                     radius: cornerRadius)
        }
    }

    deinit { cairo_surface_destroy(surface) }

    /// Fills the path `path` adds (logical pixels at `scale`) with full coverage, or clears it.
    private func fill(scale: PixelScale, clearing: Bool = false, path: (OpaquePointer) -> Void) {
        guard let cr = cairo_create(surface) else { return }
        cairo_scale(cr, scale.factor, scale.factor)
        path(cr)
        cairo_set_operator(cr, clearing ? CAIRO_OPERATOR_CLEAR : CAIRO_OPERATOR_OVER)
        cairo_set_source_rgba(cr, 0, 0, 0, 1)
        cairo_fill(cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }

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
