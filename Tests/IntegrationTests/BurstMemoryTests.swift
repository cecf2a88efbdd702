import Foundation
import XCTest

/// What a burst of toasts costs while it is shown and what stays once it closes (the benchmark's
/// "after 100" and "after all closed" rows): a stack that stopped changing keeps one buffer, not
/// two, and the heap the burst churned through goes back, while shown and again once closed.
final class BurstMemoryTests: XCTestCase {
    func testASettledStackKeepsOneBufferAndTheBurstsHeapGoesBack() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let pid = toastd.process.pid
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)

        // Warm-up: one toast shown and closed, so "before" has drawing's fonts and caches in it.
        try client.notify(appName: "burst", summary: "Warm-up", body: "one toast first")
        XCTAssertTrue(waitUntil(timeout: 15) { ToastdProcess.bufferCount(pid) >= 1 }, "the warm-up toast was never drawn")
        try toastd.dismissAllAndWaitForBuffersToGo()
        let before = settledHeapKiB(pid)

        // The benchmark's burst: 100 toasts from one connected client, none expiring.
        for i in 0..<100 { try client.notify(appName: "burst", summary: "Burst \(i)", body: "one of a hundred") }
        // Drawn and settled: the stack shows its newest toasts and "+N more", and keeps only the buffer
        // the compositor shows (while toasts arrive faster than frames, it draws into a second one),
        // beside the spare surface's.
        var buffers = 0
        let oneBuffer = waitUntil(timeout: 15, interval: 0.05) {
            buffers = ToastdProcess.bufferCount(pid)
            return buffers == 1 + ToastdProcess.spareBuffers
        }
        XCTAssertTrue(oneBuffer, "\(buffers) buffers kept by a stack that stopped changing\n\(toastd.log.suffix(2000))")
        let shown = settledHeapKiB(pid)
        try toastd.dismissAllAndWaitForBuffersToGo()
        let closed = settledHeapKiB(pid)
        print("toastd-burst-memory: heap \(before) KiB before, \(shown) KiB with 100 shown, \(closed) KiB closed")

        // Measured (debug build, from this test's "before"): without the trims the heap held 1.28 MB
        // more with the hundred shown (five toasts' pictures, the box and shadow caches, and the free
        // room left by the toasts pushed under the pill) and 0.70 MB more once closed; with them,
        // 0.74 and 0.16 MB. What stays is the renderer's caches for the next toast (below 512 KiB
        // by design) and the history.
        XCTAssertLessThanOrEqual(shown, before + 1100, "heap with the burst shown, \(before) KiB before")
        XCTAssertLessThanOrEqual(closed, before + 512, "heap after the burst closed, \(before) KiB before")
    }

    // MARK: Helpers

    /// The resident KiB of the main heap (`[heap]` in /proc/PID/smaps), once two readings 300 ms
    /// apart agree within 16 KiB (the loop trims as it goes back to sleep), or the last at 10 s.
    private func settledHeapKiB(_ pid: pid_t) -> Int {
        var last = heapKiB(pid)
        var stableSince = ContinuousClock.now
        _ = waitUntil(timeout: 10, interval: 0.05) {
            let now = heapKiB(pid)
            if abs(now - last) > 16 { last = now; stableSince = ContinuousClock.now }
            return ContinuousClock.now - stableSince >= .milliseconds(300)
        }
        return last
    }

    private func heapKiB(_ pid: pid_t) -> Int {
        ToastdProcess.residentKiB(of: pid) { $0.hasSuffix("[heap]") }.first ?? 0
    }
}
