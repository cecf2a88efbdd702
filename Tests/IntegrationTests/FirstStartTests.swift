import Foundation
import XCTest

/// The first start during a move from mako or dunst, both still installed: a bus whose system
/// service directory holds mako's and dunst's files (as Debian installs them) and toastd's. `toast`
/// starts org.toastd.Daemon, a name only toastd's file offers, so it can never start mako; with mako
/// running, `toast` names it; `toast setup` makes notify-send's activation start toastd too.
final class FirstStartTests: XCTestCase {
    /// A session bus of its own with the standard session service directories:
    /// `$XDG_DATA_HOME/dbus-1/services` (the user's, `toast setup` writes there) before
    /// `$XDG_DATA_DIRS/dbus-1/services` (the system's, where the packages put theirs).
    private struct ActivatingBus {
        let directory: String
        let process: BackgroundProcess
        let address: String
        let socket: String
        var userServices: String { "\(directory)/home/.local/share/dbus-1/services" }
        var systemServices: String { "\(directory)/usr/share/dbus-1/services" }
        /// What a client on this bus runs with.
        var client: [String: String] { ["TOASTD_SOCKET": socket, "DBUS_SESSION_BUS_ADDRESS": address,
                                        "XDG_DATA_HOME": "\(directory)/home/.local/share"] }

        /// The bus, with `systemFiles` (file name -> contents) in the system directory. Its activated
        /// services inherit the stage's display and a socket of the test's own.
        init(stage: Stage, systemFiles: [String: String]) throws {
            directory = "\(stage.directory)/first-start-\(UUID().uuidString.prefix(8))"
            socket = "\(stage.runtimeDirectory)/first-\(UUID().uuidString.prefix(8)).sock"
            let system = "\(directory)/usr/share/dbus-1/services"
            try FileManager.default.createDirectory(atPath: system, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: "\(directory)/home/.local/share", withIntermediateDirectories: true)
            for (name, contents) in systemFiles {
                try contents.write(toFile: "\(system)/\(name)", atomically: true, encoding: .utf8)
            }
            let stageConfig = try String(contentsOfFile: "\(stage.repository)/stage/dbus-session.conf", encoding: .utf8)
            let config = stageConfig.replacingOccurrences(
                of: "<listen>unix:tmpdir=/tmp</listen>",
                with: "<listen>unix:dir=\(directory)</listen>\n  <standard_session_servicedirs/>")
            XCTAssertNotEqual(config, stageConfig, "the stage's bus configuration changed: adapt this test")
            try config.write(toFile: "\(directory)/bus.conf", atomically: true, encoding: .utf8)
            process = try BackgroundProcess(
                ["dbus-daemon", "--config-file=\(directory)/bus.conf", "--nofork", "--print-address=1"],
                environment: stage.environment(["TOASTD_SOCKET": socket, "XDG_DATA_HOME": "\(directory)/home/.local/share",
                                                 "XDG_DATA_DIRS": "\(directory)/usr/share"]),
                stderrLog: "\(directory)/bus.stderr.log")
            address = try XCTUnwrap(process.waitForLine(matching: "^unix:"), "no bus address: \(process.stderrText)")
        }

        /// The pid owning `name` on this bus, or nil.
        func owner(of name: String, _ stage: Stage) -> pid_t? {
            guard let result = try? stage.run(["busctl", "--user", "--json=short", "call", "org.freedesktop.DBus",
                                                "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                                "GetConnectionUnixProcessID", "s", name],
                                               environment: ["DBUS_SESSION_BUS_ADDRESS": address], timeout: 10),
                  result.succeeded,
                  let json = try? JSONSerialization.jsonObject(with: result.stdout) as? [String: Any],
                  let data = json["data"] as? [Int], let pid = data.first else { return nil }
            return pid_t(pid)
        }
    }

    /// The service files Debian's mako-notifier and dunst install: both activate org.freedesktop.Notifications.
    private func packagedServiceFiles(toastd: String) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in ["fr.emersion.mako.service", "org.knopwob.dunst.service"] {
            files[name] = try String(contentsOfFile: "/usr/share/dbus-1/services/\(name)", encoding: .utf8)
        }
        XCTAssertTrue(files.values.allSatisfy { $0.contains("Name=org.freedesktop.Notifications") }, "\(files)")
        for name in ["org.toastd.Daemon", "org.freedesktop.Notifications"] {
            let ours = try String(contentsOfFile: "\(try Stage.shared().repository)/data/\(name).service", encoding: .utf8)
            files["\(name).service"] = ours.replacingOccurrences(of: "/usr/local/bin/toastd", with: toastd)
        }
        return files
    }

    private func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        XCTAssertTrue(waitUntil(timeout: 10) { kill(pid, 0) != 0 }, "pid \(pid) did not stop")
    }

    func testToastStartsToastdEveryTimeWithMakoAndDunstInstalled() throws {
        let stage = try Stage.shared()
        let toastd = try stage.binary("toastd")
        let bus = try ActivatingBus(stage: stage, systemFiles: try packagedServiceFiles(toastd: toastd))
        defer { bus.process.terminate() }
        for attempt in 1...10 {
            let shown = try stage.run([try stage.binary("toast"), "-t", "0", "hello \(attempt)"], environment: bus.client)
            XCTAssertEqual(shown.status, 0, "attempt \(attempt): \(shown.stderrText); bus: \(bus.process.stderrText)")
            let pid = try XCTUnwrap(bus.owner(of: "org.freedesktop.Notifications", stage), "attempt \(attempt): nobody owns the name")
            let name = try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
            XCTAssertEqual(name, "toastd\n", "attempt \(attempt): the bus started \(name)")
            let listed = try stage.run([try stage.binary("toast"), "list", "--json"], environment: bus.client)
            XCTAssertTrue(listed.stdoutText.contains("hello \(attempt)"), listed.stdoutText)
            if attempt == 1 {
                // Drawn by that toastd: something left of the background at the top right.
                let (shot, held) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
                XCTAssertTrue(held, "no toast drawn; kept at \(stage.keep(shot, name: "first-start"))")
            }
            stop(pid)
        }
    }

    func testWithMakoRunningToastNamesItAndHowToStopIt() throws {
        let stage = try Stage.shared()
        let bus = try ActivatingBus(stage: stage, systemFiles: try packagedServiceFiles(toastd: try stage.binary("toastd")))
        defer { bus.process.terminate() }
        let mako = try stage.spawn(["/usr/bin/mako"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        defer { mako.terminate() }
        let makoPid = try XCTUnwrap(waitUntilValue(timeout: 15) { bus.owner(of: "org.freedesktop.Notifications", stage) },
                                    "mako never took the name: \(mako.stderrText)")

        let result = try stage.run([try stage.binary("toast"), "hello"], environment: bus.client)
        XCTAssertEqual(result.status, 69, result.stderrText)
        XCTAssertTrue(result.stderrText.contains("org.freedesktop.Notifications is owned by mako (pid \(makoPid)), so toastd cannot start; "
                                                 + "stop it (`systemctl --user stop mako` if systemd runs it, else `killall mako`)"),
                      result.stderrText)
        XCTAssertEqual(bus.owner(of: "org.freedesktop.Notifications", stage), makoPid, "mako lost its name")
    }

    func testSetupMakesNotifySendStartToastdAndUndoTakesItBack() throws {
        let stage = try Stage.shared()
        let bus = try ActivatingBus(stage: stage, systemFiles: try packagedServiceFiles(toastd: try stage.binary("toastd"))
            .filter { $0.key != "org.freedesktop.Notifications.service" && $0.key != "org.toastd.Daemon.service" })
        defer { bus.process.terminate() }

        // README's line, run as written.
        let readme = try String(contentsOfFile: "\(stage.repository)/README.md", encoding: .utf8)
        XCTAssertTrue(readme.split(separator: "\n").contains("toast setup"), "README lacks the line `toast setup`")
        let setup = try stage.run([try stage.binary("toast"), "setup"], environment: bus.client)
        XCTAssertEqual(setup.status, 0, setup.stderrText)
        let written = ["org.freedesktop.Notifications", "org.toastd.Daemon"].map { "\(bus.userServices)/\($0).service" }
        // The toastd beside toast, as /proc/self/exe names it (the build directory's symlink resolved).
        let toastd = URL(fileURLWithPath: try stage.binary("toastd")).resolvingSymlinksInPath().path
        for path in written {
            XCTAssertTrue(setup.stdoutText.contains("wrote \(path): D-Bus starts \(toastd)"), setup.stdoutText)
            XCTAssertTrue(FileManager.default.fileExists(atPath: path), path)
        }
        XCTAssertTrue(setup.stdoutText.contains("undo: toast setup --undo"), setup.stdoutText)

        // notify-send activates org.freedesktop.Notifications: the user's file wins over mako's and dunst's.
        let sent = try stage.run(["notify-send", "-t", "0", "from notify-send"], environment: bus.client)
        XCTAssertEqual(sent.status, 0, sent.stderrText + bus.process.stderrText)
        let pid = try XCTUnwrap(bus.owner(of: "org.freedesktop.Notifications", stage))
        XCTAssertEqual(try String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8), "toastd\n")
        let listed = try stage.run([try stage.binary("toast"), "list", "--json"], environment: bus.client)
        XCTAssertTrue(listed.stdoutText.contains("from notify-send"), listed.stdoutText)
        stop(pid)

        // A file setup did not write is left alone; setup's own go.
        let undo = try stage.run([try stage.binary("toast"), "setup", "--undo"], environment: bus.client)
        XCTAssertEqual(undo.status, 0, undo.stderrText)
        for path in written {
            XCTAssertTrue(undo.stdoutText.contains("removed \(path)"), undo.stdoutText)
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), path)
        }
        try "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/usr/bin/mako\n"
            .write(toFile: written[0], atomically: true, encoding: .utf8)
        let refused = try stage.run([try stage.binary("toast"), "setup"], environment: bus.client)
        XCTAssertEqual(refused.status, 1, refused.stdoutText)
        XCTAssertTrue(refused.stderrText.contains("\(written[0]) exists and was not written by `toast setup`"), refused.stderrText)
        XCTAssertEqual(try String(contentsOfFile: written[0], encoding: .utf8), "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=/usr/bin/mako\n")
    }
}

/// Polls `value` until it is not nil or the timeout passes.
func waitUntilValue<T>(timeout: Double, _ value: () -> T?) -> T? {
    var found: T?
    _ = waitUntil(timeout: timeout) {
        found = value()
        return found != nil
    }
    return found
}
