import CCairo
import Glibc
import ToastVocabulary
import XCTest
@testable import ToastRender

/// A toast's shadow blended only in its outer band and the box's corners gives what blending all of it
/// gives, at integer scales: inside the box, along its straight edges, the shadow holds nothing.
final class ShadowCompositeTests: XCTestCase {
    /// A canvas of `width`×`height` holding a pattern of premultiplied colours, some translucent: what
    /// a shadow is blended over must show whether a pixel was blended or left alone.
    private func patterned(width: Int, height: Int) -> Canvas {
        let canvas = Canvas(width: width, height: height)
        let data = cairo_image_surface_get_data(canvas.surface)!
        for y in 0..<height {
            for x in 0..<width {
                let a = UInt32(128 + (x * 7 + y * 3) % 128)
                let pixel = a << 24 | ((UInt32(x * 5) % (a + 1)) << 16) | ((UInt32(y * 3) % (a + 1)) << 8) | (UInt32(x + y) % (a + 1))
                UnsafeMutableRawPointer(data).storeBytes(of: pixel, toByteOffset: y * canvas.stride + x * 4, as: UInt32.self)
            }
        }
        cairo_surface_mark_dirty(canvas.surface)
        return canvas
    }

    private func samePixels(_ a: Canvas, _ b: Canvas) -> Bool {
        memcmp(cairo_image_surface_get_data(a.surface), cairo_image_surface_get_data(b.surface), a.stride * a.height) == 0
    }

    func testTheBandAndTheCornersHoldAllOfTheShadow() throws {
        for radius in [10.0, 16.0] {
            var style = ToastStyle()
            style.cornerRadius = radius
            let renderer = ToastRenderer(style: style)
            let view = ToastView(summary: "Shadowed", body: "A toast over a pattern")
            for scale: PixelScale in [1, 2] {
                let size = renderer.measure(view, scale: scale)
                let shadow = try XCTUnwrap(renderer.shadowImage(of: view, size: size, scale: scale))
                let reach = style.shadowExtent * scale
                XCTAssertEqual(shadow.width, size.width * scale + 2 * reach)
                let corners = Int((radius * scale.factor).rounded(.up))
                let banded = patterned(width: shadow.width + 6, height: shadow.height + 6)
                banded.composite(shadow, atPixelX: 3, y: 3, clip: nil, blendingOnly: reach, corners: corners)
                let whole = patterned(width: shadow.width + 6, height: shadow.height + 6)
                whole.composite(shadow, atPixelX: 3, y: 3, opacity: 1, clip: nil)
                XCTAssertTrue(samePixels(banded, whole), "corner radius \(radius), scale \(scale)")
            }
        }
    }
    /// Blended through its colour, the one-byte mask gives the pixels a coloured ARGB picture of it gave
    /// (the colour painted through the mask, then blended), opaque and fading, but for rounding: at most
    /// one step a channel.
    func testTheMaskBlendsAsItsColouredPictureDid() throws {
        let renderer = ToastRenderer()
        let view = ToastView(summary: "Shadowed", body: "A toast over a pattern")
        let size = renderer.measure(view, scale: 1)
        let mask = try XCTUnwrap(renderer.shadowImage(of: view, size: size, scale: 1))
        let coloured = Canvas(width: mask.width, height: mask.height)
        let cr = cairo_create(coloured.surface)!
        CairoDrawing.setColor(cr, mask.color)
        cairo_mask_surface(cr, mask.surface, 0, 0)
        cairo_destroy(cr)
        cairo_surface_flush(coloured.surface)
        for opacity in [1.0, 0.6, 0.25] {
            let through = patterned(width: mask.width, height: mask.height)
            through.composite(mask, atPixelX: 0, y: 0, opacity: opacity)
            let picture = patterned(width: mask.width, height: mask.height)
            picture.composite(coloured, atPixelX: 0, y: 0, opacity: opacity)
            var worst = 0, touched = 0
            for y in 0..<mask.height {
                for x in 0..<mask.width {
                    let (a, b) = (through.pixel(x: x, y: y), picture.pixel(x: x, y: y))
                    let d = max(abs(Int(a.a) - Int(b.a)), abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                    worst = max(worst, d)
                    if mask.coverage(x: x, y: y) > 16 { touched += 1 }
                }
            }
            XCTAssertLessThanOrEqual(worst, 1, "opacity \(opacity)")
            XCTAssertGreaterThan(touched, mask.width * 4, "the shadow covers something to compare")
        }
    }
}
