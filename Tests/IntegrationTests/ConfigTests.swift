import Foundation
import XCTest

/// toastd's configuration file on the stage: the anchor it names is where toasts appear, a bad line is
/// logged with its line number and skipped, and SIGHUP applies a changed file without a restart.
final class ConfigTests: XCTestCase {
    /// The margin the test files set, so the toast's distance from the edges can be checked exactly.
    private let margin = 20

    private func writeConfig(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The box of whatever differs from the background, once something does.
    private func waitForToast(_ stage: Stage, _ toastd: ToastdProcess, name: String,
                              until placed: (Rect) -> Bool) throws -> Rect {
        let (shot, held) = try stage.waitForScreenshot { image in
            image.boundingBox(notMatching: stage.background).map(placed) ?? false
        }
        let box = shot.boundingBox(notMatching: stage.background)
        XCTAssertTrue(held, "toast not where expected (drawn at \(box.map(\.description) ?? "nowhere")); kept at "
                      + "\(stage.keep(shot, name: name)); toastd: \(toastd.log)")
        return try XCTUnwrap(box)
    }

    func testAnchorFromTheFileAndABadLineReportedWithItsLineNumber() throws {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/config-\(UUID().uuidString.prefix(8))"
        try writeConfig("""
            # toastd test configuration
            anchor = bottom-left
            width = very-wide
            margin = \(margin)
            """, to: path)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])
        XCTAssertTrue(toastd.log.contains("\(path):3: 'width' must be a whole number, got 'very-wide'"),
                      "no diagnostic for line 3: \(toastd.log)")

        let sent = try toastd.toast(["Bottom left", "from the config file", "-t", "0"])
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let box = try waitForToast(stage, toastd, name: "config-bottom-left") { box in
            box.x + box.width < stage.width / 2 && box.y > stage.height / 2
        }
        // The lines after the bad one applied: the margin is the file's, not the default 12.
        XCTAssertEqual(Double(box.x), Double(margin), accuracy: 2, "left margin: \(box)")
        XCTAssertEqual(Double(stage.height - (box.y + box.height)), Double(margin), accuracy: 2, "bottom margin: \(box)")
        XCTAssertTrue(toastd.process.isRunning)
    }

    func testSIGHUPReloadsTheFileAndTheNextToastGoesToTheNewAnchor() throws {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/config-\(UUID().uuidString.prefix(8))"
        try writeConfig("anchor = bottom-left\nmargin = \(margin)\n", to: path)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])

        XCTAssertTrue(try toastd.toast(["First", "bottom left", "-t", "0"]).succeeded)
        _ = try waitForToast(stage, toastd, name: "config-before-reload") { box in
            box.x + box.width < stage.width / 2 && box.y > stage.height / 2
        }

        try writeConfig("anchor = top-left\nmargin = \(margin)\nnonsense = 1\n", to: path)
        XCTAssertEqual(kill(toastd.process.pid, SIGHUP), 0)
        let reloaded = waitUntil(timeout: 10) { toastd.log.contains("config reloaded (1 warnings)") }
        XCTAssertTrue(reloaded, "no reload logged: \(toastd.log)")
        XCTAssertTrue(toastd.log.contains("\(path):3: unknown key 'nonsense'"), toastd.log)

        XCTAssertTrue(try toastd.toast(["Second", "top left", "-t", "0"]).succeeded)
        // Both toasts now stack down from the top-left corner; nothing is left at the bottom.
        let box = try waitForToast(stage, toastd, name: "config-after-reload") { box in
            box.y + box.height < stage.height / 2 && box.height > 2 * 40
        }
        XCTAssertEqual(Double(box.x), Double(margin), accuracy: 2, "left margin: \(box)")
        XCTAssertEqual(Double(box.y), Double(margin), accuracy: 2, "top margin: \(box)")
        XCTAssertTrue(toastd.process.isRunning, "SIGHUP stopped toastd: \(toastd.log)")
        XCTAssertTrue(try toastd.toast(["Still", "running", "-t", "1000"]).succeeded)
    }
}
