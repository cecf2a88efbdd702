@testable import ToastDaemon
import XCTest

/// Whether start-up prewarms the fonts, from the environment the daemon was started with.
final class StartPrewarmTests: XCTestCase {
    private func wanted(_ variables: [String: String]) -> Bool {
        StartPrewarm.wanted { variables[$0] }
    }

    func testAStartAtLoginPrewarms() {
        XCTAssertTrue(wanted([:]))
        XCTAssertTrue(wanted(["DBUS_SESSION_BUS_ADDRESS": "unix:path=/run/user/1000/bus", "WAYLAND_DISPLAY": "wayland-1"]))
    }

    func testAStartByDBusActivationLeavesTheFontsToTheWaitingToast() {
        XCTAssertFalse(wanted(["DBUS_STARTER_BUS_TYPE": "session", "DBUS_STARTER_ADDRESS": "unix:path=/run/user/1000/bus"]))
        XCTAssertFalse(wanted(["DBUS_STARTER_BUS_TYPE": "session"]))
        XCTAssertFalse(wanted(["DBUS_STARTER_ADDRESS": "unix:path=/tmp/bus"]))
    }
}
