import ToastCore
import ToastVocabulary
import XCTest

@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene

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

    // MARK: The timer armed for a frame deadline

    func testAFrameDeadlineWhoseFrameCameIsNotLeftArmed() throws {
        var arming = FrameDeadlineArming()
        let timer = try DeadlineTimer()
        func arm(model: Instant?, frame: Instant?) {
            let (due, keepingEarlier) = arming.arm(model: model, spinner: nil, frame: frame)
            timer.arm(at: due.map { $0.milliseconds * 1_000_000 }, keepingEarlier: keepingEarlier)
        }
        // A toast that expires at 5,100 changes while the overlay waits for its frame asked at 100.
        let frame = FrameDeferral.until(framesAskedAt: [at(100)], now: at(105), deferred: nil)
        arm(model: at(5100), frame: frame)
        XCTAssertEqual(timer.armedDeadline, 150 * 1_000_000, "laid out anyway at 150 if the frame does not come")
        XCTAssertFalse(arming.isStale(frame))

        // The frame comes at 116: the toasts are laid out, the screen's deadline is gone.
        XCTAssertTrue(arming.isStale(nil), "the daemon must arm the timer again")
        arm(model: at(5100), frame: nil)
        XCTAssertEqual(timer.armedDeadline, 5100 * 1_000_000, "the toast's expiry, not the frame deadline")
        XCTAssertFalse(arming.isStale(nil))

        // Nothing else due: disarmed.
        arm(model: nil, frame: frame)
        arm(model: nil, frame: nil)
        XCTAssertNil(timer.armedDeadline)
    }

    func testAnEarlierDeadlineStaysArmedWhileTheFrameDeadlineIsTheSame() throws {
        // A stream of HUD values moves the bar's hiding later with each: no re-arming for each (the
        // timer fires early once instead), as long as the frame deadline has not changed.
        var arming = FrameDeadlineArming()
        let timer = try DeadlineTimer()
        for hide in stride(from: Int64(1000), through: 1100, by: 50) {
            let (due, keepingEarlier) = arming.arm(model: at(hide), spinner: nil, frame: nil)
            XCTAssertTrue(keepingEarlier)
            timer.arm(at: due.map { $0.milliseconds * 1_000_000 }, keepingEarlier: keepingEarlier)
        }
        XCTAssertEqual(timer.armedDeadline, 1000 * 1_000_000)
        // A new frame deadline after the last was laid out: armed exactly, whatever was armed.
        _ = arming.arm(model: at(1100), spinner: nil, frame: at(900))
        let (due, keepingEarlier) = arming.arm(model: at(1100), spinner: at(2000), frame: at(950))
        XCTAssertEqual(due, at(950))
        XCTAssertFalse(keepingEarlier)
    }
}
