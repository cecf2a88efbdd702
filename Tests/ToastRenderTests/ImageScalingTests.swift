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

    /// A received picture (RGB, rows padded) is unpacked and shrunk in one pass from its own bytes:
    /// the padding is never read as pixels, and RGB comes out opaque.
    func testReceivedRGBWithPaddedRowsShrinksWithoutReadingThePadding() {
        let width = 40, height = 20, rowstride = 40 * 3 + 8
        var bytes = [UInt8](repeating: 0xEE, count: rowstride * height)  // padding: a colour that must not show
        for y in 0..<height {
            for x in 0..<width {
                let i = y * rowstride + x * 3
                (bytes[i], bytes[i + 1], bytes[i + 2]) = x < width / 2 ? (0, 0, 255) : (0, 255, 0)
            }
        }
        let owner = BytesOwner(bytes)
        let image = owner.bytes.withUnsafeBytes { raw in
            ReceivedImage(width: width, height: height, rowstride: rowstride, channels: 3, bytes: raw, owner: owner)
                .shrunk(toFit: 10)
        }
        XCTAssertEqual(image.width, 10)
        XCTAssertEqual(image.height, 5)
        XCTAssertEqual(Array(image.pixels[0..<4]), [0, 0, 255, 255])              // left: blue, opaque
        XCTAssertEqual(Array(image.pixels[(4 * 10 + 9) * 4..<(4 * 10 + 10) * 4]), [0, 255, 0, 255])  // right: green
    }
}

/// Keeps a test's bytes alive as a received picture's owner.
private final class BytesOwner {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
}
