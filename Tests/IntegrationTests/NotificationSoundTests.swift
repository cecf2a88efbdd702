import Foundation
import XCTest

/// Sounds: a notification with `sound-name` runs the configured `sound-command` once, with the file the
/// XDG sound theme resolves (opened by toastd, passed as `/dev/fd/3`); `suppress-sound` plays nothing; the `sound` capability is offered only
/// with a player. The player is a script of ours that records its arguments.
final class NotificationSoundTests: XCTestCase {
    private var stage: Stage!
    private var directory: String!

    override func setUpWithError() throws {
        stage = try Stage.shared()
        directory = "\(stage.directory)/sound-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: "\(directory!)/share/sounds/freedesktop/stereo",
                                                withIntermediateDirectories: true)
    }

    private func startToastd(soundCommand: String, more: String = "") throws -> ToastdProcess {
        let config = "\(directory!)/config"
        try "sound-command = \(soundCommand)\n\(more)".write(toFile: config, atomically: true, encoding: .utf8)
        return try ToastdProcess(stage: stage, arguments: ["--config", config],
                                 environment: ["XDG_DATA_DIRS": "\(directory!)/share", "XDG_DATA_HOME": "\(directory!)/none"])
    }

    private func capabilities() throws -> String {
        let result = try stage.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.Notifications",
                                    "--object-path", "/org/freedesktop/Notifications",
                                    "--method", "org.freedesktop.Notifications.GetCapabilities"], timeout: 15)
        XCTAssertEqual(result.status, 0, result.stderrText)
        return result.stdoutText
    }

    func testASoundNameRunsTheSoundCommandOnceWithTheResolvedFile() throws {
        let sound = "\(directory!)/share/sounds/freedesktop/stereo/message-new-instant.oga"
        try Data(sound.utf8).write(to: URL(fileURLWithPath: sound))  // the player prints what it reads
        let record = "\(directory!)/record"
        let player = "\(directory!)/player"
        try "#!/bin/sh\nprintf '%s %s\\n' \"$*\" \"$(cat /dev/fd/3)\" >> \(record)\n".write(toFile: player, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(player, 0o755), 0)
        let toastd = try startToastd(soundCommand: "\(player) --volume 0.5")
        XCTAssertTrue(try capabilities().contains("'sound'"), "no sound capability with a player")

        // Suppressed first (by another app, as one sound per app plays at a time), then a real one.
        let quiet = try stage.run(["notify-send", "-a", "quiet", "-h", "string:sound-name:message-new-instant",
                                   "-h", "int:suppress-sound:1", "Quiet"])
        XCTAssertEqual(quiet.status, 0, quiet.stderrText)
        let loud = try stage.run(["notify-send", "-a", "chat", "-h", "string:sound-name:message-new-instant", "Hi"])
        XCTAssertEqual(loud.status, 0, loud.stderrText)
        func recorded() -> [String] {
            ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        XCTAssertTrue(waitUntil(timeout: 10) { !recorded().isEmpty }, "the player never ran; toastd: \(toastd.log)")
        // A name the theme lacks is a warning, and plays nothing.
        let missing = try stage.run(["notify-send", "-a", "chat", "-h", "string:sound-name:no-such-sound", "Missing"])
        XCTAssertEqual(missing.status, 0)
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("no sound named no-such-sound") }, toastd.log)
        // The file is handed over open (fd 3), not by its path: the player reads the resolved file through it.
        XCTAssertEqual(recorded(), ["--volume 0.5 /dev/fd/3 \(sound)"], "once, with the resolved file; nothing for the suppressed one")
    }

    /// The sound players and the `exec` commands are both toastd's children, ended with one SIGCHLD:
    /// each must be reaped by its own owner. One sound per app plays at a time, so an app's second
    /// sound plays only if its first player was reaped by the sound player (not taken by the command
    /// runner); once toastd has no child left (zombies are still children), the next toast must sound.
    func testSoundPlayersAndCommandsAreEachReapedByTheirOwner() throws {
        let sound = "\(directory!)/share/sounds/freedesktop/stereo/bell.oga"
        try Data(sound.utf8).write(to: URL(fileURLWithPath: sound))  // the player prints what it reads
        let record = "\(directory!)/record"
        let ran = "\(directory!)/ran"
        let player = "\(directory!)/player"
        try "#!/bin/sh\nprintf '%s %s\\n' \"$*\" \"$(cat /dev/fd/3)\" >> \(record)\n".write(toFile: player, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(player, 0o755), 0)
        let toastd = try startToastd(soundCommand: player, more: "on-notify = exec echo \"$TOASTD_SUMMARY\" >> \(ran)\n")
        let pid = toastd.process.pid
        func lines(_ path: String) -> [String] {
            ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        /// toastd's children, exited but not yet reaped ones included.
        func children() -> String {
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        for (index, summary) in ["First", "Second", "Third"].enumerated() {
            let sent = try stage.run(["notify-send", "-a", "chat", "-h", "string:sound-name:bell", summary])
            XCTAssertEqual(sent.status, 0, sent.stderrText)
            XCTAssertTrue(waitUntil(timeout: 10) { lines(record).count == index + 1 && lines(ran).count == index + 1 },
                          "\(summary): sounds \(lines(record)), commands \(lines(ran)); toastd: \(toastd.log)")
            XCTAssertTrue(waitUntil(timeout: 10) { children().isEmpty }, "children left unreaped: \(children())")
        }
        XCTAssertEqual(lines(ran), ["First", "Second", "Third"])
        XCTAssertEqual(lines(record), Array(repeating: "/dev/fd/3 \(sound)", count: 3), "a sound was skipped: its player was not reaped")
    }

    func testNoPlayerNoSoundCapability() throws {
        let toastd = try startToastd(soundCommand: "none")
        defer { _ = toastd }
        XCTAssertFalse(try capabilities().contains("'sound'"))
        XCTAssertTrue(try capabilities().contains("'actions'"))
    }
}
