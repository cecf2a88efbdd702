import Foundation
import XCTest

/// A `toastd` running on the stage, on a control socket of its own (so a daemon left over by
/// another test can never answer for it). Terminated when released.
final class ToastdProcess {
    let process: BackgroundProcess
    /// Its control socket (TOASTD_SOCKET).
    let socketPath: String
    private let stage: Stage

    /// Starts `toastd ARGS` and waits until its control socket exists and, with `waitForBus`,
    /// until it owns org.freedesktop.Notifications on the stage's bus.
    init(stage: Stage, arguments: [String] = [], environment: [String: String] = [:],
         waitForBus: Bool = true, timeout: Double = 15) throws {
        self.stage = stage
        socketPath = "\(stage.runtimeDirectory)/toastd-\(UUID().uuidString.prefix(8)).sock"
        var env = environment
        env["TOASTD_SOCKET"] = socketPath
        process = try stage.spawn([try stage.binary("toastd")] + arguments, environment: env)
        let deadline = Deadline.after(timeout)
        let up = waitUntil(deadline) { [process, socketPath] in
            !process.isRunning || FileManager.default.fileExists(atPath: socketPath)
        }
        guard up, process.isRunning else {
            process.terminate()
            throw StageError.startFailed("toastd did not create \(socketPath): \(process.stderrText)")
        }
        if waitForBus, !stage.waitForBusName("org.freedesktop.Notifications", deadline: deadline) {
            process.terminate()
            throw StageError.startFailed("toastd did not take org.freedesktop.Notifications: \(process.stderrText)")
        }
    }

    deinit { process.terminate() }

    /// Runs `toast ARGS` against this daemon.
    func toast(_ arguments: [String], timeout: Double = 15) throws -> CommandResult {
        try stage.run([try stage.binary("toast")] + arguments, environment: ["TOASTD_SOCKET": socketPath],
                      timeout: timeout)
    }

    /// What toastd wrote to stderr so far.
    var log: String { process.stderrText }

    /// A request to the control socket (`version`), over and over for `seconds`, from a client of
    /// its own: the slowest answer, in milliseconds. The daemon's loop must never be held up by a
    /// picture. (Measured on the socket, not the bus: the bus daemon forwards one message at a time,
    /// so while it copies 33 MB of image-data to toastd every other call waits in it, whoever serves.)
    func slowestAnswer(for seconds: Double) throws -> Double {
        let client = try UnixClient(path: socketPath)
        defer { client.close() }
        var slowest = 0.0
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let start = Date()
            let reply = try client.request(#"{"v":1,"request":"version"}"#)
            XCTAssertEqual(reply?["ok"] as? Bool, true)
            slowest = max(slowest, Date().timeIntervalSince(start) * 1000)
        }
        return slowest
    }
}

extension Stage {
    /// Whether `name` has an owner on the stage's bus (org.freedesktop.DBus.NameHasOwner via gdbus).
    func busNameHasOwner(_ name: String) -> Bool {
        let result = try? run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                               "--object-path", "/org/freedesktop/DBus",
                               "--method", "org.freedesktop.DBus.NameHasOwner", name], timeout: 10)
        return result?.succeeded == true && result?.stdoutText.contains("true") == true
    }

    /// Polls until `name` has an owner on the stage's bus; false at the deadline.
    func waitForBusName(_ name: String, deadline: Deadline) -> Bool {
        waitUntil(deadline, interval: 0.02) { busNameHasOwner(name) }
    }

    /// Shoots `output` until `condition` holds for a screenshot or the timeout passes; returns
    /// the last screenshot and whether it held.
    func waitForScreenshot(output: String? = nil, timeout: Double = 10,
                           until condition: (Image) -> Bool) throws -> (image: Image, held: Bool) {
        var shot = try screenshot(output: output)
        let held = try waitUntil(timeout: timeout, interval: 0.02) {
            shot = try screenshot(output: output)
            return condition(shot)
        }
        return (shot, held)
    }
}

extension Stage {
    /// A configuration file holding `shadow = none` (after `lines`), for tests that find a toast's box
    /// as whatever differs from the background: a soft shadow would widen it by its radius.
    func shadowlessConfig(_ lines: String = "") throws -> String {
        let path = "\(directory)/config-\(UUID().uuidString.prefix(8))"
        try Data((lines + "\nshadow = none\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
