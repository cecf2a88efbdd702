import Foundation
import XCTest

/// The first frame of a toast. On a surface made for it, the buffer is drawn while the compositor
/// answers the new surface and attached only once the configure came (PreparedFrame.swift); on the
/// default stack's spare surface, made and configured ahead (Screen.swift), it is attached at once
/// with its size in the same commit. Read from the daemon's own WAYLAND_DEBUG record, in order, and
/// from the screen; no timings.
final class FirstFrameTests: XCTestCase {
    private static let margin = 12, toastWidth = 360

    func testTheFirstBufferOfANewSurfaceIsDrawnBeforeTheConfigureAndAttachedAfterIt() throws {
        let stage = try Stage.shared()
        let before = try stage.screenshot()
        // Another anchor than the default stack's: no spare is kept for it, its surface is made now.
        let config = try stage.shadowlessConfig("[app-name=elsewhere]\nanchor = bottom-left\n")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", config], environment: ["WAYLAND_DEBUG": "1"])
        let sent = try toastd.toast(["-t", "0", "-a", "elsewhere", "Drawn while the compositor answers"])
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

    func testAToastTakesTheSpareSurfaceAndIsAttachedAtOnceWithItsSize() throws {
        let stage = try Stage.shared()
        let before = try stage.screenshot()
        XCTAssertTrue(before.isUniform(stage.background), "the stage is not clear before the test")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "1"])
        // The spare: made at start, configured, never given a buffer.
        var spare: LoggedLayerSurface?
        XCTAssertTrue(waitUntil(timeout: 10) {
            spare = loggedLayerSurfaces(in: toastd.log).first
            return spare.map { toastd.log.contains("-> zwlr_layer_surface_v1@\($0.layer).ack_configure(") } ?? false
        }, "no layer surface made and configured at start: \(toastd.log.suffix(2000))")
        let made = try XCTUnwrap(spare)
        XCTAssertFalse(made.shown, "the spare showed something before any toast")
        let sentAt = toastd.log.count

        let sent = try toastd.toast(["-t", "0", "Shown on the spare"])
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let (shot, shown) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background)?.width == Self.toastWidth }
        let kept = stage.keep(shot, name: "first-frame-spare")
        XCTAssertTrue(shown, "the toast never showed whole; kept at \(kept); toastd: \(toastd.log.suffix(2000))")
        // Its size came with its first buffer, not with a configure: it is where a surface of that size goes.
        let box = try XCTUnwrap(shot.boundingBox(notMatching: stage.background))
        XCTAssertEqual(box.x + box.width, stage.width - Self.margin, "right edge of \(box); kept at \(kept)")
        XCTAssertEqual(box.y, Self.margin, "top edge of \(box); kept at \(kept)")

        // The toast is on the spare, and nothing was awaited: from the toast's set_size to its commit,
        // no commit without it and no configure.
        let surfaces = loggedLayerSurfaces(in: toastd.log)
        XCTAssertEqual(surfaces.first(where: \.shown)?.layer, made.layer, "the toast did not take the spare: \(surfaces.map(\.line))")
        let lines = String(toastd.log.dropFirst(sentAt)).split(separator: "\n")
        let sized = try XCTUnwrap(lines.firstIndex { $0.contains("-> zwlr_layer_surface_v1@\(made.layer).set_size(") },
                                  "no new size sent: \(lines.prefix(40).joined(separator: "\n"))")
        let committed = try XCTUnwrap(lines[sized...].firstIndex { $0.contains("-> wl_surface@\(made.surface).commit()") })
        let between = lines[sized...committed]
        XCTAssertTrue(between.contains { $0.contains("-> wl_surface@\(made.surface).attach(wl_buffer@") },
                      "the size was committed without the buffer: \(between.joined(separator: "\n"))")
        XCTAssertFalse(between.contains { $0.contains("] zwlr_layer_surface_v1@\(made.layer).configure(") },
                       "a configure was awaited: \(between.joined(separator: "\n"))")
        // And another spare is made for the next toast, with a buffer of that toast's size made ahead.
        var next: LoggedLayerSurface?
        XCTAssertTrue(waitUntil(timeout: 10) {
            next = loggedLayerSurfaces(in: toastd.log).dropFirst().first { !$0.shown }
            return next != nil
        }, "no new spare after the first was taken: \(toastd.log.suffix(2000))")
        let second = try XCTUnwrap(next)

        // The next toast alone, of the same size, on it: into the buffer made ahead, none made for it.
        let dismissed = try toastd.toast(["dismiss", "--all"])
        XCTAssertTrue(dismissed.succeeded, dismissed.stderrText)
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("-> wl_surface@\(made.surface).destroy()") },
                      "the first toast's surface stayed: \(toastd.log.suffix(2000))")
        // Idle, the daemon holds that buffer with its pages (and no other): the next toast draws into
        // memory it has.
        var idleBuffers: [Int] = []
        XCTAssertTrue(waitUntil(timeout: 10) {
            idleBuffers = ToastdProcess.bufferKiB(toastd.process.pid)
            return idleBuffers.count == 1
        }, "the spare's buffer holds no pages while idle, or others stayed: \(idleBuffers) KiB")
        let secondSentAt = toastd.log.count
        let again = try toastd.toast(["-t", "0", "Shown on the spare"])
        XCTAssertTrue(again.succeeded, again.stderrText)
        let attach = try XCTUnwrap(waitUntil(timeout: 10) {
            toastd.log.dropFirst(secondSentAt).contains("-> wl_surface@\(second.surface).attach(wl_buffer@")
        } ? String(toastd.log.dropFirst(secondSentAt)).firstMatch(of: #/-> wl_surface@\d+\.attach\(wl_buffer@(\d+),/#) : nil,
                                   "the next toast did not take the next spare: \(toastd.log.suffix(2000))")
        let buffer = "create_buffer(new id wl_buffer@\(attach.1),"
        XCTAssertTrue(toastd.log.prefix(secondSentAt).contains(buffer),
                      "the buffer was not made ahead: \(String(toastd.log.dropFirst(secondSentAt)).prefix(3000))")
        XCTAssertFalse(toastd.log.dropFirst(secondSentAt).contains(buffer), "a buffer was made for the toast")
    }

    func testTheSpareFollowsTheOutputsScaleSoTheFirstFrameIsSharp() throws {
        let stage = try Stage.makePrivate()  // its output's scale changes
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "1"])
        XCTAssertTrue(waitUntil(timeout: 10) { loggedLayerSurfaces(in: toastd.log).count == 1 }, "no spare made at start")
        try stage.swaymsg("output", stage.output, "scale", "2")
        // The spare made at scale 1 is made again for scale 2.
        XCTAssertTrue(waitUntil(timeout: 10) { loggedLayerSurfaces(in: toastd.log).count == 2 },
                      "the spare was not made again for the new scale: \(toastd.log.suffix(2000))")
        let sentAt = toastd.log.count
        let sent = try toastd.toast(["-t", "0", "Sharp from the first frame"])
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        var first: Substring?
        XCTAssertTrue(waitUntil(timeout: 10) {
            first = String(toastd.log.dropFirst(sentAt)).split(separator: "\n").first { $0.contains(".create_buffer(") }
            return first != nil
        }, "no buffer made for the toast: \(toastd.log.suffix(2000))")
        XCTAssertTrue(first?.contains(", 0, \(2 * Self.toastWidth), ") == true, "the first frame was not drawn at scale 2: \(first ?? "")")
    }
}

/// Where, in a WAYLAND_DEBUG log, the first layer surface that showed something was sized, drawn,
/// configured, acknowledged and attached (line numbers).
private struct FirstFrameOrder {
    var sizeCommit: Int?, bufferCreated: Int?, configure: Int?, ack: Int?, attached: Int?
    var createdBuffer: String?, attachedBuffer: String?
    private var lines: [Substring] = []

    init?(log: String) {
        guard let shown = shownLayerSurfaces(in: log).first else { return nil }
        let (layer, surface) = (shown.layer, shown.surface)
        lines = log.split(separator: "\n")
        guard let made = lines.firstIndex(of: shown.line) else { return nil }
        var sized = false
        for (index, line) in lines.enumerated() where index > made {
            if line.contains("-> zwlr_layer_surface_v1@\(layer).set_size(") { sized = true }
            if sized, sizeCommit == nil, line.contains("-> wl_surface@\(surface).commit()") { sizeCommit = index }
            if sizeCommit != nil, bufferCreated == nil,
               let m = line.firstMatch(of: /-> wl_shm_pool@\d+\.create_buffer\(new id wl_buffer@(\d+),/) {
                bufferCreated = index
                createdBuffer = String(m.1)
            }
            if sizeCommit != nil, configure == nil, line.contains("] zwlr_layer_surface_v1@\(layer).configure(") { configure = index }
            if configure != nil, ack == nil, line.contains("-> zwlr_layer_surface_v1@\(layer).ack_configure(") { ack = index }
            if attached == nil, let m = line.firstMatch(of: /-> wl_surface@(\d+)\.attach\(wl_buffer@(\d+),/), m.1 == "\(surface)" {
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
