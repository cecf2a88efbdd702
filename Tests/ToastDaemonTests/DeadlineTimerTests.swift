@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import CLinux
import Glibc
import XCTest

/// `DeadlineTimer` on a real timerfd: a later deadline leaves the timer armed at the earlier one (it
/// fires early and is armed again), an earlier one or a disarm takes effect at once.
final class DeadlineTimerTests: XCTestCase {
    private func monotonic() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Seconds until the timerfd fires (0: disarmed).
    private func remaining(_ timer: DeadlineTimer) -> Double {
        var spec = itimerspec()
        XCTAssertEqual(timerfd_gettime(timer.fd, &spec), 0)
        return Double(spec.it_value.tv_sec) + Double(spec.it_value.tv_nsec) / 1e9
    }

    func testALaterDeadlineKeepsTheEarlierOneArmed() throws {
        let timer = try DeadlineTimer()
        let now = monotonic()
        timer.arm(at: now + 100_000_000_000)
        timer.arm(at: now + 200_000_000_000)
        XCTAssertEqual(timer.armedDeadline, now + 100_000_000_000)
        XCTAssertLessThanOrEqual(remaining(timer), 100, "still armed at the earlier deadline")
        XCTAssertGreaterThan(remaining(timer), 50)
        timer.arm(at: now + 60_000_000_000)
        XCTAssertEqual(timer.armedDeadline, now + 60_000_000_000, "an earlier deadline is armed at once")
        XCTAssertLessThanOrEqual(remaining(timer), 60)
        timer.arm(at: nil)
        XCTAssertNil(timer.armedDeadline)
        XCTAssertEqual(remaining(timer), 0, "disarmed")
        timer.arm(at: now + 200_000_000_000)
        XCTAssertGreaterThan(remaining(timer), 150, "armed again after a disarm")
    }

    func testKeepsEarlier() {
        XCTAssertTrue(DeadlineTimer.keepsEarlier(armed: 5, deadline: 7))
        XCTAssertTrue(DeadlineTimer.keepsEarlier(armed: 5, deadline: 5))
        XCTAssertFalse(DeadlineTimer.keepsEarlier(armed: 7, deadline: 5))
        XCTAssertFalse(DeadlineTimer.keepsEarlier(armed: nil, deadline: 5), "not armed: arm it")
        XCTAssertFalse(DeadlineTimer.keepsEarlier(armed: 5, deadline: nil), "nothing due: disarm")
    }
}
