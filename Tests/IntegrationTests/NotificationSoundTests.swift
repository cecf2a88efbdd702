import Foundation
import XCTest

/// Sounds: a notification with `sound-name` runs the configured `sound-command` once, with the file the
/// XDG sound theme resolves; `suppress-sound` plays nothing; the `sound` capability is offered only
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

    private func startToastd(soundCommand: String) throws -> ToastdProcess {
        let config = "\(directory!)/config"
        try "sound-command = \(soundCommand)\n".write(toFile: config, atomically: true, encoding: .utf8)
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
        try Data("OggS".utf8).write(to: URL(fileURLWithPath: sound))
        let record = "\(directory!)/record"
        let player = "\(directory!)/player"
        try "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \(record)\n".write(toFile: player, atomically: true, encoding: .utf8)
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
        XCTAssertEqual(recorded(), ["--volume 0.5 \(sound)"], "once, with the resolved file; nothing for the suppressed one")
    }

    func testNoPlayerNoSoundCapability() throws {
        let toastd = try startToastd(soundCommand: "none")
        defer { _ = toastd }
        XCTAssertFalse(try capabilities().contains("'sound'"))
        XCTAssertTrue(try capabilities().contains("'actions'"))
    }
}
