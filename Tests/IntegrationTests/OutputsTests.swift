import Foundation
import XCTest

/// `output = focused | all | NAME`, `hud-output`, `fullscreen` and the sections' own stacks, on a
/// real sway with two headless outputs (the second at scale 2, made with `swaymsg create_output`,
/// so each test that adds one has a stage of its own: sway 1.7 cannot remove it). The focus comes
/// from sway's zwlr_foreign_toplevel_manager_v1: probe windows are the focused windows.
final class OutputsTests: XCTestCase {
    private static let margin = 12, toastWidth = 360
    private static let probe = RGB(hex: "3070b0")!

    // MARK: - output = all

    func testOutputAllShowsTheToastOnEveryOutputAtItsScaleAndClicksPassThroughEachCopy() throws {
        let setup = try TwoOutputs()
        let stage = setup.stage
        let first = try setup.probe(on: stage.output)
        let second = try setup.probe(on: setup.second)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("output = all")])
        try expectSuccess(toastd.toast(["-t", "0", "Everywhere"]))

        let one = try steady(stage, output: stage.output)
        let two = try steady(stage, output: setup.second)
        let box1 = try XCTUnwrap(one.boundingBox(notMatching: Self.probe), "no toast on \(stage.output)")
        let box2 = try XCTUnwrap(two.boundingBox(notMatching: Self.probe), "no toast on \(setup.second)")
        XCTAssertEqual(box1.width, Self.toastWidth, "\(box1); kept at \(stage.keep(one, name: "all-1"))")
        // grim shoots the scale-2 output in buffer pixels: its copy is drawn at twice the pixels.
        XCTAssertEqual(box2.width, 2 * Self.toastWidth, "\(box2); kept at \(stage.keep(two, name: "all-2"))")
        XCTAssertEqual(box2.height, 2 * box1.height, "the copies differ in size: \(box1) \(box2)")
        XCTAssertEqual(box1.x + box1.width, one.width - Self.margin)
        XCTAssertEqual(box2.x + box2.width, two.width - 2 * Self.margin)

        // Each copy's input region is empty: a click on either reaches the window below.
        let (x1, y1) = (box1.x + box1.width / 2, box1.y + box1.height / 2)
        var start = first.lines.count
        try setup.click(x: x1, y: y1, output: stage.output)
        XCTAssertNotNil(first.waitForLine(from: start, deadline: .after(10)) { $0 == "button PRESS 272 \(x1) \(y1)" },
                        "the click on \(stage.output)'s copy did not pass through: \(first.lines)")
        let (x2, y2) = ((box2.x + box2.width / 2) / 2, (box2.y + box2.height / 2) / 2)
        start = second.lines.count
        try setup.click(x: x2, y: y2, output: setup.second)
        XCTAssertNotNil(second.waitForLine(from: start, deadline: .after(10)) { $0 == "button PRESS 272 \(x2) \(y2)" },
                        "the click on \(setup.second)'s copy did not pass through: \(second.lines)")
        XCTAssertEqual(try listed(toastd), ["Everywhere"])
    }

    /// With `clickable-actions`, each copy of an `all` stack takes clicks on its pills: a click on the
    /// copy on the second output (scale 2) invokes one toast's action, a click on the first output's
    /// copy another's, each exactly once (what `gdbus monitor` sees on the bus).
    func testOutputAllWithClickableActionsAClickOnEitherCopyInvokesTheActionOnce() throws {
        let setup = try TwoOutputs()
        let stage = setup.stage
        let probes = [try setup.probe(on: stage.output), try setup.probe(on: setup.second)]
        _ = probes
        let toastd = try ToastdProcess(stage: stage, arguments: ["--output", "all", "--clickable-actions", "--no-animations",
                                                                 "--config", try stage.shadowlessConfig()])
        let monitor = try stage.spawn(["gdbus", "monitor", "--session", "--dest", "org.freedesktop.Notifications"])
        defer { monitor.terminate() }
        XCTAssertNotNil(monitor.waitForLine(matching: "is owned by"), "gdbus monitor did not start: \(monitor.stderrText)")

        var ids: [String] = []
        // The second output's copy answers `yes` for one toast, the first output's `no` for the next.
        for (output, other, scale, pill, key) in [(setup.second, stage.output, 2, 0, "yes"), (stage.output, setup.second, 1, 1, "no")] {
            let waiting = try stage.spawn([try stage.binary("toast"), "-p", "-t", "0", "-A", "yes=Yes", "-A", "no=No", "Deploy?"],
                                          environment: ["TOASTD_SOCKET": toastd.socketPath])
            defer { waiting.terminate() }
            let id = try XCTUnwrap(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
            ids.append(id)
            _ = try steady(stage, output: other)
            let shot = try steady(stage, output: output)
            let found: ActionPills
            do {
                found = try ActionPills(in: shot, background: Self.probe, inset: 6 * scale)
            } catch let error as PillsNotFound {
                return XCTFail("\(error.message) on \(output); kept at \(stage.keep(shot, name: "all-pills-\(output)"))")
            }
            let target = found.pills[pill]
            try setup.click(x: (target.x + target.width / 2) / scale, y: (target.y + target.height / 2) / scale, output: output)
            XCTAssertNotNil(waiting.waitForLine(startingWith: key, from: 1), "the click on \(output)'s copy: \(waiting.lines) \(toastd.log.suffix(1500))")
            XCTAssertEqual(waiting.lines.dropFirst().first, key, "\(waiting.lines)")
            XCTAssertEqual(waiting.waitForExit(timeout: 10), 0, waiting.stderrText)
            // The action closed the toast: both copies go.
            for shown in [output, other] {
                let (left, gone) = try stage.waitForScreenshot(output: shown) { $0.isUniform(Self.probe) }
                XCTAssertTrue(gone, "the toast stayed on \(shown); kept at \(stage.keep(left, name: "all-clicked-\(shown)"))")
            }
        }

        // A toast dismissed afterwards: once its NotificationClosed is seen, a second signal for either
        // clicked toast would have been seen before it.
        let marker = try toastd.toast(["-p", "-t", "0", "Marker"])
        let markerID = marker.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(try toastd.toast(["dismiss", markerID]).succeeded)
        XCTAssertNotNil(monitor.waitForLine(matching: "NotificationClosed \\(uint32 \(markerID), "), "\(monitor.lines)")
        for (id, key) in zip(ids, ["yes", "no"]) {
            let invoked = monitor.lines.filter { $0.contains("ActionInvoked (uint32 \(id), ") }
            XCTAssertEqual(invoked, invoked.first.map { [$0] } ?? [], "not one ActionInvoked for \(id): \(monitor.lines)")
            XCTAssertTrue(invoked.first?.contains("'\(key)'") ?? false, "\(invoked)")
            XCTAssertEqual(monitor.lines.filter { $0.contains("NotificationClosed (uint32 \(id), ") }.count, 1, "\(monitor.lines)")
        }
        XCTAssertEqual(try listed(toastd), [])
    }

    // MARK: - output = focused

    func testAFocusedToastGoesToTheFocusedOutputAndStaysThere() throws {
        let setup = try TwoOutputs()
        let stage = setup.stage
        let first = try setup.probe(on: stage.output)
        let second = try setup.probe(on: setup.second)
        _ = (first, second)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "1"])
        XCTAssertTrue(toastd.log.contains("output: focused (focus from zwlr_foreign_toplevel_manager_v1)"), toastd.log.suffix(500).description)

        // The probe on the second output has the focus (it opened last).
        try expectSuccess(toastd.toast(["-t", "0", "On two"]))
        let two = try steady(stage, output: setup.second)
        XCTAssertEqual(boxes(in: two, scale: 2).count, 1, "kept at \(stage.keep(two, name: "focused-2"))")
        XCTAssertTrue(try stage.screenshot(output: stage.output).isUniform(Self.probe), "the toast is also on \(stage.output)")

        // Focus moves to the first output's probe: the next toast goes there, the first stays.
        try focus(stage.output, in: setup, toastd: toastd)
        try expectSuccess(toastd.toast(["-t", "0", "On one"]))
        let one = try steady(stage, output: stage.output)
        XCTAssertEqual(boxes(in: one, scale: 1).count, 1, "kept at \(stage.keep(one, name: "focused-1"))")
        let twoAfter = try stage.screenshot(output: setup.second)
        XCTAssertEqual(boxes(in: twoAfter, scale: 2).count, 1,
                       "the earlier toast left \(setup.second) or the new one came too; kept at \(stage.keep(twoAfter, name: "focused-2-after"))")
        XCTAssertEqual(Set(try listed(toastd)), ["On one", "On two"])
    }

    /// Before any window had the focus, `focused` leaves the output to sway, which puts a new surface
    /// on its focused output (where `focus output`, the keyboard or the pointer last was), not the first.
    func testBeforeAnyWindowHadTheFocusAToastGoesToSwaysFocusedOutput() throws {
        let setup = try TwoOutputs()
        let stage = setup.stage
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        XCTAssertTrue(toastd.log.contains("output: focused (focus from zwlr_foreign_toplevel_manager_v1)"), toastd.log.suffix(500).description)
        // No window: each output shows only its background (the new one's may not be swaybg's yet:
        // its bottom-left corner, away from the toasts, tells).
        let plain = { (shot: Image) in shot.isUniform(shot.pixel(0, shot.height - 1)) }
        for (output, other, summary) in [(setup.second, stage.output, "On two"), (stage.output, setup.second, "On one")] {
            try stage.swaymsg("focus", "output", output)
            let id = try toastd.toast(["-p", "-t", "0", summary]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
            let (shot, shown) = try stage.waitForScreenshot(output: output) { !plain($0) }
            XCTAssertTrue(shown, "\(summary): not on sway's focused \(output); kept at \(stage.keep(shot, name: "nofocus-\(output)"))")
            XCTAssertTrue(plain(try stage.screenshot(output: other)), "\(summary): also on \(other)")
            XCTAssertTrue(try toastd.toast(["dismiss", id]).succeeded)
            let (left, gone) = try stage.waitForScreenshot(output: output) { plain($0) }
            XCTAssertTrue(gone, "\(summary) stayed; kept at \(stage.keep(left, name: "nofocus-left-\(output)"))")
        }
    }

    func testTheHudFollowsTheFocusAtItsNextValue() throws {
        let setup = try TwoOutputs()
        let stage = setup.stage
        let probes = [try setup.probe(on: stage.output), try setup.probe(on: setup.second)]
        _ = probes
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "1"])
        try expectSuccess(toastd.toast(["hud", "volume", "40"]))
        let (two, onTwo) = try stage.waitForScreenshot(output: setup.second) { !$0.isUniform(Self.probe) }
        XCTAssertTrue(onTwo, "no HUD on the focused \(setup.second); kept at \(stage.keep(two, name: "hud-2"))")
        XCTAssertTrue(try stage.screenshot(output: stage.output).isUniform(Self.probe), "the HUD is also on \(stage.output)")

        try focus(stage.output, in: setup, toastd: toastd)
        try expectSuccess(toastd.toast(["hud", "volume", "60"]))
        let (one, onOne) = try stage.waitForScreenshot(output: stage.output) { !$0.isUniform(Self.probe) }
        XCTAssertTrue(onOne, "the HUD did not follow the focus to \(stage.output); kept at \(stage.keep(one, name: "hud-1"))")
        let (left, gone) = try stage.waitForScreenshot(output: setup.second) { $0.isUniform(Self.probe) }
        XCTAssertTrue(gone, "the HUD stayed on \(setup.second) too; kept at \(stage.keep(left, name: "hud-2-after"))")
    }

    func testHudOutputAllShowsTheHudOnBothOutputs() throws {
        let setup = try TwoOutputs()
        let stage = setup.stage
        let probes = [try setup.probe(on: stage.output), try setup.probe(on: setup.second)]
        _ = probes
        // The bar stays long enough for two screenshots on a loaded machine.
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-output = all\nhud-timeout = 20000")])
        try expectSuccess(toastd.toast(["hud", "volume", "40"]))
        for output in [stage.output, setup.second] {
            let (shot, shown) = try stage.waitForScreenshot(output: output) { !$0.isUniform(Self.probe) }
            XCTAssertTrue(shown, "no HUD on \(output); kept at \(stage.keep(shot, name: "hud-all-\(output)"))")
        }
        // Toasts still follow the focus (`output` is its own key): only the focused output shows one.
        try expectSuccess(toastd.toast(["-t", "0", "Toast"]))
        let (two, toasted) = try stage.waitForScreenshot(output: setup.second) { self.boxes(in: $0, scale: 2).count == 1 }
        XCTAssertTrue(toasted, "no toast on the focused \(setup.second); kept at \(stage.keep(two, name: "hud-all-toast"))")
        let one = try stage.screenshot(output: stage.output)
        XCTAssertEqual(boxes(in: one, scale: 1).count, 0, "the toast is on \(stage.output) too; kept at \(stage.keep(one, name: "hud-all-toast-1"))")
    }

    // MARK: - Unplugging

    func testUnpluggingAnOutputUnderAnAllStackKeepsTheToastAndThePassThrough() throws {
        let stage = try Stage.makePrivate()
        let nested = try NestedSway(inside: stage)
        try stage.swaymsg("splitv")
        let second = try nested.createOutput()
        let background = NestedSway.background
        _ = try nested.waitForScreenshot(output: second) { $0.isUniform(background) }
        let toastd = try ToastdProcess(stage: stage, arguments: ["--output", "all", "--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DISPLAY": nested.display, "WAYLAND_DEBUG": "1"])
        try expectSuccess(toastd.toast(["-t", "0", "On both, then one"]))
        for output in [nested.output, second] {
            let (shot, shown) = try nested.waitForScreenshot(output: output) { !$0.isUniform(background) }
            XCTAssertTrue(shown, "no toast on \(output); kept at \(stage.keep(shot, name: "unplug-all-\(output)")); toastd: \(toastd.log.suffix(1500))")
        }
        let surfaces = layerSurfaces(toastd.log)
        XCTAssertEqual(surfaces.count, 2, "one surface per output")

        try stage.swaymsg("[title=\"wlroots - \(second)\"]", "kill")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? nested.outputNames()) == [nested.output] }, "\(second) stayed")
        XCTAssertTrue(waitUntil(timeout: 10) { destroyedSurfaces(toastd.log) >= 1 },
                      "toastd kept the surface of the unplugged output: \(toastd.log.suffix(1500))")
        XCTAssertTrue(toastd.process.isRunning, "toastd died with the output")
        XCTAssertEqual(try listed(toastd), ["On both, then one"])
        let (kept, still) = try nested.waitForScreenshot(output: nested.output) { !$0.isUniform(background) }
        XCTAssertTrue(still, "the toast left \(nested.output) too; kept at \(stage.keep(kept, name: "unplug-all-after"))")
        // Every input region toastd ever set is empty (no wl_region.add): clicks pass through.
        XCTAssertFalse(toastd.log.contains(".add("), "a surface took input")
        XCTAssertTrue(toastd.log.contains("set_input_region(wl_region@"))
    }

    func testUnpluggingTheOutputUnderAFocusedToastAndHudMovesThemToTheOneLeft() throws {
        let stage = try Stage.makePrivate()
        let nested = try NestedSway(inside: stage)
        try stage.swaymsg("splitv")
        let second = try nested.createOutput()
        try nested.swaymsg("output", second, "scale", "2")
        let background = NestedSway.background
        // A window on the second output has the focus.
        try nested.swaymsg("focus", "output", second)
        let window = try stage.spawn([try stage.binary("toastd-stage"), "probe"], environment: ["WAYLAND_DISPLAY": nested.display])
        XCTAssertNotNil(window.waitForLine(startingWith: "ready ", timeout: 15), "the probe never got ready")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DISPLAY": nested.display, "WAYLAND_DEBUG": "1"])
        try expectSuccess(toastd.toast(["-t", "0", "Following focus"]))
        // And a spinner (`hud-output = focused` by default) that stays until stopped.
        try expectSuccess(toastd.toast(["loading", "start", "sync", "--detach"]))
        let (shot, shown) = try nested.waitForScreenshot(output: second) { shot in
            !shot.isUniform(Self.probe, in: Self.topHalf(of: shot)) && !shot.isUniform(Self.probe, in: Self.bottomHalf(of: shot))
        }
        XCTAssertTrue(shown, "no toast and HUD on the focused \(second); kept at \(stage.keep(shot, name: "unplug-focused")); toastd: \(toastd.log.suffix(1500))")
        XCTAssertTrue(try nested.screenshot(output: nested.output).isUniform(background), "the toast or the HUD is on \(nested.output) too")

        try stage.swaymsg("[title=\"wlroots - \(second)\"]", "kill")
        XCTAssertTrue(waitUntil(timeout: 10) { (try? nested.outputNames()) == [nested.output] }, "\(second) stayed")
        let (moved, remade) = try nested.waitForScreenshot(output: nested.output) { shot in
            let toast = self.crop(shot, Self.topHalf(of: shot)).boundingBox(notMatching: Self.probe)
            return toast?.width == Self.toastWidth && !shot.isUniform(Self.probe, in: Self.bottomHalf(of: shot))
        }
        XCTAssertTrue(remade, "the toast or the HUD did not move to \(nested.output); kept at \(stage.keep(moved, name: "unplug-focused-after")); toastd: \(toastd.log.suffix(1500))")
        XCTAssertTrue(toastd.process.isRunning, "toastd died with the output")
        XCTAssertEqual(try listed(toastd), ["Following focus"])
        XCTAssertFalse(toastd.log.contains(".add("), "a surface took input")
        // The spinner still answers: stopped, it goes.
        try expectSuccess(toastd.toast(["loading", "stop", "sync"]))
        let (stopped, gone) = try nested.waitForScreenshot(output: nested.output) { $0.isUniform(Self.probe, in: Self.bottomHalf(of: $0)) }
        XCTAssertTrue(gone, "the spinner stayed; kept at \(stage.keep(stopped, name: "unplug-focused-stopped"))")
    }

    /// An output that arrives under an `all` stack gets a copy, drawn at its scale (set after it came).
    func testAnOutputThatArrivesUnderAnAllStackGetsTheStack() throws {
        let stage = try Stage.makePrivate()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--output", "all", "--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "1"])
        try expectSuccess(toastd.toast(["-t", "0", "Already here"]))
        let (first, shown) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background)?.width == Self.toastWidth }
        XCTAssertTrue(shown, "no toast on \(stage.output); kept at \(stage.keep(first, name: "arrive-1"))")
        XCTAssertEqual(layerSurfaces(toastd.log).count, 1)

        let second = try stage.createOutput()
        // The new output's background (swaybg may not have drawn it yet): its bottom-left corner.
        let toastBox = { (shot: Image) in shot.boundingBox(notMatching: shot.pixel(0, shot.height - 1)) }
        let (arrived, copied) = try stage.waitForScreenshot(output: second) {
            toastBox($0)?.width == Self.toastWidth
        }
        XCTAssertTrue(copied, "no toast on the new \(second); kept at \(stage.keep(arrived, name: "arrive-2")); toastd: \(toastd.log.suffix(1500))")
        XCTAssertEqual(layerSurfaces(toastd.log).count, 2, "one more surface, for the new output")
        try stage.swaymsg("output", second, "scale", "2")
        let (scaled, sharp) = try stage.waitForScreenshot(output: second) {
            toastBox($0)?.width == 2 * Self.toastWidth
        }
        XCTAssertTrue(sharp, "the new output's copy is not drawn at scale 2; kept at \(stage.keep(scaled, name: "arrive-2-scaled"))")
        XCTAssertTrue(try stage.screenshot().boundingBox(notMatching: stage.background)?.width == Self.toastWidth,
                      "the first output's copy changed")
        XCTAssertEqual(try listed(toastd), ["Already here"])
    }

    // MARK: - fullscreen

    func testHideLowHoldsANormalToastOverAFullscreenWindowAndShowsItWhenTheWindowLeavesFullscreen() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow(stage: stage, fullscreen: true)
        _ = probe
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("fullscreen = hide-low")])
        let column = stage.width - Self.margin - Self.toastWidth / 2
        try expectSuccess(toastd.toast(["-t", "1500", "Held back"]))
        try expectSuccess(toastd.toast(["-u", "critical", "-t", "0", "Breaks through"]))
        let one = try stage.steadyScreenshot(background: Self.probe)
        XCTAssertEqual(runs(in: one, column: column, background: Self.probe).count, 1,
                       "the normal toast was drawn over the fullscreen window; kept at \(stage.keep(one, name: "fullscreen-held"))")
        // Held longer than its timeout, it is still open: its timeout has not started.
        XCTAssertTrue(waitUntil(timeout: 10) { (try? self.ages(toastd)["Held back"].map { $0 > 1600 }) == true },
                      "the held toast closed (or never came): \(String(describing: try? listed(toastd)))")

        try stage.swaymsg("fullscreen", "disable")
        let (two, released) = try stage.waitForScreenshot { runs(in: $0, column: column, background: Self.probe).count == 2 }
        XCTAssertTrue(released, "the held toast did not appear after fullscreen; kept at \(stage.keep(two, name: "fullscreen-released"))")
        // And then it runs its full timeout and goes.
        let (after, expired) = try stage.waitForScreenshot { runs(in: $0, column: column, background: Self.probe).count == 1 }
        XCTAssertTrue(expired, "the released toast never expired; kept at \(stage.keep(after, name: "fullscreen-expired"))")
        XCTAssertEqual(try listed(toastd), ["Breaks through"])
    }

    // MARK: - A section's own stack

    func testASectionsAnchorPutsItsToastsInASeparateStack() throws {
        let stage = try Stage.shared()
        let config = "\(stage.directory)/config-rule-anchor"
        try "shadow = none\n[app-name=mailer]\nanchor = bottom-left\n".write(toFile: config, atomically: true, encoding: .utf8)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", config], environment: ["WAYLAND_DEBUG": "1"])
        try expectSuccess(toastd.toast(["-t", "0", "-a", "chat", "Top right"]))
        try expectSuccess(toastd.toast(["-t", "0", "-a", "mailer", "Bottom left"]))
        let half = stage.width / 2
        var previous: Image?
        let (shot, both) = try stage.waitForScreenshot { shot in
            defer { previous = shot }
            return previous?.rgb == shot.rgb
                && !shot.isUniform(stage.background, in: Rect(x: 0, y: stage.height / 2, width: half, height: stage.height / 2))
                && !shot.isUniform(stage.background, in: Rect(x: half, y: 0, width: half, height: stage.height / 2))
        }
        let kept = stage.keep(shot, name: "rule-anchor")
        XCTAssertTrue(both, "not one toast in each corner; kept at \(kept); toastd: \(toastd.log.suffix(1000))")
        let bottomLeft = try XCTUnwrap(crop(shot, Rect(x: 0, y: stage.height / 2, width: half, height: stage.height / 2))
            .boundingBox(notMatching: stage.background))
        XCTAssertEqual(bottomLeft.x, Self.margin, "kept at \(kept)")
        XCTAssertEqual(stage.height / 2 + bottomLeft.y + bottomLeft.height, stage.height - Self.margin, "kept at \(kept)")
        XCTAssertEqual(bottomLeft.width, Self.toastWidth)
        XCTAssertTrue(shot.isUniform(stage.background, in: Rect(x: 0, y: 0, width: half, height: stage.height / 2)),
                      "something in the top left; kept at \(kept)")
        XCTAssertEqual(layerSurfaces(toastd.log).count, 2, "two stacks, two layer surfaces")
    }

    func testASectionsLayerTopKeepsItsToastsUnderAFullscreenWindow() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow(stage: stage, fullscreen: true)
        _ = probe
        let config = "\(stage.directory)/config-rule-layer"
        try "shadow = none\n[app-name=game-chat]\nlayer = top\n".write(toFile: config, atomically: true, encoding: .utf8)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", config], environment: ["WAYLAND_DEBUG": "1"])
        try expectSuccess(toastd.toast(["-t", "0", "-a", "game-chat", "Under the game"]))
        try expectSuccess(toastd.toast(["-t", "0", "-a", "system", "Over the game"]))
        let column = stage.width - Self.margin - Self.toastWidth / 2
        let shot = try stage.steadyScreenshot(background: Self.probe)
        // Two stacks at the same anchor, on two layers: the top one is under the fullscreen window.
        XCTAssertEqual(runs(in: shot, column: column, background: Self.probe).count, 1,
                       "kept at \(stage.keep(shot, name: "rule-layer"))")
        let made = layerSurfaces(toastd.log)
        XCTAssertEqual(made.count, 2, "\(made)")
        XCTAssertTrue(made.contains { $0.contains(", 2, \"toastd\")") }, "no surface on the top layer (2): \(made)")
        XCTAssertTrue(made.contains { $0.contains(", 3, \"toastd\")") }, "no surface on the overlay layer (3): \(made)")
        XCTAssertEqual(Set(try listed(toastd)), ["Under the game", "Over the game"])
    }

    // MARK: - Helpers

    /// A private stage with a second output at scale 2 and a seat (pointer and keyboard).
    private final class TwoOutputs {
        let stage: Stage
        let second: String
        private let seat: pid_t

        init() throws {
            stage = try Stage.makePrivate()
            let (pid, line) = try spawnTiedToThisProcess([try stage.binary("toastd-stage"), "seat"],
                                                         environment: stage.environment(),
                                                         stderrLog: "\(stage.directory)/seat.stderr.log", timeout: 15)
            seat = pid
            guard line == "ready" else { throw StageError.startFailed("toastd-stage seat said \(line ?? "nothing")") }
            second = try stage.createOutput()
            try stage.swaymsg("output", second, "scale", "2")
        }

        deinit { kill(seat, SIGTERM) }

        /// A probe window opened on `output` (it takes the focus).
        func probe(on output: String) throws -> BackgroundProcess {
            try stage.swaymsg("focus", "output", output)
            let probe = try stage.spawn([try stage.binary("toastd-stage"), "probe"])
            guard probe.waitForLine(startingWith: "ready ", timeout: 15) != nil else {
                throw StageError.startFailed("the probe on \(output) never got ready: \(probe.stderrText)")
            }
            return probe
        }

        func click(x: Int, y: Int, output: String) throws {
            try check(["toastd-stage", "click", "\(x)", "\(y)", "--output", output], environment: stage.environment(), timeout: 15)
        }
    }

    /// Moves the focus to the probe on `output` and waits until toastd has heard of it (a
    /// foreign-toplevel `done` in its WAYLAND_DEBUG log after the move).
    private func focus(_ output: String, in setup: TwoOutputs, toastd: ToastdProcess) throws {
        let before = toastd.log.count
        try setup.stage.swaymsg("focus", "output", output)
        let heard = waitUntil(timeout: 10) {
            toastd.log.dropFirst(before).split(separator: "\n").contains { $0.contains("zwlr_foreign_toplevel_handle_v1@") && $0.contains(".done()") }
        }
        XCTAssertTrue(heard, "toastd heard nothing of the focus change")
    }

    /// Waits until `output` shows something other than the probe and two screenshots agree.
    private func steady(_ stage: Stage, output: String) throws -> Image {
        try stage.steadyScreenshot(output: output, background: Self.probe)
    }

    /// The boxes down the toast column of a screenshot at `scale`.
    private func boxes(in image: Image, scale: Int) -> [Range<Int>] {
        runs(in: image, column: image.width - scale * (Self.margin + Self.toastWidth / 2), background: Self.probe)
    }

    private func listed(_ toastd: ToastdProcess) throws -> [String] {
        try ages(toastd).keys.sorted()
    }

    /// The open toasts' summaries and ages (`toast list --json`).
    private func ages(_ toastd: ToastdProcess) throws -> [String: Int] {
        let result = try toastd.toast(["list", "--json"])
        guard result.succeeded else { throw SubprocessError.failed(argv: ["toast", "list"], status: result.status, stderr: result.stderrText) }
        let array = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]] ?? []
        var ages: [String: Int] = [:]
        for toast in array { ages[toast["summary"] as? String ?? ""] = (toast["age_ms"] as? NSNumber)?.intValue ?? 0 }
        return ages
    }

    private func expectSuccess(_ result: CommandResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(result.succeeded, result.stderrText, file: file, line: line)
    }

    private static func topHalf(of image: Image) -> Rect { Rect(x: 0, y: 0, width: image.width, height: image.height / 2) }
    private static func bottomHalf(of image: Image) -> Rect {
        Rect(x: 0, y: image.height / 2, width: image.width, height: image.height - image.height / 2)
    }

    private func crop(_ image: Image, _ rect: Rect) -> Image {
        var pixels: [UInt8] = []
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                let p = image.pixel(x, y)
                pixels += [p.r, p.g, p.b]
            }
        }
        return Image(width: rect.width, height: rect.height, rgb: pixels)
    }
}

/// The get_layer_surface lines of the layer surfaces that showed something (`shownLayerSurfaces`).
private func layerSurfaces(_ log: String) -> [Substring] {
    shownLayerSurfaces(in: log).map(\.line)
}

/// How many zwlr_layer_surface_v1 objects the log shows destroyed.
private func destroyedSurfaces(_ log: String) -> Int {
    log.split(separator: "\n").filter { $0.contains(" -> zwlr_layer_surface_v1@") && $0.hasSuffix(".destroy()") }.count
}
