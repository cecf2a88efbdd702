import Foundation
import XCTest
import ToastDBus
import ToastVocabulary

final class IntrospectionTests: BusTestCase {
    func testGdbusIntrospectListsMethodsAndSignals() throws {
        let client = try runClient("gdbus", ["introspect", "--session", "--dest", NotificationsBus.busName,
                                             "--object-path", NotificationsBus.objectPath])
        XCTAssertEqual(client.status, 0, client.stderr)
        let text = client.stdout
        for word in ["interface org.freedesktop.Notifications", "Notify(", "CloseNotification(", "GetCapabilities(",
                     "GetServerInformation(", "signals:", "NotificationClosed(u id,", "ActionInvoked(u id,", "ActivationToken(u id,",
                     "interface org.freedesktop.DBus.Introspectable",
                     "interface org.freedesktop.DBus.Properties", "interface org.freedesktop.DBus.Peer"] {
            XCTAssertTrue(text.contains(word), "missing \(word) in\n\(text)")
        }
    }

    func testHudIsIntrospectable() throws {
        let client = try runClient("gdbus", ["introspect", "--session", "--dest", NotificationsBus.busName,
                                             "--object-path", NotificationsBus.hudPath])
        XCTAssertEqual(client.status, 0, client.stderr)
        for word in ["interface org.toastd.Hud1", "ShowValue(in  s kind,", "LoadingStart(", "LoadingStop("] {
            XCTAssertTrue(client.stdout.contains(word), "missing \(word) in\n\(client.stdout)")
        }
    }

    func testRootListsChildren() throws {
        let client = try runClient("gdbus", ["introspect", "--session", "--dest", NotificationsBus.busName,
                                             "--object-path", "/org", "--recurse"])
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertTrue(client.stdout.contains("interface org.freedesktop.Notifications"), client.stdout)
        XCTAssertTrue(client.stdout.contains("interface org.toastd.Hud1"), client.stdout)
    }

    func testPropertiesGetAllIsEmptyAndPeerAnswers() throws {
        let all = try gdbusCall("GetAll", [NotificationsBus.interface], interface: "org.freedesktop.DBus.Properties")
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(all.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "(@a{sv} {},)")
        let ping = try gdbusCall("Ping", [], interface: "org.freedesktop.DBus.Peer")
        XCTAssertEqual(ping.status, 0, ping.stderr)
    }

    func testCapabilitiesAndServerInformation() throws {
        // Both answers come from ServerIdentity, the one place toastd describes itself.
        let caps = try gdbusCall("GetCapabilities", [])
        XCTAssertEqual(caps.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       "([" + ServerIdentity.capabilities.map { "'\($0)'" }.joined(separator: ", ") + "],)")
        XCTAssertTrue(caps.stdout.contains("'actions'") && caps.stdout.contains("'body-markup'"), caps.stdout)
        XCTAssertFalse(caps.stdout.contains("body-hyperlinks"), "links are drawn as text, never opened")
        let info = try gdbusCall("GetServerInformation", [])
        XCTAssertEqual(info.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                       "('toastd', 'toastd', '\(ServerIdentity.version)', '1.3')")
    }
}
