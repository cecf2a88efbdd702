internal import CCairo
import Glibc

/// Bytes a picture is drawn into, apart from the canvas over them so that they can outlive it: the
/// renderer keeps the memory of the last toast that left the screen for the next one's picture
/// (`ToastRenderer.keepPictureMemory`).
public final class PictureMemory {
    let bytes: UnsafeMutableRawPointer
    /// How many bytes.
    public let count: Int

    /// Allocates `count` bytes; nil when memory is short. Written whole right after: its fresh pages
    /// (a burst's first pictures, any after the heap was trimmed) come in one call instead of a fault each.
    init?(count: Int) {
        guard count > 0, let bytes = malloc(count) else { return nil }
        FreshPages.populate(bytes, count: count)
        (self.bytes, self.count) = (bytes, count)
    }

    deinit { free(bytes) }
}

/// A pixel buffer the renderer draws into: ARGB32, premultiplied alpha, native-endian 32-bit pixels
/// (= `WL_SHM_FORMAT_ARGB8888` on little-endian = `CAIRO_FORMAT_ARGB32`).
///
/// Either wraps caller memory (a wl_shm buffer) or owns its memory (tests, PNG export).
/// Drawing calls take a buffer `scale`: logical coordinates are multiplied by it, so a logical size
/// `w × h` needs a canvas of `w*scale × h*scale` pixels.
public final class Canvas {
    /// Width and height in buffer pixels.
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    let surface: OpaquePointer
    /// The memory of a picture (`init(uninitializedWidth:height:in:)`), freed with its last holder.
    public let memory: PictureMemory?

    /// Wraps `data` (not copied, not freed; must outlive the canvas). `stride` is in bytes
    /// (at least `width * 4`, a multiple of 4; the wl_shm stride).
    public init(data: UnsafeMutableRawPointer, width: Int, height: Int, stride: Int) {
        precondition(width > 0 && height > 0 && stride >= width * 4 && stride % 4 == 0, "Canvas: bad geometry")
        self.width = width
        self.height = height
        self.stride = stride
        surface = cairo_image_surface_create_for_data(
            data.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride))
        memory = nil
    }

    /// Allocates a canvas of `width × height` buffer pixels whose pixels are not initialized, owned by
    /// the canvas: for a picture whose every pixel is written before it is read (a toast's picture
    /// starts with its box copied over all of it). Zeroing it first, as cairo does, was half of the
    /// instructions a new toast cost. Drawn into `reused` when it is large enough (no other canvas may
    /// use it meanwhile), else into memory of its own. Nil when memory is short.
    public init?(uninitializedWidth width: Int, height: Int, in reused: PictureMemory? = nil) {
        precondition(width > 0 && height > 0, "Canvas: bad geometry")
        let stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        guard stride > 0,
              let memory = reused.flatMap({ $0.count >= stride * height ? $0 : nil }) ?? PictureMemory(count: stride * height),
              let surface = cairo_image_surface_create_for_data(
                memory.bytes.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height), Int32(stride)),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else { return nil }
        (self.width, self.height, self.stride, self.surface, self.memory) = (width, height, stride, surface, memory)
    }

    /// Allocates a transparent canvas of `width × height` buffer pixels, owned by the canvas.
    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "Canvas: bad geometry")
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        self.width = width
        self.height = height
        stride = Int(cairo_image_surface_get_stride(surface))
        memory = nil
    }

    /// Allocates a canvas for `size` logical pixels at `scale`.
    public convenience init(size: Size, scale: PixelScale) {
        self.init(width: max(1, size.width * scale), height: max(1, size.height * scale))
    }

    deinit {
        cairo_surface_destroy(surface)  // before `memory` goes: the surface points into it
    }

    /// Makes every pixel fully transparent.
    public func clear() {
        cairo_surface_flush(surface)
        if let data = cairo_image_surface_get_data(surface) {
            memset(data, 0, stride * height)
        }
        cairo_surface_mark_dirty(surface)
    }

    /// Copies the whole rows `rows` of `source` (this canvas or another of the same geometry) into
    /// this canvas, `dy` rows lower (higher when negative); rows outside the copy keep what they held.
    /// A stack whose toasts all moved together is copied this way, from the buffer that holds the
    /// latest frame, instead of being composited again.
    public func copyRows(_ rows: Range<Int>, by dy: Int, from source: Canvas) {
        precondition(source.width == width && source.height == height && source.stride == stride,
                     "Canvas.copyRows: another geometry")
        let copied = rows.clamped(to: max(0, -dy)..<min(height, height - dy))
        guard !copied.isEmpty, let to = cairo_image_surface_get_data(surface),
              let from = cairo_image_surface_get_data(source.surface), to + dy * stride != from else { return }
        cairo_surface_flush(source.surface)
        cairo_surface_flush(surface)
        // memmove: the source may be this very memory.
        memmove(to + (copied.lowerBound + dy) * stride, from + copied.lowerBound * stride, copied.count * stride)
        cairo_surface_mark_dirty(surface)
    }

    /// Makes the pixels of `rect` (logical, at `scale`) fully transparent, leaving the rest alone: every
    /// pixel it touches, whole (at a fractional scale its edges fall inside pixels).
    ///
    /// Zeroed by hand, not with cairo's CLEAR: cairo remembers a surface it cleared whole and turns the
    /// next OVER into it into SOURCE, and pixman has no fast path for SOURCE at a constant alpha (a fade's
    /// frame): its general path cost ~4× the SSE2 OVER the same pixels take (checked under gdb).
    public func clear(_ rect: Rect, scale: PixelScale) {
        let pixels = scale.pixelsCovering(rect).intersection(Rect(x: 0, y: 0, width: width, height: height))
        guard pixels.width > 0, pixels.height > 0, let data = cairo_image_surface_get_data(surface) else { return }
        cairo_surface_flush(surface)
        if pixels.x == 0 && pixels.width == width {
            memset(data + pixels.y * stride, 0, pixels.height * stride)
        } else {
            for row in pixels.y..<(pixels.y + pixels.height) {
                memset(data + row * stride + pixels.x * 4, 0, pixels.width * 4)
            }
        }
        cairo_surface_mark_dirty_rectangle(surface, Int32(pixels.x), Int32(pixels.y), Int32(pixels.width), Int32(pixels.height))
    }

    /// Composites `source` over this canvas with its top-left at buffer pixel (`x`, `y`), faded by
    /// `opacity`. A blit of a finished picture: the daemon renders a toast once and only composites it
    /// on animation frames.
    /// With `clip` (buffer pixels), only pixels inside it are touched. With `replacing`, an opaque
    /// (opacity 1) picture replaces what is under it instead of being blended over it: a plain copy,
    /// right when the area was cleared or nothing else is drawn there.
    public func composite(_ source: Canvas, atPixelX x: Int, y: Int, opacity: Double = 1, clip: Rect? = nil,
                          replacing: Bool = false) {
        withPixels(clippedTo: clip) { cr in
            cairo_set_source_surface(cr, source.surface, Double(x), Double(y))
            if opacity >= 1 && replacing {
                cairo_rectangle(cr, Double(x), Double(y), Double(source.width), Double(source.height))
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_fill(cr)
            } else if opacity >= 1 {
                cairo_paint(cr)
            } else {
                cairo_paint_with_alpha(cr, max(0, opacity))
            }
        }
    }

    /// Composites `source` over this canvas, blending only the band `edge` pixels wide along its border
    /// and copying its interior: the caller knows this canvas is clear there, where blending and copying
    /// give the same result, and copying costs a fraction. A toast over shadows blends only where a
    /// shadow may lie under it: blending a whole stack on every redraw doubled the CPU a notification costs.
    public func composite(_ source: Canvas, atPixelX x: Int, y: Int, clip: Rect?, blendingOnly edge: Int) {
        let (w, h) = (source.width, source.height)
        let edge = max(0, min(edge, w / 2, h / 2))
        withPixels(clippedTo: clip) { cr in
            cairo_set_source_surface(cr, source.surface, Double(x), Double(y))
            let inner = Self.interior(of: source, atPixelX: x, y: y, blendingOnly: edge)
            if !inner.isEmpty {
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                cairo_rectangle(cr, Double(inner.x), Double(inner.y), Double(inner.width), Double(inner.height))
                cairo_fill(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            }
            Self.addBand(cr, Rect(x: x, y: y, width: w, height: h), edge: edge, corners: 0, inner: inner)
            cairo_fill(cr)
        }
    }

    /// Adds to `cr`'s path the band `edge` pixels wide along the border of `whole` (buffer pixels) and,
    /// with `corners`, squares of that side in the four corners of `inner`, its interior.
    private static func addBand(_ cr: OpaquePointer, _ whole: Rect, edge: Int, corners: Int, inner: Rect) {
        // Top and bottom strips across, left and right between them (no overlap).
        let (e, fx, fy, fw, fh) = (Double(edge), Double(whole.x), Double(whole.y), Double(whole.width), Double(whole.height))
        cairo_rectangle(cr, fx, fy, fw, e)
        cairo_rectangle(cr, fx, fy + fh - e, fw, e)
        cairo_rectangle(cr, fx, fy + e, e, fh - 2 * e)
        cairo_rectangle(cr, fx + fw - e, fy + e, e, fh - 2 * e)
        let c = Double(max(0, min(corners, inner.width / 2, inner.height / 2)))
        if c > 0 {
            let (ix, iy, iw, ih) = (Double(inner.x), Double(inner.y), Double(inner.width), Double(inner.height))
            cairo_rectangle(cr, ix, iy, c, c)
            cairo_rectangle(cr, ix + iw - c, iy, c, c)
            cairo_rectangle(cr, ix, iy + ih - c, c, c)
            cairo_rectangle(cr, ix + iw - c, iy + ih - c, c, c)
        }
    }

    /// Composites `shadow` over this canvas with its top-left at buffer pixel (`x`, `y`): its colour
    /// blended through its coverage, faded by `opacity`. With `clip` (buffer pixels), only pixels inside
    /// it are touched.
    public func composite(_ shadow: ShadowMask, atPixelX x: Int, y: Int, opacity: Double = 1, clip: Rect? = nil) {
        withPixels(clippedTo: clip) { cr in
            let color = shadow.color
            CairoDrawing.setColor(cr, opacity >= 1 ? color : color.withAlpha(color.alpha * max(0, opacity)))
            cairo_mask_surface(cr, shadow.surface, Double(x), Double(y))
        }
    }

    /// Composites `shadow` as the other `composite` of a shadow does, but only the band `edge` pixels
    /// wide along its border and, with `corners`, squares of that side in its interior's four corners:
    /// a shadow knocked out under its box holds nothing elsewhere, and blending the whole of it over a
    /// stack on every redraw doubled the CPU a notification costs.
    public func composite(_ shadow: ShadowMask, atPixelX x: Int, y: Int, clip: Rect?, blendingOnly edge: Int,
                          corners: Int = 0) {
        let edge = max(0, min(edge, shadow.width / 2, shadow.height / 2))
        let inner = Self.interior(width: shadow.width, height: shadow.height, atPixelX: x, y: y, blendingOnly: edge)
        withPixels(clippedTo: clip) { cr in
            Self.addBand(cr, Rect(x: x, y: y, width: shadow.width, height: shadow.height), edge: edge, corners: corners,
                         inner: inner)
            cairo_clip(cr)
            CairoDrawing.setColor(cr, shadow.color)
            cairo_mask_surface(cr, shadow.surface, Double(x), Double(y))
        }
    }

    /// The interior that `composite(_:atPixelX:y:clip:blendingOnly:)` copies (before its clip), in
    /// buffer pixels: what it sets whatever was there.
    public static func interior(of source: Canvas, atPixelX x: Int, y: Int, blendingOnly edge: Int) -> Rect {
        interior(width: source.width, height: source.height, atPixelX: x, y: y, blendingOnly: edge)
    }

    /// The interior of a `width`×`height` picture at buffer pixel (`x`, `y`) inside its band `edge` wide.
    private static func interior(width: Int, height: Int, atPixelX x: Int, y: Int, blendingOnly edge: Int) -> Rect {
        let edge = max(0, min(edge, width / 2, height / 2))
        return Rect(x: x + edge, y: y + edge, width: width - 2 * edge, height: height - 2 * edge)
    }

    /// Runs `body` with a fresh cairo context in buffer pixels, held to `clip` (buffer pixels) when given.
    private func withPixels(clippedTo clip: Rect?, _ body: (OpaquePointer) -> Void) {
        withContext(scale: 1) { cr in
            if let clip {
                cairo_rectangle(cr, Double(clip.x), Double(clip.y), Double(clip.width), Double(clip.height))
                cairo_clip(cr)
            }
            body(cr)
        }
    }

    /// Runs `body` with a fresh cairo context scaled to logical coordinates, then flushes. With `origin`,
    /// logical (0, 0) is that point's buffer pixel (`origin × scale`, rounded): at a fractional scale a
    /// part drawn in place then lands on the same pixels as its picture composited there.
    func withContext<R>(scale: PixelScale, origin: Point = .zero, _ body: (OpaquePointer) -> R) -> R {
        let cr = cairo_create(surface)!
        defer {
            cairo_destroy(cr)
            cairo_surface_flush(surface)
        }
        if origin != .zero { cairo_translate(cr, Double(origin.x * scale), Double(origin.y * scale)) }
        cairo_scale(cr, scale.factor, scale.factor)
        return body(cr)
    }

    /// The premultiplied pixel at buffer coordinates as `(a, r, g, b)` bytes.
    public func pixel(x: Int, y: Int) -> (a: UInt8, r: UInt8, g: UInt8, b: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "Canvas.pixel: out of bounds")
        cairo_surface_flush(surface)
        let row = cairo_image_surface_get_data(surface)! + y * stride
        let v = UnsafeRawPointer(row).load(fromByteOffset: x * 4, as: UInt32.self)
        return (UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff))
    }

    /// The raw 32-bit pixel value at buffer coordinates (`0xAARRGGBB`, premultiplied).
    public func rawPixel(x: Int, y: Int) -> UInt32 {
        let p = pixel(x: x, y: y)
        return UInt32(p.a) << 24 | UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b)
    }

    /// Writes the canvas as a PNG file.
    public func writePNG(path: String) throws(CanvasError) {
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw .writeFailed(path: path, reason: String(cString: cairo_status_to_string(status)))
        }
    }
}

/// Why a canvas operation failed.
public enum CanvasError: Error, Equatable {
    case writeFailed(path: String, reason: String)
}
