import Foundation
import XCTest

/// What the memory tests of a burst share: sending one `Notify` and waiting for its reply, closing every
/// toast and waiting until the daemon has unmapped its buffers, and counting those buffers.
extension WireBusClient {
    /// Calls `Notify` on org.freedesktop.Notifications with a toast that never expires, and checks the reply.
    func notify(appName: String, summary: String, body: String,
                file: StaticString = #filePath, line: UInt = #line) throws {
        let name = "org.freedesktop.Notifications"
        let arguments = StormNotification(appName: appName, summary: summary, body: body, timeout: 0).marshalled
        let reply = try call(destination: name, path: "/org/freedesktop/Notifications", interface: name,
                             member: "Notify", signature: "susssasa{sv}i", body: arguments)
        XCTAssertFalse(reply.isError, "Notify: \(reply.errorName ?? "")", file: file, line: line)
    }
}

extension ToastdProcess {
    /// `toast dismiss --all`, then waits until the stack's surface and its buffers are gone.
    func dismissAllAndWaitForBuffersToGo(file: StaticString = #filePath, line: UInt = #line) throws {
        let dismissed = try toast(["dismiss", "--all"])
        XCTAssertTrue(dismissed.succeeded, "toast dismiss --all: \(dismissed.stderrText)", file: file, line: line)
        let pid = process.pid
        XCTAssertTrue(waitUntil(timeout: 15, interval: 0.05) { Self.bufferCount(pid) == 0 },
                      "buffers still mapped after every toast closed", file: file, line: line)
    }

    /// The wl_shm buffers the toastd `pid` has mapped (each its own memfd).
    static func bufferCount(_ pid: pid_t) -> Int {
        let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
        return maps.split(separator: "\n").filter { $0.contains("/memfd:toastd-buffer") }.count
    }
}
