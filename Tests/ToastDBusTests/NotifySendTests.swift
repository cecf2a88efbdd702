import Foundation
import XCTest
import ToastDBus
import ToastVocabulary

/// notify-send 0.8.1 against the bus: the client everyone uses.
final class NotifySendTests: BusTestCase {
    func testPrintsTheIdTheDelegateReturned() throws {
        delegate.nextId = 1234
        let client = try runClient("notify-send", ["-p", "Hello", "World"])
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertEqual(client.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "1234")
        XCTAssertEqual(delegate.notifications.count, 1)
        let n = try XCTUnwrap(delegate.notifications.first)
        XCTAssertEqual(n.summary, "Hello")
        XCTAssertEqual(n.body, "World")
        XCTAssertEqual(n.appName, "notify-send")
        XCTAssertEqual(n.replacesId, 0)
        XCTAssertEqual(n.expiry, .serverDefault)
        XCTAssertTrue(n.sender.hasPrefix(":"), n.sender)
    }

    func testReplacesId() throws {
        let client = try runClient("notify-send", ["-p", "-r", "77", "-t", "0", "-u", "critical", "-c", "im.received",
                                                   "-a", "Chat", "-i", "dialog-information", "A", "B"])
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertEqual(client.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "77")
        let n = try XCTUnwrap(delegate.notifications.first)
        XCTAssertEqual(n.replacesId, 77)
        XCTAssertEqual(n.expiry, .never)
        XCTAssertEqual(n.hints["urgency"], .integer(2))
        XCTAssertEqual(n.hints["category"], .string("im.received"))
        XCTAssertEqual(n.appName, "Chat")
        XCTAssertEqual(n.appIcon, "dialog-information")
    }

    func testActionInvokedIsPrintedByNotifySend() throws {
        let client = try Client("notify-send", ["-A", "yes=Yes", "-A", "default=Open", "Question?"], bus: privateBus)
        XCTAssertTrue(try pump([bus]) { delegate.notifications.count == 1 })
        let n = try XCTUnwrap(delegate.notifications.first)
        XCTAssertEqual(n.actions, [NotificationAction(key: "yes", label: "Yes"), NotificationAction(key: "default", label: "Open")])
        XCTAssertTrue(bus.emitActionInvoked(id: 42, key: "yes"))
        // What the daemon does after an action: the notification is dismissed. notify-send waits for
        // this signal, and then closes the (already closed) id, which must succeed.
        XCTAssertTrue(bus.emitClosed(id: 42, reason: .dismissed))
        try waitForExit(client, on: [bus])
        XCTAssertEqual(client.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "yes")
        XCTAssertEqual(client.status, 0, client.stderr)
    }

    func testWaitReturnsWhenClosed() throws {
        let client = try Client("notify-send", ["--wait", "-t", "500", "Bye"], bus: privateBus)
        XCTAssertTrue(try pump([bus]) { delegate.notifications.count == 1 })
        XCTAssertEqual(delegate.notifications.first?.expiry, .after(500))
        // Another id's close must not end the wait.
        bus.emitClosed(id: 999, reason: .expired)
        XCTAssertFalse(try pump([bus], timeout: 0.3) { !client.isRunning })
        bus.emitClosed(id: 42, reason: .expired)
        try waitForExit(client, on: [bus])
        XCTAssertEqual(client.status, 0, client.stderr)
    }

    func testCloseOfUnknownIdSucceeds() throws {
        let client = try dbusSend("org.freedesktop.Notifications.CloseNotification", ["uint32:4242"])
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertEqual(delegate.closed, [4242])
    }

    func testDelegateRefusalIsADBusError() throws {
        delegate.refuseNotify = .refused(message: "do not disturb")
        let client = try runClient("notify-send", ["-p", "x"])
        XCTAssertNotEqual(client.status, 0)
        XCTAssertTrue(client.stderr.contains("do not disturb"), client.stderr)
    }
}
