import ToastConfig
import ToastRender

/// How a surface's buffer relates to its logical size: the buffer size, the wl_surface buffer scale,
/// the wp_viewport destination and the damage sent with each frame.
///
/// Two ways, chosen per surface by what the compositor offers:
/// - **integer** (wl_output.scale): a buffer of `logical × n` pixels with buffer scale `n`;
/// - **viewported** (wp_fractional_scale_v1 + wp_viewporter): a buffer of `round(logical × n/120)`
///   pixels with buffer scale 1, stretched back to the logical size by the viewport's destination.
///   At 1.25 a 360-wide toast is a 450-pixel buffer shown 360 wide: every pixel on screen drawn once,
///   where an integer-scale client's 720 pixels are shrunk by the compositor and come out blurry.
/// Pure arithmetic: no Wayland objects.
package struct SurfaceScale: Equatable {
    /// What logical coordinates are multiplied by when drawing.
    package var drawing: PixelScale
    /// Whether the buffer is shown through a viewport (buffer scale 1, destination = logical size).
    package var viewported: Bool

    /// Integer scaling at wl_output's scale (at least 1).
    package static func integer(_ scale: Int) -> SurfaceScale { SurfaceScale(drawing: PixelScale(scale), viewported: false) }

    /// Fractional scaling at a preferred_scale (120ths).
    package static func fractional(_ numerator: Int) -> SurfaceScale {
        SurfaceScale(drawing: PixelScale(numerator: numerator), viewported: true)
    }

    /// The buffer's size in pixels for a logical size: each side rounded half away from zero, never 0.
    package func bufferSize(logical: (width: Int, height: Int)) -> (width: Int, height: Int) {
        (max(1, logical.width * drawing), max(1, logical.height * drawing))
    }

    /// The value for wl_surface.set_buffer_scale.
    package var bufferScale: Int32 { viewported ? 1 : Int32(drawing.roundedUp) }

    /// The value for wp_viewport.set_destination: the logical size (nil: no viewport in use).
    package func destination(logical: (width: Int, height: Int)) -> (width: Int32, height: Int32)? {
        viewported ? (Int32(max(1, logical.width)), Int32(max(1, logical.height))) : nil
    }

    /// A damaged area in buffer pixels, clipped to a buffer of `logical` size; nil when nothing of it
    /// is inside.
    package func damage(_ pixels: Rect, logical: (width: Int, height: Int)) -> Rect? {
        let size = bufferSize(logical: logical)
        let clipped = pixels.intersection(Rect(x: 0, y: 0, width: size.width, height: size.height))
        return clipped.isEmpty ? nil : clipped
    }
}
