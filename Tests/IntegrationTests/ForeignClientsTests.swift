import Foundation
import XCTest

/// toastd driven by clients we did not write, as apps drive it: libnotify (through python3-gi, as
/// GTK apps and scripts use it), GLib's GNotification (Gio.Application.send_notification) and
/// dunstify (dunst's client, which dunst users' scripts call).
final class ForeignClientsTests: XCTestCase {
    /// Debian's python3, where python3-gi lives (not whichever python3 comes first on PATH).
    static let python = "/usr/bin/python3"

    private func summaries(_ toastd: ToastdProcess) throws -> [String] {
        let listed = try toastd.toast(["list", "--json"])
        let toasts = try JSONSerialization.jsonObject(with: Data(listed.stdoutText.utf8)) as? [[String: Any]] ?? []
        return toasts.compactMap { $0["summary"] as? String }
    }

    func testLibnotifyShowsUpdatesAndClosesAToast() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        // Show, update in place (same id), wait until toastd lists the update, then close.
        let script = """
        import os, sys, time, gi
        gi.require_version('Notify', '0.7')
        from gi.repository import Notify
        Notify.init('libnotify-test')
        n = Notify.Notification.new('From libnotify', 'first body', 'dialog-information')
        n.set_urgency(Notify.Urgency.CRITICAL)
        n.set_hint('x-dunst-stack-tag', __import__('gi').repository.GLib.Variant('s', 'lib'))
        n.show()
        print(n.props.id, flush=True)
        n.update('From libnotify, updated', 'second body', None)
        n.show()
        print(n.props.id, flush=True)
        deadline = time.monotonic() + 20
        while not os.path.exists(sys.argv[1]) and time.monotonic() < deadline:
            time.sleep(0.01)
        n.close()
        print('closed', flush=True)
        """
        let go = NSTemporaryDirectory() + "toastd-libnotify-\(UUID().uuidString.prefix(8))"
        defer { unlink(go) }
        let client = try stage.spawn([Self.python, "-c", script, go])
        defer { client.terminate() }
        let first = try XCTUnwrap(client.waitForLine(matching: "^[0-9]+$", timeout: 15), client.stderrText)
        let second = try XCTUnwrap(client.waitForLine(matching: "^[0-9]+$", from: 1, timeout: 15), client.stderrText)
        XCTAssertEqual(first, second, "an update keeps its id")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.summaries(toastd)) == ["From libnotify, updated"] },
                      "toast list: \((try? summaries(toastd)) ?? []); toastd: \(toastd.log)")
        let critical = try toastd.toast(["list", "--json"]).stdoutText
        XCTAssertTrue(critical.contains(#""urgency":"critical""#), critical)
        // The client's own close (CloseNotification) removes it.
        XCTAssertTrue(FileManager.default.createFile(atPath: go, contents: nil))
        XCTAssertNotNil(client.waitForLine(startingWith: "closed", timeout: 10), client.stderrText)
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.summaries(toastd))?.isEmpty == true },
                      "still listed after close: \((try? summaries(toastd)) ?? [])")
    }

    func testGNotificationFromAGApplicationIsShown() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        // Without a portal or GNOME Shell, GLib sends GNotifications to org.freedesktop.Notifications.
        let script = """
        from gi.repository import Gio, GLib
        app = Gio.Application(application_id='org.toastd.ForeignTest', flags=Gio.ApplicationFlags.NON_UNIQUE)
        app.register(None)
        n = Gio.Notification.new('From GNotification')
        n.set_body('sent by Gio.Application')
        n.add_button('Open', 'app.open')
        app.send_notification('greeting', n)
        ctx = GLib.MainContext.default()
        for _ in range(200):
            ctx.iteration(False)
        print('sent', flush=True)
        """
        let client = try stage.spawn([Self.python, "-c", script], environment: ["GIO_USE_PORTALS": "0"])
        defer { client.terminate() }
        XCTAssertNotNil(client.waitForLine(startingWith: "sent", timeout: 15), client.stderrText)
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.summaries(toastd))?.contains("From GNotification") == true },
                      "toast list: \((try? summaries(toastd)) ?? []); client: \(client.stderrText)")
        let listed = try toastd.toast(["list", "--json"]).stdoutText
        XCTAssertTrue(listed.contains("Open"), "the button is kept as an action: \(listed)")
    }

    func testDunstifyPrintsAnIdReplacesByItAndClosesIt() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let shown = try stage.run(["dunstify", "-p", "-a", "scripts", "From dunstify", "first"], timeout: 15)
        XCTAssertEqual(shown.status, 0, shown.stderrText)
        let id = try XCTUnwrap(shown.stdoutText.split(separator: "\n").first.map(String.init), shown.stdoutText)
        let replaced = try stage.run(["dunstify", "-p", "-r", id, "From dunstify, replaced", "second"], timeout: 15)
        XCTAssertEqual(replaced.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), id, "-r keeps the id")
        XCTAssertEqual(try summaries(toastd), ["From dunstify, replaced"])
        let closed = try stage.run(["dunstify", "-C", id], timeout: 15)
        XCTAssertEqual(closed.status, 0, closed.stderrText)
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.summaries(toastd))?.isEmpty == true },
                      "still listed after dunstify -C: \((try? summaries(toastd)) ?? [])")
        XCTAssertTrue(toastd.process.isRunning)
    }
}
