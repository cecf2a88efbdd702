import XCTest

/// toastd on the stage, end to end: its toasts appear over a fullscreen window, and a click on a
/// toast reaches the window below.
final class ToastdOnStageTests: XCTestCase {
    func testToastOverFullscreenWindowLetsTheClickThrough() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow(stage: stage, fullscreen: true)
        let toastd = try ToastdProcess(stage: stage)
        let sent = try toastd.toast(["Over the window", "clicks go through", "-t", "0"])
        XCTAssertTrue(sent.succeeded, sent.stderrText)

        let (shot, shown) = try stage.waitForScreenshot { !$0.isUniform(ProbeWindow.colour) }
        XCTAssertTrue(shown, "no toast over the fullscreen window; toastd: \(toastd.log)")
        let box = try XCTUnwrap(shot.boundingBox(notMatching: ProbeWindow.colour))
        let x = box.x + box.width / 2, y = box.y + box.height / 2
        let start = probe.lines.count
        try stage.click(x: x, y: y)
        XCTAssertTrue(probe.waitFor("button PRESS 272 \(x) \(y)", from: start),
                      "the click on the toast at \(x),\(y) did not reach the window: \(probe.lines.suffix(5))")
    }

    func testNotifySendOnTheStageBusShowsAToast() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let sent = try stage.run(["notify-send", "-t", "0", "From notify-send", "over D-Bus"], timeout: 15)
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let (shot, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background) }
        XCTAssertTrue(shown, "nothing drawn; kept at \(stage.keep(shot, name: "notify-send")); toastd: \(toastd.log)")
    }

    func testSpinnerComesAndGoesAndToastdLivesOn() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let started = try toastd.toast(["loading", "start", "stage-test", "--label", "Working", "--detach"])
        XCTAssertTrue(started.succeeded, started.stderrText)
        let (_, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background) }
        XCTAssertTrue(shown, "no spinner drawn; toastd: \(toastd.log)")

        let stopped = try toastd.toast(["loading", "stop", "stage-test"])
        XCTAssertTrue(stopped.succeeded, stopped.stderrText)
        let (shot, gone) = try stage.waitForScreenshot { $0.isUniform(stage.background) }
        XCTAssertTrue(gone, "the spinner stayed; kept at \(stage.keep(shot, name: "spinner"))")
        XCTAssertTrue(toastd.process.isRunning, "toastd died after loading stop: \(toastd.log.prefix(400))")
    }
}
