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
        try Data("width = 5\n[app-name=a]\non-button-left = dismiss\n[summary~=\"(\"]\nwidth = 500\ninvisible = 1\n".utf8)
            .write(to: URL(fileURLWithPath: bad))
        let failed = try stage.run([toastdBinary, "--check-config", bad])
        XCTAssertEqual(failed.status, 1)
        let lines = failed.stdoutText.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, failed.stdoutText)
        XCTAssertEqual(lines.map { String($0.prefix(while: { $0 != " " })) }, ["\(bad):1:", "\(bad):3:", "\(bad):4:"])
        XCTAssertTrue(failed.stdoutText.contains("mako key 'on-button-left' is not supported"), failed.stdoutText)
    }
}
