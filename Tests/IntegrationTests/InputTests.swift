import XCTest

/// Clicks and keys from the stage's virtual devices reach an ordinary window; screenshots see it.
final class InputTests: XCTestCase {
    func testProbeWindowFillsTheOutput() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow(stage: stage)
        XCTAssertEqual(probe.width, stage.width)
        XCTAssertEqual(probe.height, stage.height)
        let shot = try stage.screenshot()
        XCTAssertTrue(shot.isUniform(ProbeWindow.colour), "kept at \(stage.keep(shot, name: "probe"))")
    }

    func testClickReachesTheProbeAtItsCoordinates() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow(stage: stage)
        let start = probe.lines.count
        try stage.click(x: 200, y: 300)
        XCTAssertTrue(probe.waitFor("button PRESS 272 200 300", from: start), "\(probe.lines)")
        XCTAssertTrue(probe.waitFor("button RELEASE 272 200 300", from: start), "\(probe.lines)")
    }

    func testKeyReachesTheFocusedProbe() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow(stage: stage)
        XCTAssertTrue(probe.waitFor("keyboard-enter"), "the new window never got keyboard focus: \(probe.lines)")
        let start = probe.lines.count
        try stage.press(key: "a")  // evdev KEY_A = 30
        XCTAssertTrue(probe.waitFor("key PRESS 30", from: start), "\(probe.lines)")
        XCTAssertTrue(probe.waitFor("key RELEASE 30", from: start), "\(probe.lines)")
        try stage.press(key: "Escape")  // KEY_ESC = 1
        XCTAssertTrue(probe.waitFor("key PRESS 1", from: start), "\(probe.lines)")
        try stage.press(key: "57")  // by evdev code: KEY_SPACE
        XCTAssertTrue(probe.waitFor("key RELEASE 57", from: start), "\(probe.lines)")
    }

    func testFullscreenProbeCoversTheOutput() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow(stage: stage, fullscreen: true)
        XCTAssertEqual("\(probe.width)x\(probe.height)", "\(stage.width)x\(stage.height)")
        let start = probe.lines.count
        try stage.click(x: stage.width - 1, y: stage.height - 1)
        XCTAssertTrue(probe.waitFor("button PRESS 272 \(stage.width - 1) \(stage.height - 1)", from: start), "\(probe.lines)")
    }

    func testPointerIsInvisibleInScreenshots() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()
        try check(["toastd-stage", "move", "640", "360"], environment: stage.environment(), timeout: 15)
        // The stage's cursor theme is transparent: wherever the pointer is, grim sees the background.
        let (shot, clear) = try stage.waitForScreenshot { $0.isUniform(stage.background) }
        XCTAssertTrue(clear, "\(shot.boundingBox(notMatching: stage.background).map { "\($0)" } ?? "") not background; kept at \(stage.keep(shot, name: "cursor"))")
    }
}
