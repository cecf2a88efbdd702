import Foundation
import XCTest

/// Screen readers hear toasts: on a private stage, a real accessibility bus (at-spi2-core's
/// at-spi-bus-launcher, which starts the bus and its registry) and a listener written with pyatspi,
/// the library Orca uses (stage/atspi-listener.py).
final class AccessibilityTests: XCTestCase {
    private var stage: Stage!
    private var launcher: BackgroundProcess?

    override func setUpWithError() throws {
        for tool in ["/usr/libexec/at-spi-bus-launcher", "/usr/bin/python3"] where !FileManager.default.fileExists(atPath: tool) {
            throw XCTSkip("\(tool) missing: run scripts/install-deps")
        }
        stage = try Stage.makePrivate()
    }

    override func tearDown() {
        _ = launcher?.terminate()
        launcher = nil
        stage = nil
    }

    /// at-spi-bus-launcher on the stage's session bus, its settings in memory (the stage has no dconf).
    private func startAccessibilityBus() throws {
        launcher = try stage.spawn(["/usr/libexec/at-spi-bus-launcher"], environment: ["GSETTINGS_BACKEND": "memory"])
        XCTAssertTrue(stage.waitForBusName("org.a11y.Bus", deadline: .after(15)), launcher?.stderrText ?? "")
    }

    private func setStatus(isEnabled: Bool) throws {
        let set = try stage.run(["gdbus", "call", "--session", "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus",
                                 "--method", "org.freedesktop.DBus.Properties.Set", "org.a11y.Status", "IsEnabled",
                                 isEnabled ? "<true>" : "<false>"])
        XCTAssertEqual(set.status, 0, set.stderrText)
    }

    /// The listener, once it listens.
    private func listen(_ arguments: [String] = []) throws -> BackgroundProcess {
        let listener = try stage.spawn(["/usr/bin/python3", "\(stage.repository)/stage/atspi-listener.py"] + arguments,
                                       environment: ["GSETTINGS_BACKEND": "memory"])
        XCTAssertNotNil(listener.waitForLine(startingWith: #"{"ready""#, timeout: 20), listener.stderrText)
        return listener
    }

    private func field(_ line: String?, _ name: String) -> Any? {
        guard let data = line?.data(using: .utf8),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object[name]
    }

    /// The sockets toastd holds: the control socket, its clients, Wayland, the session bus, and the
    /// accessibility bus when it is connected.
    private func sockets(_ toastd: ToastdProcess) -> Int {
        let directory = "/proc/\(toastd.process.pid)/fd"
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return fds.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(directory)/\($0)"))?.hasPrefix("socket:") == true }.count
    }

    func testANotificationIsHeardWithItsTextsAndItsActionCanBePressed() throws {
        try startAccessibilityBus()
        try setStatus(isEnabled: true)
        let toastd = try ToastdProcess(stage: stage)
        XCTAssertTrue(waitUntil(timeout: 15) { toastd.log.contains("toasts are exposed to assistive technology") }, toastd.log)
        let listener = try listen(["press"])
        // notify-send waits for an action and prints its key: what ActionInvoked on the bus told it.
        let client = try stage.spawn(["notify-send", "--wait", "-A", "open=Open the log", "Build failed",
                                      "3 <b>errors</b> &amp; a warning"])

        let heard = listener.waitForLine(startingWith: #"{"event""#, timeout: 20)
        XCTAssertEqual(field(heard, "event") as? String, "object:state-changed:showing", listener.stderrText)
        XCTAssertEqual(field(heard, "role") as? String, "notification")
        XCTAssertEqual(field(heard, "name") as? String, "Build failed")
        XCTAssertEqual(field(heard, "description") as? String, "3 errors & a warning", "the body without markup")
        XCTAssertEqual(field(heard, "app") as? String, "toastd")
        let walked = listener.waitForLine(startingWith: #"{"walk""#, timeout: 10)
        XCTAssertEqual(field(walked, "walk") as? [[String]], [["notification", "Build failed", "3 errors & a warning"]])
        let pressed = listener.waitForLine(startingWith: #"{"button""#, timeout: 10)
        XCTAssertEqual(field(pressed, "button") as? String, "push button")
        XCTAssertEqual(field(pressed, "label") as? String, "Open the log")
        XCTAssertEqual(field(pressed, "pressed") as? Bool, true)
        XCTAssertEqual(client.waitForLine(startingWith: "open", timeout: 10), "open",
                       "ActionInvoked(open) never reached the client; toastd: \(toastd.log)")
    }

    /// A toast given the keyboard (`toast focus`) is focused for a screen reader, then the button Tab
    /// chooses on it, as a toolkit tells focus (`state-changed:focused`, and FOCUSED in the object's
    /// state); the focus leaves with the keyboard.
    func testTheToastWithTheKeyboardAndTheButtonTabChoseAreFocusedForAReader() throws {
        try startAccessibilityBus()
        try setStatus(isEnabled: true)
        // This stage's own keyboard (the shared stage's `InputSeat` is not on it), and a window holding it.
        let seat = try spawnTiedToThisProcess([try stage.binary("toastd-stage"), "seat"], environment: stage.environment(),
                                              stderrLog: "\(stage.directory)/seat.stderr.log", timeout: 15)
        defer { kill(seat.pid, SIGTERM); waitpid(seat.pid, nil, 0) }
        XCTAssertEqual(seat.firstLine, "ready")
        let probe = try stage.spawn([try stage.binary("toastd-stage"), "probe"])
        defer { _ = probe.terminate() }
        XCTAssertNotNil(probe.waitForLine(startingWith: "keyboard-enter", timeout: 15), "\(probe.lines) \(probe.stderrText)")
        func press(_ key: String) throws {
            let pressed = try stage.run([try stage.binary("toastd-stage"), "key", key])
            XCTAssertEqual(pressed.status, 0, pressed.stderrText)
        }
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations"])
        XCTAssertTrue(waitUntil(timeout: 15) { toastd.log.contains("toasts are exposed to assistive technology") }, toastd.log)
        let listener = try listen(["events"])
        let sender = try stage.spawn(["notify-send", "--wait", "-t", "0", "-A", "later=Later", "-A", "open=Open", "Keyboard"])
        defer { _ = sender.terminate() }
        let showing = #"{"event": "object:state-changed:showing""#, focusing = #"{"event": "object:state-changed:focused""#
        XCTAssertNotNil(listener.waitForLine(deadline: .after(20)) { $0.hasPrefix(showing) && self.field($0, "name") as? String == "Keyboard" },
                        "\(listener.lines) \(listener.stderrText)")
        func focusEvent(_ detail1: Int, _ name: String) -> String? {
            listener.waitForLine(deadline: .after(20)) {
                $0.hasPrefix(focusing) && self.field($0, "detail1") as? Int == detail1 && self.field($0, "name") as? String == name
            }
        }

        var start = probe.lines.count
        XCTAssertEqual(try toastd.toast(["focus"]).status, 0)
        XCTAssertNotNil(probe.waitForLine(from: start, deadline: .after(10)) { $0 == "keyboard-leave" }, "\(probe.lines.suffix(4)) \(toastd.log)")
        let toast = focusEvent(1, "Keyboard")
        XCTAssertEqual(field(toast, "role") as? String, "notification", "\(listener.lines)")
        XCTAssertEqual(field(toast, "focused") as? Bool, true)

        try press("Tab")
        let button = focusEvent(1, "Later")
        XCTAssertEqual(field(button, "role") as? String, "push button", "\(listener.lines) \(toastd.log)")
        XCTAssertEqual(field(button, "focused") as? Bool, true)
        XCTAssertEqual(field(focusEvent(0, "Keyboard"), "focused") as? Bool, false, "the toast kept its focus: \(listener.lines)")

        start = probe.lines.count
        try press("Escape")
        XCTAssertNotNil(probe.waitForLine(from: start, deadline: .after(10)) { $0 == "keyboard-enter" }, "\(probe.lines.suffix(4))")
        XCTAssertEqual(field(focusEvent(0, "Later"), "focused") as? Bool, false, "the focus stayed after the keyboard left: \(listener.lines)")
    }

    /// Off (nobody owns org.a11y.Bus, or it says IsEnabled false), toastd opens no connection and
    /// starts nothing; turned on while it runs, the next toast is heard.
    func testNothingIsOpenedWhileAssistiveTechnologyIsOffAndTurningItOnIsHeard() throws {
        let toastd = try ToastdProcess(stage: stage)
        let baseline = sockets(toastd)
        let shown = try stage.run(["notify-send", "Nobody listens"])
        XCTAssertEqual(shown.status, 0, shown.stderrText)
        XCTAssertFalse(stage.busNameHasOwner("org.a11y.Bus"), "toastd must not start the accessibility bus")

        try startAccessibilityBus()
        try setStatus(isEnabled: false)
        let second = try stage.run(["notify-send", "Still nobody"])
        XCTAssertEqual(second.status, 0, second.stderrText)
        // toastd answered that Notify after it read the owner change: it has had its chance to connect.
        XCTAssertEqual(sockets(toastd), baseline, "no accessibility connection while IsEnabled is false")
        XCTAssertFalse(toastd.log.contains("exposed"), toastd.log)

        try setStatus(isEnabled: true)
        XCTAssertTrue(waitUntil(timeout: 15) { toastd.log.contains("toasts are exposed to assistive technology") }, toastd.log)
        XCTAssertEqual(sockets(toastd), baseline + 1, "one connection, to the accessibility bus")
        let listener = try listen()
        let heard = try stage.run(["notify-send", "Now heard", "after Orca started"])
        XCTAssertEqual(heard.status, 0, heard.stderrText)
        let line = listener.waitForLine(startingWith: #"{"event""#, timeout: 20)
        XCTAssertEqual(field(line, "name") as? String, "Now heard", listener.stderrText)
        XCTAssertEqual(field(line, "description") as? String, "after Orca started")

        try setStatus(isEnabled: false)
        XCTAssertTrue(waitUntil(timeout: 15) { toastd.log.contains("assistive technology is off") }, toastd.log)
        XCTAssertTrue(waitUntil(timeout: 15) { sockets(toastd) == baseline }, "the accessibility connection is closed when it turns off")
    }

    /// The HUD bar is a progress bar with the Value interface, and its value is told at most once per
    /// `a11y-hud-interval`: a key held down (21 values in a burst) is heard as its first value and its
    /// last, never all of them. libatspi passes no number in an event, so a reader (Orca, this listener)
    /// reads CurrentValue when the event comes.
    func testTheHudBarIsAProgressBarWhoseValueIsToldAtMostOncePerIntervalEndingOnTheLast() throws {
        try startAccessibilityBus()
        try setStatus(isEnabled: true)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config",
                                                                 try stage.shadowlessConfig("a11y-hud-interval = 2\nhud-timeout = 30000")])
        XCTAssertTrue(waitUntil(timeout: 15) { toastd.log.contains("toasts are exposed to assistive technology") }, toastd.log)
        let listener = try listen(["events"])
        let valueChanged = #"{"event": "object:property-change:accessible-value""#
        let shown = try toastd.toast(["hud", "volume", "40"])
        XCTAssertEqual(shown.status, 0, shown.stderrText)
        let first = listener.waitForLine(startingWith: valueChanged, timeout: 20)
        XCTAssertEqual(field(first, "role") as? String, "progress bar", "\(listener.stderrText); toastd: \(toastd.log)")
        XCTAssertEqual(field(first, "name") as? String, "Volume")
        XCTAssertEqual(field(first, "current") as? Double, 40, "CurrentValue read back through Value")
        XCTAssertEqual(field(first, "maximum") as? Double, 200)
        XCTAssertEqual((field(first, "size") as? [Int])?.first, 300, "the bar's width through Component")

        // A key held down: 20 values, each sent once the one before is answered (so each is a change
        // of its own, not one of a batch read in one turn).
        let keyHeld = try UnixClient(path: toastd.socketPath)
        for value in 41...60 {
            try keyHeld.send(#"{"v":1,"request":"hud","kind":"volume","value":\#(value)}"# + "\n")
            XCTAssertNotNil(keyHeld.readObject(), "no reply to value \(value)")
        }
        let last = listener.waitForLine(deadline: .after(20)) { $0.hasPrefix(valueChanged) && self.field($0, "current") as? Double == 60 }
        XCTAssertNotNil(last, "the last value was never told: \(listener.lines)")
        // Every value event toastd sent for the burst goes out before the next toast's showing.
        XCTAssertEqual(try stage.run(["notify-send", "After the burst"]).status, 0)
        let after = listener.waitForLine(deadline: .after(20)) { $0.contains("After the burst") }
        XCTAssertNotNil(after, "\(listener.lines)")
        let told = listener.lines.filter { $0.hasPrefix(valueChanged) }
        XCTAssertLessThanOrEqual(told.count, 3, "21 values in a burst, told: \(told)")
    }

    /// A critical toast is announced assertively (Object:Announcement, detail1 ASSERTIVE, from the
    /// notification object) instead of by state-changed:showing, so a reader says it once, and first;
    /// a normal toast is told by showing alone. A reader that does not listen for announcements (an
    /// older Orca) hears a critical toast by showing, like the others.
    func testACriticalToastIsAnnouncedAssertivelyOnceWhereAReaderListensForAnnouncements() throws {
        try startAccessibilityBus()
        try setStatus(isEnabled: true)
        let toastd = try ToastdProcess(stage: stage)
        XCTAssertTrue(waitUntil(timeout: 15) { toastd.log.contains("toasts are exposed to assistive technology") }, toastd.log)
        let older = try listen()
        XCTAssertEqual(try stage.run(["notify-send", "-u", "critical", "Battery low", "5%"]).status, 0)
        let heardByShowing = older.waitForLine(startingWith: #"{"event""#, timeout: 20)
        XCTAssertEqual(field(heardByShowing, "name") as? String, "Battery low", "\(older.stderrText); toastd: \(toastd.log)")
        XCTAssertEqual(field(heardByShowing, "role") as? String, "notification")
        XCTAssertFalse(toastd.log.contains("a reader listens for announcements"), toastd.log)

        let listener = try listen(["events"])
        XCTAssertTrue(waitUntil(timeout: 15) { toastd.log.contains("a reader listens for announcements") },
                      "the registry's EventListenerRegistered never reached toastd: \(toastd.log)")
        XCTAssertEqual(try stage.run(["notify-send", "-u", "critical", "Disk full", "12 MB <b>left</b>"]).status, 0)
        XCTAssertEqual(try stage.run(["notify-send", "Backup done"]).status, 0)
        let showing = #"{"event": "object:state-changed:showing""#
        let normal = listener.waitForLine(deadline: .after(20)) { $0.hasPrefix(showing) && self.field($0, "name") as? String == "Backup done" }
        XCTAssertNotNil(normal, "the normal toast was not heard: \(listener.lines); \(listener.stderrText)")
        let announced = listener.lines.filter { $0.hasPrefix(#"{"event": "object:announcement"#) }
        XCTAssertEqual(announced.count, 1, "\(listener.lines)")
        XCTAssertEqual(field(announced.first, "detail1") as? Int, 2, "ATSPI_LIVE_ASSERTIVE")
        XCTAssertEqual(field(announced.first, "any_data") as? String, "Disk full. 12 MB left")
        XCTAssertEqual(field(announced.first, "role") as? String, "notification")
        XCTAssertEqual(field(announced.first, "name") as? String, "Disk full")
        let shownNotifications = listener.lines.filter { $0.hasPrefix(showing) && field($0, "detail1") as? Int == 1 }
            .compactMap { field($0, "name") as? String }
        XCTAssertEqual(shownNotifications, ["Backup done"], "the critical toast was also told by showing: twice")
    }
}
