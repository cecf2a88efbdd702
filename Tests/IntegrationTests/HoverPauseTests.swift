import Foundation
import XCTest

/// Hover pauses expiry (mako #263): with `clickable-actions`, a toast under the pointer does not
/// expire; once the pointer leaves, it does. A HUD bar's own timeout (which the pointer does not
/// stop) measures that the toast outlived its timeout, with no sleep.
final class HoverPauseTests: XCTestCase {
    func testAHoveredToastOutlivesItsTimeoutAndExpiresAfterTheLeave() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()
        let probe = try ProbeWindow(stage: stage)
        try check(["toastd-stage", "move", "100", "600"], environment: stage.environment(), timeout: 15)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--clickable-actions", "--no-animations", "--config",
                                                                 try stage.shadowlessConfig("hud-timeout = 5000")])
        let waiting = try stage.spawn([try stage.binary("toast"), "--wait", "-t", "4000", "Hover me"],
                                      environment: ["TOASTD_SOCKET": toastd.socketPath])
        defer { _ = waiting.terminate() }
        let box = try stage.steadyToastBox(toastd)
        let start = probe.lines.count
        // A fresh virtual pointer's first motion may be delivered to the window that had the pointer
        // (sway 1.7): move again until the toast has it, each time waiting for the window's leave.
        var left = false
        for _ in 0..<5 where !left {
            try check(["toastd-stage", "move", "\(box.x + box.width / 2 + Int.random(in: -20...20))", "\(box.y + box.height / 2)"],
                      environment: stage.environment(), timeout: 15)
            left = probe.waitFor("pointer-leave", from: start, timeout: 1)
        }
        XCTAssertTrue(left, "the toast did not take the pointer: \(probe.lines.suffix(4)) box \(box)")

        // A bar that stays 5 s, longer than the toast's 4: when it is gone, the toast would have expired.
        XCTAssertEqual(try toastd.toast(["hud", "volume", "40"]).status, 0)
        let hudPoint = (x: stage.width / 2, y: stage.height - 80)
        XCTAssertTrue(try stage.waitForScreenshot { $0.pixel(hudPoint.x, hudPoint.y) != ProbeWindow.colour }.held, "no HUD")
        XCTAssertTrue(try stage.waitForScreenshot(timeout: 15) { $0.pixel(hudPoint.x, hudPoint.y) == ProbeWindow.colour }.held,
                      "the HUD never went")
        XCTAssertTrue(waiting.isRunning, "the toast expired under the pointer: \(waiting.lines)")
        XCTAssertTrue(try toastd.toast(["list"]).stdoutText.contains("Hover me"))

        try check(["toastd-stage", "move", "100", "600"], environment: stage.environment(), timeout: 15)
        XCTAssertNotNil(waiting.waitForLine(startingWith: "expired", timeout: 15), "\(waiting.lines) \(toastd.log)")
    }
}
