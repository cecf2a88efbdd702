import Foundation
import XCTest

/// `toast alert`: a centred dialog that takes the keyboard until answered (Right, Enter prints the
/// second key; Escape exits 1), gives it back to the window, and shows one alert at a time.
final class AlertTests: XCTestCase {
    private func alert(_ toastd: ToastdProcess, _ stage: Stage, _ arguments: [String]) throws -> BackgroundProcess {
        try stage.spawn([try stage.binary("toast"), "alert"] + arguments, environment: ["TOASTD_SOCKET": toastd.socketPath])
    }

    func testRightEnterAnswersTheSecondAndEscapeExitsOne() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow.holdingKeyboard(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", try stage.shadowlessConfig()])

        var start = probe.lines.count
        let deploy = try alert(toastd, stage, ["Deploy?", "-A", "yes=Yes", "-A", "no=No"])
        defer { _ = deploy.terminate() }
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "the alert did not take the keyboard: \(probe.lines.suffix(4)) \(toastd.log)")
        let centre = (x: stage.width / 2, y: stage.height / 2)
        let (shot, shown) = try stage.waitForScreenshot { $0.pixel(centre.x, centre.y) != ProbeWindow.colour }
        XCTAssertTrue(shown, "no dialog in the middle; kept at \(stage.keep(shot, name: "alert"))")
        XCTAssertEqual(try toastd.toast(["list"]).stdoutText.contains("Deploy?"), true, "an alert is an open notification")
        try stage.press(key: "Right")
        try stage.press(key: "Return")
        XCTAssertNotNil(deploy.waitForLine(startingWith: "no", timeout: 10), "\(deploy.lines) \(deploy.stderrText)")
        XCTAssertEqual(deploy.waitForExit(timeout: 10), 0, deploy.stderrText)
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start), "the window did not get its keyboard back")
        XCTAssertFalse(probe.lines[start...].contains { $0.hasPrefix("key ") }, "the alert's keys reached the window")

        // Two at once: the second waits for the first; Escape on it exits 1.
        start = probe.lines.count
        let first = try alert(toastd, stage, ["First?"])
        defer { _ = first.terminate() }
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("alert") && (try? toastd.toast(["list"]).stdoutText.contains("First?")) == true })
        let second = try alert(toastd, stage, ["Second?", "-A", "go=Go"])
        defer { _ = second.terminate() }
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "\(probe.lines.suffix(4))")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? toastd.toast(["list"]).stdoutText.contains("Second?")) == true })
        try stage.press(key: "Return")
        XCTAssertNotNil(first.waitForLine(startingWith: "ok", timeout: 10), "\(first.lines) \(toastd.log)")
        XCTAssertTrue(second.isRunning, "the second alert was answered too")
        try stage.press(key: "Escape")
        XCTAssertEqual(second.waitForExit(timeout: 10), 1, "\(second.lines) \(second.stderrText)")
        XCTAssertTrue(second.lines.isEmpty, "Escape printed an answer: \(second.lines)")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start), "\(probe.lines.suffix(4))")
    }

    /// `Alert.ask` in the Swift client library (Examples/ToastClientExample alert): one call, the answer.
    func testTheSwiftClientAsksInOneCall() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow.holdingKeyboard(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations"])
        let start = probe.lines.count
        let example = try stage.spawn([try stage.binary("ToastClientExample"), "alert"], environment: ["TOASTD_SOCKET": toastd.socketPath])
        defer { _ = example.terminate() }
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "\(probe.lines.suffix(4)) \(example.stderrText)")
        try stage.press(key: "Right")
        try stage.press(key: "Return")
        XCTAssertNotNil(example.waitForLine(startingWith: "answer no", timeout: 10), "\(example.lines) \(example.stderrText)")
    }

    func testTimeoutExitsOne() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations"])
        let waited = try toastd.toast(["alert", "Still there?", "--timeout", "1"])
        XCTAssertEqual(waited.status, 1, waited.stderrText)
        XCTAssertEqual(waited.stdoutText, "")
        XCTAssertEqual(try toastd.toast(["history"]).stdoutText.contains("Still there?"), false, "alerts stay out of the history")
    }
}
