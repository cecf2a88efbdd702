import Foundation
import XCTest
import ToastDBus

final class NameOwnershipTests: BusTestCase {
    func testSecondDaemonFailsNamingTheOwner() throws {
        let other = RecordingDelegate()
        XCTAssertThrowsError(try NotificationsBus(delegate: other, replace: false)) { error in
            guard case BusError.nameTaken(let owner) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(owner.pid, getpid())
            XCTAssertTrue(owner.uniqueName.hasPrefix(":"))
            XCTAssertNotNil(owner.command)
            let text = "\(error)"
            XCTAssertTrue(text.contains("pid \(getpid())"), text)
            XCTAssertTrue(text.contains(NotificationsBus.busName), text)
        }
        XCTAssertTrue(bus.ownsName)
    }

    func testReplaceTakesOverAndTheFirstLearnsIt() throws {
        let second = RecordingDelegate()
        second.nextId = 500
        let replacement = try NotificationsBus(delegate: second, replace: true)
        XCTAssertTrue(replacement.ownsName)
        XCTAssertTrue(try pump([bus, replacement]) { delegate.nameLostCount == 1 })
        XCTAssertFalse(bus.ownsName)
        let client = try Client("notify-send", ["-p", "to the new owner"], bus: privateBus)
        try waitForExit(client, on: [bus, replacement])
        XCTAssertEqual(client.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "500")
        XCTAssertEqual(delegate.notifications.count, 0)
        XCTAssertEqual(second.notifications.count, 1)
        // And the replacement allows replacement in turn.
        XCTAssertNoThrow(try NotificationsBus(delegate: RecordingDelegate(), replace: true))
    }

    func testNoSessionBusIsAClearError() throws {
        setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=\(privateBus.directory.path)/no-such-socket", 1)
        XCTAssertThrowsError(try NotificationsBus(delegate: RecordingDelegate())) { error in
            guard case BusError.noSessionBus = error else { return XCTFail("\(error)") }
            XCTAssertTrue("\(error)".contains("no D-Bus session bus"), "\(error)")
        }
    }

    func testNoAddressAndNoRuntimeDirIsNoSessionBus() throws {
        let runtimeDir = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]
        unsetenv("DBUS_SESSION_BUS_ADDRESS")
        unsetenv("XDG_RUNTIME_DIR")
        defer { if let runtimeDir { setenv("XDG_RUNTIME_DIR", runtimeDir, 1) } }
        XCTAssertThrowsError(try NotificationsBus(delegate: RecordingDelegate())) { error in
            guard case BusError.noSessionBus = error else { return XCTFail("\(error)") }
        }
    }

    func testBusDaemonExitIsReportedAsDisconnected() throws {
        privateBus.stop()
        XCTAssertThrowsError(try pump([bus], timeout: 5) { false }) { error in
            XCTAssertEqual(error as? BusError, .disconnected)
        }
    }
}
