import XCTest
@testable import ToastRender

final class StackLayoutTests: XCTestCase {
    func testNewestFirstNoOverlapGaps() {
        let sizes = [Size(width: 360, height: 80), Size(width: 360, height: 120), Size(width: 360, height: 60)]
        let a = StackLayout.arrange(sizes: sizes, gap: 8, maxVisible: 5, moreSize: Size(width: 80, height: 24))
        XCTAssertEqual(a.rects, [Rect(x: 0, y: 0, width: 360, height: 80),
                                 Rect(x: 0, y: 88, width: 360, height: 120),
                                 Rect(x: 0, y: 216, width: 360, height: 60)])
        XCTAssertEqual(a.hiddenCount, 0)
        XCTAssertNil(a.moreRect)
        XCTAssertEqual(a.size, Size(width: 360, height: 276))
    }

    func testMoreCountAndPill() {
        let sizes = Array(repeating: Size(width: 300, height: 50), count: 7)
        let a = StackLayout.arrange(sizes: sizes, gap: 10, maxVisible: 3, moreSize: Size(width: 90, height: 24))
        XCTAssertEqual(a.rects.count, 3)
        XCTAssertEqual(a.hiddenCount, 4)
        XCTAssertEqual(a.moreRect, Rect(x: 210, y: 180, width: 90, height: 24), "right-aligned under the last")
        XCTAssertEqual(a.size, Size(width: 300, height: 204))
        for (i, x) in a.rects.enumerated() {
            for y in a.rects[(i + 1)...] { XCTAssertFalse(x.intersects(y)) }
            XCTAssertFalse(x.intersects(a.moreRect!))
        }
    }

    func testRightAlignedWhenWidthsDiffer() {
        let a = StackLayout.arrange(sizes: [Size(width: 200, height: 10), Size(width: 300, height: 10)], gap: 0,
                                    maxVisible: 5, moreSize: nil)
        XCTAssertEqual(a.rects[0].maxX, a.rects[1].maxX)
        XCTAssertEqual(a.rects[0].x, 100)
    }

    func testEmptyAndMinimumOneVisible() {
        XCTAssertEqual(StackLayout.arrange(sizes: [], gap: 8, maxVisible: 5, moreSize: nil).size, .zero)
        let a = StackLayout.arrange(sizes: [Size(width: 10, height: 10), Size(width: 10, height: 10)], gap: 8,
                                    maxVisible: 0, moreSize: nil)
        XCTAssertEqual(a.rects.count, 1)
        XCTAssertEqual(a.hiddenCount, 1)
    }

    func testRendererStackUsesStyleMaxVisible() {
        var style = ToastStyle()
        style.maxVisible = 2
        let r = ToastRenderer(style: style)
        let toasts = (0..<5).map { ToastView(summary: "T\($0)") }
        let a = r.measureStack(toasts, scale: 1)
        XCTAssertEqual(a.rects.count, 2)
        XCTAssertEqual(a.hiddenCount, 3)
        XCTAssertNotNil(a.moreRect)
        let canvas = Canvas(size: a.size, scale: 1)
        XCTAssertEqual(r.renderStack(toasts, in: canvas, scale: 1), a)
        // The pill is drawn: its centre is opaque; the gap left of it is transparent.
        let pill = a.moreRect!
        XCTAssertGreaterThan(canvas.pixel(x: pill.x + pill.width / 2, y: pill.y + pill.height / 2).a, 200)
        XCTAssertEqual(canvas.pixel(x: 2, y: pill.y + pill.height / 2).a, 0)
        // The gap between toasts is transparent.
        XCTAssertEqual(canvas.pixel(x: a.size.width / 2, y: a.rects[0].maxY + style.gap / 2).a, 0)
    }
}
