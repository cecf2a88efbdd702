import ToastVocabulary
import XCTest
@testable import ToastCore

/// Hover pauses expiry (mako #263) and inline replies, on a hand clock.
final class HoverAndReplyTests: XCTestCase {
    private var store = NotificationStore()

    private func shown(_ request: NotificationRequest, at now: Int64 = 0) -> NotificationID {
        let id = try! store.notify(request, now: t(now))
        store.markDisplayed([id], now: t(now))
        return id
    }

    func testTheTimeoutStopsWhileHoveredAndResumesWithWhatWasLeft() {
        let id = shown(request("a", timeout: .after(5000)))
        store.pauseExpiry(now: t(2000))
        XCTAssertNil(store.nextDeadline, "nothing wakes the daemon while the pointer is over the toasts")
        store.advance(to: t(60_000))
        XCTAssertNotNil(store.notification(id: id), "it expired while hovered")
        store.resumeExpiry(now: t(60_000))
        XCTAssertEqual(store.nextDeadline, t(63_000), "the 3 s it had left")
        store.advance(to: t(63_000))
        XCTAssertNil(store.notification(id: id))
    }

    func testAResumedTimeoutHasAtLeastASecond() {
        let id = shown(request("a", timeout: .after(5000)))
        store.pauseExpiry(now: t(4900))
        store.resumeExpiry(now: t(10_000))
        XCTAssertEqual(store.notification(id: id)?.expiresAt, t(11_000))
    }

    func testAToastDrawnWhileHoveredWaitsForTheLeave() {
        store.pauseExpiry(now: t(0))
        let id = shown(request("new", timeout: .after(2000)), at: 100)
        XCTAssertNil(store.notification(id: id)?.expiresAt)
        store.resumeExpiry(now: t(9000))
        XCTAssertEqual(store.notification(id: id)?.expiresAt, t(11_000), "its full time, from the leave")
    }

    func testAReplyIsSignalledThenTheNotificationClosesDismissed() throws {
        var hinted = request("Ann")
        hinted.replyPlaceholder = "Reply to Ann"
        let id = shown(hinted)
        let plain = shown(request("plain"))
        _ = store.drainEvents()
        XCTAssertThrowsError(try store.reply(id: plain, text: "x", now: t(1)), "a notification that takes no reply")
        try store.reply(id: id, text: "on my way", now: t(1))
        XCTAssertEqual(store.drainEvents(), [.replied(id: id, text: "on my way", origin: nil),
                                             .closed(id: id, reason: .dismissed, origin: nil)])
        let action = shown(request("Bob", actions: [NotificationAction(key: "inline-reply", label: "Answer")]))
        XCTAssertEqual(InlineReply.placeholder(of: store.notification(id: action)!), "Answer")
        XCTAssertThrowsError(try store.reply(id: 999, text: "x", now: t(2)))
    }

    func testForgettingAHistoryEntry() {
        let id = shown(request("a"))
        store.close(id: id, reason: .dismissed, now: t(1))
        XCTAssertTrue(store.forget(historyID: id))
        XCTAssertTrue(store.history.isEmpty)
        XCTAssertFalse(store.forget(historyID: id))
    }
}
