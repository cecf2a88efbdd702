@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import XCTest

/// `FocusTracker` fed by hand, as `ForeignToplevels` feeds it from zwlr_foreign_toplevel_handle_v1
/// events: which output has the focus, and whether a fullscreen window holds it.
final class FocusTrackerTests: XCTestCase {
    private let one: UInt32 = 10, two: UInt32 = 20
    private var outputs: [UInt32] { [one, two] }

    func testNoWindowLeavesTheChoiceToTheCompositor() {
        let tracker = FocusTracker()
        XCTAssertNil(tracker.focusedOutput(among: outputs))
        XCTAssertNil(tracker.fullscreenOutput(among: outputs))
    }

    func testTheActivatedWindowsOutputHasTheFocus() {
        var tracker = FocusTracker()
        tracker.enter(1, output: one)
        tracker.state(1, activated: false, fullscreen: false)
        tracker.done(1)
        tracker.enter(2, output: two)
        tracker.state(2, activated: true, fullscreen: false)
        tracker.done(2)
        XCTAssertEqual(tracker.focusedOutput(among: outputs), two)

        // Focus moves to window 1 (sway deactivates 2, activates 1).
        tracker.state(2, activated: false, fullscreen: false)
        tracker.done(2)
        tracker.state(1, activated: true, fullscreen: false)
        tracker.done(1)
        XCTAssertEqual(tracker.focusedOutput(among: outputs), one)
    }

    func testChangesApplyAtDone() {
        var tracker = FocusTracker()
        tracker.enter(1, output: two)
        tracker.state(1, activated: true, fullscreen: false)
        XCTAssertNil(tracker.focusedOutput(among: outputs), "nothing applies before done")
        tracker.done(1)
        XCTAssertEqual(tracker.focusedOutput(among: outputs), two)
    }

    func testAWindowOnTwoOutputsCountsTheOneItEnteredLast() {
        var tracker = FocusTracker()
        tracker.enter(1, output: two)
        tracker.enter(1, output: one)
        tracker.state(1, activated: true, fullscreen: false)
        tracker.done(1)
        XCTAssertEqual(tracker.focusedOutput(among: outputs), one)
        tracker.leave(1, output: one)
        tracker.done(1)
        XCTAssertEqual(tracker.focusedOutput(among: outputs), two)
    }

    func testWithNoActivatedWindowTheLastFocusedOutputStays() {
        var tracker = FocusTracker()
        tracker.enter(1, output: two)
        tracker.state(1, activated: true, fullscreen: false)
        tracker.done(1)
        // Focus goes to an empty workspace: no window is activated.
        tracker.state(1, activated: false, fullscreen: false)
        tracker.done(1)
        XCTAssertEqual(tracker.focusedOutput(among: outputs), two)
        tracker.closed(1)
        XCTAssertEqual(tracker.focusedOutput(among: outputs), two, "the last focused window's output")
        // That output goes away: the compositor chooses again.
        tracker.removeOutput(two)
        XCTAssertNil(tracker.focusedOutput(among: [one]))
    }

    func testTheMostRecentlyActivatedWindowWins() {
        var tracker = FocusTracker()
        tracker.enter(1, output: one)
        tracker.state(1, activated: true, fullscreen: false)
        tracker.done(1)
        tracker.enter(2, output: two)
        tracker.state(2, activated: true, fullscreen: false)  // another seat's focus
        tracker.done(2)
        XCTAssertEqual(tracker.focusedOutput(among: outputs), two)
    }

    func testFullscreenCountsOnlyWhileTheWindowHasTheFocus() {
        var tracker = FocusTracker()
        tracker.enter(1, output: two)
        tracker.state(1, activated: true, fullscreen: true)
        tracker.done(1)
        XCTAssertEqual(tracker.fullscreenOutput(among: outputs), two)
        XCTAssertEqual(tracker.summary(among: outputs), FocusTracker.Summary(focused: two, fullscreen: two))

        tracker.state(1, activated: false, fullscreen: true)  // loses the focus, stays fullscreen
        tracker.done(1)
        XCTAssertNil(tracker.fullscreenOutput(among: outputs))
        tracker.state(1, activated: true, fullscreen: false)  // focused again, leaves fullscreen
        tracker.done(1)
        XCTAssertNil(tracker.fullscreenOutput(among: outputs))
        tracker.state(1, activated: true, fullscreen: true)
        tracker.done(1)
        tracker.closed(1)
        XCTAssertNil(tracker.fullscreenOutput(among: outputs), "a closed window holds nothing")
    }

    func testAnOutputNotAmongTheCurrentOnesIsNeverAnswered() {
        var tracker = FocusTracker()
        tracker.enter(1, output: 99)
        tracker.state(1, activated: true, fullscreen: true)
        tracker.done(1)
        XCTAssertNil(tracker.focusedOutput(among: outputs))
        XCTAssertNil(tracker.fullscreenOutput(among: outputs))
    }

    func testStateArraysAreReadAsNativeUInt32s() {
        let values: [UInt32] = [2, 3]
        let bytes = values.withUnsafeBytes { Array($0) }
        XCTAssertEqual(ForeignToplevels.states(bytes), [2, 3])
        XCTAssertEqual(ForeignToplevels.states(bytes + [1]), [2, 3], "a partial value is ignored")
    }
}
