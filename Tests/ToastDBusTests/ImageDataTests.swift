import ToastVocabulary
import XCTest
import ToastDBus
import ToastVocabulary

/// The image validator, without a bus: every refusal, and that nothing outside the data is read.
final class ImageDataTests: XCTestCase {
    private func decode(_ w: Int, _ h: Int, rowstride: Int, alpha: Bool = true, bits: Int = 8, channels: Int = 4,
                        bytes: Int) -> Result<RGBAImage, ImageError> {
        ImageData.decode(width: w, height: h, rowstride: rowstride, hasAlpha: alpha, bitsPerSample: bits,
                         channels: channels, data: (0..<bytes).map { UInt8(truncatingIfNeeded: $0) })
    }

    func testTightRGBAIsCopied() throws {
        let image = try decode(2, 2, rowstride: 8, bytes: 16).get()
        XCTAssertEqual(image.pixels, Array(0..<16))
    }

    func testExtraTrailingBytesAreCutOff() throws {
        XCTAssertEqual(try decode(2, 1, rowstride: 8, bytes: 12).get().pixels, Array(0..<8))
    }

    func testPaddedRGBAIsRepacked() throws {
        // rowstride 10: bytes 8 and 9 of row 0 are padding; the last row needs only 8 bytes.
        let image = try decode(2, 2, rowstride: 10, bytes: 18).get()
        XCTAssertEqual(image.pixels, [0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17])
    }

    func testRGBGetsOpaqueAlpha() throws {
        let image = try decode(1, 2, rowstride: 4, alpha: false, channels: 3, bytes: 7).get()
        XCTAssertEqual(image.pixels, [0, 1, 2, 255, 4, 5, 6, 255])
    }

    func testRefusals() {
        XCTAssertEqual(decode(0, 2, rowstride: 8, bytes: 16), .failure(.badSize(width: 0, height: 2)))
        XCTAssertEqual(decode(2, -1, rowstride: 8, bytes: 16), .failure(.badSize(width: 2, height: -1)))
        XCTAssertEqual(decode(ImageData.maxSide + 1, 1, rowstride: 40000, bytes: 16),
                       .failure(.tooLarge(width: ImageData.maxSide + 1, height: 1)))
        XCTAssertEqual(decode(2, 2, rowstride: 16, bits: 16, bytes: 32), .failure(.unsupportedBits(16)))
        XCTAssertEqual(decode(2, 2, rowstride: 8, alpha: false, channels: 4, bytes: 16),
                       .failure(.unsupportedChannels(channels: 4, hasAlpha: false)))
        XCTAssertEqual(decode(2, 2, rowstride: 4, channels: 1, bytes: 16),
                       .failure(.unsupportedChannels(channels: 1, hasAlpha: true)))
        XCTAssertEqual(decode(2, 2, rowstride: 7, bytes: 16), .failure(.rowstrideTooSmall(rowstride: 7, needed: 8)))
        XCTAssertEqual(decode(2, 2, rowstride: 8, bytes: 15), .failure(.tooFewBytes(have: 15, needed: 16)))
        XCTAssertEqual(decode(2, 2, rowstride: -8, bytes: 16), .failure(.rowstrideTooSmall(rowstride: -8, needed: 8)))
    }

    func testHugeRowstrideDoesNotOverflowOrRead() {
        XCTAssertEqual(decode(2, 2048, rowstride: Int(Int32.max), bytes: 16),
                       .failure(.tooFewBytes(have: 16, needed: Int(Int32.max) * 2047 + 8)))
    }

    func testLargestAcceptedSide() throws {
        let side = ImageData.maxSide
        let image = try decode(side, 1, rowstride: side * 4, bytes: side * 4).get()
        XCTAssertEqual(image.pixels.count, side * 4)
    }
}
