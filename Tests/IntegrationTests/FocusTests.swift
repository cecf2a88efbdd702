import Foundation
import XCTest

/// `toast focus`: the newest toast takes the keyboard; Enter invokes its default action, Escape gives
/// the keyboard back to the window that had it. Without it, no toast takes a key.
final class FocusTests: XCTestCase {
    func testFocusThenEnterInvokesTheNewestAndEscapeGivesTheKeyboardBack() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow.holdingKeyboard(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", try stage.shadowlessConfig()])
        let older = try stage.spawn(["notify-send", "--wait", "-t", "0", "-A", "default=Open", "Older"])
        defer { _ = older.terminate() }
        XCTAssertTrue(waitUntil(timeout: 10) { (try? toastd.toast(["list"]).stdoutText.contains("Older")) == true })
        let newest = try stage.spawn(["notify-send", "--wait", "-t", "0", "-A", "default=Open", "-A", "later=Later", "Newest"])
        defer { _ = newest.terminate() }
        XCTAssertTrue(waitUntil(timeout: 10) { (try? toastd.toast(["list"]).stdoutText.contains("Newest")) == true })
        XCTAssertTrue(try stage.waitForScreenshot { !$0.isUniform(ProbeWindow.colour) }.held, "no toast drawn")

        var start = probe.lines.count
        try stage.press(key: "Return")
        XCTAssertTrue(probe.waitFor("key PRESS 28", from: start), "unasked, the keys go to the window: \(probe.lines.suffix(4))")
        XCTAssertTrue(newest.isRunning, "a toast took a key unasked")

        start = probe.lines.count
        let focus = try toastd.toast(["focus"])
        XCTAssertEqual(focus.status, 0, focus.stderrText)
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "the toast did not take the keyboard: \(probe.lines.suffix(4)) \(toastd.log)")
        try stage.press(key: "Return")
        XCTAssertNotNil(newest.waitForLine(startingWith: "default", timeout: 10), "\(newest.lines) \(toastd.log)")
        XCTAssertTrue(older.isRunning, "the older toast's action was invoked")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start), "the window did not get its keyboard back: \(probe.lines.suffix(4))")

        start = try focusNewest(toastd, awayFrom: probe)
        try stage.press(key: "Escape")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start), "Escape did not give the keyboard back: \(probe.lines.suffix(4))")
        XCTAssertTrue(older.isRunning, "Escape closed the toast")
        XCTAssertFalse(probe.lines[start...].contains { $0.hasPrefix("key ") }, "keys meant for the toast reached the window")

        XCTAssertEqual(try toastd.toast(["dismiss", "--all"]).status, 0)
        let none = try toastd.toast(["focus"])
        XCTAssertEqual(none.status, 1, "no toast to focus: \(none.stderrText)")
    }

    /// Tab on a toast that has the keyboard rings the button it chose (the pixels change, and Enter
    /// invokes that button); Escape gives the keyboard back and the ring goes.
    func testTabRingsTheChosenButtonAndEscapeTakesTheRingAway() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow.holdingKeyboard(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", try stage.shadowlessConfig()])
        let sender = try stage.spawn(["notify-send", "--wait", "-t", "0", "-A", "later=Later", "-A", "open=Open", "Ringed"])
        defer { _ = sender.terminate() }
        let drawn = try stage.waitForScreenshot { !$0.isUniform(ProbeWindow.colour) }
        XCTAssertTrue(drawn.held, "no toast drawn")
        let whole = Rect(x: 0, y: 0, width: drawn.image.width, height: drawn.image.height)
        let plain = try stage.waitForScreenshot(timeout: 5) { $0.countDiffering(in: whole, from: drawn.image) == 0 }.image

        _ = try focusNewest(toastd, awayFrom: probe)
        try stage.press(key: "Tab")
        let ringed = try stage.waitForScreenshot { $0.differs(in: whole, from: plain) }
        XCTAssertTrue(ringed.held, "Tab changed nothing on screen: \(toastd.log)")

        let start = probe.lines.count
        try stage.press(key: "Escape")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start), "\(probe.lines.suffix(4))")
        XCTAssertTrue(try stage.waitForScreenshot { !$0.differs(in: whole, from: plain) }.held,
                      "the ring stayed after the keyboard went back")

        _ = try focusNewest(toastd, awayFrom: probe)
        try stage.press(key: "Tab")
        try stage.press(key: "Tab")
        XCTAssertTrue(try stage.waitForScreenshot { $0.differs(in: whole, from: plain) && $0.differs(in: whole, from: ringed.image) }.held,
                      "the second Tab did not move the ring to the second button")
        try stage.press(key: "Return")
        XCTAssertNotNil(sender.waitForLine(startingWith: "open", timeout: 10), "\(sender.lines) \(toastd.log)")
    }

    /// `toast focus`, then the window's `keyboard-leave`; returns how many lines the probe had printed before.
    private func focusNewest(_ toastd: ToastdProcess, awayFrom probe: ProbeWindow,
                             file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        let start = probe.lines.count
        XCTAssertEqual(try toastd.toast(["focus"]).status, 0, file: file, line: line)
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "\(probe.lines.suffix(4)) \(toastd.log)", file: file, line: line)
        return start
    }
}
