import Foundation
import XCTest

/// The real `makoctl` and `dunstctl` scripts (Debian's mako-notifier and dunst) against toastd on the
/// stage's bus: the key bindings and bar modules of a mako or dunst user keep working unchanged.
final class MakoctlDunstctlTests: XCTestCase {
    private func summaries(_ toastd: ToastdProcess) throws -> [String] {
        let listed = try toastd.toast(["list", "--json"])
        let toasts = try JSONSerialization.jsonObject(with: Data(listed.stdoutText.utf8)) as? [[String: Any]] ?? []
        return toasts.compactMap { $0["summary"] as? String }
    }

    /// `makoctl list`'s summaries, newest first, as its JSON (busctl's) carries them.
    private func makoList(_ stage: Stage) throws -> [String] {
        let listed = try stage.run(["makoctl", "list"])
        XCTAssertEqual(listed.status, 0, listed.stderrText)
        let json = try JSONSerialization.jsonObject(with: listed.stdout) as? [String: Any]
        let records = (json?["data"] as? [[[String: Any]]])?.first ?? []
        return records.compactMap { ($0["summary"] as? [String: Any])?["data"] as? String }
    }

    private func run(_ stage: Stage, _ argv: String...) throws -> String {
        let result = try stage.run(argv)
        XCTAssertEqual(result.status, 0, "\(argv.joined(separator: " ")): \(result.stderrText)")
        return result.stdoutText
    }

    func testMakoctlDismissesInvokesRestoresListsAndSetsModes() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations"])
        XCTAssertEqual(try run(stage, "notify-send", "-t", "0", "first"), "")
        XCTAssertEqual(try run(stage, "notify-send", "-t", "0", "second", "with a body"), "")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.makoList(stage)) == ["second", "first"] },
                      "makoctl list: \((try? makoList(stage)) ?? [])")
        let full = try run(stage, "makoctl", "list")
        XCTAssertTrue(full.contains(#""body":{"type":"s","data":"with a body"}"#), full)
        XCTAssertTrue(full.contains(#""urgency":{"type":"y","data":1}"#), full)

        // dismiss: the newest; restore: it comes back.
        _ = try run(stage, "makoctl", "dismiss")
        XCTAssertEqual(try makoList(stage), ["first"])
        _ = try run(stage, "makoctl", "restore")
        XCTAssertEqual(Set(try makoList(stage)), ["first", "second"])

        // invoke: the newest toast's default action, as notify-send --wait hears it.
        let waiting = try stage.spawn(["notify-send", "-t", "0", "-A", "default=Open", "--wait", "actionable"])
        defer { waiting.terminate() }
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.makoList(stage))?.first == "actionable" }, waiting.stderrText)
        _ = try run(stage, "makoctl", "invoke")
        XCTAssertEqual(waiting.waitForLine(matching: "^default$", timeout: 10), "default", waiting.stderrText)

        // mode -a do-not-disturb: toastd's do-not-disturb, as `toast dnd` reports it.
        XCTAssertEqual(try run(stage, "makoctl", "mode", "-a", "do-not-disturb"), "default\ndo-not-disturb\n")
        XCTAssertEqual(try run(stage, "makoctl", "mode"), "default\ndo-not-disturb\n")
        let dnd = try toastd.toast(["dnd"]).stdoutText
        XCTAssertTrue(dnd.contains("on"), dnd)
        XCTAssertEqual(try run(stage, "makoctl", "mode", "-r", "do-not-disturb"), "default\n")

        // Hostile: mako's refusals are refusals, and the daemon answers on.
        let both = try stage.run(["busctl", "--user", "call", "org.freedesktop.Notifications", "/fr/emersion/Mako",
                                  "fr.emersion.Mako", "DismissNotifications", "a{sv}", "2", "all", "b", "true", "group", "b", "true"])
        XCTAssertNotEqual(both.status, 0, both.stdoutText)
        let badMode = try stage.run(["busctl", "--user", "call", "org.freedesktop.Notifications", "/fr/emersion/Mako",
                                     "fr.emersion.Mako", "SetModes", "as", "1", "no good"])
        XCTAssertNotEqual(badMode.status, 0, badMode.stdoutText)
        XCTAssertTrue(badMode.stderrText.contains("is not a mode name"), badMode.stderrText)

        _ = try run(stage, "makoctl", "dismiss", "--all")
        XCTAssertEqual(try summaries(toastd), [])
        XCTAssertEqual(toastd.process.isRunning, true, toastd.log)
    }

    func testDunstctlClosesPopsHistoryAndPauses() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations"])
        _ = try run(stage, "notify-send", "-t", "0", "one")
        _ = try run(stage, "notify-send", "-t", "0", "two")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.summaries(toastd))?.count == 2 })
        XCTAssertEqual(try run(stage, "dunstctl", "count", "displayed"), "2\n")

        _ = try run(stage, "dunstctl", "close")
        XCTAssertEqual(try summaries(toastd), ["one"])
        _ = try run(stage, "dunstctl", "close-all")
        XCTAssertEqual(try summaries(toastd), [])
        XCTAssertEqual(try run(stage, "dunstctl", "count", "history"), "2\n")
        let history = try run(stage, "dunstctl", "history")
        XCTAssertTrue(history.contains("\"appname\""), history)

        // history-pop: the most recently closed comes back.
        _ = try run(stage, "dunstctl", "history-pop")
        XCTAssertEqual(try summaries(toastd), ["one"])

        // set-paused / is-paused: do-not-disturb.
        XCTAssertEqual(try run(stage, "dunstctl", "is-paused"), "false\n")
        _ = try run(stage, "dunstctl", "set-paused", "true")
        XCTAssertEqual(try run(stage, "dunstctl", "is-paused"), "true\n")
        XCTAssertTrue(try toastd.toast(["dnd"]).stdoutText.contains("on"))
        _ = try run(stage, "dunstctl", "set-paused", "toggle")
        XCTAssertEqual(try run(stage, "dunstctl", "is-paused"), "false\n")

        // What toastd does not have is refused, not pretended.
        let context = try stage.run(["dunstctl", "context"])
        XCTAssertNotEqual(context.status, 0)
        XCTAssertTrue(toastd.process.isRunning, toastd.log)
    }
}
