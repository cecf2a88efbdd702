import Foundation
import XCTest

/// `toast center`: the panel lists open toasts and the history, takes the keyboard while open (its keys
/// reach the service: ActionInvoked on the bus), gives it back on Escape, and closes on a click
/// outside (a click the window below gets too). Inline replies from its field and from `toast reply`.
final class CenterTests: XCTestCase {
    /// Starts a daemon and fills it: 50 toasts closed into the history, then 3 open ones from
    /// `notify-send --wait -A default=Open` (returned, oldest first: each prints `default` when invoked).
    private func filledDaemon(_ stage: Stage) throws -> (ToastdProcess, [BackgroundProcess]) {
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", try stage.shadowlessConfig()])
        for n in 1...50 {
            let sent = try toastd.toast(["-a", "app\(n % 4)", "-t", "0", "old \(n)"])
            XCTAssertEqual(sent.status, 0, sent.stderrText)
        }
        XCTAssertEqual(try toastd.toast(["dismiss", "--all"]).status, 0)
        var senders: [BackgroundProcess] = []
        for n in 1...3 {
            let sender = try stage.spawn(["notify-send", "--wait", "-t", "0", "-A", "default=Open", "-a", "chat", "Open \(n)", "body \(n)"])
            senders.append(sender)
            XCTAssertTrue(waitUntil(timeout: 10) { ((try? toastd.toast(["list", "--json"]).stdoutText) ?? "").contains("Open \(n)") })
        }
        return (toastd, senders)
    }

    /// The panel is drawn at the right edge: its background, not the probe's colour, fills a column there.
    private func waitForPanel(_ stage: Stage, shown: Bool) throws -> (Image, Bool) {
        let x = stage.width - 20, y = stage.height / 2
        return try stage.waitForScreenshot { shot in (shot.pixel(x, y) != ProbeWindow.colour) == shown }
    }

    func testCenterListsThemTakesKeysInvokesAndGivesTheKeyboardBack() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow.holdingKeyboard(stage: stage)
        let (toastd, senders) = try filledDaemon(stage)
        defer { senders.forEach { _ = $0.terminate() } }
        let monitor = try stage.spawn(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"])
        defer { _ = monitor.terminate() }

        let start = probe.lines.count
        let opened = try toastd.toast(["center"])
        XCTAssertEqual(opened.status, 0, opened.stderrText)
        let (shot, shown) = try waitForPanel(stage, shown: true)
        XCTAssertTrue(shown, "no panel at the right edge; kept at \(stage.keep(shot, name: "center"))")
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "the center did not take the keyboard: \(probe.lines.suffix(4))")
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("center open: 53 entries, first frame drawn") }, toastd.log)
        // Open and untouched, it asks for nothing: the daemon sleeps.
        XCTAssertTrue(waitForQuiet(toastd.process.pid), "toastd kept waking with the center open and untouched")

        // The newest (Open 3) has the focus; Down moves to Open 2; Enter invokes its default action.
        try stage.press(key: "Down")
        try stage.press(key: "Return")
        XCTAssertNotNil(senders[1].waitForLine(startingWith: "default"), "\(senders[1].lines) \(toastd.log)")
        XCTAssertNotNil(monitor.waitForLine(matching: "ActionInvoked", timeout: 10), "\(monitor.lines.suffix(5))")
        XCTAssertTrue(senders[0].isRunning && senders[2].isRunning, "another toast's action was invoked")

        let beforeEscape = probe.lines.count
        try stage.press(key: "Escape")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: beforeEscape), "the window did not get its keyboard back: \(probe.lines.suffix(4))")
        XCTAssertFalse(probe.lines[start...].contains { $0.hasPrefix("key ") }, "keys meant for the center reached the window")
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("center closed") }, toastd.log)
    }

    func testAClickOutsideClosesItAndReachesTheWindowBelow() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow.holdingKeyboard(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", try stage.shadowlessConfig()])
        let start = probe.lines.count
        XCTAssertEqual(try toastd.toast(["center", "--open"]).status, 0)
        XCTAssertTrue(try waitForPanel(stage, shown: true).1)
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "\(probe.lines.suffix(4))")
        // On the panel: it takes the click, the window below does not get it.
        let inside = (x: stage.width - 100, y: stage.height - 40)
        try stage.click(x: inside.x, y: inside.y)
        // Off the panel: the window gets the click (and the keyboard), the center closes.
        try stage.click(x: 100, y: 300)
        XCTAssertTrue(probe.waitFor("button PRESS 272 100 300", from: start), "\(probe.lines.suffix(6))")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start), "\(probe.lines.suffix(6))")
        XCTAssertFalse(probe.lines[start...].contains { $0.hasPrefix("button PRESS 272 \(inside.x) \(inside.y)") },
                       "the click on the panel reached the window")
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("center closed") }, toastd.log)
        XCTAssertTrue(try waitForPanel(stage, shown: false).1, "the panel stayed on screen")
        // Pass-through is the default again: `--close` on a closed center is fine.
        XCTAssertEqual(try toastd.toast(["center", "--close"]).status, 0)
    }

    /// A python3-gi client (libnotify's hint, Gio for the signal) asks for a reply; typing into the
    /// center's field and Enter answer it; `toast reply` answers a second one.
    func testInlineReplyFromTheCenterAndFromTheCLI() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow.holdingKeyboard(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", try stage.shadowlessConfig()])
        let caps = try stage.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                                  "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications.GetCapabilities"])
        XCTAssertTrue(caps.stdoutText.contains("'inline-reply'"), caps.stdoutText)

        let client = try stage.spawn(["/usr/bin/python3", "-c", Self.replyClient, "Ann", "Reply to Ann"])
        defer { _ = client.terminate() }
        let sent = try XCTUnwrap(client.waitForLine(startingWith: "sent ", timeout: 15), "\(client.lines) \(client.stderrText)")
        let id = String(sent.dropFirst("sent ".count))

        let start = probe.lines.count
        XCTAssertEqual(try toastd.toast(["center"]).status, 0)
        XCTAssertTrue(probe.waitFor("keyboard-leave", from: start), "\(probe.lines.suffix(4))")
        for key in ["o", "n", "space", "m", "y", "space", "w", "a", "y", "Return"] { try stage.press(key: key) }
        XCTAssertNotNil(client.waitForLine(startingWith: "replied \(id) on my way", timeout: 10), "\(client.lines) \(toastd.log)")
        XCTAssertNotNil(client.waitForLine(startingWith: "closed \(id) 2", timeout: 10), "\(client.lines)")
        try stage.press(key: "Escape")
        XCTAssertTrue(probe.waitFor("keyboard-enter", from: start + 1), "\(probe.lines.suffix(4))")

        let second = try stage.spawn(["/usr/bin/python3", "-c", Self.replyClient, "Bob", ""])
        defer { _ = second.terminate() }
        let other = try XCTUnwrap(second.waitForLine(startingWith: "sent ", timeout: 15), second.stderrText)
        let otherID = String(other.dropFirst("sent ".count))
        let cli = try toastd.toast(["reply", "on my way"])  // README's line, as written
        XCTAssertEqual(cli.status, 0, cli.stderrText)
        XCTAssertNotNil(second.waitForLine(startingWith: "replied \(otherID) on my way", timeout: 10), "\(second.lines) \(toastd.log)")
        let none = try toastd.toast(["reply", "again"])
        XCTAssertNotEqual(none.status, 0, "nothing takes a reply now")
        XCTAssertTrue(none.stderrText.contains("no open toast takes a reply"), none.stderrText)
    }

    /// Sends a notification with `x-kde-reply-placeholder-text` (argv[2]; empty: an `inline-reply`
    /// action instead) and prints `sent ID`, then each `replied ID TEXT` and `closed ID REASON`.
    static let replyClient = #"""
    import sys
    from gi.repository import Gio, GLib
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    loop = GLib.MainLoop()
    def signal(conn, sender, path, iface, name, params, data):
        if name == "NotificationReplied":
            print("replied %d %s" % (params[0], params[1]), flush=True)
        elif name == "NotificationClosed":
            print("closed %d %d" % (params[0], params[1]), flush=True)
            loop.quit()
    bus.signal_subscribe(None, "org.freedesktop.Notifications", None, "/org/freedesktop/Notifications", None,
                         Gio.DBusSignalFlags.NONE, signal, None)
    hints = {}
    actions = []
    if sys.argv[2]:
        hints["x-kde-reply-placeholder-text"] = GLib.Variant("s", sys.argv[2])
    else:
        actions = ["inline-reply", "Reply"]
    reply = bus.call_sync("org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                          "org.freedesktop.Notifications", "Notify",
                          GLib.Variant("(susssasa{sv}i)", ("chat", 0, "", sys.argv[1], "are you coming?", actions, hints, 0)),
                          None, Gio.DBusCallFlags.NONE, -1, None)
    print("sent %d" % reply.unpack()[0], flush=True)
    loop.run()
    """#
}
