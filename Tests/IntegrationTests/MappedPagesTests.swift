import Foundation
import XCTest

/// The code and read-only data that start (and a burst) mapped go back once the daemon is idle
/// (MappedPages): the daemon's file-backed resident pages drop, so do the first toast's once it
/// closes, a later single toast does not drop them again (the next toast would pay for mapping them
/// back), a burst does once its stack settles and once it is closed.
final class MappedPagesTests: XCTestCase {
    static let line = "idle: unmapping "

    func testStartTheFirstToastAndABurstGiveTheirMappedPagesBackButALaterSingleToastDoesNot() throws {
        let (toastd, pid, client) = try Self.startedAndUnmapped()
        let unmapped = Self.releases(toastd.log)[0]
        let idle = Self.fileResidentKiB(pid)
        print("toastd-mapped-pages: \(unmapped) KiB unmapped after start, \(idle) KiB file-backed resident then")
        // Start maps its libraries and code (measured: 15.7 MB in the release build, 3 MB left mapped
        // after; without the release, all of it stays).
        XCTAssertLessThan(idle, unmapped, "file-backed pages still resident after start's were unmapped")

        // Drops while a burst was still shown (once its stack settled) are counted apart.
        let dropsOnEmptying = { Self.releases(toastd.log).count - Self.whileShown(toastd.log) }
        // The first toast since start, shown and closed: what it ran the first time goes back.
        try client.notify(appName: "mapped", summary: "First", body: "the first toast")
        XCTAssertTrue(waitUntil(timeout: 15, interval: 0.05) { ToastdProcess.bufferCount(pid) >= 1 }, "never drawn")
        try toastd.dismissAllAndWaitForBuffersToGo()
        XCTAssertTrue(waitUntil(timeout: 15) { dropsOnEmptying() == 2 },
                      "no pages unmapped after the first toast closed\n\(toastd.log.suffix(2000))")

        // Another toast, shown and closed: its pages stay (the next toast finds them mapped).
        try client.notify(appName: "mapped", summary: "One", body: "a single toast")
        // Drawn into the spare's buffer, which the next spare's replaces: one more then.
        XCTAssertTrue(waitUntil(timeout: 15, interval: 0.05) { ToastdProcess.bufferCount(pid) > ToastdProcess.spareBuffers },
                      "never drawn")
        try toastd.dismissAllAndWaitForBuffersToGo()

        // A burst: more toasts at once than a stack shows. Once closed, what it mapped goes back.
        for i in 0..<30 { try client.notify(appName: "mapped", summary: "Burst \(i)", body: "one of thirty") }
        XCTAssertTrue(waitUntil(timeout: 15, interval: 0.05) { ToastdProcess.bufferCount(pid) > ToastdProcess.spareBuffers }, "never drawn")
        try toastd.dismissAllAndWaitForBuffersToGo()
        XCTAssertTrue(waitUntil(timeout: 15) { dropsOnEmptying() >= 3 },
                      "no pages unmapped after the burst closed\n\(toastd.log.suffix(2000))")
        XCTAssertEqual(dropsOnEmptying(), 3,
                       "pages unmapped after the second single toast too (the next toast pays for them)\n\(toastd.log.suffix(2000))")
        let closed = Self.fileResidentKiB(pid)
        print("toastd-mapped-pages: \(closed) KiB file-backed resident after the burst closed")
        XCTAssertLessThan(closed, idle + 2048, "file-backed pages kept after the burst, \(idle) KiB after start")
    }

    /// A burst left on screen: once its stack settles (one buffer kept, nothing more to draw), the pages
    /// it mapped go while its toasts are still shown, not only when the screen empties.
    func testABurstsPagesGoOnceItsStackSettles() throws {
        let (toastd, pid, client) = try Self.startedAndUnmapped()

        for i in 0..<30 { try client.notify(appName: "mapped", summary: "Burst \(i)", body: "one of thirty") }
        XCTAssertTrue(waitUntil(timeout: 15, interval: 0.05) { Self.whileShown(toastd.log) >= 1 },
                      "no pages unmapped while the burst is shown\n\(toastd.log.suffix(2000))")
        let settled = Self.settledFileResidentKiB(pid)
        XCTAssertEqual(ToastdProcess.bufferCount(pid), 1 + ToastdProcess.spareBuffers, "the burst's stack is still shown")
        print("toastd-mapped-pages: \(settled) KiB file-backed resident with the burst shown and settled")
        // Measured (release): 14.9 MB resident with a hundred shown before, 5.6 after.
        XCTAssertLessThan(settled, Self.releases(toastd.log).last ?? 0, "file-backed pages kept with the burst settled")
        try toastd.dismissAllAndWaitForBuffersToGo()
    }

    // MARK: Helpers

    /// A toastd on the shared stage and a bus client, once start's pages have been unmapped.
    static func startedAndUnmapped() throws -> (ToastdProcess, pid_t, WireBusClient) {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        XCTAssertTrue(waitUntil(timeout: 15) { releases(toastd.log).count == 1 },
                      "no pages unmapped after start\n\(toastd.log.suffix(2000))")
        return (toastd, toastd.process.pid, client)
    }

    /// The "unmapping" lines of drops made while a burst was still shown.
    static func whileShown(_ log: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(Self.line) && $0.contains("a burst still shown") }.count
    }

    /// `fileResidentKiB` once three readings 100 ms apart agree.
    static func settledFileResidentKiB(_ pid: pid_t) -> Int {
        var readings = [fileResidentKiB(pid)]
        _ = waitUntil(timeout: 10, interval: 0.1) {
            readings.append(fileResidentKiB(pid))
            return readings.suffix(3).count == 3 && Set(readings.suffix(3)).count == 1
        }
        return readings.last ?? 0
    }

    /// The KiB of each "unmapping" line of the log, in order.
    static func releases(_ log: String) -> [Int] {
        log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: Self.line) else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// RssFile of /proc/PID/status: resident pages of mapped files (code, read-only data, fonts).
    static func fileResidentKiB(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("RssFile:") }) else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
}
