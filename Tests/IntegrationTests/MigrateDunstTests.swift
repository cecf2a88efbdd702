import Foundation
import XCTest

/// `toast migrate dunstrc` on the stage: dunst's own shipped dunstrc converts to a file toastd takes
/// with no warning and shows toasts with; and what a dunst user's rules did, the converted file does
/// in a real toastd: a skipped app is not drawn but is in the history, a critical toast's frame is
/// red, a rule's script runs with the notification in its environment.
final class MigrateDunstTests: XCTestCase {
    private let red = RGB(r: 0xff, g: 0, b: 0)

    /// Writes `dunstrc`, converts it with `toast migrate dunstrc FILE -o PATH`, checks it with
    /// `toastd --check-config`, and starts toastd with it.
    private func converted(_ dunstrc: String) throws -> (Stage, ToastdProcess, String) {
        let stage = try Stage.shared()
        let directory = "\(stage.directory)/migrate-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Data(dunstrc.utf8).write(to: URL(fileURLWithPath: "\(directory)/dunstrc"))
        let config = "\(directory)/toastd/config"
        let migrate = try stage.run([try stage.binary("toast"), "migrate", "dunstrc", "\(directory)/dunstrc", "-o", config])
        XCTAssertEqual(migrate.status, 0, migrate.stderrText)
        try checkConfig(config, stage)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", config, "--no-animations"])
        XCTAssertTrue(toastd.log.contains("(0 warnings)"), "toastd found problems in the converted file: \(toastd.log)")
        return (stage, toastd, config)
    }

    private func checkConfig(_ path: String, _ stage: Stage) throws {
        let check = try stage.run([try stage.binary("toastd"), "--check-config", path])
        XCTAssertEqual(check.status, 0, "toastd --check-config: \(check.stdoutText)\(check.stderrText)")
        XCTAssertEqual(check.stdoutText, "", "toastd --check-config lists problems")
    }

    func testDunstsShippedDunstrcConvertsAndShowsAToast() throws {
        let shipped = "/etc/xdg/dunst/dunstrc"
        XCTAssertTrue(FileManager.default.fileExists(atPath: shipped), "dunst is not installed (scripts/install-deps installs it)")
        let stage = try Stage.shared()
        // Without FILE, as a user without a dunstrc of their own: dunst's own, in /etc/xdg.
        let home = "\(stage.directory)/migrate-home-\(UUID().uuidString.prefix(8))"
        let printed = try stage.run([try stage.binary("toast"), "migrate", "dunstrc"],
                                    environment: ["HOME": home, "XDG_CONFIG_HOME": "", "XDG_CONFIG_DIRS": ""])
        XCTAssertEqual(printed.status, 0, printed.stderrText)
        XCTAssertTrue(printed.stdoutText.contains("converted from /etc/xdg/dunst/dunstrc"), printed.stdoutText)
        XCTAssertTrue(printed.stderrText.contains("not carried over"), printed.stderrText)
        XCTAssertTrue(printed.stdoutText.contains("[urgency=critical]\n"), printed.stdoutText)

        let (_, toastd, config) = try converted(try String(contentsOfFile: shipped, encoding: .utf8))
        let sent = try toastd.toast(["-t", "0", "From dunst", "a toast in dunst's colours"])
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let (image, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(drawn, "no toast drawn with the converted dunstrc; toastd: \(toastd.log)")
        // dunst's [urgency_normal] background, #285577, is the box's fill.
        let blue = RGB(r: 0x28, g: 0x55, b: 0x77)
        var filled = 0
        for y in 0..<image.height { for x in 0..<image.width where image.pixel(x, y).isClose(to: blue, tolerance: 10) { filled += 1 } }
        XCTAssertGreaterThan(filled, 2000, "the toast is not in dunst's normal background; kept at \(stage.keep(image, name: "migrate-shipped"))")

        // -o never overwrites without --force; with it, the file is replaced.
        let again = try stage.run([try stage.binary("toast"), "migrate", "dunstrc", shipped, "-o", config])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.stderrText.contains("exists; not overwritten (--force replaces it)"), again.stderrText)
        try Data("width = 100\n".utf8).write(to: URL(fileURLWithPath: config))
        let forced = try stage.run([try stage.binary("toast"), "migrate", "dunstrc", shipped, "-o", config, "--force"])
        XCTAssertEqual(forced.status, 0, forced.stderrText)
        XCTAssertTrue(try String(contentsOfFile: config, encoding: .utf8).contains("[urgency=low]"))
    }

    /// README's command, run as written by a shell, for a user with a dunstrc of their own.
    func testReadmesCommandConvertsTheUsersDunstrc() throws {
        let stage = try Stage.shared()
        let readme = try String(contentsOfFile: "\(stage.repository)/README.md", encoding: .utf8)
        let command = "toast migrate dunstrc -o ~/.config/toastd/config"
        XCTAssertTrue(readme.contains("`\(command)`"), "README lacks `\(command)`")
        let home = "\(stage.directory)/migrate-readme-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: "\(home)/.config/dunst", withIntermediateDirectories: true)
        try Data("[global]\n    width = 420\n    height = 300\n".utf8).write(to: URL(fileURLWithPath: "\(home)/.config/dunst/dunstrc"))
        let result = try stage.run(["sh", "-c", command], environment: ["HOME": home, "XDG_CONFIG_HOME": ""])
        XCTAssertEqual(result.status, 0, result.stderrText)
        let config = "\(home)/.config/toastd/config"
        let written = try String(contentsOfFile: config, encoding: .utf8)
        XCTAssertTrue(written.contains("\nwidth = 420\n"), written)
        XCTAssertTrue(written.contains("# line 3: height = 300\n"), written)
        try checkConfig(config, stage)
    }

    func testAFileThatIsNoDunstrcIsAClearError() throws {
        let stage = try Stage.shared()
        let fifo = "\(stage.directory)/migrate-fifo-\(UUID().uuidString.prefix(8))"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let result = try stage.run([try stage.binary("toast"), "migrate", "dunstrc", fifo], timeout: 10)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.contains("not a regular file"), "a FIFO is refused, not waited on: \(result.stderrText)")
        let binary = try stage.run([try stage.binary("toast"), "migrate", "dunstrc", try stage.binary("toast")], timeout: 10)
        XCTAssertEqual(binary.status, 1)
        XCTAssertTrue(binary.stderrText.contains("larger than a dunstrc") || binary.stderrText.contains("not a text file"),
                      binary.stderrText)
        XCTAssertEqual(binary.stdoutText, "")
    }

    func testSkipDisplayIsKeptInTheHistoryButNotDrawn() throws {
        let (stage, toastd, _) = try converted("""
            [spotify]
                appname = Spotify
                skip_display = true
            """)
        let sent = try stage.run(["notify-send", "-a", "Spotify", "Now playing", "A song"], timeout: 15)
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let kept = try waitUntil(timeout: 10, interval: 0.1) {
            try toastd.toast(["history"]).stdoutText.contains("Now playing")
        }
        let history = try toastd.toast(["history"]).stdoutText
        XCTAssertTrue(kept, "not in toast history: \(history); toastd: \(toastd.log)")
        let (image, drawn) = try stage.waitForScreenshot(timeout: 1.5) { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertFalse(drawn, "the skipped toast was drawn; kept at \(stage.keep(image, name: "migrate-skip"))")

        XCTAssertTrue(try stage.run(["notify-send", "-a", "Other", "Drawn", "as usual"], timeout: 15).succeeded)
        let (_, other) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(other, "another app's toast is not drawn: \(toastd.log)")
    }

    func testACriticalToastsFrameIsRed() throws {
        let (stage, toastd, _) = try converted("""
            [global]
                frame_width = 3
            [urgency_critical]
                frame_color = "#ff0000"
            """)
        func redPixels(_ urgency: String) throws -> Int {
            XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
            let (_, cleared) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) == nil }
            XCTAssertTrue(cleared, "the screen did not clear")
            XCTAssertTrue(try stage.run(["notify-send", "-u", urgency, "-t", "0", "Disk full", "/home"], timeout: 15).succeeded)
            let (image, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
            XCTAssertTrue(drawn, "the \(urgency) toast is not drawn: \(toastd.log)")
            _ = stage.keep(image, name: "migrate-\(urgency)")
            var count = 0
            for y in 0..<image.height { for x in 0..<image.width where image.pixel(x, y).isClose(to: red, tolerance: 12) { count += 1 } }
            return count
        }
        XCTAssertGreaterThan(try redPixels("critical"), 500, "no red frame around the critical toast")
        XCTAssertEqual(try redPixels("normal"), 0, "a normal toast's frame is red too")
    }

    func testAScriptRunsWithTheNotificationInItsEnvironment() throws {
        let stage = try Stage.shared()
        let directory = "\(stage.directory)/migrate-script-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = "\(directory)/log it.sh"
        let pwned = "\(directory)/pwned"
        // Writes beside, then renames: a file that appears is complete.
        try Data("""
            #!/bin/sh
            printf '%s\\n' "$DUNST_APP_NAME" "$DUNST_SUMMARY" "$DUNST_BODY" "$DUNST_URGENCY" "$DUNST_CATEGORY" "$1" "$2" "$3" "$5" > "\(directory)/out.part"
            mv "\(directory)/out.part" "\(directory)/out"
            """.utf8).write(to: URL(fileURLWithPath: script))
        XCTAssertEqual(chmod(script, 0o755), 0)
        let (_, toastd, _) = try converted("""
            [mail]
                appname = Mail
                script = \(script)
            """)
        let body = "$(touch \(pwned))"
        let sent = try stage.run(["notify-send", "-a", "Mail", "-u", "critical", "-c", "email", "New mail", body], timeout: 15)
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let output = "\(directory)/out"
        XCTAssertTrue(waitUntil(timeout: 10, interval: 0.05) { FileManager.default.fileExists(atPath: output) },
                      "the script did not run: \(toastd.log)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines, ["Mail", "New mail", Substring(body), "CRITICAL", "email", "Mail", "New mail", Substring(body), "CRITICAL", ""])
        XCTAssertFalse(FileManager.default.fileExists(atPath: pwned), "the body ran as a command")

        // Another app's notification runs nothing.
        try FileManager.default.removeItem(atPath: output)
        XCTAssertTrue(try stage.run(["notify-send", "-a", "Other", "x", "y"], timeout: 15).succeeded)
        XCTAssertTrue(try waitUntil(timeout: 10, interval: 0.05) { try toastd.toast(["list"]).stdoutText.contains("Other") })
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "the script ran for another app")
    }
}
