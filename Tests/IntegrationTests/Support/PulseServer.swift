import Foundation
import XCTest

/// A real PulseAudio server for the test: a null sink (`toastd_null`, the default) and a null source
/// (`toastd_mic`, the default source), on a socket of its own that accepts anyone (`auth-anonymous`).
/// As root it runs as the stage's unprivileged user (PulseAudio refuses root outside system mode), as
/// sway does. Stopped when released; `restart()` replaces it with a new server on the same socket.
final class PulseServer {
    let directory: String
    private(set) var process: BackgroundProcess
    private let stage: Stage

    /// What a client needs to reach it (toastd, pactl).
    var environment: [String: String] { ["PULSE_SERVER": "unix:\(directory)/native"] }

    init(stage: Stage) throws {
        self.stage = stage
        directory = "\(stage.directory)/pulse-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o755])
        if geteuid() == 0, let user = getpwnam("toastd-stage") {
            XCTAssertEqual(chown(directory, user.pointee.pw_uid, user.pointee.pw_gid), 0)
        }
        process = try Self.start(stage: stage, directory: directory)
        _ = try pactl("set-default-sink", "toastd_null")
        _ = try pactl("set-default-source", "toastd_mic")
    }

    /// Stops the server and starts a new one on the same socket (a sound server restarted under its clients).
    func restart() throws {
        _ = process.terminate()
        process = try Self.start(stage: stage, directory: directory)
    }

    /// Stops the server; `restart()` starts it again.
    func stop() { _ = process.terminate() }

    private static func start(stage: Stage, directory: String) throws -> BackgroundProcess {
        var asUser: [String] = []
        if geteuid() == 0, getpwnam("toastd-stage") != nil {
            asUser = ["setpriv", "--reuid=toastd-stage", "--regid=toastd-stage", "--init-groups"]
        }
        let process = try stage.spawn(asUser + [
            "env", "HOME=\(directory)", "XDG_RUNTIME_DIR=\(directory)", "DBUS_SESSION_BUS_ADDRESS=",
            "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--use-pid-file=no", "--log-target=stderr",
            "-L", "module-null-sink sink_name=toastd_null",
            "-L", "module-null-source source_name=toastd_mic",
            "-L", "module-native-protocol-unix auth-anonymous=1 socket=\(directory)/native",
        ])
        let up = waitUntil(timeout: 20, interval: 0.05) {
            (try? stage.run(["pactl", "info"], environment: ["PULSE_SERVER": "unix:\(directory)/native"], timeout: 5))?.succeeded == true
        }
        guard up else {
            process.terminate()
            throw StageError.startFailed("pulseaudio did not answer: \(process.stderrText)")
        }
        return process
    }

    deinit { process.terminate() }

    /// `pactl ARGS`'s output; fails the test when it fails.
    @discardableResult
    func pactl(_ arguments: String...) throws -> String {
        let result = try stage.run(["pactl"] + arguments, environment: environment, timeout: 10)
        XCTAssertTrue(result.succeeded, "pactl \(arguments.joined(separator: " ")): \(result.stderrText)")
        return result.stdoutText
    }

    /// The first channel's volume in percent, as `pactl get-sink-volume` prints it.
    func sinkVolume() throws -> Int? {
        let text = try pactl("get-sink-volume", "@DEFAULT_SINK@")
        guard let match = text.range(of: #"[0-9]+%"#, options: .regularExpression) else { return nil }
        return Int(text[match].dropLast())
    }

    func sinkMuted() throws -> Bool { try pactl("get-sink-mute", "@DEFAULT_SINK@").contains("yes") }
}
