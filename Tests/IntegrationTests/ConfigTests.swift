import Foundation
import XCTest

/// toastd's configuration file on the stage: the anchor it names is where toasts appear, a bad line is
/// logged with its line number and skipped, and SIGHUP applies a changed file without a restart.
final class ConfigTests: XCTestCase {
    /// The margin the test files set, so the toast's distance from the edges can be checked exactly.
    private let margin = 20

    /// Writes `text` and, after it (line numbers stay), `shadow = none`: the tests find a toast as
    /// whatever differs from the background, which a shadow would widen.
    private func writeConfig(_ text: String, to path: String) throws {
        try Data((text + "\nshadow = none\n").utf8).write(to: URL(fileURLWithPath: path))
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

    /// `toast reload` is makoctl's habit: the daemon rereads the file and the CLI prints its problems
    /// as `path:line: message` and exits 1; a clean file exits 0. `toast relaod` is a typo, not a toast.
    func testToastReloadPrintsTheProblemsAndExitsOneUntilTheFileIsFixed() throws {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/config-\(UUID().uuidString.prefix(8))"
        try writeConfig("anchor = bottom-left\n", to: path)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])

        let typo = try toastd.toast(["relaod"])
        XCTAssertEqual(typo.status, 64, typo.stderrText)
        XCTAssertTrue(typo.stderrText.contains("did you mean 'reload'?"), typo.stderrText)

        try writeConfig("anchor = top-left\nnonsense = 1\nwidth = wide\n", to: path)
        let bad = try toastd.toast(["reload"])
        XCTAssertEqual(bad.status, 1, bad.stderrText)
        XCTAssertEqual(bad.stderrText, "\(path):2: unknown key 'nonsense'\n"
                       + "\(path):3: 'width' must be a whole number, got 'wide'\n")
        XCTAssertEqual(bad.stdoutText, "")
        XCTAssertTrue(toastd.log.contains("config reloaded (2 warnings)"), toastd.log)

        try writeConfig("anchor = top-left\n", to: path)
        let fixed = try toastd.toast(["reload"])
        XCTAssertEqual(fixed.status, 0, fixed.stderrText)
        XCTAssertEqual(fixed.stderrText, "")
        XCTAssertTrue(toastd.log.contains("config reloaded (0 warnings)"), toastd.log)

        // An unusable file keeps the configuration in use, and says so.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let unusable = try toastd.toast(["reload"])
        XCTAssertEqual(unusable.status, 1, unusable.stderrText)
        XCTAssertTrue(unusable.stderrText.contains("\(path): cannot be read (not a regular file)"), unusable.stderrText)
        XCTAssertTrue(unusable.stderrText.contains("keeping the one in use"), unusable.stderrText)

        let list = try toastd.toast(["list", "--json"])
        XCTAssertEqual(list.stdoutText, "[]\n", "no command showed a toast: \(list.stderrText)")
        XCTAssertTrue(toastd.process.isRunning)
    }

    // MARK: - Critical toasts and max-visible

    /// The default border of a critical toast (docs/configuration.md), and whether a screenshot shows it.
    private let criticalBorder = RGB(r: 0xe5, g: 0x48, b: 0x4d)

    private func showsCritical(_ image: Image) -> Bool {
        var count = 0
        for y in stride(from: 0, to: image.height, by: 1) {
            for x in stride(from: 0, to: image.width, by: 2) where image.pixel(x, y).isClose(to: criticalBorder, tolerance: 24) {
                count += 1
                if count >= 40 { return true }
            }
        }
        return false
    }

    private func listed(_ toastd: ToastdProcess, _ verb: String) throws -> [[String: Any]] {
        let result = try toastd.toast([verb, "--json"])
        XCTAssertTrue(result.succeeded, result.stderrText)
        return try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]] ?? []
    }

    /// With `max-visible = 3`, a critical toast is drawn however many newer toasts there are: one
    /// arriving oldest in a burst of six is on screen (so its timeout runs and it expires, while a toast
    /// waiting under "+N more" keeps its time), and one already shown stays when five newer ones come.
    func testCriticalToastsStayVisibleBeyondMaxVisible() throws {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/config-\(UUID().uuidString.prefix(8))"
        try writeConfig("max-visible = 3\n", to: path)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])

        // One write, so toastd sees all six in one loop turn: the critical one is never the newest.
        let client = try UnixClient(path: toastd.socketPath)
        defer { client.close() }
        var burst = #"{"v":1,"request":"notify","summary":"Disk full","urgency":"critical","expire_ms":1500}"# + "\n"
        for index in 1...5 {
            burst += #"{"v":1,"request":"notify","summary":"Chatter \#(index)","expire_ms":0}"# + "\n"
        }
        try client.send(burst)
        let critical = try XCTUnwrap(client.readObject()?["id"] as? Int)
        for _ in 1...5 { XCTAssertEqual(client.readObject()?["ok"] as? Bool, true) }
        let (shot, drawn) = try stage.waitForScreenshot { self.showsCritical($0) }
        XCTAssertTrue(drawn, "the critical toast is not drawn; kept at \(stage.keep(shot, name: "critical-burst")); toastd: \(toastd.log)")
        let expired = try waitUntil(timeout: 10, interval: 0.2) {
            try self.listed(toastd, "history").contains { $0["id"] as? Int == critical && $0["reason"] as? String == "expired" }
        }
        let open = try listed(toastd, "list")
        XCTAssertTrue(expired, "drawn, its 1.5 s should have run out: \(open)")
        XCTAssertEqual(open.count, 5)

        // An older critical toast keeps its place as newer normal ones arrive one by one.
        XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
        XCTAssertTrue(try toastd.toast(["-u", "critical", "-t", "0", "Battery low"]).succeeded)
        let (first, shown) = try stage.waitForScreenshot { self.showsCritical($0) }
        XCTAssertTrue(shown, "kept at \(stage.keep(first, name: "critical-alone"))")
        for index in 1...5 { XCTAssertTrue(try toastd.toast(["-t", "0", "Newer \(index)"]).succeeded) }
        XCTAssertEqual(try listed(toastd, "list").count, 6)
        let (last, pushedOut) = try stage.waitForScreenshot(timeout: 2) { !self.showsCritical($0) }
        XCTAssertFalse(pushedOut, "five newer toasts pushed the critical one out; kept at \(stage.keep(last, name: "critical-pushed"))")
    }
}
