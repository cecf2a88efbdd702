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

    func testLongLivedClientIsReportedWhenItLeaves() throws {
        // dbus-monitor-free way to keep a client connected: notify-send --wait holds its connection, but
        // does not call the Hud. Use gdbus monitor as the connection and check it is *not* reported, then
        // a Hud caller that is still connected while we pump is reported only after it exits.
        let caller = try Client("gdbus", ["call", "--session", "--dest", NotificationsBus.busName,
                                          "--object-path", NotificationsBus.hudPath,
                                          "--method", "org.toastd.Hud1.LoadingStart", "k", "l"], bus: privateBus)
        XCTAssertTrue(try pump([bus]) { !delegate.loadingStarted.isEmpty })
        try waitForExit(caller, on: [bus])
        let sender = delegate.loadingStarted[0].sender
        XCTAssertTrue(try pump([bus]) { delegate.vanished.contains(sender) })
        XCTAssertEqual(delegate.vanished.filter { $0 == sender }.count, 1, "reported once")
    }
}
