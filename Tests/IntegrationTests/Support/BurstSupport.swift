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

    /// The wl_shm buffers the toastd `pid` has mapped (each its own memfd) that hold memory: the buffer
    /// made ahead for the spare surface has no page until a toast draws into it, and is not counted.
    static func bufferCount(_ pid: pid_t) -> Int {
        residentKiB(of: pid) { $0.contains("/memfd:toastd-buffer") }.filter { $0 > 0 }.count
    }

    /// The resident KiB (`Rss`) of each mapping of `pid` whose line in /proc/PID/smaps (the one that
    /// names it) passes `isWanted`, in address order.
    static func residentKiB(of pid: pid_t, where isWanted: (Substring) -> Bool) -> [Int] {
        guard let smaps = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps")?.readDataToEndOfFile() else { return [] }
        var found: [Int] = [], wanted = false
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            if line.firstMatch(of: #/^[0-9a-f]+-[0-9a-f]+ /#) != nil {
                wanted = isWanted(line)  // a mapping's first line
            } else if wanted, line.hasPrefix("Rss:") {
                found.append(Int(line.split(separator: " ")[1]) ?? 0)
                wanted = false
            }
        }
        return found
    }
}
