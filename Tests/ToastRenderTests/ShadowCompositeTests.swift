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
                banded.composite(shadow, atPixelX: 3, y: 3, clip: nil, blendingOnly: reach, corners: corners, inside: .skip)
                let whole = patterned(width: shadow.width + 6, height: shadow.height + 6)
                whole.composite(shadow, atPixelX: 3, y: 3, opacity: 1, clip: nil)
                XCTAssertTrue(samePixels(banded, whole), "corner radius \(radius), scale \(scale)")
            }
        }
    }
}
