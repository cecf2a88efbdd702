import Foundation
import XCTest

/// Inline replies typed into a toast: with `toast focus`, or a click on a toast that takes a reply
/// when toasts take the pointer, its reply field shows, the keys go there, and Enter answers the
/// sender (NotificationReplied, then NotificationClosed reason 2). A key held repeats.
final class ToastReplyTests: XCTestCase {
    /// The box of the one toast on screen once it stopped changing (over the probe window).
    private func steadyToast(_ stage: Stage, _ toastd: ToastdProcess, differentFrom old: Rect? = nil) throws -> Rect {
        var previous: Image?
        let (shot, steady) = try stage.waitForScreenshot { shot in
            defer { previous = shot }
            guard previous?.rgb == shot.rgb, let box = shot.boundingBox(notMatching: ProbeWindow.colour) else { return false }
            return box != old
        }
        XCTAssertTrue(steady, "no steady toast\(old == nil ? "" : " other than \(old!)"); kept at \(stage.keep(shot, name: "reply")); \(toastd.log)")
        return try XCTUnwrap(shot.boundingBox(notMatching: ProbeWindow.colour))
    }

    /// A probe window that has the keyboard, toastd (with `arguments`), and a toast that takes a reply
    /// from a python3-gi client; returns the client and the toast's id too.
    private func startWithReplyableToast(_ stage: Stage, arguments: [String], placeholder: String) throws
        -> (ProbeWindow, ToastdProcess, BackgroundProcess, String)
    {
        let probe = try ProbeWindow.holdingKeyboard(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: arguments + ["--config", try stage.shadowlessConfig()])
        let (client, id) = try sendReplyable(stage, placeholder: placeholder)
        return (probe, toastd, client, id)
    }

    private func sendReplyable(_ stage: Stage, placeholder: String) throws -> (BackgroundProcess, String) {
        let client = try stage.spawn(["/usr/bin/python3", "-c", CenterTests.replyClient, "Ann", placeholder])
        let sent = try XCTUnwrap(client.waitForLine(startingWith: "sent ", timeout: 15), "\(client.lines) \(client.stderrText)")
        return (client, String(sent.dropFirst("sent ".count)))
    }

    func testFocusShowsTheReplyFieldAndEnterAnswersTheSender() throws {
        let stage = try Stage.shared()
        let (probe, toastd, client, id) = try startWithReplyableToast(stage, arguments: ["--no-animations"], placeholder: "Reply to Ann")
        defer { _ = client.terminate() }
        let before = try steadyToast(stage, toastd)

        let start = probe.lines.count
        XCTAssertEqual(try toastd.toast(["focus"]).status, 0)
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "\(probe.lines.suffix(4)) \(toastd.log)")
        let withField = try steadyToast(stage, toastd, differentFrom: before)
        XCTAssertGreaterThan(withField.height, before.height, "no reply field under the toast")
        for key in ["o", "n", "space", "m", "y", "space", "w", "a", "y", "Return"] { try stage.press(key: key) }
        XCTAssertNotNil(client.waitForLine(startingWith: "replied \(id) on my way"), "\(client.lines) \(toastd.log)")
        XCTAssertNotNil(client.waitForLine(startingWith: "closed \(id) 2"), "\(client.lines)")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start), "the window did not get its keyboard back: \(probe.lines.suffix(4))")
        XCTAssertFalse(probe.lines[start...].contains { $0.hasPrefix("key ") }, "keys meant for the toast reached the window")
    }

    /// A toast that takes the pointer (`--clickable-actions`) and a reply: a click opens its field
    /// (the default action is not invoked); Escape gives the keyboard back with the toast still open.
    func testAClickOpensTheFieldOfAToastThatTakesAReplyAndEscapeGivesTheKeyboardBack() throws {
        let stage = try Stage.shared()
        // An inline-reply action, no placeholder hint.
        let (probe, toastd, client, id) = try startWithReplyableToast(stage, arguments: ["--clickable-actions", "--no-animations"],
                                                                      placeholder: "")
        defer { _ = client.terminate() }
        let box = try steadyToast(stage, toastd)

        var start = probe.lines.count
        try stage.click(x: box.x + box.width / 2, y: box.y + 20)
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "the click gave the toast no keyboard: \(probe.lines.suffix(4)) \(toastd.log)")
        _ = try steadyToast(stage, toastd, differentFrom: box)
        try stage.press(key: "Escape")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start), "\(probe.lines.suffix(4))")
        XCTAssertTrue(try toastd.toast(["list"]).stdoutText.contains("Ann"), "Escape closed the toast")

        start = probe.lines.count
        try stage.click(x: box.x + box.width / 2, y: box.y + 20)
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "\(probe.lines.suffix(4))")
        for key in ["o", "k", "Return"] { try stage.press(key: key) }
        XCTAssertNotNil(client.waitForLine(startingWith: "replied \(id) ok"), "\(client.lines) \(toastd.log)")
        XCTAssertNotNil(client.waitForLine(startingWith: "closed \(id) 2"), "\(client.lines)")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start), "\(probe.lines.suffix(4))")
        XCTAssertFalse(probe.lines.contains { $0.hasPrefix("button PRESS 272 \(box.x + box.width / 2) ") },
                       "the window got a click meant for the toast")
    }

    /// A key held repeats as the compositor says (sway: 25 a second after 600 ms): each repeat types
    /// once more into the field; released, the repeating stops and the daemon sleeps again.
    func testAKeyHeldRepeatsIntoTheFieldUntilReleased() throws {
        let stage = try Stage.shared()
        let (probe, toastd, client, id) = try startWithReplyableToast(stage, arguments: ["--no-animations"], placeholder: "Reply to Ann")
        defer { _ = client.terminate() }
        _ = try steadyToast(stage, toastd)
        let start = probe.lines.count
        XCTAssertEqual(try toastd.toast(["focus"]).status, 0)
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "\(probe.lines.suffix(4))")

        let held = try stage.spawn([try stage.binary("toastd-stage"), "hold", "a"])
        XCTAssertNotNil(held.waitForLine(startingWith: "pressed", timeout: 15), held.stderrText)
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("keyboard: a key held repeats") }, toastd.log)
        XCTAssertEqual(held.terminate(), 0, held.stderrText)
        var repeated: Int?
        XCTAssertTrue(waitUntil(timeout: 10) {
            repeated = toastd.log.split(separator: "\n").last { $0.contains("keyboard: the key held repeated") }
                .flatMap { Int($0.split(separator: " ").dropLast().last ?? "") }
            return repeated != nil
        }, toastd.log)
        let count = try XCTUnwrap(repeated)
        XCTAssertGreaterThanOrEqual(count, 1)
        // Released: no timer is left; the daemon sleeps.
        XCTAssertTrue(waitForQuiet(toastd.process.pid), "toastd kept waking after the key was released")
        try stage.press(key: "Return")
        let typed = String(repeating: "a", count: count + 1)
        XCTAssertNotNil(client.waitForLine(startingWith: "replied \(id) \(typed)"), "\(client.lines) \(toastd.log)")
        XCTAssertEqual(client.lines.first { $0.hasPrefix("replied") }, "replied \(id) \(typed)", "one a per press and per repeat")
    }
}
