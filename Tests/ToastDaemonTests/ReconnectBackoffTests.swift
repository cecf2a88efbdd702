import ToastDevices
import XCTest

/// Looking for a lost sound server again (`hud-follow-volume`): waits that double, then no more, so a
/// server that stays away never becomes a steady tick.
final class ReconnectBackoffTests: XCTestCase {
    func testTheWaitsDoubleAndStopAndAnAnswerStartsOver() {
        var backoff = ReconnectBackoff()
        var waits: [Int64] = []
        while let wait = backoff.nextDelay() { waits.append(wait) }
        XCTAssertEqual(waits, [1000, 2000, 4000, 8000, 16_000, 32_000])
        XCTAssertNil(backoff.nextDelay(), "spent tries stay spent")
        XCTAssertLessThan(waits.reduce(0, +), 70_000, "a gone server is given up on within about a minute")
        backoff.reset()
        XCTAssertEqual(backoff.nextDelay(), 1000)
    }
}
