import Foundation
import XCTest

/// `toast osd` (issue #31): toastd changes the level itself, through a real PulseAudio server and a
/// sysfs-like tree, and the bar shows the value read back. Bar geometry as in HudTests: the fill is
/// opaque #eef0f6 (#6b6e7b muted), `hudPadding` 14 px inside the HUD's box.
final class OsdTests: XCTestCase {
    static let barFill = RGB(hex: "eef0f6")!
    static let mutedFill = RGB(hex: "6b6e7b")!
    static let padding = 14

    // MARK: - Sound

    func testVolumeStepRaisesTheSinkByFivePointsAndTheBarShowsTheNewValue() throws {
        let stage = try Stage.shared()
        let pulse = try PulseServer(stage: stage)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "50%")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-timeout = 6000")],
                                       environment: pulse.environment)
        let result = try toastd.toast(["osd", "volume", "+5%"])
        XCTAssertEqual(result.status, 0, "toast osd volume +5%: \(result.stderrText); toastd: \(toastd.log)")
        XCTAssertEqual(result.stdoutText, "55%\n", "what toast printed")
        XCTAssertEqual(try pulse.sinkVolume(), 55, "pactl get-sink-volume after +5% from 50%")
        XCTAssertEqual(try barFraction(stage, of: Self.barFill, near: 0.55), 0.55, accuracy: 0.03, "the bar; toastd: \(toastd.log)")

        // Down by the configured step (volume-step, 5 by default), and the ceiling (volume-max, 100).
        XCTAssertEqual(try toastd.toast(["osd", "volume", "down"]).stdoutText, "50%\n")
        XCTAssertEqual(try pulse.sinkVolume(), 50)
        XCTAssertEqual(try toastd.toast(["osd", "volume", "set", "140%"]).stdoutText, "100%\n", "set above volume-max")
        XCTAssertEqual(try toastd.toast(["osd", "volume", "set", "140%", "--max", "150"]).stdoutText, "140%\n")
        XCTAssertEqual(try pulse.sinkVolume(), 140)
    }

    func testToggleMuteFlipsTheSinkAndTheBarTakesTheMutedLook() throws {
        let stage = try Stage.shared()
        let pulse = try PulseServer(stage: stage)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "60%")
        try pulse.pactl("set-sink-mute", "@DEFAULT_SINK@", "0")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-timeout = 6000")],
                                       environment: pulse.environment)
        XCTAssertEqual(try toastd.toast(["osd", "volume", "toggle-mute"]).stdoutText, "60% muted\n")
        XCTAssertTrue(try pulse.sinkMuted(), "pactl get-sink-mute after toggle-mute")
        XCTAssertEqual(try barFraction(stage, of: Self.mutedFill, near: 0.6), 0.6, accuracy: 0.03,
                       "no muted bar at 60; toastd: \(toastd.log)")
        XCTAssertEqual(try toastd.toast(["osd", "volume", "toggle-mute"]).stdoutText, "60%\n")
        XCTAssertFalse(try pulse.sinkMuted(), "pactl get-sink-mute after the second toggle-mute")
        XCTAssertEqual(try barFraction(stage, of: Self.barFill, near: 0.6), 0.6, accuracy: 0.03, "the bar unmuted")
    }

    func testMicChangesTheDefaultSource() throws {
        let stage = try Stage.shared()
        let pulse = try PulseServer(stage: stage)
        try pulse.pactl("set-source-volume", "@DEFAULT_SOURCE@", "30%")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig()],
                                       environment: pulse.environment)
        XCTAssertEqual(try toastd.toast(["osd", "mic", "set", "45%"]).stdoutText, "45%\n")
        XCTAssertTrue(try pulse.pactl("get-source-volume", "toastd_mic").contains(" 45% "), "pactl get-source-volume")
        XCTAssertEqual(try toastd.toast(["osd", "mic", "mute"]).stdoutText, "45% muted\n")
        XCTAssertTrue(try pulse.pactl("get-source-mute", "toastd_mic").contains("yes"))
        let missing = try toastd.toast(["osd", "volume", "up", "--sink", "no_such_sink"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderrText.contains("not_found"), missing.stderrText)
    }

    func testFollowVolumeShowsAChangeMadeByAnotherProgram() throws {
        let stage = try Stage.shared()
        let pulse = try PulseServer(stage: stage)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "80%")
        let toastd = try ToastdProcess(stage: stage,
                                       arguments: ["--config", try stage.shadowlessConfig("hud-follow-volume = true\nhud-timeout = 3000")],
                                       environment: pulse.environment)
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("toastd: sound server: connected") },
                      "toastd did not connect for hud-follow-volume: \(toastd.log)")
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "30%")
        XCTAssertEqual(try barFraction(stage, of: Self.barFill, near: 0.3), 0.3, accuracy: 0.03,
                       "pactl's change did not show; toastd: \(toastd.log)")
        // Once the bar has hidden, the daemon sleeps with the sound server's connection open.
        let (_, hidden) = try stage.waitForScreenshot(timeout: 15) { $0.isUniform(stage.background) }
        XCTAssertTrue(hidden, "the bar never hid")
        XCTAssertTrue(waitForQuiet(toastd.process.pid), "toastd never went quiet while following the volume")
    }

    /// The sound server restarted under toastd (killed, started again): `hud-follow-volume` follows the
    /// new server, and `toast osd` works, without restarting toastd.
    func testARestartedSoundServerIsFollowedAgainWithoutRestartingToastd() throws {
        let stage = try Stage.shared()
        let pulse = try PulseServer(stage: stage)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "50%")
        let toastd = try ToastdProcess(stage: stage,
                                       arguments: ["--config", try stage.shadowlessConfig("hud-follow-volume = true\nhud-timeout = 3000")],
                                       environment: pulse.environment)
        func connections() -> Int { toastd.log.components(separatedBy: "toastd: sound server: connected").count - 1 }
        XCTAssertTrue(waitUntil(timeout: 10) { connections() == 1 }, "never connected: \(toastd.log)")
        pulse.stop()
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("sound server: connection lost") }, toastd.log)
        try pulse.restart()
        XCTAssertTrue(waitUntil(timeout: 30) { connections() == 2 }, "the new server was not found: \(toastd.log)")
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "30%")
        XCTAssertEqual(try barFraction(stage, of: Self.barFill, near: 0.3), 0.3, accuracy: 0.03,
                       "pactl's change on the new server did not show; toastd: \(toastd.log)")
        XCTAssertEqual(try toastd.toast(["osd", "volume", "+5%"]).stdoutText, "35%\n", toastd.log)
        XCTAssertEqual(try pulse.sinkVolume(), 35)
    }

    /// Without following, a lost server costs nothing until asked for: toastd sleeps while it is gone,
    /// and the first request after its return connects again.
    func testWithoutFollowingTheNextRequestAfterARestartConnectsAgainAndTheGapIsQuiet() throws {
        let stage = try Stage.shared()
        let pulse = try PulseServer(stage: stage)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "50%")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-timeout = 1000")],
                                       environment: pulse.environment)
        XCTAssertEqual(try toastd.toast(["osd", "volume", "+5%"]).stdoutText, "55%\n")
        pulse.stop()
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("sound server: connection lost") }, toastd.log)
        let gone = try toastd.toast(["osd", "volume", "+5%"])
        XCTAssertEqual(gone.status, 6, "while the server is gone: \(gone.stderrText)")
        let (_, hidden) = try stage.waitForScreenshot(timeout: 15) { $0.isUniform(stage.background) }
        XCTAssertTrue(hidden, "the bar never hid")
        XCTAssertTrue(waitForQuiet(toastd.process.pid), "toastd kept waking while the sound server was gone")
        try pulse.restart()
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "50%")
        XCTAssertEqual(try toastd.toast(["osd", "volume", "+5%"]).stdoutText, "55%\n", toastd.log)
        XCTAssertEqual(try pulse.sinkVolume(), 55)
    }

    func testWithoutASoundServerTheCLISaysSoAndExitsSixAndTheDaemonStays() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, environment: ["PULSE_SERVER": "unix:\(stage.directory)/no-such-pulse-socket"])
        // Again and again: libpulse reports a refused connection at once or on a later turn.
        for target in ["volume", "volume", "mic", "volume"] {
            let result = try toastd.toast(["osd", target, "+5%"])
            XCTAssertEqual(result.status, 6, "toast osd \(target) +5% without a server: \(result.stderrText)")
            XCTAssertTrue(result.stderrText.hasPrefix("toast: unavailable: no sound server"), result.stderrText)
        }
        XCTAssertTrue(toastd.process.isRunning, "toastd stopped: \(toastd.log)")
        XCTAssertEqual(try toastd.toast(["version"]).status, 0)
    }

    /// While the sound server does not answer (stopped), the osd request waits but nothing else does:
    /// another client is answered, and the waiting client's next request, sent in the same write, is
    /// answered after its osd reply, in order.
    func testAStalledSoundServerHoldsOnlyItsOwnClientsRepliesInOrder() throws {
        let stage = try Stage.shared()
        let pulse = try PulseServer(stage: stage)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "50%")
        let toastd = try ToastdProcess(stage: stage, environment: pulse.environment)
        XCTAssertEqual(try toastd.toast(["osd", "volume"]).stdoutText, "50%\n", "connected first; toastd: \(toastd.log)")
        kill(pulse.process.pid, SIGSTOP)
        defer { kill(pulse.process.pid, SIGCONT) }
        let waiting = try UnixClient(path: toastd.socketPath)
        try waiting.send(#"{"v":1,"request":"osd","target":"volume","action":"by","value":10}"# + "\n"
                         + #"{"v":1,"request":"version"}"# + "\n")
        let other = try UnixClient(path: toastd.socketPath)
        XCTAssertEqual(try other.request(#"{"v":1,"request":"version"}"#)?["ok"] as? Bool, true, "another client waited")
        XCTAssertNil(waiting.readLine(timeout: 0), "a reply came while the sound server is stopped")
        kill(pulse.process.pid, SIGCONT)
        let first = try XCTUnwrap(waiting.readObject(), "no osd reply after the server went on")
        XCTAssertEqual((first["level"] as? [String: Any])?["value"] as? Int, 60, "\(first)")
        let second = try XCTUnwrap(waiting.readObject())
        XCTAssertNotNil(second["version"], "the second reply is not version's: \(second)")

        // A client that keeps sending while its reply waits is hung up on past 256 KiB; the daemon goes on.
        kill(pulse.process.pid, SIGSTOP)
        let flooding = try UnixClient(path: toastd.socketPath)
        try flooding.send(#"{"v":1,"request":"osd","target":"volume","action":"show"}"# + "\n")
        let line = Array((#"{"v":1,"request":"version"}"# + "\n").utf8)
        for _ in 0..<(300 * 1024 / line.count) { try? flooding.send(line) }
        XCTAssertTrue(flooding.waitForHangUp(), "the flooding client was kept")
        XCTAssertEqual(try other.request(#"{"v":1,"request":"version"}"#)?["ok"] as? Bool, true, "toastd: \(toastd.log)")
        kill(pulse.process.pid, SIGCONT)
        XCTAssertEqual(try toastd.toast(["osd", "volume"]).stdoutText, "60%\n", "the queue after the hang-up")
    }

    // MARK: - Brightness and lock keys

    func testBrightnessStepWritesTheBacklightAndTheBarShowsTheValueReadBack() throws {
        let stage = try Stage.shared()
        let tree = try SysfsTree(stage: stage)
        try tree.write("backlight/intel_backlight/max_brightness", "1000")
        try tree.write("backlight/intel_backlight/brightness", "500")
        try tree.write("leds/tpacpi::kbd_backlight/max_brightness", "2")
        try tree.write("leds/tpacpi::kbd_backlight/brightness", "0")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-timeout = 6000")],
                                       environment: tree.environment)
        let result = try toastd.toast(["osd", "brightness", "-10%"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(result.stdoutText, "40%\n")
        XCTAssertEqual(try tree.read("backlight/intel_backlight/brightness"), "400")
        XCTAssertEqual(try barFraction(stage, of: Self.barFill, near: 0.4), 0.4, accuracy: 0.03, "toastd: \(toastd.log)")

        XCTAssertEqual(try toastd.toast(["osd", "brightness", "set", "75%", "--device", "intel_backlight"]).stdoutText, "75%\n")
        XCTAssertEqual(try tree.read("backlight/intel_backlight/brightness"), "750")
        // A keyboard backlight of three levels: one step up is one level.
        XCTAssertEqual(try toastd.toast(["osd", "brightness", "up", "--leds", "tpacpi::kbd_backlight"]).stdoutText, "50%\n")
        XCTAssertEqual(try tree.read("leds/tpacpi::kbd_backlight/brightness"), "1")
        let missing = try toastd.toast(["osd", "brightness", "up", "--device", "../leds"])
        XCTAssertEqual(missing.status, 1, missing.stderrText)
        XCTAssertTrue(missing.stderrText.contains("not_found"), missing.stderrText)
    }

    func testCapsLockShowsItsStateInTwoLooks() throws {
        let stage = try Stage.shared()
        let tree = try SysfsTree(stage: stage)
        try tree.write("leds/input3::capslock/max_brightness", "1")
        try tree.write("leds/input3::capslock/brightness", "1")
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", try stage.shadowlessConfig("hud-timeout = 6000")],
                                       environment: tree.environment)
        XCTAssertEqual(try toastd.toast(["osd", "capslock"]).stdoutText, "on\n")
        XCTAssertEqual(try barFraction(stage, of: Self.barFill, near: 1), 1, accuracy: 0.03, "caps lock on; toastd: \(toastd.log)")
        try tree.write("leds/input3::capslock/brightness", "0")
        XCTAssertEqual(try toastd.toast(["osd", "capslock"]).stdoutText, "off\n")
        // Off: an empty bar, and no full one left.
        let (shot, off) = try stage.waitForScreenshot { $0.longestRun(of: Self.barFill, in: $0.bounds) == 0 && !$0.isUniform(stage.background) }
        XCTAssertTrue(off, "caps lock off still looks on; kept at \(stage.keep(shot, name: "capslock-off"))")
        let numlock = try toastd.toast(["osd", "numlock"])
        XCTAssertEqual(numlock.status, 6, "no numlock LED in the tree: \(numlock.stderrText)")
    }

    // MARK: - Helpers

    /// The filled fraction of the bar in `colour` once it shows about `expected` (or whatever it
    /// shows at the deadline).
    private func barFraction(_ stage: Stage, of colour: RGB, near expected: Double) throws -> Double {
        var fraction = -1.0
        _ = try stage.waitForScreenshot(timeout: 10) { shot in
            guard let box = shot.boundingBox(notMatching: stage.background) else { return false }
            fraction = Double(shot.longestRun(of: colour, in: box)) / Double(box.width - 2 * Self.padding)
            return abs(fraction - expected) < 0.02
        }
        return fraction
    }
}

/// A directory laid out like /sys/class, for `TOASTD_SYSFS_CLASS`.
struct SysfsTree {
    let root: String
    var environment: [String: String] { ["TOASTD_SYSFS_CLASS": root] }

    init(stage: Stage) throws {
        root = "\(stage.directory)/sysfs-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    func write(_ path: String, _ text: String) throws {
        let url = URL(fileURLWithPath: "\(root)/\(path)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data((text + "\n").utf8).write(to: url)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOfFile: "\(root)/\(path)", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// README's `toast osd` lines and sway bindings, run by a shell as written (the binding's command after
/// `exec`), against a real PulseAudio server and a sysfs-like tree.
final class OsdReadmeTests: XCTestCase {
    func testReadmeOsdLinesAndBindingsRunAsWritten() throws {
        let stage = try Stage.shared()
        let pulse = try PulseServer(stage: stage)
        try pulse.pactl("set-sink-volume", "@DEFAULT_SINK@", "50%")
        try pulse.pactl("set-sink-mute", "@DEFAULT_SINK@", "0")
        let tree = try SysfsTree(stage: stage)
        try tree.write("backlight/acpi_video0/max_brightness", "100")
        try tree.write("backlight/acpi_video0/brightness", "70")
        try tree.write("leds/input3::capslock/brightness", "1")
        let toastd = try ToastdProcess(stage: stage, environment: pulse.environment.merging(tree.environment) { a, _ in a })
        func shell(_ line: String) throws -> CommandResult {
            try stage.run(["sh", "-c", line], environment: ["TOASTD_SOCKET": toastd.socketPath], timeout: 20)
        }
        let readme = try String(contentsOfFile: "\(stage.repository)/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n").map(String.init)
        var commands = lines.filter { $0.hasPrefix("toast osd ") }.map { $0.components(separatedBy: "  #")[0].trimmingCharacters(in: .whitespaces) }
        let bindings = lines.filter { $0.hasPrefix("bindsym ") && $0.contains("toast osd") }
            .map { String($0[$0.range(of: "exec ")!.upperBound...]) }
        XCTAssertEqual(commands, ["toast osd volume +5%", "toast osd volume toggle-mute", "toast osd mic toggle-mute",
                                  "toast osd brightness -10%", "toast osd capslock", "toast osd media play-pause"])
        // Media's line is run by OsdMediaTests (it needs a player); here, without one, it exits 6.
        XCTAssertEqual(try shell(commands.removeLast()).status, 6)
        XCTAssertEqual(bindings.count, 7, "README's sway bindings: \(bindings)")
        var outputs: [String] = []
        for line in commands + bindings {
            let result = try shell(line)
            XCTAssertEqual(result.status, 0, "\(line): \(result.stderrText); toastd: \(toastd.log)")
            outputs.append(result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // What each printed, in order: +5% from 50, mute, the mic's mute, -10 from 70, caps lock on; then
        // the bindings: up, down, unmute, the mic unmuted, brightness up and down, caps lock.
        XCTAssertEqual(outputs, ["55%", "55% muted", outputs[2], "60%", "on", "60% muted", "55% muted", "55%",
                                 outputs[8], "65%", "60%", "on"])
        XCTAssertTrue(outputs[2].hasSuffix("muted") && !outputs[8].hasSuffix("muted"), "the mic's mute: \(outputs)")
        XCTAssertEqual(try pulse.sinkVolume(), 55)
        XCTAssertEqual(try tree.read("backlight/acpi_video0/brightness"), "60")
    }
}
