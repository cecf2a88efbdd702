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
    /// `toast dismiss --all`, then waits until the stack's surface and its buffers are gone: all but the
    /// spare surface's, made ahead at one toast's size with its pages (`spareBuffers`).
    func dismissAllAndWaitForBuffersToGo(file: StaticString = #filePath, line: UInt = #line) throws {
        let dismissed = try toast(["dismiss", "--all"])
        XCTAssertTrue(dismissed.succeeded, "toast dismiss --all: \(dismissed.stderrText)", file: file, line: line)
        let pid = process.pid
        var kept: [Int] = []
        XCTAssertTrue(waitUntil(timeout: 15, interval: 0.05) {
            kept = Self.bufferKiB(pid)
            return kept.count <= Self.spareBuffers && kept.allSatisfy { $0 <= Self.oneToastBufferKiB }
        }, "buffers still mapped after every toast closed: \(kept) KiB", file: file, line: line)
    }

    /// Buffers the daemon keeps beside a shown stack's, and with nothing shown, once a toast has been drawn:
    /// the spare surface's (`Screen.keepSpare`), made ahead with its pages at the last single toast's size.
    static let spareBuffers = 1
    /// The most a buffer of one toast (with its shadow's room) holds at scale 1: a stack that grew
    /// (a burst's) holds more.
    static let oneToastBufferKiB = 256

    /// The wl_shm buffers the toastd `pid` has mapped (each its own memfd) that hold memory.
    static func bufferCount(_ pid: pid_t) -> Int { bufferKiB(pid).count }

    /// The resident KiB of each wl_shm buffer of the toastd `pid` that holds memory.
    static func bufferKiB(_ pid: pid_t) -> [Int] {
        residentKiB(of: pid) { $0.contains("/memfd:toastd-buffer") }.filter { $0 > 0 }
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
