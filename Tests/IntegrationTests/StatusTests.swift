import Foundation
import XCTest

/// `toast status` for status bars: counts and do-not-disturb once, or a line per change with
/// `--follow` (pushed by toastd, not polled), in waybar's custom-module JSON with `--waybar`.
final class StatusTests: XCTestCase {
    /// A waybar line decoded, checked to hold exactly what waybar reads.
    private func waybar(_ line: String) -> [String: String]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              Set(object.keys) == ["text", "alt", "tooltip", "class"] else { return nil }
        return object.compactMapValues { $0 as? String }
    }

    func testFollowWaybarPrintsALineWhenAToastArrivesClosesAndDndToggles() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let follower = try stage.spawn([try stage.binary("toast"), "status", "--follow", "--waybar"],
                                       environment: ["TOASTD_SOCKET": toastd.socketPath])
        defer { follower.terminate() }
        func next(after index: Int, _ what: String, where predicate: @escaping ([String: String]) -> Bool) -> Int {
            let line = follower.waitForLine(from: index, deadline: .after(10)) { line in waybar(line).map(predicate) ?? false }
            XCTAssertNotNil(line, "\(what): no such line in \(follower.lines); \(follower.stderrText)")
            return follower.lines.firstIndex(of: line ?? "") ?? index
        }

        var at = next(after: 0, "the first line") { $0["text"] == "0" && $0["class"] == "none" && $0["alt"] == "none" }
        let shown = try toastd.toast(["-p", "-t", "0", "Build finished"])
        XCTAssertEqual(shown.status, 0, shown.stderrText)
        at = next(after: at + 1, "a toast arrived") { $0["text"] == "1" && $0["class"] == "notification" }
        XCTAssertEqual(waybar(follower.lines[at])?["tooltip"], "1 open, 0 in history, do-not-disturb off")

        XCTAssertEqual(try toastd.toast(["dismiss", shown.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)]).status, 0)
        at = next(after: at + 1, "the toast closed") { $0["text"] == "0" && $0["tooltip"] == "0 open, 1 in history, do-not-disturb off" }

        XCTAssertEqual(try toastd.toast(["dnd", "toggle"]).stdoutText, "on\n")
        at = next(after: at + 1, "dnd toggled") { $0["class"] == "dnd-none" && $0["alt"] == "dnd-none" }
        XCTAssertEqual(try toastd.toast(["-t", "0", "Quiet"]).status, 0)
        at = next(after: at + 1, "a toast arrived under dnd") {
            $0["class"] == "dnd-notification" && $0["tooltip"] == "1 open (1 hidden), 1 in history, do-not-disturb on"
        }
        // One line per change: nothing was printed twice.
        XCTAssertEqual(follower.lines.count, 5, "\(follower.lines)")

        let once = try toastd.toast(["status", "--json"])
        XCTAssertEqual(once.stdoutText, #"{"open":1,"hidden":1,"history":1,"dnd":true,"loading":0}"# + "\n")
        XCTAssertEqual(try toastd.toast(["status"]).stdoutText, "1 open (1 hidden), 1 in history, do-not-disturb on\n")

        // toastd gone: the follower says so and exits 69 (waybar restarts it with restart-interval).
        toastd.process.terminate()
        XCTAssertEqual(follower.waitForExit(timeout: 10), 69, follower.stderrText)
    }
}
