@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastRender
import XCTest

/// Anchors: the layer-shell edges each one asks for, and how a stack is turned to grow away from it.
final class PlacementTests: XCTestCase {
    func testEdges() {
        XCTAssertEqual(ScreenAnchor.topRight.edges, [.top, .right])
        XCTAssertEqual(ScreenAnchor.topLeft.edges, [.top, .left])
        XCTAssertEqual(ScreenAnchor.topCenter.edges, [.top])
        XCTAssertEqual(ScreenAnchor.bottomRight.edges, [.bottom, .right])
        XCTAssertEqual(ScreenAnchor.bottomLeft.edges, [.bottom, .left])
        XCTAssertEqual(ScreenAnchor.bottomCenter.edges, [.bottom])
    }

    /// Two toasts (newest first) and a narrower "+N more" pill, as StackLayout arranges them:
    /// top to bottom, right-aligned.
    private let arrangement = StackLayout.arrange(sizes: [Size(width: 100, height: 40), Size(width: 100, height: 60)],
                                                  hiddenCount: 3, gap: 10, moreSize: Size(width: 30, height: 20))

    private func placed(_ anchor: ScreenAnchor) -> [Rect] {
        (arrangement.rects + [arrangement.moreRect!]).map { anchor.oriented($0, in: arrangement.size) }
    }

    func testTopRightKeepsTheLayout() {
        XCTAssertEqual(placed(.topRight), arrangement.rects + [arrangement.moreRect!])
        XCTAssertEqual(placed(.topRight)[2], Rect(x: 70, y: 120, width: 30, height: 20))
    }

    func testBottomAnchorsPutTheNewestToastAtTheBottomAndGrowUpwards() {
        let rects = placed(.bottomRight)
        XCTAssertEqual(arrangement.size, Size(width: 100, height: 140))
        XCTAssertEqual(rects[0], Rect(x: 0, y: 100, width: 100, height: 40), "newest nearest the bottom edge")
        XCTAssertEqual(rects[1], Rect(x: 0, y: 30, width: 100, height: 60))
        XCTAssertEqual(rects[2], Rect(x: 70, y: 0, width: 30, height: 20), "the pill farthest from the edge")
    }

    func testLeftAndCentreAlignTheNarrowPill() {
        XCTAssertEqual(placed(.topLeft)[2], Rect(x: 0, y: 120, width: 30, height: 20))
        XCTAssertEqual(placed(.bottomLeft)[2], Rect(x: 0, y: 0, width: 30, height: 20))
        XCTAssertEqual(placed(.topCenter)[2], Rect(x: 35, y: 120, width: 30, height: 20))
        XCTAssertEqual(placed(.bottomCenter)[0], Rect(x: 0, y: 100, width: 100, height: 40))
    }
}
