import XCTest
import ToastRender

/// `PixelScale`: logical lengths to buffer pixels at integer and fractional scales, and the rect a
/// damage must cover.
final class PixelScaleTests: XCTestCase {
    private let quarter = PixelScale(numerator: 150), half = PixelScale(numerator: 180)

    func testIntegerScalesMultiplyExactly() {
        for n in 1...4 {
            let scale = PixelScale(n)
            XCTAssertTrue(scale.isInteger)
            XCTAssertEqual(scale.factor, Double(n))
            for length in [0, 1, 7, 359, 360] { XCTAssertEqual(length * scale, length * n) }
            let rect = Rect(x: 3, y: 5, width: 7, height: 11)
            XCTAssertEqual(scale.pixelsCovering(rect), Rect(x: 3 * n, y: 5 * n, width: 7 * n, height: 11 * n))
        }
        XCTAssertEqual(PixelScale(numerator: 240), PixelScale(2), "240/120 is the integer scale 2")
        XCTAssertEqual(PixelScale(0), PixelScale.one, "a scale below 1 counts as 1")
    }

    func testFractionalLengthsRoundHalfAwayFromZero() {
        XCTAssertFalse(quarter.isInteger)
        XCTAssertEqual(quarter.factor, 1.25)
        XCTAssertEqual(360 * quarter, 450, "the issue's example: a 360-wide toast at 125 %")
        XCTAssertEqual(360 * half, 540)
        XCTAssertEqual(1 * quarter, 1, "1.25 rounds down")
        XCTAssertEqual(2 * quarter, 3, "2.5 rounds away from zero")
        XCTAssertEqual(3 * quarter, 4, "3.75 rounds up")
        XCTAssertEqual(1 * half, 2, "1.5 rounds away from zero")
        XCTAssertEqual(-2 * quarter, -3, "negative lengths round away from zero too")
        XCTAssertEqual(7 * PixelScale(numerator: 121), 7, "7.058… rounds to 7")
        XCTAssertEqual(quarter.roundedUp, 2)
        XCTAssertEqual(half.roundedUp, 2)
        XCTAssertEqual(PixelScale(2).roundedUp, 2)
    }

    func testCoveringRoundsOutward() {
        // 1.25: x 1 → 1.25 (pixel 1), right edge 2 → 2.5 (pixel 2 is touched): pixels 1 and 2.
        XCTAssertEqual(quarter.pixelsCovering(Rect(x: 1, y: 1, width: 1, height: 1)), Rect(x: 1, y: 1, width: 2, height: 2))
        // Odd size at an odd place: 3…10 → 3.75…12.5: pixels 3 to 12.
        XCTAssertEqual(quarter.pixelsCovering(Rect(x: 3, y: 0, width: 7, height: 4)), Rect(x: 3, y: 0, width: 10, height: 5))
        // 1.5: 5…12 → 7.5…18: pixels 7 to 17.
        XCTAssertEqual(half.pixelsCovering(Rect(x: 5, y: 5, width: 7, height: 7)), Rect(x: 7, y: 7, width: 11, height: 11))
        // Negative origins (a slid toast) round down, away from the rect.
        XCTAssertEqual(quarter.pixelsCovering(Rect(x: -1, y: 0, width: 2, height: 1)), Rect(x: -2, y: 0, width: 4, height: 2))
        // The covering rect always holds the exact product, and is at most a pixel larger on each side.
        for scale in [quarter, half, PixelScale(numerator: 210)] {
            for x in 0..<9 {
                for width in 1..<9 {
                    let covered = scale.pixelsCovering(Rect(x: x, y: 0, width: width, height: 1))
                    let (left, right) = (Double(x) * scale.factor, Double(x + width) * scale.factor)
                    XCTAssertLessThanOrEqual(Double(covered.x), left)
                    XCTAssertGreaterThanOrEqual(Double(covered.maxX), right)
                    XCTAssertGreaterThan(Double(covered.x), left - 1)
                    XCTAssertLessThan(Double(covered.maxX), right + 1)
                }
            }
        }
        XCTAssertTrue(quarter.pixelsCovering(Rect(x: 4, y: 4, width: 0, height: 3)).isEmpty)
    }

    func testIntegerLiteralsAreIntegerScales() {
        let two: PixelScale = 2
        XCTAssertEqual(two, PixelScale(2))
        XCTAssertEqual(two.description, "2")
        XCTAssertEqual(quarter.description, "150/120")
    }

    func testCanvasForALogicalSizeHasTheRoundedPixelSize() {
        let canvas = Canvas(size: Size(width: 361, height: 83), scale: quarter)
        XCTAssertEqual(canvas.width, 451, "451.25 → 451")
        XCTAssertEqual(canvas.height, 104, "103.75 → 104")
    }
}
