import Foundation
import XCTest
import ToastDBus

final class HudTests: BusTestCase {
    private func hud(_ method: String, _ arguments: [String]) throws -> Client {
        try gdbusCall(method, arguments, path: NotificationsBus.hudPath, interface: NotificationsBus.hudInterface)
    }

    func testShowValue() throws {
        let client = try hud("ShowValue", ["volume", "40", "Speakers", "true"])
        XCTAssertEqual(client.status, 0, client.stderr)
        let v = try XCTUnwrap(delegate.values.first)
        XCTAssertEqual(v.kind, "volume")
        XCTAssertEqual(v.value, 40)
        XCTAssertEqual(v.label, "Speakers")
        XCTAssertEqual(v.muted, true)
        XCTAssertTrue(v.sender.hasPrefix(":"))
    }

    func testDelegateRefusalReachesTheCaller() throws {
        let client = try hud("ShowValue", ["bogus", "1", "", "false"])
        XCTAssertNotEqual(client.status, 0)
        XCTAssertTrue(client.stderr.contains("InvalidArgs"), client.stderr)
        XCTAssertTrue(client.stderr.contains("unknown kind 'bogus'"), client.stderr)
    }

    func testLoadingKeysAreOwnedByTheCallerWhoseExitIsReported() throws {
        let start = try hud("LoadingStart", ["sync", "Syncing"])
        XCTAssertEqual(start.status, 0, start.stderr)
        let started = try XCTUnwrap(delegate.loadingStarted.first)
        XCTAssertEqual(started.key, "sync")
        XCTAssertEqual(started.label, "Syncing")
        // gdbus has exited: the delegate learns that its unique name left the bus.
        XCTAssertTrue(try pump([bus]) { delegate.vanished == [started.sender] }, "\(delegate.vanished)")
        XCTAssertEqual(bus.watchedClients, [])

        let stop = try hud("LoadingStop", ["sync"])
        XCTAssertEqual(stop.status, 0, stop.stderr)
        XCTAssertEqual(delegate.loadingStopped.first?.key, "sync")
        XCTAssertNotEqual(delegate.loadingStopped.first?.sender, started.sender)
    }

    /// dbus-send without --print-reply expects no reply and may be gone before toastd even reads the
    /// call: the owner check after installing the match still reports it.
    func testCallerGoneBeforeTheWatchIsReported() throws {
        let client = try runClient("dbus-send", ["--session", "--type=method_call", "--dest=\(NotificationsBus.busName)",
                                                 NotificationsBus.hudPath, "org.toastd.Hud1.LoadingStart",
                                                 "string:k", "string:l"])
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertTrue(try pump([bus]) { !delegate.loadingStarted.isEmpty })
        let sender = try XCTUnwrap(delegate.loadingStarted.first?.sender)
        XCTAssertTrue(try pump([bus]) { delegate.vanished == [sender] }, "\(delegate.vanished)")
    }
}
