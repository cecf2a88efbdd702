@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import XCTest

/// `HudFramePacing`: a steady HUD commits without frame callbacks; a fading one, or values coming
/// faster than a frame, still ask for them.
final class HudFramePacingTests: XCTestCase {
    func testASteadyHudAsksForNoFrameCallback() {
        XCTAssertFalse(HudFramePacing.asksFrame(animating: false, sinceLastCommit: nil), "the first commit")
        XCTAssertFalse(HudFramePacing.asksFrame(animating: false, sinceLastCommit: 30_000_000), "values 30 ms apart")
        XCTAssertFalse(HudFramePacing.asksFrame(animating: false, sinceLastCommit: HudFramePacing.interval))
    }

    func testAFadeOrAFloodOfValuesIsPacedByFrames() {
        XCTAssertTrue(HudFramePacing.asksFrame(animating: true, sinceLastCommit: nil), "a fade is driven by frames")
        XCTAssertTrue(HudFramePacing.asksFrame(animating: true, sinceLastCommit: 1_000_000_000))
        XCTAssertTrue(HudFramePacing.asksFrame(animating: false, sinceLastCommit: 2_000_000), "values 2 ms apart")
        XCTAssertTrue(HudFramePacing.asksFrame(animating: false, sinceLastCommit: HudFramePacing.interval - 1))
    }
}
