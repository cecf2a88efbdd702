import CCairo
import Foundation
import XCTest
@testable import ToastPictures
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

    func testTheHeaderGivesTheSizeWithoutDecoding() throws {
        let canvas = Canvas(width: 40, height: 30)
        let path = NSTemporaryDirectory() + "imagefile-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try canvas.writePNG(path: path)
        XCTAssertEqual(ImageFile.pngSize(path: path).map { [$0.width, $0.height] }, [40, 30])
        // A header that declares a 20000×20000 picture, and no pixels at all: the size is known first.
        var bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bomb += Array("IHDR".utf8) + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20]
        XCTAssertEqual(ImageFile.pngSize(header: bomb).map { [$0.width, $0.height] }, [20000, 20000])
        XCTAssertNil(ImageFile.pngSize(header: Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 18)))
        XCTAssertNil(ImageFile.pngSize(path: path + ".missing"))
    }

    func testALargePictureIsShrunkWhileDecoded() throws {
        let canvas = Canvas(width: 600, height: 300)
        canvas.withContext(scale: 1) { cr in
            cairo_set_source_rgba(cr, 0, 1, 0, 1)
            cairo_paint(cr)
        }
        let path = NSTemporaryDirectory() + "imagefile-\(UUID().uuidString).png"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try canvas.writePNG(path: path)
        let image = try XCTUnwrap(ImageFile.loadPNG(path: path, fittingIn: 100))
        XCTAssertEqual([image.width, image.height], [100, 50])
        XCTAssertEqual(Array(image.pixels[0..<4]), [0, 255, 0, 255])
        XCTAssertEqual(Array(image.pixels[image.pixels.count - 4..<image.pixels.count]), [0, 255, 0, 255])
    }
}
