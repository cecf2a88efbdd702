import Foundation
import XCTest

/// `toastd --clickable-actions`: a toast's action pills take clicks and invoke their action; a click on
/// the rest of a toast invokes its default action, else dismisses it; clicks off the toasts reach the
/// window below. Without the flag every click passes through.
final class ClickableActionsTests: XCTestCase {
    func testClickOnAPillInvokesItsActionAndOffTheToastPassesThrough() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()  // before toastd starts, so it has a wl_pointer from the start
        let probe = try ProbeWindow(stage: stage)  // tiled: fills the output under the toast
        let toastd = try ToastdProcess(stage: stage, arguments: ["--clickable-actions", "--no-animations",
                                                                 "--config", try stage.shadowlessConfig()])
        let waiting = try startDeployToast(toastd, stage)
        defer { waiting.terminate() }
        let (box, yes, _) = try findPills(stage, toastd)

        // Just left of the toast is not the toast: that click lands on the window.
        let beside = (x: box.x - 4, y: box.y + box.height / 2)
        var start = probe.lines.count
        try stage.click(x: beside.x, y: beside.y)
        XCTAssertTrue(probe.waitFor("button PRESS 272 \(beside.x) \(beside.y)", from: start),
                      "a click beside the toast did not reach the window: \(probe.lines.suffix(6))")
        XCTAssertTrue(waiting.isRunning, "a click beside the toast invoked something: \(waiting.lines)")

        // "Yes" takes the click: the waiting client hears `yes`, and the window gets no button.
        let pill = (x: yes.x + yes.width / 2, y: yes.y + yes.height / 2)
        start = probe.lines.count
        try stage.click(x: pill.x, y: pill.y)
        XCTAssertNotNil(waiting.waitForLine(startingWith: "yes", from: 1), "\(waiting.lines) \(toastd.log)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 0, waiting.stderrText)
        // A click far from the toast afterwards: once it arrives, the pill's would have arrived before it.
        try stage.click(x: 100, y: 600)
        XCTAssertTrue(probe.waitFor("button PRESS 272 100 600", from: start), "\(probe.lines.suffix(6))")
        let since = Array(probe.lines[start...])
        XCTAssertFalse(since.contains { $0.hasPrefix("button PRESS 272 \(pill.x) \(pill.y)") },
                       "the window got the click on the pill too: \(since)")
    }

    /// A click on a toast's body, off its pills: with a default action (what chat and mail apps send),
    /// the sender hears ActionInvoked "default" over D-Bus; the window below gets nothing.
    func testClickOnTheBodyInvokesTheDefaultAction() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()
        let probe = try ProbeWindow(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--clickable-actions", "--no-animations",
                                                                 "--config", try stage.shadowlessConfig()])
        let sender = try stage.spawn(["notify-send", "--wait", "-A", "default=Open", "-A", "reply=Reply",
                                      "New message", "from the chat app"])
        defer { sender.terminate() }
        let box = try stage.steadyToastBox(toastd)

        let title = (x: box.x + box.width / 2, y: box.y + 20)
        let start = probe.lines.count
        try stage.click(x: title.x, y: title.y)
        XCTAssertNotNil(sender.waitForLine(startingWith: "default"), "\(sender.lines) \(sender.stderrText) \(toastd.log)")
        XCTAssertEqual(sender.waitForExit(timeout: 10), 0, sender.stderrText)
        try stage.click(x: 100, y: 600)
        XCTAssertTrue(probe.waitFor("button PRESS 272 100 600", from: start), "\(probe.lines.suffix(6))")
        XCTAssertFalse(probe.lines[start...].contains { $0.hasPrefix("button PRESS 272 \(title.x) \(title.y)") },
                       "the window got the click on the toast too: \(probe.lines[start...])")
        let list = try toastd.toast(["list", "--json"])
        XCTAssertEqual(list.stdoutText, "[]\n", "the toast stayed open")
    }

    /// Without a default action, a click on the body dismisses the toast (a `--wait` client hears
    /// `dismissed`, exit status 3); its buttons are untouched by it.
    func testClickOnTheBodyWithoutADefaultActionDismisses() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()
        let probe = try ProbeWindow(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--clickable-actions", "--no-animations",
                                                                 "--config", try stage.shadowlessConfig()])
        let waiting = try startDeployToast(toastd, stage)
        defer { waiting.terminate() }
        let (_, yes, no) = try findPills(stage, toastd)

        // Between the two pills is the body, not a pill.
        let gap = (x: (yes.x + yes.width + no.x) / 2, y: yes.y + yes.height / 2)
        let start = probe.lines.count
        try stage.click(x: gap.x, y: gap.y)
        XCTAssertNotNil(waiting.waitForLine(startingWith: "dismissed", from: 1), "\(waiting.lines) \(toastd.log)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 3, waiting.stderrText)
        XCTAssertEqual(waiting.lines.dropFirst().first, "dismissed", "a button's action was invoked: \(waiting.lines)")
        try stage.click(x: 100, y: 600)
        XCTAssertTrue(probe.waitFor("button PRESS 272 100 600", from: start), "\(probe.lines.suffix(6))")
        XCTAssertFalse(probe.lines[start...].contains { $0.hasPrefix("button PRESS 272 \(gap.x) \(gap.y)") },
                       "the window got the click on the toast too: \(probe.lines[start...])")
    }

    func testWithoutTheFlagAClickOnAPillPassesThrough() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()
        let probe = try ProbeWindow(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", try stage.shadowlessConfig()])
        let waiting = try startDeployToast(toastd, stage)
        defer { waiting.terminate() }
        let (_, yes, _) = try findPills(stage, toastd)

        let pill = (x: yes.x + yes.width / 2, y: yes.y + yes.height / 2)
        let start = probe.lines.count
        try stage.click(x: pill.x, y: pill.y)
        XCTAssertTrue(probe.waitFor("button PRESS 272 \(pill.x) \(pill.y)", from: start),
                      "the pill took the click without --clickable-actions: \(probe.lines.suffix(6))")
        XCTAssertTrue(waiting.isRunning, "the action was invoked: \(waiting.lines)")
    }

    func testConfigFileTurnsItOnAndEachPillInvokesItsOwnAction() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()
        let probe = try ProbeWindow(stage: stage)
        let path = "\(stage.directory)/config-\(UUID().uuidString.prefix(8))"
        try Data("clickable-actions = yes\nshadow = none\n".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])
        let waiting = try startDeployToast(toastd, stage)
        defer { waiting.terminate() }
        let (_, _, no) = try findPills(stage, toastd)

        // The second pill is the second action: `no`, not `yes`.
        let pill = (x: no.x + no.width / 2, y: no.y + no.height / 2)
        let start = probe.lines.count
        try stage.click(x: pill.x, y: pill.y)
        XCTAssertNotNil(waiting.waitForLine(startingWith: "no", from: 1), "\(waiting.lines) \(toastd.log)")
        XCTAssertEqual(waiting.lines.dropFirst().first, "no", "\(waiting.lines)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 0, waiting.stderrText)
        XCTAssertFalse(probe.lines[start...].contains { $0.hasPrefix("button PRESS 272 \(pill.x) \(pill.y)") },
                       "the window got the click on the pill too: \(probe.lines[start...])")
    }

    /// Without clickable actions nobody can click the buttons: `toast -A` says on stderr how to answer,
    /// and answering as it says ends the wait. With them, it says nothing.
    func testWithoutClicksAWaitingToastSaysHowToAnswer() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", try stage.shadowlessConfig()])
        let waiting = try stage.spawn([try stage.binary("toast"), "-A", "yes=Yes", "-A", "no=No", "Deploy?"],
                                      environment: ["TOASTD_SOCKET": toastd.socketPath])
        defer { waiting.terminate() }
        var hint = ""
        XCTAssertTrue(waitUntil(timeout: 10) { hint = waiting.stderrText; return hint.hasSuffix("\n") }, "no hint")
        let id = try XCTUnwrap(hint.firstMatch(of: /toast action ([0-9]+) KEY/)?.1, hint)
        XCTAssertEqual(hint, "toast: toast \(id) waits for an answer, but its buttons take no clicks: run "
                       + "`toast action \(id) KEY` (KEY: yes, no), or set `clickable-actions = true` in toastd's config\n")
        XCTAssertTrue(waiting.isRunning)
        let answer = try toastd.toast(["action", String(id), "no"])
        XCTAssertEqual(answer.status, 0, answer.stderrText)
        XCTAssertNotNil(waiting.waitForLine(startingWith: "no"), "\(waiting.lines)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 0, waiting.stderrText)

        let clickable = try ToastdProcess(stage: stage, arguments: ["--clickable-actions", "--no-animations", "--no-dbus"],
                                          waitForBus: false)
        let quiet = try stage.spawn([try stage.binary("toast"), "-p", "-A", "yes=Yes", "Deploy?"],
                                    environment: ["TOASTD_SOCKET": clickable.socketPath])
        defer { quiet.terminate() }
        XCTAssertNotNil(quiet.waitForLine(matching: "^[0-9]+$"), quiet.stderrText)
        XCTAssertEqual(try clickable.toast(["action", "yes"]).status, 0)
        XCTAssertEqual(quiet.waitForExit(timeout: 10), 0, quiet.stderrText)
        XCTAssertEqual(quiet.stderrText, "", "a hint although the buttons take clicks")
    }

    /// `on-button-*`: mako's defaults (middle nothing, right dismiss) and a rule's bindings (right
    /// nothing, left a named action, middle a command). Each toast's waiting client prints the first
    /// thing that happened to it, so a click that did something it should not shows as a wrong line.
    func testButtonBindingsFollowTheRules() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()
        // Under the toast: a known colour to find the toast's box on.
        let probe = try ProbeWindow(stage: stage)
        defer { withExtendedLifetime(probe) {} }
        let marker = "\(stage.directory)/middle-\(UUID().uuidString.prefix(8))"
        let path = "\(stage.directory)/config-\(UUID().uuidString.prefix(8))"
        try Data("""
            clickable-actions = true
            [app-name=Mail]
            on-button-right = none
            on-button-left = invoke-action yes
            on-button-middle = exec echo "$TOASTD_SUMMARY" > \(marker)
            """.utf8).write(to: URL(fileURLWithPath: path))
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])
        XCTAssertTrue(toastd.log.contains("(0 warnings)"), toastd.log)
        func waitingToast(_ arguments: [String]) throws -> BackgroundProcess {
            let waiting = try stage.spawn([try stage.binary("toast"), "-p", "-t", "0", "-A", "default=Open"] + arguments,
                                          environment: ["TOASTD_SOCKET": toastd.socketPath])
            XCTAssertNotNil(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
            return waiting
        }

        // Defaults: the middle button does nothing (not the default action), the right one dismisses.
        let other = try waitingToast(["-a", "Other", "Plain"])
        defer { other.terminate() }
        var box = try stage.steadyToastBox(toastd)
        var centre = (x: box.x + box.width / 2, y: box.y + 20)
        try stage.click(x: centre.x, y: centre.y, button: "middle")
        try stage.click(x: centre.x, y: centre.y, button: "right")
        XCTAssertNotNil(other.waitForLine(startingWith: "dismissed", from: 1), "\(other.lines) \(toastd.log)")
        XCTAssertEqual(other.lines.dropFirst().first, "dismissed", "the middle click did something: \(other.lines)")
        XCTAssertTrue(try waitUntil(timeout: 10) { try toastd.toast(["list", "--json"]).stdoutText == "[]\n" })

        // The rule: middle runs the command, right does nothing, left invokes `yes`.
        let mail = try waitingToast(["-a", "Mail", "-A", "yes=Yes", "New mail"])
        defer { mail.terminate() }
        box = try stage.steadyToastBox(toastd)
        centre = (x: box.x + box.width / 2, y: box.y + 20)
        try stage.click(x: centre.x, y: centre.y, button: "middle")
        XCTAssertTrue(waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: marker) },
                      "the middle click ran nothing: \(toastd.log)")
        XCTAssertTrue(waitUntil(timeout: 10) {
            (try? String(contentsOfFile: marker, encoding: .utf8)) == "New mail\n"
        }, "\((try? String(contentsOfFile: marker, encoding: .utf8)) ?? "")")
        try stage.click(x: centre.x, y: centre.y, button: "right")
        try stage.click(x: centre.x, y: centre.y, button: "left")
        XCTAssertNotNil(mail.waitForLine(startingWith: "yes", from: 1), "\(mail.lines) \(toastd.log)")
        XCTAssertEqual(mail.lines.dropFirst().first, "yes", "the right click did something: \(mail.lines)")
        XCTAssertEqual(mail.waitForExit(timeout: 10), 0, mail.stderrText)
    }

    /// A click on a pill asks the compositor for an xdg_activation_v1 token and sends it to the app
    /// (`ActivationToken`, spec 1.3) before `ActionInvoked`, both for the toast's id: what `gdbus
    /// monitor` sees on the bus.
    func testAClickOnAPillSendsAnActivationTokenBeforeActionInvoked() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()
        let probe = try ProbeWindow(stage: stage)
        defer { _ = probe }
        let toastd = try ToastdProcess(stage: stage, arguments: ["--clickable-actions", "--no-animations", "--config", try stage.shadowlessConfig()])
        let monitor = try stage.spawn(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"])
        defer { monitor.terminate() }
        XCTAssertNotNil(monitor.waitForLine(matching: "is owned by"), "gdbus monitor did not start: \(monitor.stderrText)")
        let waiting = try startDeployToast(toastd, stage, json: true)
        defer { waiting.terminate() }
        let id = try XCTUnwrap(waiting.lines.first)
        let (_, yes, _) = try findPills(stage, toastd)

        try stage.click(x: yes.x + yes.width / 2, y: yes.y + yes.height / 2)
        let invoked = monitor.waitForLine(matching: "ActionInvoked \\(uint32 \(id), 'yes'\\)")
        XCTAssertNotNil(invoked, "\(monitor.lines) \(toastd.log)")
        let tokenLine = monitor.lines.firstIndex { $0.contains("ActivationToken (uint32 \(id), '") }
        let invokedLine = monitor.lines.firstIndex { $0.contains("ActionInvoked (uint32 \(id), 'yes')") }
        let tokenIndex = try XCTUnwrap(tokenLine, "no ActivationToken: \(monitor.lines)")
        XCTAssertLessThan(tokenIndex, try XCTUnwrap(invokedLine), "ActivationToken comes first")
        XCTAssertFalse(monitor.lines[tokenIndex].contains("''"), "an empty token: \(monitor.lines[tokenIndex])")
        // The waiting CLI got the same token, ahead of the action: `--json` prints both.
        let token = monitor.lines[tokenIndex].components(separatedBy: "'").dropFirst().first ?? ""
        XCTAssertEqual(waiting.waitForLine(startingWith: "{", from: 1),
                       #"{"id":\#(id),"action":"yes","activation_token":"\#(token)"}"#, "\(waiting.lines)")
    }

    // MARK: - Helpers

    /// A waiting `toast -A yes=Yes -A no=No Deploy?` that stays until an action or a kill, once it
    /// has printed its id (the toast is up).
    private func startDeployToast(_ toastd: ToastdProcess, _ stage: Stage, json: Bool = false,
                                  file: StaticString = #filePath, line: UInt = #line) throws -> BackgroundProcess {
        let waiting = try stage.spawn([try stage.binary("toast"), "-p", "-t", "0", "-A", "yes=Yes", "-A", "no=No"]
                                      + (json ? ["--json"] : []) + ["Deploy?"],
                                      environment: ["TOASTD_SOCKET": toastd.socketPath])
        XCTAssertNotNil(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText, file: file, line: line)
        return waiting
    }

    /// The toast's box and its two pills, in output coordinates, from a steady screenshot: the pills are
    /// the lowest row of the box that differs from the box's fill, and each is one run of such pixels.
    private func findPills(_ stage: Stage, _ toastd: ToastdProcess) throws -> (box: Rect, yes: Rect, no: Rect) {
        let shot = try stage.steadyScreenshot(background: ProbeWindow.colour)
        let found: ActionPills
        do {
            found = try ActionPills(in: shot, background: ProbeWindow.colour)
        } catch let error as PillsNotFound {
            throw PillsNotFound(message: "\(error.message); kept at \(stage.keep(shot, name: "clickable-actions")); toastd: \(toastd.log)")
        }
        XCTAssertGreaterThan(found.pills[0].height, 10, "the pill row is too thin to be pills; kept at \(stage.keep(shot, name: "clickable-actions"))")
        return (found.box, found.pills[0], found.pills[1])
    }
}

