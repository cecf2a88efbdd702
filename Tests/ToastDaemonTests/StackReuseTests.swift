@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastCore
import ToastVocabulary
import ToastRender
import XCTest

/// `StackReuse`: which rows a frame moves and which it draws again, on frames built by hand
/// (100 pixels wide, toasts 40 tall with 10 between them, shadows reaching 12).
final class StackReuseTests: XCTestCase {
    private func frame(_ ids: [NotificationID], top: Int = 12, more: Int = 0, height: Int = 200) -> ToastStackFrame {
        let toasts = ids.enumerated().map { index, id in
            ToastStackFrame.DrawnToast(id: id, view: ToastView(summary: "\(id)"), opacity: 1,
                                       rect: Rect(x: 12, y: top + index * 50, width: 76, height: 40))
        }
        let pill = more > 0 ? Rect(x: 40, y: top + ids.count * 50, width: 48, height: 20) : nil
        return ToastStackFrame(width: 100, height: height, toasts: toasts, more: more, moreRect: pill, bleed: 12)
    }

    func testAnArrivalMovesTheStackDownAndRedrawsTheNewToastAndThePill() throws {
        let plan = try XCTUnwrap(StackReuse.plan(from: frame([2, 1], more: 1), to: frame([3, 2], more: 2)))
        XCTAssertEqual(plan.dy, 50)
        XCTAssertEqual(plan.rows, 0..<64, "toast 2 and its shadow, as held")
        // Toast 3 with its shadow (0..<64); toast 1's shadow, carried down with toast 2's rows (100..<114);
        // the pill (112..<132) and the rows below what moved (114..<200).
        XCTAssertEqual(plan.repairs, [0..<64, 100..<200])
    }

    func testACloseMovesTheToastsAfterItUp() throws {
        let plan = try XCTUnwrap(StackReuse.plan(from: frame([4, 3, 2, 1], height: 250), to: frame([4, 2, 1], height: 250)))
        XCTAssertEqual(plan.dy, -50)
        XCTAssertEqual(plan.rows, 100..<214, "toasts 2 and 1 with their shadows, as held")
        // Toast 4 stays but is not moved: its rows and toast 3's shadow carried up with toast 2 (50..<64)
        // are drawn again, and the rows the move leaves behind.
        XCTAssertEqual(plan.repairs, [0..<64, 164..<250])
    }

    func testNothingToMoveLeavesItToTheChangedArea() {
        XCTAssertNil(StackReuse.plan(from: frame([2, 1]), to: frame([2, 1])), "nothing moved")
        XCTAssertNil(StackReuse.plan(from: frame([2, 1]), to: frame([4, 3])), "no toast in both")
        XCTAssertNil(StackReuse.plan(from: frame([2, 1]), to: frame([3, 2], height: 250)), "another buffer")
        XCTAssertNotNil(StackReuse.plan(from: frame([2, 1], more: 1), to: frame([2, 1], more: 2)), "only the count")
    }

    func testMergeJoinsOverlappingAndTouchingBands() {
        XCTAssertEqual(StackReuse.merge([5..<9, 0..<3, 3..<4, 8..<12, 20..<20]), [0..<4, 5..<12])
    }
}
