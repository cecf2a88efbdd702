import Foundation
import XCTest

/// A start that just works: with no daemon on the socket, `toast` asks the session bus to start
/// org.toastd.Daemon (D-Bus activation of a name only toastd's service file offers) and then talks to the toastd
/// that started, once README's line has put WAYLAND_DISPLAY into the activation environment. The stage's own bus activates nothing, so this test runs a bus of its own whose
/// service directory holds an activation file for the built toastd.
final class AutostartTests: XCTestCase {
    func testToastHudStartsToastdThroughTheBusAndTheBarAppears() throws {
        let stage = try Stage.shared()
        let directory = "\(stage.directory)/activation-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: "\(directory)/services", withIntermediateDirectories: true)
        let socket = "\(stage.runtimeDirectory)/activated-\(UUID().uuidString.prefix(8)).sock"
        let pidFile = "\(directory)/toastd.pid"

        // What the service's Exec= runs: the built toastd on the test's socket, its pid noted for the end.
        let start = "\(directory)/start-toastd"
        try """
            #!/bin/sh
            echo $$ > '\(pidFile)'
            exec '\(try stage.binary("toastd"))' --socket '\(socket)' --no-animations
            """.write(toFile: start, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(start, 0o755), 0)
        try """
            [D-BUS Service]
            Name=org.toastd.Daemon
            Exec=\(start)
            """.write(toFile: "\(directory)/services/org.toastd.Daemon.service", atomically: true, encoding: .utf8)
        // The stage's bus configuration plus the service directory.
        let stageConfig = try String(contentsOfFile: "\(stage.repository)/stage/dbus-session.conf", encoding: .utf8)
        let config = stageConfig.replacingOccurrences(
            of: "<listen>unix:tmpdir=/tmp</listen>",
            with: "<listen>unix:dir=\(directory)</listen>\n  <servicedir>\(directory)/services</servicedir>")
        XCTAssertNotEqual(config, stageConfig, "the stage's bus configuration changed: adapt this test")
        try config.write(toFile: "\(directory)/bus.conf", atomically: true, encoding: .utf8)
        // Started as a login session starts it: before the compositor, so without WAYLAND_DISPLAY.
        let bus = try BackgroundProcess(["dbus-daemon", "--config-file=\(directory)/bus.conf", "--nofork", "--print-address=1"],
                                        environment: stage.environment().filter { $0.key != "WAYLAND_DISPLAY" },
                                        stderrLog: "\(directory)/bus.stderr.log")
        defer { bus.terminate() }
        let address = try XCTUnwrap(bus.waitForLine(matching: "^unix:"), "no bus address: \(bus.stderrText)")
        let client = ["TOASTD_SOCKET": socket, "DBUS_SESSION_BUS_ADDRESS": address]

        // Activated without the display, toastd cannot show anything and exits: `toast` says so.
        XCTAssertFalse(FileManager.default.fileExists(atPath: socket), "a daemon before the test")
        let early = try stage.run([try stage.binary("toast"), "hud", "volume", "30"], environment: client)
        XCTAssertEqual(early.status, 69, "toast: \(early.stderrText); bus and toastd: \(bus.stderrText)")
        XCTAssertTrue(early.stderrText.contains("D-Bus could not start org.toastd.Daemon"), early.stderrText)

        // README's line for the compositor's config, run as written (sway's `exec` is the shell's).
        let readme = try String(contentsOfFile: "\(stage.repository)/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n").map(String.init)
        let update = "dbus-update-activation-environment --systemd WAYLAND_DISPLAY XDG_CURRENT_DESKTOP"
        XCTAssertTrue(lines.contains("exec \(update)"), "README lacks sway's `exec \(update)`")
        XCTAssertTrue(lines.contains("exec-once = \(update)"), "README lacks Hyprland's `exec-once = \(update)`")
        let updated = try stage.run(["sh", "-c", "exec \(update)"], environment: ["DBUS_SESSION_BUS_ADDRESS": address])
        XCTAssertEqual(updated.status, 0, updated.stderrText)

        let result = try stage.run([try stage.binary("toast"), "hud", "volume", "30"], environment: client)
        let pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        // The daemon is the bus's child, not ours: stopped here, and gone once signal 0 finds nothing.
        defer {
            if let pid {
                kill(pid, SIGTERM)
                XCTAssertTrue(waitUntil(timeout: 10) { kill(pid, 0) != 0 }, "the started toastd did not stop")
            }
        }
        XCTAssertEqual(result.status, 0, "toast: \(result.stderrText); bus and toastd: \(bus.stderrText)")
        XCTAssertNotNil(pid, "the bus never ran the service: \(bus.stderrText)")

        // The bar, at the bottom centre.
        let (shot, held) = try stage.waitForScreenshot { image in
            image.boundingBox(notMatching: stage.background).map { $0.y > stage.height / 2 } ?? false
        }
        XCTAssertTrue(held, "no bar at the bottom (drawn: \(shot.boundingBox(notMatching: stage.background).map(\.description) ?? "nothing")); "
                      + "kept at \(stage.keep(shot, name: "autostart")); toastd: \(bus.stderrText)")
        // And later commands reach the same daemon, without starting another.
        let version = try stage.run([try stage.binary("toast"), "version"], environment: client)
        XCTAssertEqual(version.status, 0, version.stderrText)
        XCTAssertEqual(bus.stderrText.components(separatedBy: "toastd: ready").count - 1, 1, bus.stderrText)
        XCTAssertTrue(version.stdoutText.contains("toastd "), version.stdoutText)
    }

    /// No daemon and nothing the bus can start (the stage's bus has no service directory): the plain
    /// message, with why the bus did not help, and exit status 69.
    func testNothingToStartIsStillOneClearLine() throws {
        let stage = try Stage.shared()
        let socket = "\(stage.runtimeDirectory)/nobody-\(UUID().uuidString.prefix(8)).sock"
        let result = try stage.toast(["hud", "volume", "30"], socket: socket)
        XCTAssertEqual(result.status, 69, result.stderrText)
        XCTAssertTrue(result.stderrText.hasPrefix("toast: toastd is not running (no socket at \(socket); D-Bus could not start "
                                                  + "org.toastd.Daemon: "), result.stderrText)
        XCTAssertTrue(result.stderrText.hasSuffix("); start it with: toastd &\n"), result.stderrText)
    }

    /// `PREFIX=~/.local scripts/install` puts the units where systemd and dbus-daemon look for a user;
    /// a system prefix keeps lib/systemd/user. (`--dirs` prints the destinations without building.)
    func testAUserPrefixInstallsTheUnitsWhereSystemdAndDBusLook() throws {
        let stage = try Stage.shared()
        let home = "\(stage.directory)/home-\(UUID().uuidString.prefix(8))"
        func dirs(_ environment: [String: String]) throws -> String {
            let result = try stage.run(["\(stage.repository)/scripts/install", "--dirs"], environment: environment)
            XCTAssertEqual(result.status, 0, result.stderrText)
            return result.stdoutText
        }
        XCTAssertEqual(try dirs(["HOME": home, "PREFIX": "\(home)/.local"]),
                       "systemd user unit: \(home)/.local/share/systemd/user/toastd.service\n"
                       + "D-Bus service file: \(home)/.local/share/dbus-1/services/org.freedesktop.Notifications.service\n"
                       + "D-Bus service file: \(home)/.local/share/dbus-1/services/org.toastd.Daemon.service\n")
        XCTAssertEqual(try dirs(["HOME": home, "PREFIX": "/usr"]),
                       "systemd user unit: /usr/lib/systemd/user/toastd.service\n"
                       + "D-Bus service file: /usr/share/dbus-1/services/org.freedesktop.Notifications.service\n"
                       + "D-Bus service file: /usr/share/dbus-1/services/org.toastd.Daemon.service\n")
    }
}

/// `scripts/install --uninstall` removes what an install put under the same PREFIX, and nothing else;
/// an unknown argument is refused before anything is built.
final class InstallScriptTests: XCTestCase {
    func testUninstallRemovesWhatInstallPutThereAndUnknownArgumentsAreRefused() throws {
        let stage = try Stage.shared()
        let root = "\(stage.directory)/install-\(UUID().uuidString.prefix(8))"
        let ours = ["usr/bin/toastd", "usr/bin/toast", "usr/share/dbus-1/services/org.toastd.Daemon.service",
                    "usr/lib/systemd/user/toastd.service", "usr/share/man/man1/toast.1"]
        let other = "usr/bin/mako"
        for file in ours + [other] {
            let path = "\(root)/\(file)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data("x".utf8)))
        }
        let result = try stage.run(["\(stage.repository)/scripts/install", "--uninstall"],
                                   environment: ["DESTDIR": root, "PREFIX": "/usr"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        for file in ours {
            XCTAssertFalse(FileManager.default.fileExists(atPath: "\(root)/\(file)"), file)
            XCTAssertTrue(result.stdoutText.contains("removed \(root)/\(file)\n"), result.stdoutText)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(root)/\(other)"))
        XCTAssertTrue(result.stdoutText.hasSuffix("uninstalled toastd from \(root)/usr (\(ours.count) files)\n"), result.stdoutText)

        let refused = try stage.run(["\(stage.repository)/scripts/install", "--uninstal"], environment: ["DESTDIR": root])
        XCTAssertEqual(refused.status, 2)
        XCTAssertEqual(refused.stderrText, "install: unknown argument '--uninstal' (use --dirs, --uninstall or nothing)\n")
    }
}
