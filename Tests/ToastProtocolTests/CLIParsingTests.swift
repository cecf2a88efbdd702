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
        XCTAssertEqual((try parse(["dismiss"]) as? Dismiss)?.request, .dismiss(.newest), "makoctl dismiss")
        XCTAssertThrowsError(try parse(["dismiss", "--all", "3"]))
        XCTAssertThrowsError(try parse(["dismiss", "0"]))
        XCTAssertEqual(try (try parse(["action", "5"]) as? InvokeAction)?.request, .action(id: 5, key: nil))
        XCTAssertEqual(try (try parse(["action", "5", "reply"]) as? InvokeAction)?.request, .action(id: 5, key: "reply"))
        XCTAssertEqual(try (try parse(["action"]) as? InvokeAction)?.request, .action(id: nil, key: nil), "makoctl invoke")
        XCTAssertEqual(try (try parse(["action", "reply"]) as? InvokeAction)?.request, .action(id: nil, key: "reply"))
        for bad in [["action", "0"], ["action", "5x"], ["action", "a", "b"], ["action", "5", "a", "b"], ["action", ""]] {
            XCTAssertThrowsError(try parse(bad), "\(bad)")
        }
        XCTAssertEqual((try parse(["menu"]) as? Menu)?.picker, [])
        XCTAssertEqual((try parse(["menu", "fuzzel", "-d", "--prompt", "x"]) as? Menu)?.picker, ["fuzzel", "-d", "--prompt", "x"])
        XCTAssertEqual((try parse(["dnd", "toggle"]) as? Dnd)?.mode, .toggle)
        XCTAssertEqual((try parse(["dnd"]) as? Dnd)?.mode, .status)
        XCTAssertThrowsError(try parse(["dnd", "maybe"]))
        XCTAssertEqual((try parse(["list", "--json"]) as? List)?.json, true)
        XCTAssertTrue(try parse(["history"]) is History)
        XCTAssertTrue(try parse(["restore"]) is Restore)
        XCTAssertTrue(try parse(["version"]) is Version)
        XCTAssertTrue(try parse(["reload"]) is Reload)
    }

    func testHudAndLoading() throws {
        let hud = try XCTUnwrap(try parse(["hud", "volume", "40", "--muted", "--label", "Speakers", "--icon", "audio"]) as? Hud)
        XCTAssertEqual(hud.params(value: 40, muted: hud.muted),
                       HudParams(kind: "volume", value: 40, muted: true, label: "Speakers", icon: "audio"))
        XCTAssertEqual((try parse(["hud", "--stream", "brightness"]) as? Hud)?.stream, true)
        XCTAssertThrowsError(try parse(["hud", "volume"]))
        XCTAssertThrowsError(try parse(["hud", "--stream", "volume", "4"]))
        XCTAssertThrowsError(try parse(["hud", "volume", "201"]))
        // One value syntax for `hud KIND VALUE` and `--stream` lines: 40 or 40%.
        XCTAssertEqual((try parse(["hud", "volume", "40%"]) as? Hud)?.value, 40)
        XCTAssertEqual(FastPath.parse(["hud", "volume", "40%"]), .hud(HudParams(kind: "volume", value: 40)))
        XCTAssertEqual((try parse(Hud.negativeValueAfterTerminator(["hud", "volume", "-5%"])) as? Hud)?.value, -5)
        for bad in ["40%%", "%", "forty", "201%"] { XCTAssertThrowsError(try parse(["hud", "volume", bad]), bad) }
        XCTAssertEqual((try parse(["loading", "start", "build", "--label", "Building"]) as? Loading.Start)?.request,
                       .loadingStart(key: "build", label: "Building", detach: false))
        XCTAssertEqual((try parse(["loading", "start", "sync", "--detach"]) as? Loading.Start)?.request,
                       .loadingStart(key: "sync", label: nil, detach: true))
        XCTAssertEqual((try parse(["loading", "stop", "sync"]) as? Loading.Stop)?.key, "sync")
    }

    func testAnUnknownHudIsRefusedWithASuggestion() throws {
        XCTAssertEqual(Hud.refusal(ofKind: "volum"), "unknown HUD 'volum'; did you mean volume? (--custom shows a bar of any name)")
        XCTAssertEqual(Hud.refusal(ofKind: "brigthness"), "unknown HUD 'brigthness'; did you mean brightness? (--custom shows a bar of any name)")
        XCTAssertEqual(Hud.refusal(ofKind: "vol"), "unknown HUD 'vol'; did you mean volume? (--custom shows a bar of any name)")
        XCTAssertEqual(Hud.refusal(ofKind: "microphon"), "unknown HUD 'microphon'; did you mean mic? (--custom shows a bar of any name)")
        XCTAssertEqual(Hud.refusal(ofKind: "fan"),
                       "unknown HUD 'fan' (known: volume, mic, brightness, keyboard-brightness; --custom shows a bar of any name)")
        for known in ["volume", "Volume", "mic", "brightness", "keyboard-brightness", "audio", "microphone", "backlight"] {
            XCTAssertNil(Hud.refusal(ofKind: known), known)
            XCTAssertNoThrow(try parse(["hud", known, "40"]), known)
        }
        XCTAssertThrowsError(try parse(["hud", "volum", "40"]))
        XCTAssertThrowsError(try parse(["hud", "--stream", "volum"]))
        XCTAssertNil(FastPath.parse(["hud", "volum", "40"]), "a typo goes to ArgumentParser, which refuses it")
        let custom = try XCTUnwrap(try parse(["hud", "--custom", "fan", "40"]) as? Hud)
        XCTAssertEqual(custom.params(value: 40, muted: false), HudParams(kind: "fan", value: 40))
        XCTAssertEqual((try parse(["hud", "--custom", "--stream", "fan"]) as? Hud)?.stream, true)
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

    /// The daemon reads a stream's plain values from the bytes without making text of them: every line
    /// comes out as the text parser has it, plain or not (a wrong digit loop, a lost `%` or `\r`, a
    /// value out of range let through, would differ).
    func testHudStreamBytesParseAsTheText() {
        let lines = ["42", "42%", "42\r", "42%\r", "0", "100", "200", "201", "1000", "00042", "-1", "", " ", " 42",
                     "42 ", "0 muted", "%", "%\r", "\r", "4 2", "42%%", "abc", "4a", "٤٢", "99999999999999999999"]
        for line in lines {
            XCTAssertEqual(HudStreamLine.parse(bytes: Array(line.utf8)), HudStreamLine.parse(line), "\(line.debugDescription)")
        }
        XCTAssertEqual(HudStreamLine.parse(bytes: Array("70%\r".utf8)), .value(70, muted: false))
    }

    // MARK: Typos

    func testAMistypedVerbIsRefusedWithASuggestion() {
        XCTAssertEqual(CommandTypo.refusal(["lsit"]),
                       "unknown command 'lsit'; did you mean 'list'? (use `toast send lsit` to show it as a toast)")
        XCTAssertEqual(CommandTypo.refusal(["dismis", "5"]),
                       "unknown command 'dismis'; did you mean 'dismiss'? (use `toast send dismis 5` to show it as a toast)")
        let cases: [([String], String)] = [
            (["histroy"], "history"), (["hsitory"], "history"), (["hisotyr"], "history"), (["restor"], "restore"),
            (["actoin"], "action"), (["acton", "3", "open"], "action"), (["dn", "on"], "dnd"), (["dnf", "toggle"], "dnd"),
            (["hdu", "volume", "40"], "hud"), (["hud2", "40%"], "hud"), (["lodaing", "start", "build"], "loading"),
            (["verison"], "version"), (["relaod"], "reload"), (["reloda"], "reload"), (["mneu"], "menu"), (["sned"], "send"), (["lst"], "list"), (["lists"], "list"),
        ]
        for (arguments, verb) in cases {
            XCTAssertEqual(CommandTypo.suggestion(for: arguments[0]), verb, "\(arguments)")
            XCTAssertNotNil(CommandTypo.refusal(arguments), "\(arguments)")
        }
    }

    func testRealSummariesAreNotTypos() {
        for arguments in [["Build finished"], ["hello", "world"], ["hello"], ["test"], ["Sent"], ["done"],
                          ["lsit", "of things to do"], ["lsit", "groceries"], ["-u", "critical", "lsit"], ["lsit", "-t", "0"],
                          ["send", "lsit"], ["--", "lsit"], ["list"], ["dismiss", "5"], ["historical"], ["menus and more"],
                          ["", ""], ["deploy"], ["Deploy?"], ["x"], ["hi"]] {
            XCTAssertNil(CommandTypo.refusal(arguments), "\(arguments)")
        }
    }

    func testDamerauLevenshteinCountsASwapAsOneEdit() {
        func d(_ a: String, _ b: String) -> Int { CommandTypo.damerauLevenshtein(Array(a), Array(b)) }
        XCTAssertEqual(d("lsit", "list"), 1)
        XCTAssertEqual(d("list", "list"), 0)
        XCTAssertEqual(d("", "abc"), 3)
        XCTAssertEqual(d("hello", "help"), 2)
        XCTAssertEqual(d("dismis", "dismiss"), 1)
        XCTAssertEqual(d("hsitroy", "history"), 2)
        XCTAssertEqual(d("ca", "abc"), 3, "optimal string alignment: a swapped pair is not edited again")
    }

    func testTheRefusalQuotesWordsForTheShell() {
        XCTAssertEqual(CommandTypo.shellQuoted("lsit"), "lsit")
        XCTAssertEqual(CommandTypo.shellQuoted("it's"), #"'it'\''s'"#)
        XCTAssertEqual(CommandTypo.shellQuoted(""), "''")
    }

    // MARK: Menu

    func testMenuPicksTheNewestShowingToastAndMapsTheChoiceBack() {
        let actions = [NotificationAction(key: "default", label: "Open"), NotificationAction(key: "later", label: "Remind\nme later"),
                       NotificationAction(key: "blank", label: "  ")]
        XCTAssertEqual(Menu.labels(of: actions), ["Open", "Remind me later", "blank"])
        XCTAssertEqual(Menu.key(chosen: "Remind me later\n", among: actions), "later")
        XCTAssertEqual(Menu.key(chosen: "Open\r\n", among: actions), "default")
        XCTAssertEqual(Menu.key(chosen: "blank", among: actions), "blank")
        XCTAssertNil(Menu.key(chosen: "", among: actions), "nothing chosen")
        XCTAssertNil(Menu.key(chosen: "Something typed\n", among: actions))

        let toasts = [ToastInfo(id: 1, summary: "old", ageMs: 900), ToastInfo(id: 2, summary: "new", ageMs: 10),
                      ToastInfo(id: 3, summary: "hidden by dnd")]
        XCTAssertEqual(Menu.newest(in: toasts)?.id, 2)
        XCTAssertNil(Menu.newest(in: []))
    }

    func testMenuFindsTheFirstKnownPickerOnThePath() {
        let installed: Set<String> = ["/usr/bin/dmenu", "/opt/bin/fuzzel", "/usr/bin/bemenu"]
        XCTAssertEqual(Menu.defaultPicker(path: "/usr/bin:/opt/bin") { installed.contains($0) }, ["fuzzel", "-d"])
        XCTAssertEqual(Menu.defaultPicker(path: "/usr/bin") { installed.contains($0) }, ["bemenu"])
        XCTAssertNil(Menu.defaultPicker(path: "/nowhere") { installed.contains($0) })
        XCTAssertEqual(Menu.defaultPicker(path: "/usr/bin") { $0 == "/usr/bin/tofi" || $0 == "/usr/bin/bemenu" }, ["tofi"])
        XCTAssertEqual(Menu.noPicker, "no picker found: install a Wayland one (wofi, fuzzel, tofi or bemenu; dmenu needs X11), "
                       + "or name one: toast menu CMD…")
        // dmenu cannot open a Wayland display: only with X11's DISPLAY.
        let x11Only: Set<String> = ["/usr/bin/dmenu"]
        XCTAssertEqual(Menu.defaultPicker(path: "/usr/bin", hasX11: true) { x11Only.contains($0) }, ["dmenu"])
        XCTAssertNil(Menu.defaultPicker(path: "/usr/bin", hasX11: false) { x11Only.contains($0) })
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
        // One client's 200-character app name is cut, not padded into every row.
        let long = ToastTable.render([ToastInfo(id: 1, summary: "a", appName: String(repeating: "x", count: 200)),
                                      ToastInfo(id: 2, summary: "b", appName: "mail")], history: false)
        XCTAssertEqual(long.split(separator: "\n").map(\.count).max(), 4 + 9 + 5 + ToastTable.maxColumnWidth + 2 + 7)
        XCTAssertTrue(long.contains(String(repeating: "x", count: 23) + "…  a"), long)
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
        XCTAssertEqual(Connection.notRunningMessage(path: "/s", errno: ENOENT, notStarted: "no D-Bus session bus to start it"),
                       "toastd is not running (no socket at /s; no D-Bus session bus to start it); start it with: toastd &")
    }
}
