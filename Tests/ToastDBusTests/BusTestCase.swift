import Foundation
import XCTest
import ToastDBus

/// Each test gets its own dbus-daemon and a NotificationsBus owning the name on it.
class BusTestCase: XCTestCase {
    var privateBus: PrivateBus!
    var delegate: RecordingDelegate!
    var bus: NotificationsBus!

    override func setUpWithError() throws {
        privateBus = try PrivateBus()
        delegate = RecordingDelegate()
        bus = try NotificationsBus(delegate: delegate, replace: false)
    }

    override func tearDown() {
        bus = nil
        delegate = nil
        privateBus?.stop()
        privateBus = nil
    }

    /// Starts a client and pumps the bus until it exits.
    @discardableResult
    func runClient(_ tool: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Client {
        let client = try Client(tool, arguments, bus: privateBus)
        try waitForExit(client, on: [bus], file: file, line: line)
        return client
    }

    /// `gdbus call` on the Notifications object.
    func gdbusCall(_ method: String, _ arguments: [String], path: String = NotificationsBus.objectPath,
                   interface: String = NotificationsBus.interface,
                   file: StaticString = #filePath, line: UInt = #line) throws -> Client {
        try runClient("gdbus", ["call", "--session", "--dest", NotificationsBus.busName, "--object-path", path,
                                "--method", "\(interface).\(method)"] + arguments, file: file, line: line)
    }

    /// `dbus-send --print-reply` to the Notifications name.
    func dbusSend(path: String = NotificationsBus.objectPath, _ method: String, _ arguments: [String] = [],
                  file: StaticString = #filePath, line: UInt = #line) throws -> Client {
        try runClient("dbus-send", ["--session", "--print-reply", "--dest=\(NotificationsBus.busName)", path, method]
                      + arguments, file: file, line: line)
    }
}
