@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
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

    /// With the bodies: a pill wins over the toast it sits on, the rest of a toast is its body, and the
    /// gap between toasts (and everything outside them) hits nothing, so it passes through.
    func testAClickOffThePillsHitsTheToastUnderIt() {
        let buttons = ActionButtons.place([(id: 7, rect: Rect(x: 10, y: 0, width: 300, height: 96), pills: pills)])
        let bodies = [ToastBody(id: 7, rect: Rect(x: 10, y: 0, width: 300, height: 96)),
                      ToastBody(id: 3, rect: Rect(x: 10, y: 104, width: 300, height: 50))]
        func hit(_ x: Double, _ y: Double) -> ToastClick? { ActionButtons.target(at: x, y, buttons: buttons, bodies: bodies) }
        XCTAssertEqual(hit(30, 70), .button(ActionButton(id: 7, index: 0, rect: Rect(x: 22, y: 60, width: 40, height: 24))))
        XCTAssertEqual(hit(40, 20), .body(7), "the title")
        XCTAssertEqual(hit(63, 70), .body(7), "between the pills")
        XCTAssertEqual(hit(10, 0), .body(7), "top-left corner is inside")
        XCTAssertEqual(hit(309.9, 95.9), .body(7), "bottom-right corner is inside")
        XCTAssertNil(hit(100, 96), "the bottom edge is outside")
        XCTAssertNil(hit(100, 100), "the gap between toasts passes through")
        XCTAssertEqual(hit(100, 104), .body(3))
        XCTAssertNil(hit(5, 120), "left of the stack")
        XCTAssertNil(hit(100, 154), "below the last toast")
        XCTAssertNil(ActionButtons.target(at: 40, 20, buttons: [], bodies: []), "no toasts, nothing to hit")
    }
}
