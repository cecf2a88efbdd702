import Foundation
import XCTest

/// The `toast` CLI against a real toastd on the stage: every flag and verb, round-tripped through
/// the daemon and read back with `toast list --json` / `toast history --json`.
final class CLITests: XCTestCase {
    private var stage: Stage!
    private var daemon: BackgroundProcess!
    private var socket: String!

    override func setUpWithError() throws {
        stage = try Stage.shared()
        socket = "\(stage.runtimeDirectory)/cli-\(UUID().uuidString.prefix(8)).sock"
        daemon = try stage.startToastd(socket: socket)
    }

    override func tearDown() {
        daemon?.terminate()
        daemon = nil
    }

    // MARK: - Long replies

    /// `list` and `history` answer in one line with every entry: 200 toasts of 2,000-byte bodies make
    /// replies of over 400 KB, far past the 64 KiB request limit, and the CLI prints them all.
    func testListAndHistoryWithTwoHundredLongEntries() throws {
        let config = "\(stage.directory)/config-long-\(UUID().uuidString.prefix(8))"
        try "history = 200\n".write(toFile: config, atomically: true, encoding: .utf8)
        let socket = "\(stage.runtimeDirectory)/long-\(UUID().uuidString.prefix(8)).sock"
        let daemon = try stage.spawn([try stage.binary("toastd"), "--no-dbus", "--no-animations",
                                      "--socket", socket, "--config", config])
        defer { daemon.terminate() }
        XCTAssertTrue(waitUntil(timeout: 15) { !daemon.isRunning || UnixClient.accepts(socket) }, daemon.stderrText)

        let client = try UnixClient(path: socket)
        defer { client.close() }
        let body = String(repeating: "ß", count: 1_000)  // 2,000 bytes of UTF-8
        var lines = ""
        for index in 0..<200 {
            lines += #"{"v":1,"request":"notify","summary":"Long \#(index)","body":"\#(body)","expire_ms":0}"# + "\n"
        }
        try client.send(lines)
        for index in 0..<200 {
            XCTAssertEqual(client.readObject()?["ok"] as? Bool, true, "notify \(index)")
        }

        func listed(_ verb: String) throws -> [[String: Any]] {
            let result = try stage.toast([verb, "--json"], socket: socket, timeout: 30)
            XCTAssertTrue(result.succeeded, "toast \(verb) --json: \(result.stderrText)")
            return try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]] ?? []
        }
        let open = try listed("list")
        XCTAssertEqual(open.count, 200)
        XCTAssertEqual(open.last?["body"] as? String, body)
        let plain = try stage.toast(["list"], socket: socket, timeout: 30)
        XCTAssertTrue(plain.succeeded, "toast list: \(plain.stderrText)")
        XCTAssertEqual(plain.stdoutText.components(separatedBy: "Long ").count - 1, 200, "one entry per toast")

        XCTAssertTrue(try stage.toast(["dismiss", "--all"], socket: socket).succeeded)
        let history = try listed("history")
        XCTAssertEqual(history.count, 200)
        XCTAssertEqual(Set(history.compactMap { $0["reason"] as? String }), ["dismissed"])
        let plainHistory = try stage.toast(["history"], socket: socket, timeout: 30)
        XCTAssertTrue(plainHistory.succeeded, "toast history: \(plainHistory.stderrText)")
        XCTAssertEqual(plainHistory.stdoutText.components(separatedBy: "Long ").count - 1, 200, "one entry per toast")
    }

    // MARK: - Helpers

    private func toast(_ arguments: String...) throws -> CommandResult {
        try stage.toast(arguments, socket: socket)
    }

    /// `toast ARGS`, which must succeed; returns stdout without the final newline.
    @discardableResult
    private func ok(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try stage.toast(arguments, socket: socket)
        XCTAssertEqual(result.status, 0, "toast \(arguments) failed: \(result.stderrText); toastd: \(daemon.stderrText)",
                       file: file, line: line)
        return result.stdoutText.trimmingCharacters(in: .newlines)
    }

    /// A `toast ARGS` left running (for --wait); its stdout is read line by line.
    private func spawnToast(_ arguments: [String]) throws -> BackgroundProcess {
        try stage.spawn([try stage.binary("toast")] + arguments, environment: ["TOASTD_SOCKET": socket])
    }

    /// The toasts `toast list --json` (or `history --json`) prints.
    private func toasts(_ verb: String = "list", file: StaticString = #filePath, line: UInt = #line) throws -> [[String: Any]] {
        let out = try ok(verb, "--json", file: file, line: line)
        let parsed = try JSONSerialization.jsonObject(with: Data(out.utf8))
        return try XCTUnwrap(parsed as? [[String: Any]], "\(verb) --json printed no array: \(out)", file: file, line: line)
    }

    private func id(_ toast: [String: Any]) -> Int? { toast["id"] as? Int }

    // MARK: - Sending

    func testShortFlagsRoundTripThroughListJSON() throws {
        try checkEveryFieldRoundTrips(
            ["-p", "-u", "critical", "-t", "0", "-i", "dialog-information", "-a", "Builder",
             "-c", "transfer.complete", "-h", "string:sound-name:bell", "--tag", "build-7", "--value", "40",
             "-A", "open=Open log", "-A", "Later", "Build done", "in 42 s"])
    }

    func testLongFlagsRoundTripThroughListJSON() throws {
        try checkEveryFieldRoundTrips(
            ["--print-id", "--urgency", "critical", "--expire-time", "0", "--icon", "dialog-information",
             "--app-name", "Builder", "--category", "transfer.complete", "--hint", "string:sound-name:bell",
             "--tag", "build-7", "--value", "40", "--action", "open=Open log", "--action", "Later",
             "Build done", "in 42 s"])
    }

    /// Sends a toast with every field (its -A makes it wait), checks `list --json`, then invokes
    /// the `open` action with `toast action`: the waiting `toast` prints `open` and exits 0.
    private func checkEveryFieldRoundTrips(_ arguments: [String]) throws {
        let waiting = try spawnToast(arguments)
        let idLine = try XCTUnwrap(waiting.waitForLine(matching: "^[0-9]+$"),
                                   "-p printed no id: \(waiting.stderrText); toastd: \(daemon.stderrText)")
        let id = try XCTUnwrap(Int(idLine))

        let list = try toasts()
        XCTAssertEqual(list.count, 1, "\(list)")
        let shown = try XCTUnwrap(list.first)
        XCTAssertEqual(self.id(shown), id)
        XCTAssertEqual(shown["summary"] as? String, "Build done")
        XCTAssertEqual(shown["body"] as? String, "in 42 s")
        XCTAssertEqual(shown["app_name"] as? String, "Builder")
        XCTAssertEqual(shown["icon"] as? String, "dialog-information")
        XCTAssertEqual(shown["urgency"] as? String, "critical")
        XCTAssertEqual(shown["category"] as? String, "transfer.complete")
        XCTAssertEqual(shown["tag"] as? String, "build-7")
        XCTAssertEqual(shown["value"] as? Int, 40)
        let actions = try XCTUnwrap(shown["actions"] as? [[String: String]], "\(shown)")
        XCTAssertEqual(actions, [["key": "open", "label": "Open log"], ["key": "1", "label": "Later"]])

        XCTAssertTrue(waiting.isRunning, "-A implies --wait, yet toast exited: \(waiting.stderrText)")
        try ok("action", String(id), "open")
        XCTAssertNotNil(waiting.waitForLine(from: 1, deadline: .after(10)) { $0 == "open" },
                        "the waiting toast did not print the action key: \(waiting.lines) \(waiting.stderrText)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 0, waiting.stderrText)
        XCTAssertTrue(try toasts().isEmpty, "an invoked action closes the toast")
    }

    func testHintsSetUrgencyAndCategoryWhenNoFlagDoes() throws {
        let id = try ok("-p", "-t", "0", "-h", "byte:urgency:0", "-h", "string:category:im.received", "Hinted")
        let shown = try XCTUnwrap(try toasts().first)
        XCTAssertEqual(shown["id"] as? Int, Int(id))
        XCTAssertEqual(shown["urgency"] as? String, "low")
        XCTAssertEqual(shown["category"] as? String, "im.received")
    }

    func testTextRoundTripsExactly() throws {
        let summary = "Grüße — 🎉 \"quoted\" back\\slash"
        let body = "two\nlines\tand a tab, \u{2028}separator, <b>markup</b> & ampersand"
        let id = try ok("-p", "-t", "0", "-a", "Ünïcødé app", summary, body)
        let shown = try XCTUnwrap(try toasts().first)
        XCTAssertEqual(shown["id"] as? Int, Int(id))
        XCTAssertEqual(shown["summary"] as? String, summary)
        XCTAssertEqual(shown["body"] as? String, body)
        XCTAssertEqual(shown["app_name"] as? String, "Ünïcødé app")
        let table = try ok("list")
        XCTAssertEqual(table.split(separator: "\n").count, 2, "control characters must not break the table: \(table)")
    }

    func testPrintIDPrintsOnlyTheIDAndIDsAreDistinct() throws {
        let first = try ok("-p", "-t", "0", "One")
        let second = try ok("--print-id", "-t", "0", "Two")
        XCTAssertNotNil(UInt32(first), "not an id: \(first)")
        XCTAssertNotNil(UInt32(second), "not an id: \(second)")
        XCTAssertNotEqual(first, second)
        XCTAssertEqual(try ok("-t", "0", "Three"), "", "without -p, toast prints nothing")
        // `list` is oldest first (docs/protocol.md).
        XCTAssertEqual(try toasts().map { $0["summary"] as? String }, ["One", "Two", "Three"])
    }

    func testReplaceIDReplacesInPlace() throws {
        let id = try ok("-p", "-t", "0", "Before")
        let other = try ok("-p", "-t", "0", "Bystander")
        XCTAssertEqual(try ok("-p", "-r", id, "-t", "0", "After"), id, "-r keeps the id")
        XCTAssertEqual(try ok("-p", "--replace-id", id, "-t", "0", "After again"), id)
        let list = try toasts()
        XCTAssertEqual(list.map { self.id($0) }, [Int(id), Int(other)], "replaced in place, not added: \(list)")
        XCTAssertEqual(list.first?["summary"] as? String, "After again")
        XCTAssertFalse(list.contains { $0["summary"] as? String == "Before" })
    }

    func testReplaceIDOfAClosedToastShowsANewOne() throws {
        let id = try ok("-p", "-t", "0", "Gone")
        try ok("dismiss", id)
        let new = try ok("-p", "-r", id, "-t", "0", "Fresh")
        XCTAssertEqual(try toasts().map { $0["summary"] as? String }, ["Fresh"])
        XCTAssertNotNil(UInt32(new))
    }

    func testTagReplacesTheToastWithTheSameTag() throws {
        let id = try ok("-p", "-t", "0", "--tag", "volume", "--value", "20", "Volume")
        XCTAssertEqual(try ok("-p", "-t", "0", "--tag", "volume", "--value", "30", "Volume"), id)
        let untagged = try ok("-p", "-t", "0", "Volume")
        XCTAssertNotEqual(untagged, id, "no tag: a new toast")
        let list = try toasts()
        XCTAssertEqual(list.count, 2, "\(list)")
        let tagged = try XCTUnwrap(list.first { self.id($0) == Int(id) })
        XCTAssertEqual(tagged["value"] as? Int, 30)
        XCTAssertEqual(tagged["tag"] as? String, "volume")
    }

    // MARK: - Waiting

    func testWaitReturnsAfterExpiryWithTheReason() throws {
        let result = try toast("-w", "-t", "100", "Short lived")
        XCTAssertEqual(result.stdoutText, "expired\n", result.stderrText)
        XCTAssertEqual(result.status, 2, "exit status of an expired toast")
        XCTAssertTrue(try toasts().isEmpty)
        let history = try toasts("history")
        XCTAssertEqual(history.first?["reason"] as? String, "expired", "\(history)")
    }

    func testWaitWithPrintIDPrintsTheIDFirstThenTheReason() throws {
        let result = try toast("-w", "-p", "--expire-time", "100", "Counted")
        let lines = result.stdoutText.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.stdoutText)
        XCTAssertNotNil(lines.first.flatMap { UInt32($0) }, result.stdoutText)
        XCTAssertEqual(lines.last, "expired")
        XCTAssertEqual(result.status, 2)
    }

    func testDismissClosesAndTheWaitingClientSeesDismissed() throws {
        let waiting = try spawnToast(["-w", "-p", "-t", "0", "Dismiss me"])
        let id = try XCTUnwrap(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
        try ok("dismiss", id)
        XCTAssertNotNil(waiting.waitForLine(startingWith: "dismissed", from: 1),
                        "\(waiting.lines) \(waiting.stderrText)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 3, "exit status of a dismissed toast")
        XCTAssertTrue(try toasts().isEmpty)

        let again = try toast("dismiss", id)
        XCTAssertEqual(again.status, 1, "dismissing a closed toast is an error")
        XCTAssertTrue(again.stderrText.hasPrefix("toast: not_found: "), again.stderrText)
    }

    func testDismissAllClosesEveryToast() throws {
        let waiting = try spawnToast(["--wait", "-p", "-t", "0", "One of many"])
        XCTAssertNotNil(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
        try ok("-t", "0", "Two")
        try ok("-t", "0", "-u", "critical", "Three")
        XCTAssertEqual(try toasts().count, 3)
        try ok("dismiss", "--all")
        XCTAssertTrue(try toasts().isEmpty)
        XCTAssertNotNil(waiting.waitForLine(startingWith: "dismissed", from: 1), "\(waiting.lines)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 3)
    }

    func testWaitingClientReportsADaemonThatGoesAway() throws {
        let waiting = try spawnToast(["-w", "-p", "-t", "0", "Orphan"])
        XCTAssertNotNil(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
        XCTAssertEqual(daemon.terminate(), 0, daemon.stderrText)
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 76, "toast --wait after toastd exited: \(waiting.stderrText)")
        XCTAssertTrue(waiting.stderrText.contains("toastd closed the connection"), waiting.stderrText)
        XCTAssertNil(waiting.waitForLine(from: 1, deadline: .after(5)) { _ in true },
                     "nothing but the id on stdout: \(waiting.lines)")
    }

    func testActionWithoutKeyInvokesTheDefaultAction() throws {
        let waiting = try spawnToast(["-p", "-t", "0", "-A", "default=Open", "-A", "skip=Skip", "Click me"])
        let id = try XCTUnwrap(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
        let unknown = try toast("action", id, "nope")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.stderrText.contains("not_found"), unknown.stderrText)
        XCTAssertTrue(waiting.isRunning, "a rejected action must not end the wait")
        try ok("action", id)
        XCTAssertNotNil(waiting.waitForLine(startingWith: "default", from: 1), "\(waiting.lines)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 0)
    }

    // MARK: - History, restore, transient

    func testHistoryListsClosedToastsAndRestoreBringsTheLastBack() throws {
        let empty = try toast("restore")
        XCTAssertEqual(empty.status, 1, "restore with an empty history")
        XCTAssertTrue(empty.stderrText.hasPrefix("toast: not_found: "), empty.stderrText)

        let first = try ok("-p", "-t", "0", "-a", "Mail", "First")
        let second = try ok("-p", "-t", "0", "-a", "Mail", "Second")
        let fleeting = try ok("-p", "-t", "0", "-e", "Fleeting")
        let fleeting2 = try ok("-p", "-t", "0", "--transient", "Fleeting too")
        try ok("dismiss", first)
        try ok("dismiss", second, fleeting, fleeting2)

        let history = try toasts("history")
        XCTAssertEqual(history.map { self.id($0) }, [Int(second), Int(first)],
                       "newest first, transient toasts not kept: \(history)")
        XCTAssertEqual(history.first?["summary"] as? String, "Second")
        XCTAssertEqual(history.first?["app_name"] as? String, "Mail")
        XCTAssertEqual(history.first?["reason"] as? String, "dismissed")

        let table = try ok("history")
        let rows = table.split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.count, 3, table)
        XCTAssertTrue(rows[0].contains("REASON"), table)
        XCTAssertTrue(rows[1].hasPrefix(second) && rows[1].contains("Second") && rows[1].contains("dismissed"), table)

        XCTAssertEqual(try ok("restore"), second)
        let list = try toasts()
        XCTAssertEqual(list.map { self.id($0) }, [Int(second)])
        XCTAssertEqual(list.first?["summary"] as? String, "Second")
        XCTAssertEqual(try toasts("history").map { self.id($0) }, [Int(first)], "restored toasts leave the history")
    }

    func testListTableShowsTheToasts() throws {
        XCTAssertEqual(try ok("list").split(separator: "\n").count, 1, "only the header when nothing shows")
        let id = try ok("-p", "-t", "0", "-u", "low", "-a", "Tabled", "Row summary")
        let rows = try ok("list").split(separator: "\n").map(String.init)
        XCTAssertEqual(rows.count, 2, "\(rows)")
        XCTAssertTrue(rows[0].hasPrefix("ID") && rows[0].contains("SUMMARY"), rows[0])
        XCTAssertTrue(rows[1].hasPrefix(id + " "), rows[1])
        for cell in ["low", "Tabled", "Row summary"] { XCTAssertTrue(rows[1].contains(cell), rows[1]) }
    }

    // MARK: - Do not disturb, version

    func testDoNotDisturbTogglesState() throws {
        XCTAssertEqual(try ok("dnd"), "off")
        XCTAssertEqual(try ok("dnd", "status"), "off")
        XCTAssertEqual(try ok("dnd", "on"), "on")
        XCTAssertEqual(try ok("dnd", "status"), "on")
        XCTAssertEqual(try ok("dnd", "on"), "on")
        XCTAssertEqual(try ok("dnd", "toggle"), "off")
        XCTAssertEqual(try ok("dnd", "toggle"), "on")
        XCTAssertEqual(try ok("dnd", "off"), "off")
        XCTAssertEqual(try ok("dnd", "status"), "off")
        // While it is on, normal toasts wait unseen (listed, no age: never shown); critical ones show.
        XCTAssertEqual(try ok("dnd", "on"), "on")
        let quiet = try ok("-p", "-t", "0", "Quiet")
        let loud = try ok("-p", "-t", "0", "-u", "critical", "Loud")
        var list = try toasts()
        XCTAssertNil(list.first { self.id($0) == Int(quiet) }?["age_ms"], "a normal toast showed during dnd: \(list)")
        XCTAssertNotNil(list.first { self.id($0) == Int(loud) }?["age_ms"], "a critical toast is hidden by dnd: \(list)")
        XCTAssertEqual(try ok("dnd", "off"), "off")
        list = try toasts()
        XCTAssertNotNil(list.first { self.id($0) == Int(quiet) }?["age_ms"], "dnd off shows what waited: \(list)")

        let bad = try toast("dnd", "maybe")
        XCTAssertEqual(bad.status, 64, "a bad mode is a usage error: \(bad.stderrText)")
    }

    func testVersionPrintsBothVersionsAndTheProtocol() throws {
        let lines = try ok("version").split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, "\(lines)")
        XCTAssertNotNil(lines.first?.range(of: #"^toast [0-9]+\.[0-9]+\.[0-9]+ \(protocol 1\)$"#, options: .regularExpression),
                        "\(lines)")
        XCTAssertNotNil(lines.last?.range(of: #"^toastd [0-9]+\.[0-9]+\.[0-9]+ \(protocol 1\)$"#, options: .regularExpression),
                        "\(lines)")
    }

    // MARK: - Errors

    func testDaemonErrorsExitOneWithTheCode() throws {
        let result = try toast("action", "424242", "open")
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderrText.hasPrefix("toast: not_found: "), result.stderrText)
        XCTAssertEqual(result.stderrText.filter { $0 == "\n" }.count, 1, "one line: \(result.stderrText)")
    }

    func testBadCommandLinesExit64WithoutTouchingTheDaemon() throws {
        for arguments in [["-u", "urgent", "x"], ["--value", "101", "x"], ["-h", "int:x", "x"], ["dismiss", "--all", "1"],
                          ["dismiss", "0"], ["--tag", "", "x"], ["action", "1", "a", "b"], ["hud", "volume", "40%%"],
                          ["hud", "volum", "40"], ["hud", "--stream", "volum"]] {
            let result = try stage.toast(arguments, socket: socket)
            XCTAssertEqual(result.status, 64, "toast \(arguments): \(result.stderrText)")
            if arguments.contains("volum") {
                XCTAssertTrue(result.stderrText.hasPrefix("Error: unknown HUD 'volum'; did you mean volume?"), result.stderrText)
            }
        }
        XCTAssertTrue(try toasts().isEmpty)
    }

    // MARK: - Daily driving: the habits of makoctl and dunstctl

    /// A script in the stage directory, executable, with `body` after the shebang.
    private func script(_ name: String, _ body: String) throws -> String {
        let directory = "\(stage.directory)/bin-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = "\(directory)/\(name)"
        try "#!/bin/sh\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(path, 0o755), 0)
        return path
    }

    /// `toast ARGS` with more environment (PATH for the picker).
    private func toast(_ arguments: [String], environment: [String: String]) throws -> CommandResult {
        var env = environment
        env["TOASTD_SOCKET"] = socket
        return try stage.run([try stage.binary("toast")] + arguments, environment: env)
    }

    func testDismissAndActionWithoutAnIDActOnTheNewestToast() throws {
        let none = try toast("dismiss")
        XCTAssertEqual(none.status, 1, "nothing to dismiss")
        XCTAssertEqual(none.stderrText, "toast: not_found: no toast is showing\n")
        XCTAssertEqual(try toast("action").status, 1, "nothing to invoke")

        let older = try spawnToast(["-p", "-t", "0", "-A", "default=Open", "Older"])
        XCTAssertNotNil(older.waitForLine(matching: "^[0-9]+$"), older.stderrText)
        let newer = try spawnToast(["-p", "-t", "0", "-A", "default=Open", "-A", "later=Later", "Newer"])
        XCTAssertNotNil(newer.waitForLine(matching: "^[0-9]+$"), newer.stderrText)

        try ok("action", "later")
        XCTAssertNotNil(newer.waitForLine(startingWith: "later", from: 1), "\(newer.lines) \(newer.stderrText)")
        XCTAssertEqual(newer.waitForExit(timeout: 10), 0)
        XCTAssertTrue(older.isRunning, "the older toast was left alone")

        try ok("-t", "0", "Newest, no actions")
        let noDefault = try toast("action")
        XCTAssertEqual(noDefault.status, 1, "the newest toast has no default action")
        XCTAssertTrue(noDefault.stderrText.hasPrefix("toast: not_found: "), noDefault.stderrText)
        try ok("dismiss")
        XCTAssertEqual(try toasts().map { $0["summary"] as? String }, ["Older"])
        try ok("action")
        XCTAssertNotNil(older.waitForLine(startingWith: "default", from: 1), "\(older.lines) \(older.stderrText)")
        XCTAssertEqual(older.waitForExit(timeout: 10), 0)
        XCTAssertTrue(try toasts().isEmpty)
    }

    /// A launcher's XDG_ACTIVATION_TOKEN, in the environment of `toast action`, reaches the app before
    /// the action (spec 1.3); `toast -A … --json` prints it with the outcome.
    func testActionPassesOnTheLaunchersActivationTokenAndJsonPrintsIt() throws {
        let waiting = try spawnToast(["-p", "-t", "0", "-A", "open=Open", "--json", "Open me"])
        let id = try XCTUnwrap(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
        let result = try toast(["action", id, "open"], environment: ["XDG_ACTIVATION_TOKEN": "launcher-token-42"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(waiting.waitForLine(startingWith: "{", from: 1),
                       #"{"id":\#(id),"action":"open","activation_token":"launcher-token-42"}"#, "\(waiting.lines) \(waiting.stderrText)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 0)

        // Without a token, and a close instead of an action.
        let plain = try spawnToast(["-p", "-t", "0", "-A", "open=Open", "--json", "Close me"])
        let other = try XCTUnwrap(plain.waitForLine(matching: "^[0-9]+$"), plain.stderrText)
        _ = try ok("dismiss", other)
        XCTAssertEqual(plain.waitForLine(startingWith: "{", from: 1), #"{"id":\#(other),"closed":"dismissed"}"#)
        XCTAssertEqual(plain.waitForExit(timeout: 10), 3)
    }

    func testMenuPipesTheNewestToastsActionsToThePickerAndInvokesTheChoice() throws {
        let empty = try toast("menu", "true")
        XCTAssertEqual(empty.status, 1)
        XCTAssertEqual(empty.stderrText, "toast: no toast is showing\n")

        let waiting = try spawnToast(["-p", "-t", "0", "-A", "first=First", "-A", "second=Second", "-A", "third=Third", "Pick one"])
        XCTAssertNotNil(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
        // A picker that chooses nothing, and none at all on PATH: exit 1, the toast still waits.
        let nothing = try toast("menu", "true")
        XCTAssertEqual(nothing.status, 1)
        XCTAssertEqual(nothing.stderrText, "toast: nothing chosen\n")
        let emptyPath = try toast(["menu"], environment: ["PATH": "\(stage.directory)/no-such-dir"])
        XCTAssertEqual(emptyPath.status, 1)
        XCTAssertTrue(emptyPath.stderrText.hasPrefix("toast: no picker found: install a Wayland one (wofi, fuzzel, tofi or bemenu"),
                      emptyPath.stderrText)
        XCTAssertTrue(waiting.isRunning)

        // Our own picker: it sees the labels, one a line, and chooses the second.
        let seen = "\(stage.directory)/picker-input-\(UUID().uuidString.prefix(8))"
        let picker = try script("second-line", "tee \(seen) | sed -n 2p")
        try ok("menu", picker)
        XCTAssertNotNil(waiting.waitForLine(startingWith: "second", from: 1), "\(waiting.lines) \(waiting.stderrText)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 0)
        XCTAssertEqual(try String(contentsOfFile: seen, encoding: .utf8), "First\nSecond\nThird\n")
        XCTAssertTrue(try toasts().isEmpty)
    }

    /// `toast menu` hands on a launcher's XDG_ACTIVATION_TOKEN with the action it invokes, as `toast
    /// action` does.
    func testMenuPassesOnTheLaunchersActivationToken() throws {
        let waiting = try spawnToast(["-p", "-t", "0", "-A", "open=Open", "-A", "later=Later", "--json", "Pick"])
        let id = try XCTUnwrap(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
        let picker = try script("first-line", "head -n 1")
        let result = try toast(["menu", picker], environment: ["XDG_ACTIVATION_TOKEN": "menu-token-7"])
        XCTAssertEqual(result.status, 0, result.stderrText)
        XCTAssertEqual(waiting.waitForLine(startingWith: "{", from: 1),
                       #"{"id":\#(id),"action":"open","activation_token":"menu-token-7"}"#, "\(waiting.lines) \(waiting.stderrText)")
        XCTAssertEqual(waiting.waitForExit(timeout: 10), 0)
    }

    func testMistypedVerbsAreRefusedAndRealSummariesStillShow() throws {
        for (arguments, verb) in [(["lsit"], "list"), (["dismis", "5"], "dismiss"), (["histroy"], "history")] {
            let result = try toast(arguments, environment: [:])
            XCTAssertEqual(result.status, 64, "toast \(arguments): \(result.stderrText)")
            XCTAssertEqual(result.stderrText, "toast: unknown command '\(arguments[0])'; did you mean '\(verb)'? "
                           + "(use `toast send \(arguments.joined(separator: " "))` to show it as a toast)\n")
            XCTAssertEqual(result.stdoutText, "")
        }
        XCTAssertTrue(try toasts().isEmpty, "a typo showed a toast")

        try ok("send", "lsit")
        try ok("Build finished")
        try ok("hello", "world")
        XCTAssertEqual(try toasts().map { $0["summary"] as? String }, ["lsit", "Build finished", "hello"])
    }

    /// The lines README's Use section adds for daily driving, run exactly as written (the picker is a
    /// `wofi` of ours first on PATH, which chooses the second action).
    func testReadmeDailyDrivingLinesRunAsWritten() throws {
        let readme = try String(contentsOfFile: "\(stage.repository)/README.md", encoding: .utf8)
        let lines = ["toast dismiss", "toast action", "toast action KEY", "toast menu", "toast reload", "toast hud volume 40%"]
        let written = readme.split(separator: "\n").map { $0.split(separator: "#")[0].trimmingCharacters(in: .whitespaces) }
        for line in lines { XCTAssertTrue(written.contains(line), "README's Use section lacks `\(line)`") }

        let wofi = try script("wofi", #"[ "$1" = -d ] || exit 2; sed -n 2p"#)
        let path = (wofi as NSString).deletingLastPathComponent + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        func run(_ line: String, key: String? = nil) throws -> CommandResult {
            var words = line.split(separator: " ").map(String.init).dropFirst().map { $0 }
            if let key { words = words.map { $0 == "KEY" ? key : $0 } }
            return try toast(words, environment: ["PATH": path])
        }
        for line in ["toast dismiss", "toast action", "toast action KEY", "toast menu"] {
            let waiting = try spawnToast(["-p", "-t", "0", "-A", "default=Open", "-A", "snooze=Snooze", line])
            XCTAssertNotNil(waiting.waitForLine(matching: "^[0-9]+$"), waiting.stderrText)
            let result = try run(line, key: "snooze")
            XCTAssertEqual(result.status, 0, "\(line): \(result.stderrText)")
            let expected = ["toast dismiss": "dismissed", "toast action": "default", "toast action KEY": "snooze",
                            "toast menu": "snooze"][line]!
            XCTAssertNotNil(waiting.waitForLine(startingWith: expected, from: 1), "\(line): \(waiting.lines)")
            waiting.terminate()
        }
        let hud = try run("toast hud volume 40%")
        XCTAssertEqual(hud.status, 0, hud.stderrText)
        let reload = try run("toast reload")
        XCTAssertEqual(reload.status, 0, reload.stderrText)
        XCTAssertTrue(waitUntil(timeout: 10) { self.daemon.stderrText.contains("reloaded") }, "toastd: \(daemon.stderrText)")
    }
}
