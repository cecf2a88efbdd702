@testable import ToastDaemon
import ToastRender
import XCTest

/// `clickable-actions`: the pills placed on the stack's surface (its input region) and which one a
/// pointer position hits.
final class ActionButtonsTests: XCTestCase {
    private let pills = [Rect(x: 12, y: 60, width: 40, height: 24), Rect(x: 60, y: 60, width: 36, height: 24)]

    func testPillsAreMovedToTheirToastsPlaceInTheStack() {
        let buttons = ActionButtons.place([
            (id: 7, rect: Rect(x: 10, y: 0, width: 300, height: 96), pills: pills),
            (id: 3, rect: Rect(x: 10, y: 104, width: 300, height: 50), pills: []),
            (id: 2, rect: Rect(x: 0, y: 162, width: 310, height: 96), pills: [pills[0]]),
        ])
        XCTAssertEqual(buttons, [
            ActionButton(id: 7, index: 0, rect: Rect(x: 22, y: 60, width: 40, height: 24)),
            ActionButton(id: 7, index: 1, rect: Rect(x: 70, y: 60, width: 36, height: 24)),
            ActionButton(id: 2, index: 0, rect: Rect(x: 12, y: 222, width: 40, height: 24)),
        ])
    }

    func testNoPillsMeanAnEmptyRegion() {
        XCTAssertEqual(ActionButtons.place([]), [])
        XCTAssertEqual(ActionButtons.place([(id: 1, rect: Rect(x: 0, y: 0, width: 300, height: 80), pills: [])]), [])
    }

    func testAPillNeverReachesOutsideItsToast() {
        let buttons = ActionButtons.place([
            (id: 1, rect: Rect(x: 0, y: 0, width: 100, height: 70), pills: [Rect(x: 80, y: 60, width: 40, height: 24),
                                                                          Rect(x: 120, y: 10, width: 5, height: 5)]),
        ])
        XCTAssertEqual(buttons, [ActionButton(id: 1, index: 0, rect: Rect(x: 80, y: 60, width: 20, height: 10))])
    }

    func testHitTesting() {
        let buttons = ActionButtons.place([(id: 7, rect: Rect(x: 10, y: 0, width: 300, height: 96), pills: pills)])
        XCTAssertEqual(ActionButtons.button(at: 22, 60, in: buttons)?.index, 0, "top-left corner is inside")
        XCTAssertEqual(ActionButtons.button(at: 61.9, 83.9, in: buttons)?.index, 0)
        XCTAssertNil(ActionButtons.button(at: 62, 70, in: buttons), "the gap between pills is not a pill")
        XCTAssertEqual(ActionButtons.button(at: 90.5, 70.25, in: buttons)?.index, 1)
        XCTAssertEqual(ActionButtons.button(at: 90, 70, in: buttons)?.id, 7)
        XCTAssertNil(ActionButtons.button(at: 40, 20, in: buttons), "the title is not a pill")
        XCTAssertNil(ActionButtons.button(at: 40, 84, in: buttons), "bottom edge is outside")
    }
}
