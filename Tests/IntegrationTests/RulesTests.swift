import Foundation
import XCTest

/// Criteria sections on the stage: a rule hides, recolours or re-borders only the toasts it matches,
/// and `toastd --check-config` reports a file's bad lines as the daemon would.
final class RulesTests: XCTestCase {
    private let blue = RGB(r: 0, g: 0, b: 0xff)
    private let red = RGB(r: 0xff, g: 0, b: 0)
    private let green = RGB(r: 0, g: 0xff, b: 0)

    private func start(_ config: String) throws -> (Stage, ToastdProcess) {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/rules-\(UUID().uuidString.prefix(8))"
        try Data(config.utf8).write(to: URL(fileURLWithPath: path))
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])
        XCTAssertTrue(toastd.log.contains("(0 warnings)"), "the test file has problems: \(toastd.log)")
        return (stage, toastd)
    }

    private func count(_ colour: RGB, in image: Image) -> Int {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x, y).isClose(to: colour, tolerance: 12) { count += 1 }
        }
        return count
    }

    /// Shows one toast alone (`arguments` for `toast`) and returns the screenshot once it is drawn.
    private func shot(of arguments: [String], _ stage: Stage, _ toastd: ToastdProcess, name: String) throws -> Image {
        XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
        let (_, cleared) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) == nil }
        XCTAssertTrue(cleared, "the screen did not clear before \(name)")
        let sent = try toastd.toast(["-t", "0"] + arguments)
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let (image, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(drawn, "\(name) not drawn; toastd: \(toastd.log)")
        _ = stage.keep(image, name: "rules-\(name)")
        return image
    }

    func testAnInvisibleAppIsListedButNotDrawn() throws {
        let (stage, toastd) = try start("[app-name=Spotify]\ninvisible=1\n")
        let sent = try stage.run(["notify-send", "-a", "Spotify", "Now playing", "A song"], timeout: 15)
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let listed = try waitUntil(timeout: 10, interval: 0.1) {
            try toastd.toast(["list"]).stdoutText.contains("Now playing")
        }
        let list = try toastd.toast(["list"]).stdoutText
        XCTAssertTrue(listed, "toast list does not show the invisible notification: \(list)")
        let (image, drawn) = try stage.waitForScreenshot(timeout: 1.5) {
            $0.boundingBox(notMatching: stage.background) != nil
        }
        XCTAssertFalse(drawn, "the invisible toast was drawn; kept at \(stage.keep(image, name: "rules-invisible"))")

        // Another app's toast is drawn as usual.
        XCTAssertTrue(try stage.run(["notify-send", "-a", "Other", "Visible", "drawn"], timeout: 15).succeeded)
        let (_, other) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(other, "the other app's toast is not drawn: \(toastd.log)")
    }

    func testColoursFollowTheirCriteria() throws {
        let (stage, toastd) = try start("""
            [category=email]
            background-color=#0000ffff

            [summary~="^Build failed"]
            border-color=#ff0000
            border-size=3

            [app-name=Slack urgency=critical]
            background=#00ff00
            """)
        XCTAssertGreaterThan(count(blue, in: try shot(of: ["-c", "email", "Mail", "for you"], stage, toastd, name: "email")), 2000,
                             "the email toast's box is not blue")
        XCTAssertEqual(count(blue, in: try shot(of: ["-c", "im", "Chat", "for you"], stage, toastd, name: "im")), 0,
                       "another category is blue")

        XCTAssertGreaterThan(count(red, in: try shot(of: ["Build failed: main", "3 tests"], stage, toastd, name: "failed")), 100,
                             "no red border on the failed build")
        XCTAssertEqual(count(red, in: try shot(of: ["Build passed: main", "all good"], stage, toastd, name: "passed")), 0)
        XCTAssertEqual(count(red, in: try shot(of: ["Not a Build failed", "x"], stage, toastd, name: "unanchored")), 0,
                       "^ anchors the pattern")

        XCTAssertGreaterThan(count(green, in: try shot(of: ["-a", "Slack", "-u", "critical", "Ping", "!"], stage, toastd,
                                                       name: "slack-critical")), 2000, "both criteria match: green")
        XCTAssertEqual(count(green, in: try shot(of: ["-a", "Slack", "Ping", "?"], stage, toastd, name: "slack-normal")), 0)
        XCTAssertEqual(count(green, in: try shot(of: ["-a", "Other", "-u", "critical", "Ping", "!"], stage, toastd,
                                                 name: "other-critical")), 0)
    }

    func testCheckConfig() throws {
        let stage = try Stage.shared()
        let toastdBinary = try stage.binary("toastd")
        let clean = "\(stage.directory)/check-clean-\(UUID().uuidString.prefix(8))"
        try Data("[app-name=Spotify]\ninvisible=1\n[summary~=\"^Build\"]\nborder-color=#ff0000\n".utf8)
            .write(to: URL(fileURLWithPath: clean))
        let ok = try stage.run([toastdBinary, "--check-config", clean])
        XCTAssertEqual(ok.status, 0, ok.stdoutText + ok.stderrText)
        XCTAssertEqual(ok.stdoutText, "")

        let bad = "\(stage.directory)/check-bad-\(UUID().uuidString.prefix(8))"
        try Data("width = 5\n[app-name=a]\ntext-alignment = left\n[summary~=\"(\"]\nwidth = 500\ninvisible = 1\n".utf8)
            .write(to: URL(fileURLWithPath: bad))
        let failed = try stage.run([toastdBinary, "--check-config", bad])
        XCTAssertEqual(failed.status, 1)
        let lines = failed.stdoutText.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, failed.stdoutText)
        XCTAssertEqual(lines.map { String($0.prefix(while: { $0 != " " })) }, ["\(bad):1:", "\(bad):3:", "\(bad):4:"])
        XCTAssertTrue(failed.stdoutText.contains("mako key 'text-alignment' is not supported"), failed.stdoutText)
    }

    /// `on-notify = exec ...`: once per notification, the notification in the environment; a summary
    /// that is shell syntax stays text (the command line never contains it).
    func testOnNotifyRunsTheCommandWithTheNotificationInItsEnvironment() throws {
        let stage = try Stage.shared()
        let directory = "\(stage.directory)/on-notify-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let pwned = "/tmp/pwned-\(UUID().uuidString.prefix(8))"
        // Appends, then copies and renames: a file that appears is complete, and a second run would
        // show as a second block.
        let (_, toastd) = try start("""
            on-notify = exec f="\(directory)/$TOASTD_ID"; printf '%s\\n' "$TOASTD_ID" "$TOASTD_APP_NAME" "$TOASTD_SUMMARY" "$TOASTD_BODY" "$TOASTD_URGENCY" "$TOASTD_CATEGORY" "$TOASTD_DESKTOP_ENTRY" >> "$f.part" && cp "$f.part" "$f.new" && mv "$f.new" "$f"
            [app-name=silent]
            on-notify = none
            """)
        func sent(_ arguments: [String]) throws -> String {
            let result = try toastd.toast(["-p"] + arguments)
            XCTAssertTrue(result.succeeded, result.stderrText)
            return result.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func lines(of id: String) throws -> [String]? {
            guard let data = FileManager.default.contents(atPath: "\(directory)/\(id)") else { return nil }
            return String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        let mail = try sent(["-a", "Mail", "-u", "critical", "-c", "email", "New mail", "from Ann"])
        XCTAssertTrue(try waitUntil(timeout: 10) { try lines(of: mail) != nil }, "no command ran for \(mail): \(toastd.log)")
        XCTAssertEqual(try lines(of: mail), [mail, "Mail", "New mail", "from Ann", "critical", "email", "", ""])

        // Over D-Bus, with shell syntax in the text.
        let bus = try stage.run(["notify-send", "-p", "-a", "Evil", "$(touch \(pwned))", "`touch \(pwned)-body`;touch \(pwned)-semi"],
                                timeout: 15)
        XCTAssertTrue(bus.succeeded, bus.stderrText)
        let evil = bus.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(try waitUntil(timeout: 10) { try lines(of: evil) != nil }, "no command ran for \(evil): \(toastd.log)")
        XCTAssertEqual(try lines(of: evil)?.prefix(5), [evil, "Evil", "$(touch \(pwned))", "`touch \(pwned)-body`;touch \(pwned)-semi",
                                                       "normal"])
        for path in [pwned, "\(pwned)-body", "\(pwned)-semi"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the summary ran as shell: \(path) exists")
        }

        // A rule turns it off for one app; a later notification's command ran after the silent one
        // would have, so the silent one's absence is not a matter of waiting longer.
        let silent = try sent(["-a", "silent", "Quiet", "x"])
        let last = try sent(["Last", "y"])
        XCTAssertTrue(try waitUntil(timeout: 10) { try lines(of: last) != nil }, "no command ran for \(last): \(toastd.log)")
        XCTAssertNil(try lines(of: silent), "on-notify = none ran a command")
        // Once each: no second block was appended to the first ones.
        XCTAssertEqual(try lines(of: mail)?.count, 8)
        XCTAssertEqual(try lines(of: evil)?.count, 8)
        XCTAssertFalse(toastd.log.contains("warning:"), toastd.log)
    }

    /// Modes, as mako's: `[mode=do-not-disturb] invisible=1` hides normal toasts while the mode is on
    /// (critical ones break through), `toast dnd` is the same mode, and a mode of the user's own hides
    /// critical ones too. Removing a mode shows new toasts again.
    func testModesTurnTheirSectionsOnAndOff() throws {
        let (stage, toastd) = try start("""
            [mode=do-not-disturb]
            invisible=1

            [mode=quiet]
            invisible=1

            [mode=quiet urgency=low]
            invisible=0
            """)
        func output(_ arguments: [String]) throws -> String {
            let result = try toastd.toast(arguments)
            XCTAssertTrue(result.succeeded, "toast \(arguments): \(result.stderrText)")
            return result.stdoutText
        }
        /// The box of what is drawn once two screenshots in a row agree; nil for nothing drawn.
        func steadyBox() throws -> Rect? {
            var previous: Image?
            let (shot, steady) = try stage.waitForScreenshot { shot in
                defer { previous = shot }
                return previous?.rgb == shot.rgb
            }
            XCTAssertTrue(steady, "the screen did not settle")
            return shot.boundingBox(notMatching: stage.background)
        }
        func clear() throws {
            XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
            let (_, cleared) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) == nil }
            XCTAssertTrue(cleared, "the screen did not clear")
        }
        XCTAssertEqual(try output(["mode"]), "default\n")
        // `toast status` reports do-not-disturb: the mode, as it is turned on and off.
        let follower = try stage.spawn([try stage.binary("toast"), "status", "--follow", "--json"],
                                       environment: ["TOASTD_SOCKET": toastd.socketPath])
        defer { follower.terminate() }
        XCTAssertNotNil(follower.waitForLine(matching: #""dnd":false"#), "\(follower.lines) \(follower.stderrText)")

        // One critical toast alone: the box to compare with.
        _ = try output(["-t", "0", "-u", "critical", "Battery low", "5 %"])
        let (_, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(drawn, "nothing drawn: \(toastd.log)")
        let alone = try XCTUnwrap(try steadyBox())
        try clear()

        XCTAssertEqual(try output(["mode", "-a", "do-not-disturb"]), "default\ndo-not-disturb\n")
        XCTAssertEqual(try output(["dnd", "status"]), "on\n", "dnd is the do-not-disturb mode")
        XCTAssertTrue(try output(["status", "--json"]).contains(#""dnd":true"#), "status does not read the mode")
        XCTAssertNotNil(follower.waitForLine(matching: #""dnd":true"#), "no status event: \(follower.lines)")
        let dndOnLine = follower.lines.count
        // A normal toast first, then a critical one: once the critical one is drawn and the screen
        // settled, the normal one would be on it too; the box is one toast's.
        _ = try output(["-t", "0", "Chat", "hello"])
        _ = try output(["-t", "0", "-u", "critical", "Battery low", "5 %"])
        let (_, critical) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(critical, "the critical toast did not break through: \(toastd.log)")
        let box = try XCTUnwrap(try steadyBox())
        XCTAssertEqual(box.height, alone.height, "the normal toast is drawn in do-not-disturb")
        XCTAssertTrue(try output(["list"]).contains("Chat"), "the hidden toast is not listed")
        try clear()

        XCTAssertEqual(try output(["mode", "-r", "do-not-disturb"]), "default\n")
        XCTAssertEqual(try output(["dnd", "status"]), "off\n")
        XCTAssertNotNil(follower.waitForLine(from: dndOnLine, deadline: .after(10)) { $0.contains(#""dnd":false"#) },
                        "no status event for the mode turned off: \(follower.lines)")
        _ = try output(["-t", "0", "Chat", "again"])
        let (_, back) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(back, "a new toast is not drawn once the mode is off: \(toastd.log)")
        try clear()

        // A mode of one's own hides critical toasts too (a later section lets low ones through, so
        // the screen has something to settle on); -s sets the list as it is.
        XCTAssertEqual(try output(["mode", "-t", "quiet"]), "default\nquiet\n")
        _ = try output(["-t", "0", "-u", "critical", "Quiet", "critical"])
        _ = try output(["-t", "0", "-u", "low", "Battery low", "5 %"])
        let (_, low) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(low, "the low toast is not drawn: \(toastd.log)")
        XCTAssertEqual(try XCTUnwrap(try steadyBox()).height, alone.height, "the critical toast is drawn in the quiet mode")
        XCTAssertTrue(try output(["list"]).contains("Quiet"))
        _ = try output(["dnd", "on"])
        XCTAssertEqual(try output(["mode"]), "default\nquiet\ndo-not-disturb\n")
        try clear()
        XCTAssertEqual(try output(["mode", "-s", "default", "work"]), "default\nwork\n")
        _ = try output(["-t", "0", "-u", "critical", "Loud", "again"])
        let (_, loud) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(loud, "not drawn once the modes were set without quiet: \(toastd.log)")

        let bad = try toastd.toast(["mode", "-a", "two words"])
        XCTAssertFalse(bad.succeeded)
        XCTAssertTrue(bad.stderrText.contains("not a mode name"), bad.stderrText)
    }

    /// `actions = 0`: the toasts a section matches are drawn without their buttons (shorter by the pill
    /// row), others with them.
    func testActionsOffDrawsNoButtons() throws {
        let (stage, toastd) = try start("[app-name=plain]\nactions = 0\n")
        func height(_ app: String) throws -> Int {
            XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
            let (_, cleared) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) == nil }
            XCTAssertTrue(cleared, "the screen did not clear")
            // -A waits for an answer: in the background, until the dismissal above ends it next time.
            let waiting = try stage.spawn([try stage.binary("toast"), "-p", "-t", "0", "-a", app, "-A", "yes=Yes",
                                           "-A", "no=No", "Deploy?", "now"],
                                          environment: ["TOASTD_SOCKET": toastd.socketPath])
            defer { waiting.terminate() }
            XCTAssertNotNil(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
            var previous: Image?
            let (steady, settled) = try stage.waitForScreenshot { shot in
                defer { previous = shot }
                return previous?.rgb == shot.rgb && shot.boundingBox(notMatching: stage.background) != nil
            }
            XCTAssertTrue(settled, "no toast for \(app): \(toastd.log)")
            _ = stage.keep(steady, name: "rules-actions-\(app)")
            return try XCTUnwrap(steady.boundingBox(notMatching: stage.background)).height
        }
        let with = try height("other")
        let without = try height("plain")
        XCTAssertGreaterThan(with - without, 15, "the buttons are drawn anyway (\(with) vs \(without) px)")
    }
}
