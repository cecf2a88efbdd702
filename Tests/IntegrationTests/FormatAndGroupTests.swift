import Foundation
import XCTest

/// mako's `format` and `group-by` on the stage: a rule's format is what the toast shows; notifications
/// grouped by app are one box, three in `toast list`, and one dismissal closes them all with their own
/// signals.
final class FormatAndGroupTests: XCTestCase {
    private let red = RGB(r: 0xff, g: 0, b: 0)

    private func start(_ config: String) throws -> (Stage, ToastdProcess) {
        let stage = try Stage.shared()
        // The shadow off first, outside the sections: a toast's box is then what differs from the background.
        let path = "\(stage.directory)/format-\(UUID().uuidString.prefix(8))"
        try Data(("shadow = none\n" + config).utf8).write(to: URL(fileURLWithPath: path))
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])
        XCTAssertTrue(toastd.log.contains("(0 warnings)"), "the test file has problems: \(toastd.log)")
        return (stage, toastd)
    }

    /// Shows one toast alone (`arguments` for notify-send) and returns its box once it is drawn.
    private func box(of arguments: [String], _ stage: Stage, _ toastd: ToastdProcess, name: String) throws -> (Image, Rect) {
        XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
        let (_, cleared) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) == nil }
        XCTAssertTrue(cleared, "the screen did not clear before \(name)")
        let sent = try stage.run(["notify-send", "-t", "0"] + arguments, timeout: 15)
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let (image, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        _ = stage.keep(image, name: "format-\(name)")
        let rect = try XCTUnwrap(image.boundingBox(notMatching: stage.background), "\(name) not drawn: \(toastd.log)")
        XCTAssertTrue(drawn)
        return (image, rect)
    }

    /// Pixels of `image` near `colour` (antialiased text is never quite it).
    private func count(_ colour: RGB, in image: Image) -> Int {
        image.width * image.height - image.countPixels(in: image.bounds, notMatching: colour, tolerance: 40)
    }

    func testARulesFormatIsTheToastsText() throws {
        let (stage, toastd) = try start("""
            [app-name=Fmt]
            format = <span foreground="#ff0000" size="x-large">%s</span>\\n%b\\n%b\\n%b
            """)
        let (formatted, formattedBox) = try box(of: ["-a", "Fmt", "Hello", "body"], stage, toastd, name: "rule")
        let (plain, plainBox) = try box(of: ["-a", "Other", "Hello", "body"], stage, toastd, name: "plain")
        XCTAssertGreaterThan(count(red, in: formatted), 40, "the format's red summary is not drawn")
        XCTAssertEqual(count(red, in: plain), 0, "another app's toast took the format")
        XCTAssertEqual(formattedBox.width, plainBox.width)
        // A large summary and the body three times against caption, summary and body.
        XCTAssertGreaterThan(formattedBox.height, plainBox.height + 15,
                             "the formatted text is not four lines: \(formattedBox) vs \(plainBox)")
    }

    func testThreeGroupedNotificationsAreOneToastAndOneDismissClosesThree() throws {
        let (stage, toastd) = try start("[app-name=Chat]\ngroup-by = app-name\n")
        let monitor = try BusMonitor(stage: stage)
        let (_, single) = try box(of: ["-a", "Chat", "First", "one"], stage, toastd, name: "group-1")
        var ids: [UInt32] = []
        for summary in ["Second", "Third"] {
            let sent = try stage.run(["notify-send", "-p", "-t", "0", "-a", "Chat", summary, "more"], timeout: 15)
            ids.append(try XCTUnwrap(UInt32(sent.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)),
                                     sent.stdoutText + sent.stderrText))
        }
        let listed = try waitUntil(timeout: 10, interval: 0.05) {
            try toastd.toast(["list"]).stdoutText.contains("Third")
        }
        XCTAssertTrue(listed)
        let list = try toastd.toast(["list", "--json"])
        let all = try JSONSerialization.jsonObject(with: list.stdout) as? [[String: Any]] ?? []
        XCTAssertEqual(all.count, 3, "every grouped notification is listed: \(list.stdoutText)")
        let allIDs = all.compactMap { ($0["id"] as? Int).map(UInt32.init) }

        // One box, the same height as a single toast's (three would stack three boxes).
        let (shot, one) = try stage.waitForScreenshot {
            guard let box = $0.boundingBox(notMatching: stage.background) else { return false }
            return box.height == single.height
        }
        _ = stage.keep(shot, name: "format-group-3")
        XCTAssertTrue(one, "not one box of \(single.height) px: \(String(describing: shot.boundingBox(notMatching: stage.background)))")

        // A dismissal without an id: the group goes, each with its own NotificationClosed(id, 2).
        XCTAssertTrue(try toastd.toast(["dismiss"]).succeeded)
        for id in allIDs {
            XCTAssertNotNil(monitor.waitFor(closed: id, reason: 2), "no NotificationClosed(\(id), 2): \(monitor.lines)")
        }
        let left = try toastd.toast(["list", "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: left.stdout) as? [Any])?.count, 0,
                       "left open after the dismissal: \(left.stdoutText)")
        let (_, cleared) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) == nil }
        XCTAssertTrue(cleared, "the group's toast is still drawn")
    }
}
