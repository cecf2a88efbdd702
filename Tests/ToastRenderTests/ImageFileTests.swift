import CCairo
import Foundation
import XCTest
@testable import ToastRender

final class ImageFileTests: XCTestCase {
    func testPNGRoundTripsToStraightRGBA() throws {
        let canvas = Canvas(width: 4, height: 2)
        // Left half opaque red, right half half-transparent blue (premultiplied in the canvas).
        canvas.withContext(scale: 1) { cr in
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_rgba(cr, 1, 0, 0, 1)
            cairo_rectangle(cr, 0, 0, 2, 2)
            cairo_fill(cr)
            cairo_set_source_rgba(cr, 0, 0, 1, 128.0 / 255.0)
            cairo_rectangle(cr, 2, 0, 2, 2)
            cairo_fill(cr)
        }
        let path = NSTemporaryDirectory() + "imagefile-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try canvas.writePNG(path: path)
        let image = try XCTUnwrap(ImageFile.loadPNG(path: path))
        XCTAssertEqual(image.width, 4)
        XCTAssertEqual(image.height, 2)
        XCTAssertEqual(Array(image.pixels[0..<4]), [255, 0, 0, 255])
        let right = Array(image.pixels[(2 * 4)..<(2 * 4 + 4)])
        XCTAssertEqual(right[3], 128)
        XCTAssertGreaterThan(right[2], 250)   // straight alpha: blue restored to full
        XCTAssertEqual(right[0], 0)
    }

    func testNotAPNGIsNil() throws {
        let path = NSTemporaryDirectory() + "imagefile-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(ImageFile.loadPNG(path: path))
        XCTAssertNil(ImageFile.loadPNG(path: path + ".missing"))
    }
}
