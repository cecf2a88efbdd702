import ToastVocabulary
import XCTest
import ArgumentParser
import ToastProtocol
@testable import toast

/// The `toast` command line, parsed in-process (no spawning, no daemon).
final class CLIParsingTests: XCTestCase {
    func parse(_ args: [String]) throws -> ParsableCommand { try Toast.parseAsRoot(args) }

    func send(_ args: [String], file: StaticString = #filePath, line: UInt = #line) throws -> NotifyParams {
        let command = try parse(args)
        guard let send = command as? Send else {
            XCTFail("\(args) parsed as \(type(of: command))", file: file, line: line)
            throw CancellationError()
        }
        return send.params
    }

    func testSummaryIsTheDefaultPath() throws {
        XCTAssertEqual(try send(["Hello"]), NotifyParams(summary: "Hello"))
        XCTAssertEqual(try send(["Hello", "World"]), NotifyParams(summary: "Hello", body: "World"))
    }

    func testVerbsAndSummariesThatLookLikeVerbs() throws {
        XCTAssertTrue(try parse(["list"]) is List)
        XCTAssertEqual(try send(["send", "list"]), NotifyParams(summary: "list"))
        XCTAssertEqual(try send(["--", "list"]), NotifyParams(summary: "list"))
        XCTAssertEqual(try send(["send", "--", "-u"]), NotifyParams(summary: "-u"))
    }

    func testNotifySendFlags() throws {
        let p = try send(["-u", "critical", "-t", "2500", "-i", "dialog-warning", "-a", "mail", "-c", "email",
                          "-h", "int:x:5", "-h", "string:sound-name:bell", "-h", "int:x:6", "-r", "12", "-e", "-p",
                          "--tag", "vol", "--value", "30", "Sum", "Body"])
        XCTAssertEqual(p, NotifyParams(
            summary: "Sum", body: "Body", urgency: .critical, expireMs: 2500, icon: "dialog-warning",
            appName: "mail", category: "email",
            hints: [Hint(name: "x", value: .int(6)), Hint(name: "sound-name", value: .string("bell"))],
            replaceID: 12, tag: "vol", value: 30, transient: true))
        let long = try send(["--urgency=low", "--expire-time=0", "--icon=x", "--app-name=a", "--category=c",
                             "--hint=boolean:transient:true", "--replace-id=3", "--transient", "--wait", "S"])
        XCTAssertEqual(long, NotifyParams(summary: "S", urgency: .low, expireMs: 0, icon: "x", appName: "a",
                                          category: "c", hints: [Hint(name: "transient", value: .boolean(true))],
                                          replaceID: 3, transient: true, wait: true))
    }

    func testActionsImplyWaitAndGetIndexKeys() throws {
        let p = try send(["-A", "yes=Yes", "-A", "No", "--action", "Maybe", "Q"])
        XCTAssertEqual(p.actions, [NotificationAction(key: "yes", label: "Yes"), NotificationAction(key: "1", label: "No"),
                                   NotificationAction(key: "2", label: "Maybe")])
        XCTAssertTrue(p.wait)
        XCTAssertFalse(try send(["Q"]).wait)
    }

    func testReplaceIdZeroMeansNone() throws {
        XCTAssertNil(try send(["-r", "0", "S"]).replaceID)
    }

    func testBadNotifyArguments() {
        for args in [[], ["-u", "urgent", "S"], ["-h", "int:x", "S"], ["-h", "byte:u:300", "S"], ["--value", "101", "S"],
                     ["-t", "-5", "S"], ["-r", "-1", "S"], ["--tag", "", "S"], ["S", "B", "extra"]] {
            XCTAssertThrowsError(try parse(args), "\(args)")
        }
    }

    func testHelpIsLongOnlyBecauseDashHIsHint() throws {
        XCTAssertEqual(try send(["-h", "byte:urgency:2", "S"]).hints, [Hint(name: "urgency", value: .byte(2))])
    }

    func testVerbRequests() throws {
        XCTAssertEqual((try parse(["dismiss", "3", "4"]) as? Dismiss)?.request, .dismiss(.ids([3, 4])))
        XCTAssertEqual((try parse(["dismiss", "--all"]) as? Dismiss)?.request, .dismiss(.all))
        XCTAssertThrowsError(try parse(["dismiss"]))
        XCTAssertThrowsError(try parse(["dismiss", "--all", "3"]))
        XCTAssertThrowsError(try parse(["dismiss", "0"]))
        XCTAssertEqual((try parse(["action", "5"]) as? InvokeAction)?.request, .action(id: 5, key: nil))
        XCTAssertEqual((try parse(["action", "5", "reply"]) as? InvokeAction)?.request, .action(id: 5, key: "reply"))
        XCTAssertEqual((try parse(["dnd", "toggle"]) as? Dnd)?.mode, .toggle)
        XCTAssertEqual((try parse(["dnd"]) as? Dnd)?.mode, .status)
        XCTAssertThrowsError(try parse(["dnd", "maybe"]))
        XCTAssertEqual((try parse(["list", "--json"]) as? List)?.json, true)
        XCTAssertTrue(try parse(["history"]) is History)
        XCTAssertTrue(try parse(["restore"]) is Restore)
        XCTAssertTrue(try parse(["version"]) is Version)
    }

    func testHudAndLoading() throws {
        let hud = try XCTUnwrap(try parse(["hud", "volume", "40", "--muted", "--label", "Speakers", "--icon", "audio"]) as? Hud)
        XCTAssertEqual(hud.params(value: 40, muted: hud.muted),
                       HudParams(kind: "volume", value: 40, muted: true, label: "Speakers", icon: "audio"))
        XCTAssertEqual((try parse(["hud", "--stream", "brightness"]) as? Hud)?.stream, true)
        XCTAssertThrowsError(try parse(["hud", "volume"]))
        XCTAssertThrowsError(try parse(["hud", "--stream", "volume", "4"]))
        XCTAssertThrowsError(try parse(["hud", "volume", "201"]))
        XCTAssertEqual((try parse(["loading", "start", "build", "--label", "Building"]) as? Loading.Start)?.request,
                       .loadingStart(key: "build", label: "Building", detach: false))
        XCTAssertEqual((try parse(["loading", "start", "sync", "--detach"]) as? Loading.Start)?.request,
                       .loadingStart(key: "sync", label: nil, detach: true))
        XCTAssertEqual((try parse(["loading", "stop", "sync"]) as? Loading.Stop)?.key, "sync")
    }

    func testHudStreamLines() {
        XCTAssertEqual(HudStreamLine.parse("42"), .value(42, muted: false))
        XCTAssertEqual(HudStreamLine.parse(" 42%\r"), .value(42, muted: false))
        XCTAssertEqual(HudStreamLine.parse("0 muted"), .value(0, muted: true))
        XCTAssertEqual(HudStreamLine.parse(""), HudStreamLine.none)
        XCTAssertEqual(HudStreamLine.parse("  "), HudStreamLine.none)
        for bad in ["abc", "4 2", "42 loud", "-1", "201", "%"] {
            guard case .failure = HudStreamLine.parse(bad) else { return XCTFail("accepted \(bad)") }
        }
    }

    func testToastTable() {
        let table = ToastTable.render([
            ToastInfo(id: 3, summary: "Hello\nworld", appName: "mail", urgency: .critical, ageMs: 65_000),
            ToastInfo(id: 12, summary: "x", urgency: .low),
        ], history: false)
        XCTAssertEqual(table, """
            ID  URGENCY   AGE  APP   SUMMARY
            3   critical  1m   mail  Hello world
            12  low       -    -     x

            """)
        XCTAssertTrue(ToastTable.render([ToastInfo(id: 1, summary: "s", reason: .expired)], history: true)
            .contains("expired"))
        XCTAssertEqual([999, 5_000, 3_600_000, 90_000_000].map { ToastTable.age($0) }, ["0s", "5s", "1h", "1d"])
    }

    func testWaitExitStatuses() {
        XCTAssertEqual(CloseReason.allCases.map { Exit.status(for: $0) }, [2, 3, 4, 5])
        XCTAssertEqual(Set(CloseReason.allCases.map { Exit.status(for: $0) } + [Exit.ok, Exit.daemonError,
                           Exit.usage, Exit.unavailable, Exit.protocolFailure]).count, 9, "statuses are distinct")
    }

    func testNotRunningMessageSaysHowToStart() {
        let message = Connection.notRunningMessage(path: "/run/user/1/toastd.sock", errno: ENOENT)
        XCTAssertTrue(message.contains("toastd &"), message)
        XCTAssertTrue(message.contains("/run/user/1/toastd.sock"), message)
        XCTAssertFalse(message.contains("\n"))
    }
}
