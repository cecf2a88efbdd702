import Foundation
import XCTest

/// HUDs on the stage (issue #7): value bars and the loading spinner in their own pass-through overlay at
/// the bottom centre, `toast hud --stream`, and a daemon that goes fully quiet once they have hidden.
///
/// Geometry comes from the screenshots (the HUD's bounding box against the background), plus two facts
/// of the default style (ToastRender/ToastStyle.swift, HudRendering.swift): the bar fill is opaque
/// #eef0f6, and the bar and the spinner wheel sit `hudPadding` (14 px) inside the HUD's box.
final class HudTests: XCTestCase {
    /// `style.hudFill`: opaque, so a filled bar pixel at full opacity is exactly this colour.
    static let barFill = RGB(hex: "eef0f6")!
    /// `hudPadding` in HudRendering.swift, and `style.spinnerSize`.
    static let padding = 14, spinnerSide = 28

    // MARK: - Value bar

    func testBarGrowsWithTheValueThenHides() throws {
        let stage = try Stage.shared()
        // A bar that stays 6 s: on a loaded machine, screenshots until two agree could outlast the
        // default 1.5 s and find the bar already gone.
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-timeout = 6000")])

        try expectSuccess(toastd.toast(["hud", "volume", "40"]))
        let (at40, shown40) = try waitForSettledBar(stage)
        XCTAssertTrue(shown40, "no bar drawn at 40; kept at \(stage.keep(at40, name: "hud-40")); toastd: \(toastd.log)")
        let hud40 = try XCTUnwrap(at40.boundingBox(notMatching: stage.background), "nothing on screen")
        // Bottom centre, apart from the toast stack's corner.
        XCTAssertLessThan(abs(hud40.x + hud40.width / 2 - stage.width / 2), 2, "not centred: \(hud40)")
        XCTAssertGreaterThan(hud40.y, stage.height / 2, "not at the bottom: \(hud40)")
        let fill40 = at40.longestRun(of: Self.barFill, in: hud40)

        try expectSuccess(toastd.toast(["hud", "volume", "70"]))
        let (at70, grew) = try stage.waitForScreenshot(timeout: 5) {
            $0.longestRun(of: Self.barFill, in: hud40) > fill40 + 20
        }
        let fill70 = at70.longestRun(of: Self.barFill, in: hud40)
        XCTAssertTrue(grew, "fill \(fill40) px at 40, \(fill70) px at 70; kept at \(stage.keep(at70, name: "hud-70"))")
        // In place: the same kind updates the same bar, it does not move or stack.
        XCTAssertEqual(at70.boundingBox(notMatching: stage.background), hud40)
        let barWidth = Double(hud40.width - 2 * Self.padding)
        XCTAssertEqual(Double(fill40) / barWidth, 0.40, accuracy: 0.04, "fill at 40: \(fill40) of \(barWidth) px")
        XCTAssertEqual(Double(fill70) / barWidth, 0.70, accuracy: 0.04, "fill at 70: \(fill70) of \(barWidth) px")

        // It hides by itself after the timeout (restarted by the update above).
        try expectHidden(stage, name: "hud-stays", "the bar never hid")
    }

    func testNegativeValueDrawsAnEmptyBarWithAWarning() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        let result = try toastd.toast(["hud", "volume", "-5"])
        XCTAssertEqual(result.status, 0, "toast hud volume -5: \(result.stderrText)")
        XCTAssertTrue(result.stderrText.contains("warning"), "no warning on stderr: \(result.stderrText)")
        // Drawn (as 0): the HUD appears, with no filled run along the bar.
        let (shot, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background) }
        XCTAssertTrue(shown, "nothing drawn for -5; toastd: \(toastd.log)")
        let box = try XCTUnwrap(shot.boundingBox(notMatching: stage.background))
        XCTAssertLessThan(shot.longestRun(of: Self.barFill, in: box.barArea), 5,
                          "a filled bar for -5; kept at \(stage.keep(shot, name: "hud-negative"))")
    }

    func testClickOnTheBarReachesTheWindowBelowAndFocusStays() throws {
        let stage = try Stage.shared()
        let probe = try ProbeWindow(stage: stage)
        XCTAssertTrue(probe.waitFor("keyboard-enter"), "the probe never got keyboard focus: \(probe.lines)")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        let start = probe.lines.count

        try expectSuccess(toastd.toast(["hud", "brightness", "60"]))
        let (shot, shown) = try stage.waitForScreenshot { !$0.isUniform(ProbeWindow.colour) }
        XCTAssertTrue(shown, "no bar over the window; toastd: \(toastd.log)")
        let box = try XCTUnwrap(shot.boundingBox(notMatching: ProbeWindow.colour))
        let x = box.x + box.width / 2, y = box.y + box.height / 2
        try stage.click(x: x, y: y)
        XCTAssertTrue(probe.waitFor("button PRESS 272 \(x) \(y)", from: start),
                      "the click on the bar at \(x),\(y) did not reach the window: \(probe.lines.suffix(5))")
        // A surface that took focus would have done it when it mapped, so before the click in the
        // probe's event order. (Later, `toastd-stage key` plugs a new virtual keyboard in, and sway
        // re-enters the focused window: a leave/enter pair that is not the HUD's doing.)
        let lines = probe.lines
        let press = try XCTUnwrap(lines[start...].firstIndex(of: "button PRESS 272 \(x) \(y)"))
        XCTAssertFalse(lines[start..<press].contains("keyboard-leave"), "the HUD took keyboard focus: \(lines[start...])")
        let beforeKey = probe.lines.count
        try stage.press(key: "a")
        XCTAssertTrue(probe.waitFor("key PRESS 30", from: beforeKey),
                      "the key did not reach the window under the HUD: \(probe.lines.suffix(5))")
    }

    // MARK: - Stream mode

    func testStreamUpdatesOneBarSkipsABadLineAndEndsCleanly() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-timeout = 6000")])
        var lines = (1...99).map { "\($0 % 100)" }
        lines.insert("loud", at: 50)  // line 51
        lines.append("25%")           // the last value: what the bar shows
        XCTAssertEqual(lines.count, 101)
        let result = try stage.run([try stage.binary("toast"), "hud", "--stream", "volume"],
                                   environment: ["TOASTD_SOCKET": toastd.socketPath],
                                   input: Data((lines.joined(separator: "\n") + "\n").utf8), timeout: 30)
        XCTAssertEqual(result.status, 0, "toast hud --stream: \(result.stderrText)")
        XCTAssertTrue(result.stderrText.contains("line 51"), "the bad line was not reported: \(result.stderrText)")
        XCTAssertEqual(result.stderrText.split(separator: "\n").count, 1, "only the bad line is an error: \(result.stderrText)")

        let (shot, settled) = try waitForSettledBar(stage)
        XCTAssertTrue(settled, "no bar after the stream; toastd: \(toastd.log)")
        let box = try XCTUnwrap(shot.boundingBox(notMatching: stage.background))
        let fill = shot.longestRun(of: Self.barFill, in: box)
        XCTAssertEqual(Double(fill) / Double(box.width - 2 * Self.padding), 0.25, accuracy: 0.04,
                       "the bar does not show the last value (25); kept at \(stage.keep(shot, name: "hud-stream"))")
    }

    /// `--stream` hands its standard input to toastd, which reads the values itself (one hop, as wob
    /// reads its stdin): with the CLI stopped (SIGSTOP), a value written to the pipe still moves the bar.
    func testStreamInputIsReadByTheDaemonItself() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        let fifo = NSTemporaryDirectory() + "toastd-stream-\(UUID().uuidString.prefix(8))"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let cli = try stage.spawn(["sh", "-c", "exec \"$0\" hud --stream volume < \"$1\"", try stage.binary("toast"), fifo],
                                  environment: ["TOASTD_SOCKET": toastd.socketPath])
        defer { cli.terminate() }
        let writer = open(fifo, O_WRONLY)  // returns once the shell has opened the other end
        XCTAssertGreaterThanOrEqual(writer, 0)
        func send(_ line: String) { _ = line.withCString { write(writer, $0, strlen($0)) } }

        send("30\n")
        XCTAssertEqual(try barFraction(stage, near: 0.3), 0.3, accuracy: 0.04, "first value; toastd: \(toastd.log)")
        kill(cli.pid, SIGSTOP)
        send("80\n")
        XCTAssertEqual(try barFraction(stage, near: 0.8), 0.8, accuracy: 0.04,
                       "a value written while the CLI is stopped did not reach the bar: the CLI still relays")
        kill(cli.pid, SIGCONT)
        send("loud\n")
        close(writer)
        XCTAssertEqual(cli.waitForExit(timeout: 10), 0, "toast hud --stream after the input ended: \(cli.stderrText)")
        XCTAssertEqual(cli.stderrText.trimmingCharacters(in: .whitespacesAndNewlines), "toast: line 3: \"loud\" is not a number")
    }

    /// A regular file cannot be watched by epoll: the CLI relays its lines itself, with the same result.
    func testStreamFromARegularFileIsRelayedByTheCLI() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        let file = NSTemporaryDirectory() + "toastd-stream-\(UUID().uuidString.prefix(8)).txt"
        try "10\nloud\n60\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let result = try stage.run(["sh", "-c", "exec \"$0\" hud --stream volume < \"$1\"", try stage.binary("toast"), file],
                                   environment: ["TOASTD_SOCKET": toastd.socketPath])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stderrText.trimmingCharacters(in: .whitespacesAndNewlines), "toast: line 2: \"loud\" is not a number")
        XCTAssertEqual(try barFraction(stage, near: 0.6), 0.6, accuracy: 0.04)
    }

    /// The filled fraction of the bar once it shows about `expected` (or whatever it shows at the deadline).
    private func barFraction(_ stage: Stage, near expected: Double) throws -> Double {
        var fraction = -1.0
        _ = try stage.waitForScreenshot(timeout: 10) { shot in
            guard let box = shot.boundingBox(notMatching: stage.background) else { return false }
            fraction = Double(shot.longestRun(of: Self.barFill, in: box)) / Double(box.width - 2 * Self.padding)
            return abs(fraction - expected) < 0.03
        }
        return fraction
    }

    // MARK: - Loading spinner

    func testSpinnerTurnsInsideItsWheelOnlyAndStopHidesIt() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        try expectSuccess(toastd.toast(["loading", "start", "build", "--detach"]))
        let (first, wheel) = try waitForSettledSpinner(stage, toastd: toastd)

        let (second, turned) = try stage.waitForScreenshot(timeout: 5) { $0.differs(in: wheel, from: first) }
        XCTAssertTrue(turned, "the spinner does not turn; kept at \(stage.keep(second, name: "spinner-still"))")
        let changed = try XCTUnwrap(second.differenceBox(from: first))
        XCTAssertTrue(wheel.contains(changed), "pixels outside the wheel \(wheel) changed: \(changed); "
                      + "kept at \(stage.keep(first, name: "spinner-a")), \(stage.keep(second, name: "spinner-b"))")

        try expectSuccess(toastd.toast(["loading", "stop", "build"]))
        try expectHidden(stage, name: "spinner-stays", "stop did not hide the spinner")
    }

    func testSpinnerTurnsUntilTheLastKeyStops() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        try expectSuccess(toastd.toast(["loading", "start", "build", "--detach"]))
        try expectSuccess(toastd.toast(["loading", "start", "sync", "--detach"]))
        _ = try waitForSettledSpinner(stage, toastd: toastd)

        try expectSuccess(toastd.toast(["loading", "stop", "build"]))
        // Still there and still turning: two more distinct wheel positions, each at full opacity (a
        // fading-out spinner stands still and fades, so it cannot pass this).
        try expectSpinnerKeepsTurning(stage)

        try expectSuccess(toastd.toast(["loading", "stop", "sync"]))
        try expectHidden(stage, name: "spinner-sync", "the spinner stayed after its last key")
    }

    func testStartingAKeyTwiceNeedsOneStop() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        try expectSuccess(toastd.toast(["loading", "start", "build", "--detach"]))
        try expectSuccess(toastd.toast(["loading", "start", "build", "--detach"]))
        _ = try waitForSettledSpinner(stage, toastd: toastd)
        try expectSuccess(toastd.toast(["loading", "stop", "build"]))
        try expectHidden(stage, name: "spinner-twice", "keys are a set, one stop should hide it")
        // A second stop finds nothing to stop.
        let again = try toastd.toast(["loading", "stop", "build"])
        XCTAssertNotEqual(again.status, 0, "stopping a stopped key succeeded")
        XCTAssertTrue(again.stderrText.contains("not_found"), again.stderrText)
    }

    func testAttachedStartEndsWhenStoppedFromElsewhere() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        let holder = try stage.spawn([try stage.binary("toast"), "loading", "start", "deploy", "--label", "Deploying"],
                                     environment: ["TOASTD_SOCKET": toastd.socketPath])
        _ = try waitForSettledSpinner(stage, toastd: toastd)
        XCTAssertTrue(holder.isRunning, "toast loading start (attached) returned while its spinner shows: \(holder.stderrText)")

        try expectSuccess(toastd.toast(["loading", "stop", "deploy"]))
        XCTAssertEqual(holder.waitForExit(timeout: 10), 0,
                       "the attached `toast loading start` did not exit 0 after the stop: \(holder.stderrText)")
        try expectHidden(stage, name: "spinner-attached")
    }

    func testAttachedStartEndsWhenStoppedOverDBus() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        let holder = try stage.spawn([try stage.binary("toast"), "loading", "start", "upload"],
                                     environment: ["TOASTD_SOCKET": toastd.socketPath])
        _ = try waitForSettledSpinner(stage, toastd: toastd)
        let call = try stage.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                                  "--object-path", "/org/toastd/Hud", "--method", "org.toastd.Hud1.LoadingStop", "upload"],
                                 timeout: 10)
        XCTAssertTrue(call.succeeded, "LoadingStop over D-Bus: \(call.stderrText)")
        XCTAssertEqual(holder.waitForExit(timeout: 10), 0,
                       "the attached `toast loading start` did not exit 0 after a D-Bus stop: \(holder.stderrText)")
        try expectHidden(stage, name: "spinner-dbus-stop")
    }

    func testKilledClientsSpinnerStopsAfterTheGraceButADetachedOneStays() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        // The spinner shows the label of the latest key: "Kept" alone is narrower than "Fetching ...".
        try expectSuccess(toastd.toast(["loading", "start", "keep", "--label", "Kept", "--detach"]))
        let (kept, _) = try waitForSettledSpinner(stage, toastd: toastd)
        let keptBox = try XCTUnwrap(kept.boundingBox(notMatching: stage.background))
        let holder = try stage.spawn([try stage.binary("toast"), "loading", "start", "fetch", "--label", "Fetching the index"],
                                     environment: ["TOASTD_SOCKET": toastd.socketPath])
        let (fetching, widened) = try stage.waitForScreenshot {
            ($0.boundingBox(notMatching: stage.background)?.width ?? 0) > keptBox.width
        }
        XCTAssertTrue(widened, "the second key's label never showed; kept at \(stage.keep(fetching, name: "spinner-fetch"))")
        holder.terminate()
        // After the grace period (HUDConfig.loadingGrace, 2 s) the orphaned key stops; the detached one,
        // whose client left long ago, stays.
        let (after, reverted) = try stage.waitForScreenshot(timeout: 10) {
            $0.boundingBox(notMatching: stage.background) == keptBox
        }
        XCTAssertTrue(reverted, "the orphaned key did not stop, or the detached one went too; kept at "
                      + "\(stage.keep(after, name: "spinner-orphan"))")
    }

    // MARK: - Overflow, toasts beside HUDs, no animations

    // MARK: loading run

    /// The command's output passes through, the spinner shows while it runs and is gone after, and
    /// toast exits with the command's status. The command waits on a FIFO the test writes once it has
    /// seen the spinner, so nothing depends on how fast the build is.
    func testLoadingRunShowsTheSpinnerWhileTheCommandRunsAndExitsWithItsStatus() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let fifo = "\(stage.directory)/run-\(UUID().uuidString.prefix(8)).fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer { unlink(fifo) }
        let runner = try stage.spawn([try stage.binary("toast"), "loading", "run", "build", "--label", "Building", "--",
                                      "sh", "-c", "echo started; read line < \(fifo); echo \"got $line\"; exit 3"],
                                     environment: ["TOASTD_SOCKET": toastd.socketPath])
        XCTAssertNotNil(runner.waitForLine(startingWith: "started"), "the command's stdout: \(runner.stderrText)")
        _ = try waitForSettledSpinner(stage, toastd: toastd)
        XCTAssertTrue(runner.isRunning, "toast loading run returned while its command runs")

        let writer = open(fifo, O_WRONLY)
        XCTAssertGreaterThanOrEqual(writer, 0)
        _ = "go\n".withCString { write(writer, $0, 3) }
        close(writer)
        XCTAssertEqual(runner.waitForExit(timeout: 10), 3, runner.stderrText)
        XCTAssertNotNil(runner.waitForLine(startingWith: "got go"), "the command's stdin/stdout: \(runner.lines)")
        try expectHidden(stage, name: "spinner-run", "the spinner stayed after the command ended")
        XCTAssertEqual(runner.stderrText, "", "no warning with toastd running")
    }

    /// SIGTERM to toast reaches the command (it is gone afterwards, not left running), the spinner
    /// stops, and toast exits as the command did (143).
    func testKillingLoadingRunStopsTheCommandAndTheSpinner() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let runner = try stage.spawn([try stage.binary("toast"), "loading", "run", "sync", "--", "sh", "-c", "echo $$; exec sleep 300"],
                                     environment: ["TOASTD_SOCKET": toastd.socketPath])
        let pidLine = runner.waitForLine(matching: "^[0-9]+$")
        let commandPID = try XCTUnwrap(pidLine.flatMap { pid_t($0) }, "no pid printed: \(runner.stderrText)")
        _ = try waitForSettledSpinner(stage, toastd: toastd)

        kill(runner.pid, SIGTERM)
        XCTAssertEqual(runner.waitForExit(timeout: 10), 128 + SIGTERM, runner.stderrText)
        XCTAssertTrue(waitUntil(timeout: 10) { kill(commandPID, 0) != 0 }, "the command outlived toast")
        try expectHidden(stage, name: "spinner-run-killed", "the spinner stayed after toast loading run was killed")
    }

    /// README's loading lines, run by a shell exactly as written: the forms shown return at once (or
    /// when their command ends) and do what their comments say.
    func testReadmeLoadingLinesRunAsWritten() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let readme = try String(contentsOfFile: "\(stage.repository)/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n").map(String.init).filter { $0.hasPrefix("toast loading ") }
        XCTAssertEqual(lines.map { $0.components(separatedBy: "  #")[0].trimmingCharacters(in: .whitespaces) },
                       [#"toast loading start build --label "Building" --detach"#, "toast loading stop build",
                        "toast loading run build -- sh -c 'sleep 1; exit 3'"])
        guard lines.count == 3 else { return }
        func shell(_ line: String) throws -> CommandResult {
            try stage.run(["sh", "-c", line], environment: ["TOASTD_SOCKET": toastd.socketPath], timeout: 20)
        }
        XCTAssertEqual(try shell(lines[0]).status, 0)
        _ = try waitForSettledSpinner(stage, toastd: toastd)
        XCTAssertEqual(try shell(lines[1]).status, 0)
        try expectHidden(stage, name: "spinner-readme-stop")
        let run = try shell(lines[2])
        XCTAssertEqual(run.status, 3, run.stderrText)
        try expectHidden(stage, name: "spinner-readme-run")
    }

    func testValueAbove100IsDrawnAsOverflow() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()])
        try expectSuccess(toastd.toast(["hud", "volume", "130"]))
        let overflow = RGB(hex: "f0595e")!  // style.hudOverflowColor
        let (shot, shown) = try stage.waitForScreenshot(timeout: 10) { $0.longestRun(of: overflow, in: $0.bounds) > 0 }
        XCTAssertTrue(shown, "no overflow drawn for 130; kept at \(stage.keep(shot, name: "hud-130")); toastd: \(toastd.log)")
        let box = try XCTUnwrap(shot.boundingBox(notMatching: stage.background))
        let barWidth = Double(box.width - 2 * Self.padding)
        // A full bar whose right end, the 30 past 100, is in the overflow colour: it reads as more than
        // full, not as 30 (drawn from the left, wob's way, it did).
        XCTAssertEqual(Double(shot.longestRun(of: overflow, in: box)) / barWidth, 0.3, accuracy: 0.04)
        XCTAssertEqual(Double(shot.longestRun(of: Self.barFill, in: box)) / barWidth, 0.7, accuracy: 0.04)
        let overflowColumns = (box.x..<(box.x + box.width)).filter { x in
            (box.y..<(box.y + box.height)).contains { shot.pixel(x, $0) == overflow }
        }
        let firstOverflow = try XCTUnwrap(overflowColumns.first)
        XCTAssertGreaterThan(Double(firstOverflow - box.x - Self.padding) / barWidth, 0.65,
                             "the overflow starts at the left; kept at \(stage.keep(shot, name: "hud-130-left"))")
    }

    func testHudDoesNotMoveTheToastStack() throws {
        let stage = try Stage.shared()
        // WAYLAND_DEBUG: the daemon's record of what it commits, to check the HUD leaves the stack alone.
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "client"])
        try expectSuccess(toastd.toast(["A toast", "stays where it is", "-t", "0"]))
        // Settled (faded in): two screenshots in a row agree.
        var previous: Image?
        let (toastOnly, shown) = try stage.waitForScreenshot { shot in
            defer { previous = shot }
            return !shot.isUniform(stage.background) && previous.map { !shot.differs(in: shot.bounds, from: $0) } == true
        }
        XCTAssertTrue(shown, "no toast; toastd: \(toastd.log)")
        let upperHalf = Rect(x: 0, y: 0, width: stage.width, height: stage.height / 2)
        try expectSuccess(toastd.toast(["hud", "volume", "30"]))
        let lowerHalf = Rect(x: 0, y: stage.height / 2, width: stage.width, height: stage.height / 2)
        let (both, hudShown) = try stage.waitForScreenshot { !$0.isUniform(stage.background, in: lowerHalf) }
        XCTAssertTrue(hudShown, "no HUD under the toast")
        XCTAssertFalse(both.differs(in: upperHalf, from: toastOnly),
                       "the toast stack changed when the HUD came; kept at \(stage.keep(both, name: "hud-and-toast"))")

        // New values redraw the HUD only: the toast's surface (the first shown) gets no new buffer.
        let toastSurface = try XCTUnwrap(shownLayerSurfaces(in: toastd.log).first.map { "wl_surface@\($0.surface)" },
                                         "no layer surface in the log")
        let before = toastd.log.count
        var shot = both
        for value in ["70", "40", "90"] {
            try expectSuccess(toastd.toast(["hud", "volume", value]))
            let (next, changed) = try stage.waitForScreenshot { $0.differs(in: lowerHalf, from: shot) }
            XCTAssertTrue(changed, "the bar did not change for \(value)")
            shot = next
        }
        XCTAssertTrue(waitForQuiet(toastd.process.pid), "toastd never went quiet")
        let requests = toastd.log.dropFirst(before).split(separator: "\n")
        let attaches = requests.filter { $0.contains("-> \(toastSurface).attach(") }
        XCTAssertEqual(attaches.count, 0, "HUD values redrew the toast stack: \(attaches.prefix(3))")
        // Each value settles before the next, and the HUD keeps its buffers for the next: no new memory per value.
        let pools = requests.filter { $0.contains(".create_pool(") }
        XCTAssertLessThanOrEqual(pools.count, 1, "new buffer memory for HUD values: \(pools)")
        XCTAssertFalse(shot.differs(in: upperHalf, from: toastOnly), "the toast stack changed with the values")
    }

    /// A steady bar's values are drawn when they come, as wob draws its stdin: each is committed
    /// without asking for a frame callback (a request, two events and an object per value), into the
    /// buffers the bar already has, damaging the bar's rect only. The fade-in before them is paced by frames.
    func testASteadyBarsValuesAskForNoFrameCallbacks() throws {
        let stage = try Stage.shared()
        // WAYLAND_DEBUG: the daemon's record of what it asks of the compositor.
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-timeout = 600000")],
                                       environment: ["WAYLAND_DEBUG": "client"])
        let pid = toastd.process.pid
        try expectSuccess(toastd.toast(["hud", "volume", "30"]))
        let lowerHalf = Rect(x: 0, y: stage.height / 2, width: stage.width, height: stage.height / 2)
        var (shot, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background, in: lowerHalf) }
        XCTAssertTrue(shown, "no HUD; toastd: \(toastd.log)")
        XCTAssertTrue(waitForQuiet(pid), "toastd never went quiet after the fade-in")
        let hudSurface = try XCTUnwrap(shownLayerSurfaces(in: toastd.log).first.map { "wl_surface@\($0.surface)" },
                                       "no layer surface in the log")
        let fadeIn = toastd.log.split(separator: "\n").filter { $0.contains("-> \(hudSurface).frame(") }
        XCTAssertGreaterThan(fadeIn.count, 1, "the fade-in was not paced by frame callbacks")
        let before = toastd.log.count
        // Each value once the daemon went quiet after the last: values far apart, as a key pressed now and
        // then. All at the same level (the same icon): once each buffer holds the steady bar, a value
        // redraws and damages the bar's rect only.
        for value in ["70", "80", "90", "75"] {
            try expectSuccess(toastd.toast(["hud", "volume", value]))
            let (next, changed) = try stage.waitForScreenshot { $0.differs(in: lowerHalf, from: shot) }
            XCTAssertTrue(changed, "the bar did not change for \(value)")
            shot = next
            XCTAssertTrue(waitForQuiet(pid), "toastd never went quiet after \(value)")
        }
        let requests = toastd.log.dropFirst(before).split(separator: "\n")
        let commits = requests.filter { $0.contains("-> \(hudSurface).commit(") }
        let frames = requests.filter { $0.contains("-> \(hudSurface).frame(") }
        let damages = requests.filter { $0.contains("-> \(hudSurface).damage_buffer(") }
        XCTAssertEqual(commits.count, 4, "one commit per value: \(requests.prefix(20))")
        XCTAssertEqual(frames.count, 0, "a frame callback asked for a steady bar's value: \(frames)")
        XCTAssertEqual(damages.count, 4)
        // The first two land in buffers holding a frame of the fade-in and the first value's icon.
        XCTAssertFalse(damages.suffix(2).contains { $0.contains("2147483647") }, "a value damaged the whole surface: \(damages)")
        XCTAssertFalse(requests.contains { $0.contains(".create_pool(") || $0.contains(".create_buffer(") },
                       "new buffers for values: \(requests.filter { $0.contains("create_") })")
    }

    /// A value that only moves a steady bar is drawn without a new scene (`HudValuePath`): it must draw
    /// exactly what a whole redraw draws for that bar, with one commit and no frame callback; a value that
    /// changes more (mute, a new title) must still redraw all of the HUD, not just its bar row.
    func testABarsValueAloneDrawsWhatAWholeRedrawDrawsAndMoreThanTheValueRedrawsAll() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-timeout = 600000")],
                                       environment: ["WAYLAND_DEBUG": "client"])
        let pid = toastd.process.pid
        let lowerHalf = Rect(x: 0, y: stage.height / 2, width: stage.width, height: stage.height / 2)
        // Shows `arguments`' bar and returns the screen once it is drawn (it differs from `shot`, or
        // equals `expected`) and the daemon went quiet.
        func show(_ arguments: [String], after shot: Image?, expecting expected: Image? = nil, _ what: String) throws -> Image {
            try expectSuccess(toastd.toast(["hud", "volume"] + arguments))
            let (drawn, done) = try stage.waitForScreenshot { next in
                if let expected { return !next.differs(in: lowerHalf, from: expected) }
                return shot.map { next.differs(in: lowerHalf, from: $0) } ?? true
            }
            XCTAssertTrue(done, "\(what): kept at \(stage.keep(drawn, name: "hud-value-path"))")
            XCTAssertTrue(waitForQuiet(pid), "toastd never went quiet after \(what)")
            return try stage.screenshot()
        }
        // Whole redraws, each the first of its look: the muted bar as it appears, then unmuted.
        try expectSuccess(toastd.toast(["hud", "volume", "30", "--muted"]))
        var previous: Image?
        let (mutedFirst, shown) = try stage.waitForScreenshot { shot in
            defer { previous = shot }
            guard !shot.isUniform(stage.background, in: lowerHalf), let previous else { return false }
            return !shot.differs(in: lowerHalf, from: previous)
        }
        XCTAssertTrue(shown, "no bar; toastd: \(toastd.log)")
        XCTAssertTrue(waitForQuiet(pid), "toastd never went quiet after the fade-in")
        let muted = try stage.screenshot()
        XCTAssertFalse(muted.differs(in: lowerHalf, from: mutedFirst), "the muted bar was still changing")
        let plain = try show(["30"], after: muted, "unmuting")
        let hudSurface = try XCTUnwrap(shownLayerSurfaces(in: toastd.log).first.map { "wl_surface@\($0.surface)" },
                                       "no layer surface in the log")

        // The value alone, there and back: the second lands in the buffer the first whole redraw drew.
        let before = toastd.log.count
        let at70 = try show(["70"], after: plain, "70")
        _ = try show(["30"], after: at70, expecting: plain, "30 again, as the whole redraw drew it")
        let requests = toastd.log.dropFirst(before).split(separator: "\n")
        XCTAssertEqual(requests.filter { $0.contains("-> \(hudSurface).commit(") }.count, 2, "one commit per value")
        XCTAssertEqual(requests.filter { $0.contains("-> \(hudSurface).frame(") }.count, 0, "a frame callback for a steady bar's value")

        // More than the value: all of it is drawn again, as when it first appeared.
        _ = try show(["30", "--muted"], after: plain, expecting: muted, "muting: the icon and label grey too")
        let titled = try show(["30", "--label", "Speakers"], after: muted, "a new title")
        XCTAssertTrue(titled.differs(in: lowerHalf, from: plain), "the title did not change")
        _ = try show(["30"], after: titled, expecting: plain, "back to the first title")
    }

    func testNoAnimationsDrawsAtOnceAndTheSpinnerStandsStill() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", try stage.shadowlessConfig()])
        try expectSuccess(toastd.toast(["loading", "start", "still", "--detach"]))
        // The first frame is the final one: the box is already at full opacity.
        let (first, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background) }
        XCTAssertTrue(shown, "no spinner; toastd: \(toastd.log)")
        // No frame loop while it shows: the daemon sleeps like an idle one.
        let pid = toastd.process.pid
        XCTAssertTrue(waitForQuiet(pid), "toastd --no-animations keeps waking up while the spinner shows")
        let before = try contextSwitches(of: pid)
        let window = ContinuousClock.now
        waitUntil(timeout: 3, interval: 0.1) { ContinuousClock.now - window >= .seconds(1) }
        XCTAssertEqual(try contextSwitches(of: pid) - before, 0, "toastd --no-animations animates the spinner")
        let later = try stage.screenshot()
        XCTAssertFalse(later.differs(in: later.bounds, from: first),
                       "the spinner changed without animations; kept at \(stage.keep(later, name: "spinner-still"))")
    }

    // MARK: - Idle

    func testIdleDaemonMakesNoWakeupsAndHoldsNoSurface() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: ["WAYLAND_DEBUG": "1"])
        try expectSuccess(toastd.toast(["hud", "volume", "55"]))
        try expectSuccess(toastd.toast(["loading", "start", "idle-test", "--detach"]))
        let (_, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background) }
        XCTAssertTrue(shown, "nothing drawn")
        try expectSuccess(toastd.toast(["loading", "stop", "idle-test"]))
        try expectHidden(stage, name: "idle-hud", "the HUD never hid")
        XCTAssertTrue(toastd.process.isRunning, "toastd exited instead of hiding the HUD: \(toastd.log.suffix(300))")

        // Quiet first: the counters stop moving (the fade-out's last frames, the log's last writes).
        let pid = toastd.process.pid
        XCTAssertTrue(waitForQuiet(pid), "toastd never went quiet after the HUD hid")
        let logBefore = toastd.log
        XCTAssertNotNil(logBefore.range(of: #"zwlr_layer_surface_v1@\d+\.destroy\(\)"#, options: .regularExpression),
                        "the HUD's layer surface was not destroyed after it hid")

        // The window: 5 s in which an idle daemon does nothing at all.
        let before = try contextSwitches(of: pid)
        let window = ContinuousClock.now
        waitUntil(timeout: 6, interval: 0.25) { ContinuousClock.now - window >= .seconds(5) }
        let afterWindow = try contextSwitches(of: pid)
        XCTAssertEqual(afterWindow - before, 0, "toastd woke up \(afterWindow - before) times in 5 s of idle")
        let logged = String(toastd.log.dropFirst(logBefore.count))
        XCTAssertFalse(logged.contains("wl_surface@") && logged.contains(".commit("),
                       "toastd committed while idle: \(logged.prefix(600))")
        XCTAssertTrue(logged.isEmpty, "toastd talked to the compositor while idle: \(logged.prefix(600))")
        XCTAssertTrue(toastd.process.isRunning, "toastd exited during the idle window: \(toastd.log.suffix(300))")
    }

    // MARK: - Helpers

    private func expectSuccess(_ result: CommandResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(result.status, 0, "toast failed: \(result.stderrText)", file: file, line: line)
    }

    /// Waits until a bar shows at full opacity (its fill colour exact) and two screenshots in a row agree
    /// (no fade, no update under way).
    private func waitForSettledBar(_ stage: Stage) throws -> (image: Image, held: Bool) {
        var previous: Image?
        return try stage.waitForScreenshot(timeout: 10) { shot in
            defer { previous = shot }
            guard shot.longestRun(of: Self.barFill, in: shot.bounds) > 0, let previous else { return false }
            return !shot.differs(in: shot.bounds, from: previous)
        }
    }

    /// Waits until the spinner is on screen at full opacity: a pixel of its box outside the wheel is the
    /// same in two screenshots in a row (during the fade it changes every frame). Returns the last
    /// screenshot and the wheel's rect (with a pixel of antialiasing around it).
    private func waitForSettledSpinner(_ stage: Stage, toastd: ToastdProcess) throws -> (Image, Rect) {
        var previous: Image?
        let (shot, held) = try stage.waitForScreenshot(timeout: 10) { shot in
            defer { previous = shot }
            guard let box = shot.boundingBox(notMatching: stage.background), let previous,
                  previous.boundingBox(notMatching: stage.background) == box else { return false }
            let x = box.x + Self.padding / 2, y = box.y + box.height / 2
            return shot.pixel(x, y) == previous.pixel(x, y)
        }
        guard held, let box = shot.boundingBox(notMatching: stage.background) else {
            XCTFail("no settled spinner; kept at \(stage.keep(shot, name: "spinner-none")); toastd: \(toastd.log)")
            throw HudTestError.noSpinner
        }
        let wheel = Rect(x: box.x + Self.padding - 1, y: box.y + Self.padding - 1,
                         width: Self.spinnerSide + 2, height: Self.spinnerSide + 2)
        return (shot, wheel)
    }

    /// Two more distinct wheel positions in a row, the box around them unchanged.
    private func expectSpinnerKeepsTurning(_ stage: Stage, file: StaticString = #filePath, line: UInt = #line) throws {
        var reference = try stage.screenshot()
        let box = try XCTUnwrap(reference.boundingBox(notMatching: stage.background), "the spinner went away",
                                file: file, line: line)
        let wheel = Rect(x: box.x + Self.padding - 1, y: box.y + Self.padding - 1,
                         width: Self.spinnerSide + 2, height: Self.spinnerSide + 2)
        for step in 1...2 {
            let (shot, turned) = try stage.waitForScreenshot(timeout: 5) { shot in
                shot.differs(in: wheel, from: reference)
                    && shot.differenceBox(from: reference).map { wheel.contains($0) } == true
            }
            XCTAssertTrue(turned, "step \(step): the spinner stopped turning or faded; kept at "
                          + "\(stage.keep(shot, name: "spinner-keeps-\(step)"))", file: file, line: line)
            reference = shot
        }
    }

    /// Waits until the output shows only its background again (the HUD is gone); on failure says
    /// `why` and keeps the last screenshot under `name`.
    private func expectHidden(_ stage: Stage, name: String, timeout: Double = 10, _ why: String = "",
                              file: StaticString = #filePath, line: UInt = #line) throws {
        let (after, hidden) = try stage.waitForScreenshot(timeout: timeout) { $0.isUniform(stage.background) }
        let prefix = why.isEmpty ? "" : why + "; "
        XCTAssertTrue(hidden, "\(prefix)kept at \(stage.keep(after, name: name))", file: file, line: line)
    }
}

private enum HudTestError: Error { case noSpinner }

private extension Rect {
    func contains(_ other: Rect) -> Bool {
        other.x >= x && other.y >= y && other.x + other.width <= x + width && other.y + other.height <= y + height
    }

    /// The bottom part of a bar HUD, where the bar is (below the label row).
    var barArea: Rect { Rect(x: x, y: y + height / 2, width: width, height: height - height / 2) }
}

private extension Image {
    /// The smallest rectangle holding every pixel that differs from `other`; nil if none does.
    func differenceBox(from other: Image) -> Rect? {
        var minX = width, minY = height, maxX = -1, maxY = -1
        for y in 0..<min(height, other.height) {
            for x in 0..<min(width, other.width) where pixel(x, y) != other.pixel(x, y) {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
