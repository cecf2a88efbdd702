@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastRender
import XCTest

/// `SurfaceScale`: buffer size, buffer scale, viewport destination and damage for integer and
/// fractional scaling.
final class SurfaceScaleTests: XCTestCase {
    func testIntegerScalingIsTodaysPath() {
        for n in [1, 2, 3] {
            let scaling = SurfaceScale.integer(n)
            XCTAssertFalse(scaling.viewported)
            XCTAssertEqual(scaling.bufferScale, Int32(n))
            let size = scaling.bufferSize(logical: (360, 97))
            XCTAssertEqual(size.width, 360 * n)
            XCTAssertEqual(size.height, 97 * n)
            XCTAssertNil(scaling.destination(logical: (360, 97)), "no viewport: the buffer scale says it all")
        }
    }

    func testFractionalScalingDrawsExactPixelsShownAtTheLogicalSize() {
        // (preferred scale in 120ths, logical size, buffer size)
        let cases: [(Int, (Int, Int), (Int, Int))] = [
            (120, (360, 97), (360, 97)),
            (150, (360, 97), (450, 121)),  // 121.25
            (150, (361, 83), (451, 104)),  // 451.25, 103.75
            (180, (360, 97), (540, 146)),  // 145.5 rounds away from zero
            (180, (333, 1), (500, 2)),     // 499.5, 1.5
            (240, (360, 97), (720, 194)),
        ]
        for (numerator, logical, expected) in cases {
            let scaling = SurfaceScale.fractional(numerator)
            let size = scaling.bufferSize(logical: logical)
            XCTAssertEqual(size.width, expected.0, "\(numerator)/120 × \(logical)")
            XCTAssertEqual(size.height, expected.1, "\(numerator)/120 × \(logical)")
            XCTAssertEqual(scaling.bufferScale, 1, "the viewport does the scaling")
            let destination = scaling.destination(logical: logical)
            XCTAssertEqual(destination?.width, Int32(logical.0))
            XCTAssertEqual(destination?.height, Int32(logical.1))
        }
    }

    func testDamageIsClippedToTheBuffer() {
        let scaling = SurfaceScale.fractional(150)
        let logical = (width: 361, height: 83)  // 451 × 104 pixels
        XCTAssertEqual(scaling.damage(Rect(x: 10, y: 20, width: 30, height: 40), logical: logical),
                       Rect(x: 10, y: 20, width: 30, height: 40))
        // A rect covering the last logical column (360…361 → 450…451.25) ends at the buffer's edge.
        let lastColumn = scaling.drawing.pixelsCovering(Rect(x: 360, y: 0, width: 1, height: 83))
        XCTAssertEqual(lastColumn, Rect(x: 450, y: 0, width: 2, height: 104))
        XCTAssertEqual(scaling.damage(lastColumn, logical: logical), Rect(x: 450, y: 0, width: 1, height: 104))
        XCTAssertNil(scaling.damage(Rect(x: 500, y: 0, width: 5, height: 5), logical: logical), "outside the buffer")
        XCTAssertNil(scaling.damage(Rect(x: 5, y: 5, width: 0, height: 5), logical: logical), "empty")
    }

    func testTheSurfaceScaleFollowsThePreferredScaleOnlyWithAViewport() {
        XCTAssertEqual(SurfaceScale.fractional(150).drawing, PixelScale(numerator: 150))
        XCTAssertEqual(SurfaceScale.integer(2).drawing, PixelScale(2))
        XCTAssertNotEqual(SurfaceScale.fractional(240), SurfaceScale.integer(2), "same pixels, another way to show them")
    }
}
