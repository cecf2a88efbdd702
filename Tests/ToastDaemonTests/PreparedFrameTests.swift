@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import XCTest

/// `PreparedFrame.step`: a frame is drawn ahead of its configure at most once per configure awaited.
final class PreparedFrameTests: XCTestCase {
    func testAConfiguredSurfaceDrawsAtOnce() {
        XCTAssertEqual(PreparedFrame.step(configured: true, holdsPrepared: false), .draw)
    }

    func testANewSizeIsDrawnWhileItsConfigureIsAwaited() {
        XCTAssertEqual(PreparedFrame.step(configured: false, holdsPrepared: false), .draw)
    }

    func testAChangeBeforeTheConfigureDropsTheFrameDrawnAheadAndWaits() {
        XCTAssertEqual(PreparedFrame.step(configured: false, holdsPrepared: true), .dropAndWait)
    }
}
