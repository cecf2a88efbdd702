import Foundation
import XCTest

/// A mako config's `on-button-*` without `clickable-actions`: the toasts a binding applies to take the
/// click (the binding runs); a click beside them, or on a toast no binding covers, reaches the window below.
final class BoundClicksTests: XCTestCase {
    /// Global keys first: `shadowlessConfig` appends its own line, which a section would take.
    private static let config = """
        [app-name=chat]
        on-button-left=invoke-default-action
        on-button-right=dismiss
        on-button-middle=dismiss-all
        """

    func testCheckConfigSaysBoundToastsTakeClicks() throws {
        let stage = try Stage.shared()
        let path = try write(stage, Self.config)
        let check = try stage.run([try stage.binary("toastd"), "--check-config", path])
        XCTAssertEqual(check.status, 0, check.stdoutText)
        XCTAssertEqual(check.stdoutText,
                       "\(path): on-button-* bindings make the toasts they apply to take clicks (others let clicks through)\n")
        let clickable = try write(stage, "clickable-actions = true\n" + Self.config)
        XCTAssertEqual(try stage.run([try stage.binary("toastd"), "--check-config", clickable]).stdoutText, "")
    }

    func testABoundToastTakesTheClickAndAnUnboundOneLetsItThrough() throws {
        let stage = try Stage.shared()
        try stage.plugInInputDevices()
        let probe = try ProbeWindow(stage: stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config",
                                                                 try write(stage, Self.config)])

        // A toast no binding covers: the click goes through it to the window.
        let other = try stage.spawn(["notify-send", "-a", "other", "-t", "0", "-A", "default=Open", "--wait", "Unbound"])
        defer { other.terminate() }
        let unbound = try stage.steadyToastBox(toastd)
        var start = probe.lines.count
        let onUnbound = (x: unbound.x + unbound.width / 2, y: unbound.y + unbound.height / 2)
        try stage.click(x: onUnbound.x, y: onUnbound.y)
        XCTAssertTrue(probe.waitFor("button PRESS 272 \(onUnbound.x) \(onUnbound.y)", from: start),
                      "a click on an unbound toast did not reach the window: \(probe.lines.suffix(6))")
        XCTAssertTrue(other.isRunning, "the unbound toast took the click: \(other.lines)")
        XCTAssertEqual(try toastd.toast(["dismiss", "-a"]).status, 0)
        XCTAssertEqual(other.waitForExit(timeout: 10), 0)

        // The chat app's toast takes it: notify-send --wait hears its default action.
        let chat = try stage.spawn(["notify-send", "-a", "chat", "-t", "0", "-A", "default=Open", "--wait", "New message"])
        defer { chat.terminate() }
        let box = try stage.steadyToastBox(toastd)
        let beside = (x: box.x - 4, y: box.y + box.height / 2)
        start = probe.lines.count
        try stage.click(x: beside.x, y: beside.y)
        XCTAssertTrue(probe.waitFor("button PRESS 272 \(beside.x) \(beside.y)", from: start),
                      "a click beside the toast did not reach the window: \(probe.lines.suffix(6))")
        let onToast = (x: box.x + box.width / 2, y: box.y + box.height / 2)
        start = probe.lines.count
        try stage.click(x: onToast.x, y: onToast.y)
        XCTAssertNotNil(chat.waitForLine(startingWith: "default"), "\(chat.lines) \(chat.stderrText) \(toastd.log)")
        try stage.click(x: 100, y: 600)
        XCTAssertTrue(probe.waitFor("button PRESS 272 100 600", from: start), "\(probe.lines.suffix(6))")
        XCTAssertFalse(probe.lines[start...].contains { $0.hasPrefix("button PRESS 272 \(onToast.x) \(onToast.y)") },
                       "the window got the click on the bound toast too: \(probe.lines[start...])")
    }

    /// A config file: no shadow (the toast's box is what differs from the window), then `text`.
    private func write(_ stage: Stage, _ text: String) throws -> String {
        let path = "\(stage.directory)/bound-\(UUID().uuidString.prefix(8))"
        try Data(("shadow = none\n" + text + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
