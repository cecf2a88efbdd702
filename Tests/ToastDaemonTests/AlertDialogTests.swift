import XCTest
@testable import ToastConfig
@testable import ToastCore
@testable import ToastScene
import ToastRender
import ToastVocabulary

/// An alert's keys, buttons and hit testing, without a compositor.
final class AlertDialogTests: XCTestCase {
    private func dialog(_ keys: [String]) -> AlertDialog {
        var store = NotificationStore()
        var request = NotificationRequest(appName: "toast", summary: "Deploy?", body: "")
        request.actions = keys.map { NotificationAction(key: $0, label: $0.capitalized) }
        request.isAlert = true
        let id = try! store.notify(request, now: Instant(milliseconds: 0))
        return AlertDialog(store.notification(id: id)!)
    }

    func testRightEnterAnswersTheSecondButton() {
        var alert = dialog(["yes", "no"])
        XCTAssertEqual(alert.handle(.right), .redraw)
        XCTAssertEqual(alert.handle(.right), .none, "Right stops at the last")
        XCTAssertEqual(alert.handle(.enter), .answer("no"))
        XCTAssertEqual(alert.handle(.tab), .redraw, "Tab goes around")
        XCTAssertEqual(alert.focus, 0)
        XCTAssertEqual(alert.handle(.escape), .dismiss)
        XCTAssertEqual(alert.handle(.text("y")), .none)
    }

    func testAClickFindsItsButtonAndTheButtonsFitTheDialog() {
        let alert = dialog(["a", "b", "c"])
        let rects = alert.buttonRects
        XCTAssertEqual(rects.count, 3)
        for rect in rects { XCTAssertTrue(Rect(origin: .zero, size: alert.size).intersection(rect) == rect, "\(rect)") }
        XCTAssertEqual(alert.button(at: Double(rects[2].x + 3), Double(rects[2].y + 3)), 2)
        XCTAssertNil(alert.button(at: 5, 5))
        XCTAssertFalse(alert.items(CenterConfig()).isEmpty)
    }
}
