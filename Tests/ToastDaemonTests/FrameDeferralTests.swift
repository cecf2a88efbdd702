import ToastCore
import ToastVocabulary
import XCTest

@testable import ToastDaemon

/// When a change to the toasts may wait for the frame callback being waited for, on a hand-driven clock.
final class FrameDeferralTests: XCTestCase {
    private func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    func testAChangeWaitsWhileEveryOverlayWaitsForAFrame() {
        // Asked at 100 and 110: the change waits until the older callback is overdue.
        XCTAssertEqual(FrameDeferral.until(framesAskedAt: [at(100), at(110)], now: at(105), deferred: nil), at(150))
        // A later change keeps the deadline already set.
        XCTAssertEqual(FrameDeferral.until(framesAskedAt: [at(100), at(110)], now: at(120), deferred: at(150)), at(150))
    }

    func testAChangeIsLaidOutAtOnceWhenAnOverlayCouldDrawNow() {
        XCTAssertNil(FrameDeferral.until(framesAskedAt: [at(100), nil], now: at(105), deferred: nil),
                     "one overlay has no callback outstanding: it draws the change now")
        XCTAssertNil(FrameDeferral.until(framesAskedAt: [], now: at(105), deferred: nil),
                     "no overlay yet: the change makes one now")
    }

    func testACallbackThatDoesNotComeIsNotWaitedForPastTheLimit() {
        // A surface the compositor hides may never get its callback.
        XCTAssertNil(FrameDeferral.until(framesAskedAt: [at(100)], now: at(100 + FrameDeferral.frameWait), deferred: nil))
        XCTAssertNil(FrameDeferral.until(framesAskedAt: [at(100), at(400)], now: at(405), deferred: nil),
                     "the oldest callback is overdue, however new the other")
    }
}
