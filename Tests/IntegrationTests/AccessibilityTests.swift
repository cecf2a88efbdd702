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
}
