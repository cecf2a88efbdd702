import Foundation
import XCTest

/// The first frame of a new overlay: its buffer is drawn while the compositor answers the new size,
/// and attached only once the configure came (PreparedFrame.swift). Read from the daemon's own
/// WAYLAND_DEBUG record, in order; no timings.
final class FirstFrameTests: XCTestCase {
    func testTheFirstBufferIsDrawnBeforeTheConfigureAndAttachedAfterIt() throws {
        let stage = try Stage.shared()
        let before = try stage.screenshot()
        let toastd = try ToastdProcess(stage: stage, environment: ["WAYLAND_DEBUG": "1"])
        let sent = try toastd.toast(["-t", "0", "Drawn while the compositor answers"])
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let (shot, shown) = try stage.waitForScreenshot { $0.rgb != before.rgb }
        XCTAssertTrue(shown, "the toast never showed; toastd: \(toastd.log.suffix(2000))")
        XCTAssertGreaterThan(shot.countDiffering(in: shot.bounds, from: before), 1000,
                             "hardly anything drawn; kept at \(stage.keep(shot, name: "first-frame"))")

        var order: FirstFrameOrder?
        XCTAssertTrue(waitUntil(timeout: 10) {
            order = FirstFrameOrder(log: toastd.log)
            return order?.attached != nil
        }, "no buffer attached to the toast's surface: \(toastd.log.suffix(3000))")
        let steps = try XCTUnwrap(order)
        let sizeCommit = try XCTUnwrap(steps.sizeCommit, "no commit after set_size")
        let configure = try XCTUnwrap(steps.configure, "no configure event")
        let ack = try XCTUnwrap(steps.ack, "no ack_configure")
        let created = try XCTUnwrap(steps.bufferCreated, "no wl_buffer created")
        let attached = try XCTUnwrap(steps.attached)
        // The buffer is made (and drawn) after the size is sent and before the answer is read...
        XCTAssertLessThan(sizeCommit, created, steps.excerpt)
        XCTAssertLessThan(created, configure, "the buffer waited for the configure: \(steps.excerpt)")
        // ...and attached only once the configure was acknowledged: that very buffer.
        XCTAssertLessThan(ack, attached, steps.excerpt)
        XCTAssertEqual(steps.attachedBuffer, steps.createdBuffer, steps.excerpt)
    }
}

/// Where, in a WAYLAND_DEBUG log, the first layer surface's first frame was sized, drawn, configured,
/// acknowledged and attached (line numbers).
private struct FirstFrameOrder {
    var sizeCommit: Int?, bufferCreated: Int?, configure: Int?, ack: Int?, attached: Int?
    var createdBuffer: String?, attachedBuffer: String?
    private var lines: [Substring] = []

    init?(log: String) {
        lines = log.split(separator: "\n")
        guard let (layer, surface) = lines.lazy.compactMap({ line -> (String, String)? in
            guard let m = line.firstMatch(of: /get_layer_surface\(new id zwlr_layer_surface_v1@(\d+), wl_surface@(\d+),/)
            else { return nil }
            return (String(m.1), String(m.2))
        }).first else { return nil }
        var sized = false
        for (index, line) in lines.enumerated() {
            if line.contains("-> zwlr_layer_surface_v1@\(layer).set_size(") { sized = true }
            if sized, sizeCommit == nil, line.contains("-> wl_surface@\(surface).commit()") { sizeCommit = index }
            if sizeCommit != nil, bufferCreated == nil,
               let m = line.firstMatch(of: /-> wl_shm_pool@\d+\.create_buffer\(new id wl_buffer@(\d+),/) {
                bufferCreated = index
                createdBuffer = String(m.1)
            }
            if sizeCommit != nil, configure == nil, line.contains("] zwlr_layer_surface_v1@\(layer).configure(") { configure = index }
            if configure != nil, ack == nil, line.contains("-> zwlr_layer_surface_v1@\(layer).ack_configure(") { ack = index }
            if attached == nil, let m = line.firstMatch(of: /-> wl_surface@(\d+)\.attach\(wl_buffer@(\d+),/), m.1 == surface {
                attached = index
                attachedBuffer = String(m.2)
                break
            }
        }
    }

    /// The lines from the size to the attach, for a failure message.
    var excerpt: String {
        guard let first = sizeCommit.map({ max(0, $0 - 2) }) else { return "" }
        return lines[first...min(lines.count - 1, (attached ?? first + 20))].joined(separator: "\n")
    }
}
