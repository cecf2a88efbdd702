import Foundation
import XCTest

/// The history outlives toastd: closed toasts are written to `$XDG_STATE_HOME/toastd/history` and read
/// back by the next toastd, whether the last one exited on SIGTERM or was killed after it saved; a file
/// toastd cannot read is moved aside with a warning, and toastd starts anyway.
final class PersistentHistoryTests: XCTestCase {
    private var stage: Stage!
    /// One state directory for the daemons of a test, so each reads what the previous one wrote.
    private var state: String!
    private var historyPath: String { "\(state!)/toastd/history" }

    override func setUpWithError() throws {
        stage = try Stage.shared()
        state = "\(stage.directory)/state-history-\(UUID().uuidString.prefix(8))"
    }

    private func startToastd(config: String? = nil) throws -> ToastdProcess {
        try ToastdProcess(stage: stage, arguments: ["--no-dbus", "--no-animations"] + (config.map { ["--config", $0] } ?? []),
                          environment: ["XDG_STATE_HOME": state], waitForBus: false)
    }

    private func summaries(_ toastd: ToastdProcess, _ verb: String) throws -> [String] {
        let result = try toastd.toast([verb, "--json"])
        XCTAssertEqual(result.status, 0, "toast \(verb) --json: \(result.stderrText)")
        let toasts = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]] ?? []
        return toasts.compactMap { $0["summary"] as? String }
    }

    /// Shows a toast that stays, then dismisses it: it goes to the history.
    private func showAndDismiss(_ toastd: ToastdProcess, _ summary: String) throws {
        let shown = try toastd.toast(["-p", "-t", "0", "-a", "persist", summary, "body of \(summary)"])
        XCTAssertEqual(shown.status, 0, shown.stderrText)
        let id = shown.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        let dismissed = try toastd.toast(["dismiss", id])
        XCTAssertEqual(dismissed.status, 0, dismissed.stderrText)
    }

    private func fileText() -> String {
        (try? String(contentsOfFile: historyPath, encoding: .utf8)) ?? ""
    }

    func testHistorySurvivesSIGTERMAndSIGKILLAndRestoreWorksAfterwards() throws {
        let first = try startToastd()
        for summary in ["One", "Two", "Three"] { try showAndDismiss(first, summary) }
        XCTAssertEqual(try summaries(first, "history"), ["Three", "Two", "One"])
        // SIGTERM at once, most likely before the coalescing timer: the exit writes the file.
        XCTAssertEqual(first.process.terminate(), 0, first.log)
        XCTAssertTrue(fileText().hasPrefix("{\"toastd-history\":1}\n"), "after SIGTERM: \(fileText())")

        let second = try startToastd()
        XCTAssertEqual(try summaries(second, "history"), ["Three", "Two", "One"], "read back after SIGTERM; \(second.log)")
        XCTAssertTrue(try summaries(second, "list").isEmpty, "the history came back as history, not as open toasts")
        // A new toast takes an id past the ones in the history.
        let fresh = try second.toast(["-p", "-t", "0", "Four"])
        let history = try JSONSerialization.jsonObject(with: try second.toast(["history", "--json"]).stdout) as? [[String: Any]] ?? []
        let oldIDs = history.compactMap { $0["id"] as? Int }
        let newID = Int(fresh.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        XCTAssertTrue(oldIDs.allSatisfy { $0 < newID }, "new id \(newID), history ids \(oldIDs)")
        XCTAssertEqual(try second.toast(["dismiss", String(newID)]).status, 0)
        // Killed without a chance to save: what the timer wrote (wait for it) is what survives.
        XCTAssertTrue(waitUntil(timeout: 15) { self.fileText().contains("\"Four\"") }, "never saved: \(fileText())")
        kill(second.process.pid, SIGKILL)
        XCTAssertEqual(second.process.waitForExit(timeout: 10), 128 + SIGKILL)

        let third = try startToastd()
        XCTAssertEqual(try summaries(third, "history"), ["Four", "Three", "Two", "One"], "after SIGKILL; \(third.log)")
        let restored = try third.toast(["restore"])
        XCTAssertEqual(restored.status, 0, restored.stderrText)
        XCTAssertEqual(try summaries(third, "list"), ["Four"])
        XCTAssertEqual(try summaries(third, "history"), ["Three", "Two", "One"])
        let listed = try JSONSerialization.jsonObject(with: try third.toast(["list", "--json"]).stdout) as? [[String: Any]]
        XCTAssertEqual(listed?.first?["app_name"] as? String, "toast")
        XCTAssertTrue(third.log.contains("ready"), third.log)

        // restore ID, history -n, history clear: and the cleared history is what the next toastd reads.
        let ids = (try JSONSerialization.jsonObject(with: try third.toast(["history", "--json"]).stdout) as? [[String: Any]] ?? [])
            .compactMap { $0["id"] as? Int }
        XCTAssertEqual(ids.count, 3)
        XCTAssertEqual(try third.toast(["restore", String(ids[1])]).stdoutText, "\(ids[1])\n", "Two comes back under its id")
        XCTAssertEqual(try summaries(third, "list"), ["Four", "Two"])
        XCTAssertEqual(try third.toast(["restore", "99999"]).status, 1, "not in the history")
        XCTAssertEqual(try summaries(third, "history"), ["Three", "One"])
        let newest = try third.toast(["history", "-n", "1", "--json"])
        XCTAssertEqual((try JSONSerialization.jsonObject(with: newest.stdout) as? [[String: Any]])?.count, 1, newest.stderrText)
        XCTAssertEqual(try third.toast(["history", "clear"]).status, 0)
        XCTAssertTrue(try summaries(third, "history").isEmpty)
        XCTAssertEqual(third.process.terminate(), 0)
        XCTAssertEqual(fileText(), "{\"toastd-history\":1}\n", "the file was emptied too")
    }

    func testACorruptFileIsMovedAsideWithAWarningAndToastdStarts() throws {
        try FileManager.default.createDirectory(atPath: "\(state!)/toastd", withIntermediateDirectories: true)
        let garbage = "this is not a history file\n\u{0}\u{1}binary\n"
        try garbage.write(toFile: historyPath, atomically: true, encoding: .utf8)

        let toastd = try startToastd()
        // The socket exists before the history is read: wait for the start to finish.
        XCTAssertTrue(waitUntil(timeout: 15) { toastd.log.contains("toastd: ready") }, toastd.log)
        XCTAssertTrue(toastd.log.contains("warning: history \(historyPath) cannot be read"), toastd.log)
        let aside = try FileManager.default.contentsOfDirectory(atPath: "\(state!)/toastd").filter { $0.hasPrefix("history.corrupt-") }
        XCTAssertEqual(aside.count, 1, "set aside: \(aside)")
        let asideName = try XCTUnwrap(aside.first)
        XCTAssertEqual(try String(contentsOfFile: "\(state!)/toastd/\(asideName)", encoding: .utf8), garbage, "kept as it was")
        XCTAssertFalse(FileManager.default.fileExists(atPath: historyPath))
        XCTAssertTrue(try summaries(toastd, "history").isEmpty)

        // And it keeps a good history from then on.
        try showAndDismiss(toastd, "After")
        XCTAssertEqual(toastd.process.terminate(), 0)
        XCTAssertTrue(fileText().contains("\"After\""), fileText())
    }

    func testPersistentHistoryOffReadsAndWritesNothing() throws {
        let config = "\(stage.directory)/config-nopersist-\(UUID().uuidString.prefix(8))"
        try "persistent-history = false\n".write(toFile: config, atomically: true, encoding: .utf8)
        let first = try startToastd(config: config)
        try showAndDismiss(first, "Forgotten")
        XCTAssertEqual(try summaries(first, "history"), ["Forgotten"])
        XCTAssertEqual(first.process.terminate(), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: historyPath), "written although persistent-history = false")

        let second = try startToastd()
        XCTAssertTrue(try summaries(second, "history").isEmpty)
    }
}
