import Foundation
import XCTest

/// The overlay (issue #3) against the real daemon on the stage: where toasts are drawn, that they
/// take neither clicks nor keyboard focus, that they go away completely, how they stack, how they
/// follow an output's scale, and what happens when their output is unplugged (a nested sway, since
/// the stage's headless sway 1.7 cannot unplug or disable an output).
///
/// A click through a toast over a fullscreen window, and the toast being visible over it, is
/// ToastdOnStageTests.testToastOverFullscreenWindowLetsTheClickThrough; not repeated here.
final class OverlayTests: XCTestCase {
    /// The toast stack's geometry (Screen.margin, ToastStyle.width), in logical pixels.
    private static let margin = 12, toastWidth = 360

    // MARK: - Placement and text

    func testToastIsDrawnTopRightWithItsTitle() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        XCTAssertTrue(try stage.screenshot().isUniform(stage.background), "the stage is not clear before the test")

        let id = try sendForID(toastd, ["-t", "0", "Hello from the overlay"])
        let shot = try stage.steadyScreenshot()
        let kept = stage.keep(shot, name: "overlay-top-right")
        // Every pixel that is not background belongs to the toast: its bounding box is the toast.
        let box = try XCTUnwrap(shot.boundingBox(notMatching: stage.background), "nothing drawn; toastd: \(toastd.log)")
        XCTAssertEqual(box.x + box.width, stage.width - Self.margin, "right edge of \(box); kept at \(kept)")
        XCTAssertEqual(box.y, Self.margin, "top edge of \(box); kept at \(kept)")
        XCTAssertEqual(box.width, Self.toastWidth, "width of \(box); kept at \(kept)")
        XCTAssertTrue((30...120).contains(box.height), "a one-line toast \(box.height) high; kept at \(kept)")

        // The title is drawn: bright text inside the dark box (the app name caption is grey).
        XCTAssertGreaterThan(brightPixels(in: shot, box), 100, "no title text in \(box); kept at \(kept)")

        // The pixels are the title's: another title in place changes the text, not the box.
        let replaced = try toastd.toast(["-r", "\(id)", "-t", "0", "A different title, longer than the first"])
        XCTAssertTrue(replaced.succeeded, replaced.stderrText)
        let (after, changed) = try stage.waitForScreenshot { $0.differs(in: box, from: shot) }
        XCTAssertTrue(changed, "a new title drew nothing new; kept at \(stage.keep(after, name: "overlay-retitled"))")
        let steady = try stage.steadyScreenshot()
        XCTAssertEqual(steady.boundingBox(notMatching: stage.background), box, "the box moved with a new title")
        XCTAssertGreaterThan(brightPixels(in: steady, box), brightPixels(in: shot, box),
                             "a longer title has no more text pixels; kept at \(stage.keep(steady, name: "overlay-retitled"))")
    }

    // MARK: - Input passes through

    func testToastTakesNeitherTheClickNorTheKeyboardOfTheWindowBelow() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow(stage: stage)  // tiled: fills the output under the toast
        XCTAssertTrue(probe.waitFor("keyboard-enter"), "the probe never had keyboard focus: \(probe.lines)")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        let start = probe.lines.count

        let sent = try toastd.toast(["-t", "0", "Hands off", "neither clicks nor keys"])
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let (_, shown) = try stage.waitForScreenshot { !$0.isUniform(ProbeWindow.colour) }
        XCTAssertTrue(shown, "no toast over the window; toastd: \(toastd.log)")
        let shot = try stage.steadyScreenshot(background: ProbeWindow.colour)
        let box = try XCTUnwrap(shot.boundingBox(notMatching: ProbeWindow.colour))
        XCTAssertGreaterThan(box.x, stage.width / 2, "the toast is not on the right: \(box)")

        // A click in the middle of the toast lands on the window, at the same coordinates.
        let x = box.x + box.width / 2, y = box.y + box.height / 2
        try stage.click(x: x, y: y)
        XCTAssertTrue(probe.waitFor("button RELEASE 272 \(x) \(y)", from: start),
                      "the click on the toast did not reach the window: \(probe.lines.suffix(6))")
        // The toast mapped before the click, so a focus change it caused came before the button.
        let untilClick = Array(probe.lines[start...])
        XCTAssertFalse(untilClick.contains("keyboard-leave"), "the toast took keyboard focus: \(untilClick)")
        XCTAssertFalse(untilClick.contains("pointer-leave"), "the toast took the pointer: \(untilClick)")

        // A key typed while the toast shows still goes to the window. (Each one-shot virtual keyboard
        // of `stage.press` makes sway send the window keyboard-leave/enter for its keymap, so no
        // focus assertion after this point.)
        let beforeKey = probe.lines.count
        try stage.press(key: "a")
        XCTAssertTrue(probe.waitFor("key PRESS 30", from: beforeKey), "the key went elsewhere: \(probe.lines.suffix(6))")
        XCTAssertTrue(try stage.screenshot().rgb == shot.rgb, "the toast changed or went away during the test")
    }

    // MARK: - Going away

    func testExpiredToastLeavesThePixelsAsTheyWereAndDestroysItsSurface() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "1"])
        let before = try stage.screenshot()
        XCTAssertTrue(before.isUniform(stage.background), "the stage is not clear before the test")

        // Shown without a timeout first, then replaced in place with one (a replacement restarts the
        // timeout), so a slow screenshot can never miss the toast.
        let id = try sendForID(toastd, ["-t", "0", "Short-lived"])
        let (shown, appeared) = try stage.waitForScreenshot { $0.rgb != before.rgb }
        XCTAssertTrue(appeared, "the toast never showed; toastd: \(toastd.log.suffix(2000))")
        XCTAssertTrue(shown.differs(in: Rect(x: stage.width - 200, y: 20, width: 100, height: 20), from: before),
                      "not drawn top-right; kept at \(stage.keep(shown, name: "overlay-short-lived"))")
        let timed = try toastd.toast(["-r", "\(id)", "-t", "800", "Short-lived"])
        XCTAssertTrue(timed.succeeded, timed.stderrText)

        // After the timeout (and the fade), every pixel is back to what was there before.
        let (after, restored) = try stage.waitForScreenshot(timeout: 15) { $0.rgb == before.rgb }
        XCTAssertTrue(restored, "pixels left behind: \(after.countDiffering(in: after.bounds, from: before)); kept at \(stage.keep(after, name: "overlay-after-timeout"))")

        // And no surface is left: the layer surface and its wl_surface were destroyed, not just
        // left transparent; no new one was made. (sway's IPC does not list layer surfaces.)
        let surface = try XCTUnwrap(WaylandLog(toastd.log).layerSurfaces.last,
                                    "toastd made no layer surface: \(toastd.log.suffix(2000))")
        let destroyed = waitUntil(timeout: 10) {
            let log = WaylandLog(toastd.log)
            return log.has(request: "zwlr_layer_surface_v1@\(surface.layer).destroy()")
                && log.has(request: "wl_surface@\(surface.surface).destroy()")
        }
        XCTAssertTrue(destroyed, "toastd holds its surface after the toast closed: \(toastd.log.suffix(1500))")
        XCTAssertEqual(WaylandLog(toastd.log).layerSurfaces.count, 1, "toastd showed another surface")

        XCTAssertEqual(try listedToasts(toastd).count, 0)
        let history = try toastd.toast(["history"])
        XCTAssertTrue(history.stdoutText.contains("expired") && history.stdoutText.contains("Short-lived"),
                      history.stdoutText)
    }

    // MARK: - Stacking

    func testThreeToastsStackApartAndTheCriticalOneStays() throws {
        let stage = try Stage.shared()
        // WAYLAND_DEBUG: the daemon's record of its buffers, to check the stack's sizes share memory.
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "client"])
        let normalTimeout = 1000
        // The critical one first: it is the oldest, at the bottom of the stack, and outlives the others.
        // Each is on screen before the next comes: the stack grows a toast at a time.
        let column = stage.width - Self.margin - Self.toastWidth / 2
        var ids: [UInt32] = []
        for (index, arguments) in [["-u", "critical", "Critical stays", "until dismissed"],
                                   ["-t", "0", "First normal", "goes away"],
                                   ["-t", "0", "Second normal", "goes away too"]].enumerated() {
            ids.append(try sendForID(toastd, arguments))
            let (shot, shown) = try stage.waitForScreenshot { runs(in: $0, column: column, background: stage.background).count == index + 1 }
            XCTAssertTrue(shown, "toast \(index + 1) not drawn; kept at \(stage.keep(shot, name: "overlay-stack-growing"))")
        }
        let (critical, first, second) = (ids[0], ids[1], ids[2])

        // Three boxes down the toast column, with background between them.
        let (early, three) = try stage.waitForScreenshot { shot in
            runs(in: shot, column: column, background: stage.background).count == 3
        }
        XCTAssertTrue(three, "not three boxes: \(runs(in: early, column: column, background: stage.background)); kept at \(stage.keep(early, name: "overlay-stack"))")
        let shot = try stage.steadyScreenshot()
        let kept = stage.keep(shot, name: "overlay-stack")
        let boxes = runs(in: shot, column: column, background: stage.background)
        XCTAssertEqual(boxes.count, 3, "not three separate boxes: \(boxes); kept at \(kept)")
        for (upper, lower) in zip(boxes, boxes.dropFirst()) {
            XCTAssertGreaterThanOrEqual(lower.lowerBound - upper.upperBound, 4, "boxes touch: \(boxes); kept at \(kept)")
        }
        XCTAssertEqual(boxes.first?.lowerBound, Self.margin, "the stack does not start at the top margin: \(boxes)")
        XCTAssertTrue(boxes.allSatisfy { $0.count > 30 }, "a box is too thin: \(boxes); kept at \(kept)")
        // Newest on top: the oldest, at the bottom, is the critical one with the red border.
        XCTAssertEqual(boxes.map { redness(of: shot, row: ($0.lowerBound + $0.upperBound) / 2) > 80 }, [false, false, true],
                       "borders (red: critical) top to bottom; kept at \(kept)")

        // Now the normal ones get their timeout (a replacement in place restarts it): they expire,
        // and the critical one stays, alone at the top.
        for (id, summary) in [(first, "First normal"), (second, "Second normal")] {
            let timed = try toastd.toast(["-r", "\(id)", "-t", "\(normalTimeout)", summary])
            XCTAssertTrue(timed.succeeded, timed.stderrText)
        }
        let alone = waitUntil(timeout: 15, interval: 0.1) { (try? listedToasts(toastd).map(\.id)) == [critical] }
        let listed = try listedToasts(toastd)
        XCTAssertTrue(alone, "toast list: \(listed)")
        XCTAssertEqual(listed.first?.urgency, "critical")
        XCTAssertGreaterThanOrEqual(listed.first?.ageMs ?? 0, normalTimeout, "it did not outlive the others' timeout")
        let (last, one) = try stage.waitForScreenshot { shot in
            runs(in: shot, column: column, background: stage.background).count == 1
        }
        let left = runs(in: last, column: column, background: stage.background)
        XCTAssertTrue(one, "after the timeout: \(left); kept at \(stage.keep(last, name: "overlay-stack-after"))")
        XCTAssertEqual(left.first?.lowerBound, Self.margin, "the critical toast did not move up: \(left)")
        XCTAssertEqual(left.first?.count, boxes.last?.count, "the critical toast changed size")

        // The stack grew a toast at a time, each size a buffer of its own, but the memory was reused:
        // a buffer that grows keeps its pool (resized), so there are fewer pools than buffers.
        let requests = toastd.log.split(separator: "\n").filter { $0.contains("-> wl_shm") }
        let pools = requests.filter { $0.contains(".create_pool(") }.count
        let buffers = requests.filter { $0.contains(".create_buffer(") }
        let sizes = Set(buffers.map { $0.split(separator: ",").dropFirst(2).prefix(2).joined(separator: ",") })
        XCTAssertGreaterThanOrEqual(sizes.count, 3, "the stack did not grow through three sizes: \(buffers)")
        XCTAssertLessThan(pools, buffers.count, "a new pool for every buffer size: \(requests)")
    }

    // MARK: - Outputs

    func testToastOnAScale2OutputIsDrawnAtScale2() throws {
        // A second output stays for the stage's life (sway 1.7): a stage of this test's own.
        let stage = try Stage.makePrivate()
        let second = try stage.createOutput()
        try stage.swaymsg("output", second, "scale", "2")
        try stage.swaymsg("focus", "output", second)  // the compositor puts the surface on the focused output
        let before = try stage.screenshot(output: second)
        let background = before.pixel(0, 0)
        XCTAssertTrue(before.isUniform(background))

        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "1"])
        _ = try sendForID(toastd, ["-t", "0", "Sharp at scale two"])
        let (shot, shown) = try stage.waitForScreenshot(output: second) { $0.rgb != before.rgb }
        let kept = stage.keep(shot, name: "overlay-scale2")
        XCTAssertTrue(shown, "no toast on \(second); toastd: \(toastd.log.suffix(2000))")
        XCTAssertTrue(try stage.screenshot().isUniform(stage.background), "the toast is (also) on \(stage.output)")

        // grim shoots the scale-2 output in buffer pixels: the toast is twice as wide as logical.
        let steady = try stage.steadyScreenshot(output: second, background: background)
        let box = try XCTUnwrap(steady.boundingBox(notMatching: background))
        XCTAssertEqual(box.width, 2 * Self.toastWidth, "\(box); kept at \(kept)")
        XCTAssertEqual(box.x + box.width, steady.width - 2 * Self.margin, "\(box); kept at \(kept)")
        XCTAssertEqual(box.y, 2 * Self.margin, "\(box); kept at \(kept)")
        XCTAssertGreaterThan(brightPixels(in: steady, box), 400, "no text; kept at \(kept)")

        // Drawn at buffer scale 2 (sharp), not a scale-1 buffer the compositor blows up: the surface
        // that entered the output gets 720-pixel-wide buffers and set_buffer_scale(2), never 1.
        let log = WaylandLog(toastd.log)
        let surface = try XCTUnwrap(log.layerSurfaces.last)
        XCTAssertTrue(log.has(event: "wl_surface@\(surface.surface).enter("), "the surface never entered an output")
        XCTAssertTrue(log.has(request: "wl_surface@\(surface.surface).set_buffer_scale(2)"), "no buffer scale 2")
        XCTAssertFalse(log.has(request: "wl_surface@\(surface.surface).set_buffer_scale(1)"), "drawn at scale 1 too")
        XCTAssertTrue(log.has(requestMatching: #"create_buffer\(new id wl_buffer@\d+, 0, 720, "#), "no 2x buffer")

    }

    func testToastShowingWhenItsOutputTurnsScale2IsRedrawnAtScale2() throws {
        let stage = try Stage.makePrivate()
        let second = try stage.createOutput()
        try stage.swaymsg("focus", "output", second)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "1"])
        _ = try sendForID(toastd, ["-t", "0", "Scale changes under me"])
        let atScale1 = try stage.steadyScreenshot(output: second, background: try stage.screenshot(output: second).pixel(0, 0))
        let surface = try XCTUnwrap(WaylandLog(toastd.log).layerSurfaces.last)
        XCTAssertTrue(WaylandLog(toastd.log).has(request: "wl_surface@\(surface.surface).set_buffer_scale(1)"))

        try stage.swaymsg("output", second, "scale", "2")
        // The same surface, now drawn with twice the pixels.
        let redrawn = waitUntil(timeout: 10) {
            WaylandLog(toastd.log).has(request: "wl_surface@\(surface.surface).set_buffer_scale(2)")
        }
        XCTAssertTrue(redrawn, "the toast stayed at buffer scale 1 on a scale-2 output: \(toastd.log.suffix(1500))")
        XCTAssertTrue(WaylandLog(toastd.log).has(requestMatching: #"create_buffer\(new id wl_buffer@\d+, 0, 720, "#))
        let (shot, sharp) = try stage.waitForScreenshot(output: second) { $0.rgb != atScale1.rgb }
        XCTAssertTrue(sharp, "nothing changed on screen; kept at \(stage.keep(shot, name: "overlay-rescaled"))")
        XCTAssertTrue(toastd.process.isRunning)
    }

    func testUnpluggingTheOutputUnderAToastMovesItAndTheDaemonServesOn() throws {
        // sway 1.7 cannot unplug a headless output (and `output NAME disable` fails to commit), so
        // the outputs here are windows of a nested sway: closing one unplugs that output for real.
        let stage = try Stage.makePrivate()
        let nested = try NestedSway(inside: stage)
        try stage.swaymsg("splitv")  // the next output's window goes below: two full-width strips
        let second = try nested.createOutput()
        try nested.swaymsg("output", second, "scale", "2")
        try nested.swaymsg("focus", "output", second)
        let background = NestedSway.background
        let (clear, ready) = try nested.waitForScreenshot(output: second) { $0.isUniform(background) }
        XCTAssertTrue(ready, "\(second) never showed its background; kept at \(stage.keep(clear, name: "nested-empty"))")

        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DISPLAY": nested.display, "WAYLAND_DEBUG": "1"])
        _ = try sendForID(toastd, ["-t", "0", "On the output about to go"])
        let (shot, shown) = try nested.waitForScreenshot(output: second) { !$0.isUniform(background) }
        XCTAssertTrue(shown, "no toast on \(second); kept at \(stage.keep(shot, name: "nested-toast")); toastd: \(toastd.log.suffix(1500))")
        let doomed = try XCTUnwrap(WaylandLog(toastd.log).layerSurfaces.last)
        XCTAssertTrue(WaylandLog(toastd.log).has(request: "wl_surface@\(doomed.surface).set_buffer_scale(2)"))

        // Unplug the output while the toast shows.
        try stage.swaymsg("[title=\"wlroots - \(second)\"]", "kill")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? nested.outputNames()) == [nested.output] }, "\(second) stayed")
        XCTAssertTrue(waitUntil(timeout: 10) { WaylandLog(toastd.log).has(request: "wl_surface@\(doomed.surface).destroy()") },
                      "toastd kept the surface of the unplugged output: \(toastd.log.suffix(1500))")
        XCTAssertTrue(toastd.process.isRunning, "toastd died with the output: \(toastd.log.suffix(1500))")
        XCTAssertEqual(try listedToasts(toastd).map(\.summary), ["On the output about to go"])

        // The toast is remade on the output that is left, at that output's scale.
        let (moved, remade) = try nested.waitForScreenshot(output: nested.output) { !$0.isUniform(background) }
        let kept = stage.keep(moved, name: "nested-after-unplug")
        XCTAssertTrue(remade, "the toast did not come back on \(nested.output); kept at \(kept); toastd: \(toastd.log.suffix(1500))")
        let log = WaylandLog(toastd.log)
        let remaining = try XCTUnwrap(log.layerSurfaces.last)
        XCTAssertNotEqual(remaining.layer, doomed.layer, "no new surface")
        XCTAssertTrue(log.has(request: "wl_surface@\(remaining.surface).set_buffer_scale(1)"), "not redrawn at scale 1")

        // And new toasts still come: two boxes in the stack.
        _ = try sendForID(toastd, ["-t", "0", "Still serving"])
        let column = moved.width - Self.margin - Self.toastWidth / 2
        let (two, stacked) = try nested.waitForScreenshot(output: nested.output) {
            runs(in: $0, column: column, background: background).count == 2
        }
        XCTAssertTrue(stacked, "the second toast did not show; kept at \(stage.keep(two, name: "nested-second"))")
    }

    func testUnpluggingThePinnedOutputMovesTheToastToTheOneLeft() throws {
        let stage = try Stage.makePrivate()
        let nested = try NestedSway(inside: stage)
        try stage.swaymsg("splitv")
        let second = try nested.createOutput()
        try nested.swaymsg("focus", "output", nested.output)  // the compositor's choice would be WL-1
        let background = NestedSway.background
        _ = try nested.waitForScreenshot(output: second) { $0.isUniform(background) }

        let toastd = try ToastdProcess(stage: stage, arguments: ["--output", second],
                                       environment: ["WAYLAND_DISPLAY": nested.display])
        _ = try sendForID(toastd, ["-t", "0", "Pinned to the output about to go"])
        let (shot, shown) = try nested.waitForScreenshot(output: second) { !$0.isUniform(background) }
        XCTAssertTrue(shown, "no toast on the pinned \(second); kept at \(stage.keep(shot, name: "nested-pinned")); toastd: \(toastd.log)")
        XCTAssertTrue(try nested.screenshot(output: nested.output).isUniform(background), "the toast is on \(nested.output) too")

        try stage.swaymsg("[title=\"wlroots - \(second)\"]", "kill")
        let (moved, remade) = try nested.waitForScreenshot(output: nested.output) { !$0.isUniform(background) }
        XCTAssertTrue(remade, "the toast did not move to \(nested.output); kept at \(stage.keep(moved, name: "nested-pinned-after")); toastd: \(toastd.log)")
        XCTAssertTrue(toastd.process.isRunning, "toastd died with its pinned output: \(toastd.log)")
        XCTAssertEqual(try listedToasts(toastd).map(\.summary), ["Pinned to the output about to go"])
    }

    // MARK: - Helpers

    /// Runs `toast -p ARGS` and returns the new toast's id.
    private func sendForID(_ toastd: ToastdProcess, _ arguments: [String]) throws -> UInt32 {
        let result = try toastd.toast(["-p"] + arguments)
        XCTAssertTrue(result.succeeded, result.stderrText)
        return try XCTUnwrap(UInt32(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)),
                             "toast -p printed \(result.stdoutText)")
    }

    /// Pixels of `rect` bright in every channel: the title and body text on the toast's dark box.
    private func brightPixels(in image: Image, _ rect: Rect) -> Int {
        var count = 0
        let r = rect.clamped(to: image.width, image.height)
        for y in r.y..<(r.y + r.height) {
            for x in r.x..<(r.x + r.width) {
                let p = image.pixel(x, y)
                if min(p.r, p.g, p.b) > 150 { count += 1 }
            }
        }
        return count
    }

    /// The toasts `toast list --json` reports.
    private func listedToasts(_ toastd: ToastdProcess) throws -> [Listed] {
        let result = try toastd.toast(["list", "--json"])
        guard result.succeeded else { throw SubprocessError.failed(argv: ["toast", "list"], status: result.status, stderr: result.stderrText) }
        let array = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]] ?? []
        return array.map {
            Listed(id: ($0["id"] as? NSNumber)?.uint32Value ?? 0, summary: $0["summary"] as? String ?? "",
                   urgency: $0["urgency"] as? String ?? "", ageMs: ($0["age_ms"] as? NSNumber)?.intValue ?? 0)
        }
    }

    private struct Listed: Equatable {
        var id: UInt32, summary: String, urgency: String, ageMs: Int
    }
}

/// A sway on the wayland backend running inside a stage's sway: each of its outputs is a window
/// of the stage, and closing that window unplugs the output for real (its wl_output global goes),
/// which sway 1.7 cannot do to a headless output. As root it runs as the stage's user, like the
/// stage's own sway (scripts/stage). Terminated when released.
final class NestedSway {
    static let background = RGB(r: 0x20, g: 0x30, b: 0x40)

    let stage: Stage
    let process: BackgroundProcess
    /// Its Wayland socket (absolute path) and IPC socket.
    let display: String, ipcSocket: String
    /// Its first output (the wayland backend names them WL-1, WL-2, ...).
    let output = "WL-1"

    init(inside stage: Stage, timeout: Double = 20) throws {
        self.stage = stage
        let directory = stage.directory + "/nested", runtime = directory + "/run"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        chmod(runtime, 0o700)
        let config = directory + "/sway.config"
        try """
            output * bg #\(String(format: "%02x%02x%02x", Self.background.r, Self.background.g, Self.background.b)) solid_color
            seat * xcursor_theme toastd-transparent 24
            default_border none
            gaps inner 0
            focus_follows_mouse no
            mouse_warping none
            xwayland disable
            """.write(toFile: config, atomically: true, encoding: .utf8)
        chmod(config, 0o644)
        var argv = ["sway", "-c", config]
        if getuid() == 0 {
            let user = ProcessInfo.processInfo.environment["STAGE_USER"] ?? "toastd-stage"
            guard let entry = getpwnam(user) else { throw StageError.startFailed("no user \(user) for the nested sway") }
            chown(runtime, entry.pointee.pw_uid, entry.pointee.pw_gid)
            argv = ["setpriv", "--reuid=\(user)", "--regid=\(user)", "--init-groups"] + argv
        }
        ipcSocket = runtime + "/ipc.sock"
        let environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": directory,
            "XDG_RUNTIME_DIR": runtime, "SWAYSOCK": ipcSocket, "WAYLAND_DISPLAY": stage.variables["WAYLAND_DISPLAY"]!,
            "WLR_BACKENDS": "wayland", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
            "XCURSOR_PATH": stage.directory + "/icons", "LANG": "C.UTF-8",
        ]
        process = try BackgroundProcess(argv, environment: environment, stderrLog: directory + "/sway.log")
        var socket: String?
        let up = waitUntil(timeout: timeout, interval: 0.02) { [process, ipcSocket, stage] in
            guard process.isRunning else { return true }
            socket = (try? FileManager.default.contentsOfDirectory(atPath: runtime))?
                .first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }.map { runtime + "/" + $0 }
            guard socket != nil,
                  (try? stage.run(["swaymsg", "-s", ipcSocket, "-t", "get_outputs"], timeout: 5))?.succeeded == true
            else { return false }
            // Its first output is a window of the stage, focused there (the next one opens beside it).
            return (try? stage.swaymsg("-t", "get_tree"))?.contains("wlroots - WL-1") == true
        }
        guard up, process.isRunning, let socket else {
            process.terminate()
            throw StageError.startFailed("the nested sway did not come up: \(process.stderrText.suffix(1500))")
        }
        display = socket
    }

    deinit { process.terminate() }

    @discardableResult
    func swaymsg(_ arguments: String...) throws -> String {
        let result = try stage.run(["swaymsg", "-s", ipcSocket] + arguments, timeout: 10)
        guard result.succeeded else {
            throw SubprocessError.failed(argv: ["swaymsg"] + arguments, status: result.status, stderr: result.stderrText + result.stdoutText)
        }
        return result.stdoutText
    }

    func outputNames() throws -> [String] {
        let outputs = try JSONSerialization.jsonObject(with: Data(swaymsg("-r", "-t", "get_outputs").utf8)) as? [[String: Any]]
        return (outputs ?? []).compactMap { $0["name"] as? String }
    }

    /// Adds an output (a new window of the stage) and returns its name.
    func createOutput() throws -> String {
        let before = Set(try outputNames())
        try swaymsg("create_output")
        var added: String?
        waitUntil(timeout: 10) {
            added = (try? Set(outputNames()).subtracting(before).first) ?? nil
            return added != nil
        }
        guard let added else { throw StageError.startFailed("create_output added no output to the nested sway") }
        return added
    }

    func screenshot(output: String) throws -> Image {
        let result = try stage.run(["grim", "-t", "ppm", "-o", output, "-"], environment: ["WAYLAND_DISPLAY": display], timeout: 20)
        guard result.succeeded else { throw SubprocessError.failed(argv: ["grim"], status: result.status, stderr: result.stderrText) }
        return try Image(ppm: result.stdout)
    }

    func waitForScreenshot(output: String, timeout: Double = 10, until condition: (Image) -> Bool) throws -> (image: Image, held: Bool) {
        var shot = try screenshot(output: output)
        let held = try waitUntil(timeout: timeout, interval: 0.02) {
            shot = try screenshot(output: output)
            return condition(shot)
        }
        return (shot, held)
    }
}

/// How red the reddest pixel of `row` is (red minus blue): a critical toast's border.
private func redness(of image: Image, row: Int) -> Int {
    (0..<image.width).map { Int(image.pixel($0, row).r) - Int(image.pixel($0, row).b) }.max() ?? 0
}

/// Rows, top to bottom, where `column` of `image` is not `background`: one range per box crossed.
func runs(in image: Image, column: Int, background: RGB) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    var start: Int?
    for y in 0...image.height {
        let drawn = y < image.height && image.pixel(column, y) != background
        if drawn, start == nil { start = y }
        if !drawn, let s = start {
            runs.append(s..<y)
            start = nil
        }
    }
    return runs
}

/// A client's WAYLAND_DEBUG=1 log (libwayland prints "[time]  -> object@id.request(args)" for each
/// request and "[time] object@id.event(args)" for each event).
private struct WaylandLog {
    let text: String
    let lines: [Substring]

    init(_ text: String) {
        self.text = text
        lines = text.split(separator: "\n")
    }

    /// Each zwlr_layer_surface_v1 that showed something, in the order made (`shownLayerSurfaces`).
    var layerSurfaces: [LoggedLayerSurface] { shownLayerSurfaces(in: text) }

    func has(request: String) -> Bool { lines.contains { $0.contains(" -> " + request) } }

    func has(event: String) -> Bool { lines.contains { $0.contains("] " + event) } }

    func has(requestMatching pattern: String) -> Bool {
        guard let regex = try? Regex(pattern) else { return false }
        return lines.contains { $0.contains(" -> ") && $0.contains(regex) }
    }
}
