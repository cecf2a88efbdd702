import ToastVocabulary
import XCTest
@testable import ToastRender

final class ImageScalingTests: XCTestCase {
    func testSmallImageIsKept() {
        let image = RGBAImage(width: 2, height: 2, pixels: [UInt8](repeating: 7, count: 16))
        XCTAssertEqual(image.downscaled(toFit: 4), image)
    }

    func testLargeImageShrinksKeepingAspectAndColour() {
        // 400x200, left half opaque red, right half transparent.
        var pixels = [UInt8](repeating: 0, count: 400 * 200 * 4)
        for y in 0..<200 { for x in 0..<200 { let i = (y * 400 + x) * 4; pixels[i] = 255; pixels[i + 3] = 255 } }
        let small = RGBAImage(width: 400, height: 200, pixels: pixels).downscaled(toFit: 100)
        XCTAssertEqual(small.width, 100)
        XCTAssertEqual(small.height, 50)
        XCTAssertEqual(small.pixels.count, 100 * 50 * 4)
        XCTAssertEqual(Array(small.pixels[0..<4]), [255, 0, 0, 255])        // left: red
        let right = (10 * 100 + 90) * 4
        XCTAssertEqual(small.pixels[right + 3], 0)                           // right: transparent
    }
}
