internal import CCairo
import ToastVocabulary

/// Small cairo helpers shared by the toast and HUD drawing.
enum CairoDrawing {
    static func setColor(_ cr: OpaquePointer, _ c: Color) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
    }

    /// Adds a rounded rectangle path; the radius is clamped to half the shorter side.
    static func roundedRect(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius: Double) {
        let r = max(0, min(radius, width / 2, height / 2))
        let pi = Double.pi
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + width - r, y + r, r, -pi / 2, 0)
        cairo_arc(cr, x + width - r, y + height - r, r, 0, pi / 2)
        cairo_arc(cr, x + r, y + height - r, r, pi / 2, pi)
        cairo_arc(cr, x + r, y + r, r, pi, 3 * pi / 2)
        cairo_close_path(cr)
    }

    /// The toast/HUD box: rounded rectangle filled with `fill`, stroked inside its bounds with `border`.
    static func box(_ cr: OpaquePointer, size: Size, radius: Double, fill: Color, border: Color, borderWidth: Double) {
        let inset = borderWidth / 2
        roundedRect(cr, x: inset, y: inset, width: Double(size.width) - borderWidth,
                    height: Double(size.height) - borderWidth, radius: radius - inset)
        setColor(cr, fill)
        if borderWidth > 0 {
            cairo_fill_preserve(cr)
            cairo_set_line_width(cr, borderWidth)
            setColor(cr, border)
            cairo_stroke(cr)
        } else {
            cairo_fill(cr)
        }
    }

    /// mako's progress: the part of the box inside its border, from the left to `fraction` of its
    /// width, painted with `colour` (`over` blends it with the background, `source` replaces it).
    static func progressFill(_ cr: OpaquePointer, size: Size, style: ToastStyle, fill: ProgressFill, colour: Color,
                             fraction: Double) {
        guard fraction > 0 else { return }
        let border = style.borderWidth
        let inner = (width: Double(size.width) - 2 * border, height: Double(size.height) - 2 * border)
        guard inner.width > 0, inner.height > 0 else { return }
        cairo_save(cr)
        roundedRect(cr, x: border, y: border, width: inner.width, height: inner.height,
                    radius: max(0, style.cornerRadius - border))
        cairo_clip(cr)
        cairo_rectangle(cr, border, border, inner.width * fraction, inner.height)
        cairo_set_operator(cr, fill == .source ? CAIRO_OPERATOR_SOURCE : CAIRO_OPERATOR_OVER)
        setColor(cr, colour)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// Runs `body` translated to `origin`, composited at `opacity` (a group only when translucent).
    static func withOpacity(_ cr: OpaquePointer, origin: Point, opacity: Double, _ body: () -> Void) {
        cairo_save(cr)
        cairo_translate(cr, Double(origin.x), Double(origin.y))
        let alpha = min(max(opacity, 0), 1)
        if alpha >= 1 {
            body()
        } else if alpha > 0 {
            cairo_push_group(cr)
            body()
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, alpha)
        }
        cairo_restore(cr)
    }

    /// A cairo ARGB32 surface holding `image` premultiplied. Caller destroys it.
    static func surface(from image: RGBAImage) -> OpaquePointer? {
        guard image.width > 0, image.height > 0 else { return nil }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              let data = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        image.pixels.withUnsafeBufferPointer { src in
            for y in 0..<image.height {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                var s = y * image.width * 4
                for x in 0..<image.width {
                    let a = UInt32(src[s + 3])
                    // Premultiply with rounding: c * a / 255.
                    func pm(_ c: UInt8) -> UInt32 { let t = UInt32(c) * a + 128; return (t + (t >> 8)) >> 8 }
                    row[x] = a << 24 | pm(src[s]) << 16 | pm(src[s + 1]) << 8 | pm(src[s + 2])
                    s += 4
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }
}
