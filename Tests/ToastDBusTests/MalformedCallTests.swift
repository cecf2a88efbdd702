import Foundation
import XCTest
import ToastDBus
import ToastVocabulary

/// Every malformed call gets a D-Bus error, and the bus keeps serving.
final class MalformedCallTests: BusTestCase {
    private func assertError(_ client: Client, _ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertNotEqual(client.status, 0, file: file, line: line)
        XCTAssertTrue(client.stderr.contains("Error \(name)"), client.stderr, file: file, line: line)
        // The next valid call still works.
        let ok = try dbusSend("org.freedesktop.Notifications.GetServerInformation")
        XCTAssertEqual(ok.status, 0, ok.stderr, file: file, line: line)
        XCTAssertTrue(ok.stdout.contains("\"\(ServerIdentity.version)\""), ok.stdout, file: file, line: line)
    }

    func testWrongArgumentType() throws {
        try assertError(try dbusSend("org.freedesktop.Notifications.CloseNotification", ["string:seven"]),
                        BusErrorName.invalidArgs)
        XCTAssertEqual(delegate.closed, [])
    }

    func testMissingArguments() throws {
        try assertError(try dbusSend("org.freedesktop.Notifications.Notify", ["string:app", "uint32:0"]),
                        BusErrorName.invalidArgs)
        XCTAssertEqual(delegate.notifications.count, 0)
    }

    func testExtraArguments() throws {
        try assertError(try dbusSend("org.freedesktop.Notifications.GetCapabilities", ["string:extra"]),
                        BusErrorName.invalidArgs)
    }

    func testUnknownMethod() throws {
        try assertError(try dbusSend("org.freedesktop.Notifications.Frobnicate"), BusErrorName.unknownMethod)
    }

    func testWrongPath() throws {
        try assertError(try dbusSend(path: "/org/freedesktop/Nope", "org.freedesktop.Notifications.GetCapabilities"),
                        BusErrorName.unknownObject)
    }

    func testWrongInterface() throws {
        try assertError(try dbusSend("org.example.Nope.GetCapabilities"), BusErrorName.unknownInterface)
        // The Hud interface lives on its own path only.
        try assertError(try dbusSend("org.toastd.Hud1.LoadingStop", ["string:k"]), BusErrorName.unknownInterface)
    }

    func testUnknownProperty() throws {
        try assertError(try dbusSend("org.freedesktop.DBus.Properties.Get",
                                     ["string:org.freedesktop.Notifications", "string:Nope"]),
                        BusErrorName.unknownProperty)
    }
}
