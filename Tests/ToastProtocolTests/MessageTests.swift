import ToastVocabulary
import XCTest
@testable import ToastProtocol

final class MessageTests: XCTestCase {
    static let fullNotify = NotifyParams(
        summary: "Hello \"world\"", body: "line 1\nline 2 <b>bold</b>", urgency: .critical, expireMs: 5000,
        icon: "dialog-information", appName: "mail", category: "email.arrived",
        hints: [Hint(name: "x", value: .int(-5)), Hint(name: "y", value: .double(0.5)),
                Hint(name: "sound-name", value: .string("bell")), Hint(name: "urgency", value: .byte(2)),
                Hint(name: "resident", value: .boolean(true))],
        actions: [NotificationAction(key: "default", label: "Open"), NotificationAction(key: "0", label: "Later")],
        replaceID: 42, tag: "volume", value: 75, transient: true, wait: true)

    static let allRequests: [Request] = [
        .notify(NotifyParams(summary: "")),
        .notify(NotifyParams(summary: "Hi", expireMs: 0)),
        .notify(fullNotify),
        .dismiss(.ids([1, 2, NotificationID.max])),
        .dismiss(.all),
        .dismiss(.newest),
        .list,
        .history,
        .restore(id: nil),
        .restore(id: 9),
        .historyClear,
        .action(id: 3, key: nil),
        .action(id: 3, key: "reply"),
        .action(id: nil, key: nil),
        .action(id: nil, key: "reply"),
        .action(id: 4, key: "open", activationToken: "token"),
        .dnd(.on), .dnd(.off), .dnd(.toggle), .dnd(.status), .dnd(.on, until: 1_800_000_000),
        .mode(ModeChange()), .mode(ModeChange(set: ["default", "work"])), .mode(ModeChange(add: ["work"], until: 1_800_000_000)),
        .mode(ModeChange(add: ["a"], remove: ["b", "c"], toggle: ["do-not-disturb"])),
        .version,
        .reload,
        .settings,
        .subscribe(.all),
        .subscribe(.ids([7])),
        .hud(HudParams(kind: "volume", value: 0)),
        .hud(HudParams(kind: "brightness", value: 200, muted: true, label: "Screen", icon: "display")),
        .loadingStart(key: "build", label: nil, detach: false),
        .loadingStart(key: "sync", label: "Syncing…", detach: true),
        .loadingStop(key: "build"),
        .hudStream(HudParams(kind: "volume", value: 0, muted: true, label: "Vol")),
        .osd(OsdParams(target: .volume, action: .by(-5), device: "hdmi", max: 150)),
        .osd(OsdParams(target: .brightness, action: .set(40), leds: "kbd")),
        .osd(OsdParams(target: .capslock, action: .show)),
        .osd(OsdParams(target: .media, action: .playPause)),
        .status(follow: false),
        .status(follow: true),
        .center(.toggle), .center(.open), .center(.close), .focus,
        .reply(id: nil, text: "on my way"), .reply(id: 7, text: "ok"),
    ]

    func testEveryRequestRoundTrips() throws {
        XCTAssertEqual(Set(Self.allRequests.map(\.name)), Set(Request.names))
        for request in Self.allRequests {
            let line = request.encode()
            XCTAssertFalse(line.contains("\n"), line)
            XCTAssertTrue(line.hasPrefix(#"{"v":1,"request":""#), line)
            XCTAssertEqual(try Request.decode(line: line).get(), request, line)
            XCTAssertEqual(request.encodedLine(), Array((line + "\n").utf8))
        }
    }

    func testRequestWireForm() {
        XCTAssertEqual(Request.notify(NotifyParams(summary: "Hi", body: "there", urgency: .low)).encode(),
                       #"{"v":1,"request":"notify","summary":"Hi","body":"there","urgency":"low"}"#)
        XCTAssertEqual(Request.dismiss(.ids([4])).encode(), #"{"v":1,"request":"dismiss","ids":[4]}"#)
        XCTAssertEqual(Request.dismiss(.newest).encode(), #"{"v":1,"request":"dismiss","newest":true}"#)
        XCTAssertEqual(Request.action(id: nil, key: nil).encode(), #"{"v":1,"request":"action"}"#)
        XCTAssertEqual(Request.action(id: nil, key: "open").encode(), #"{"v":1,"request":"action","key":"open"}"#)
        XCTAssertEqual(Request.loadingStart(key: "k", label: nil, detach: true).encode(),
                       #"{"v":1,"request":"loading_start","key":"k","detach":true}"#)
    }

    /// `mode`: its wire form, the order its changes apply in (as makoctl's flags), and bad names refused.
    func testModeRequests() {
        XCTAssertEqual(Request.mode(ModeChange()).encode(), #"{"v":1,"request":"mode"}"#)
        XCTAssertEqual(Request.mode(ModeChange(set: ["a"], toggle: ["b"])).encode(),
                       #"{"v":1,"request":"mode","set":["a"],"toggle":["b"]}"#)
        XCTAssertEqual(ModeChange(set: ["x", "y"], add: ["z", "x"], remove: ["y"], toggle: ["x", "w"]).applied(to: ["q"]),
                       ["z", "w"])
        XCTAssertEqual(ModeChange(add: ["b"]).applied(to: ["a"]), ["a", "b"])
        XCTAssertEqual(ModeChange().applied(to: ["a"]), ["a"])
        for bad in [#"{"v":1,"request":"mode","add":["two words"]}"#, #"{"v":1,"request":"mode","add":[""]}"#,
                    #"{"v":1,"request":"mode","set":[3]}"#, #"{"v":1,"request":"mode","add":"a"}"#] {
            XCTAssertThrowsError(try Request.decode(line: bad).get(), bad)
        }
        XCTAssertEqual(Reply.ok(.modes(["default"])).encode(), #"{"v":1,"ok":true,"modes":["default"]}"#)
    }

    /// When a mode ends: wall-clock seconds, within reason; how people write it.
    func testModeEnds() {
        XCTAssertEqual(Request.dnd(.on, until: 1_800_000_000).encode(), #"{"v":1,"request":"dnd","mode":"on","until":1800000000}"#)
        XCTAssertEqual(Reply.ok(.dnd(true, until: 1_800_000_000)).encode(), #"{"v":1,"ok":true,"dnd":true,"dnd_until":1800000000}"#)
        for bad in [#"{"v":1,"request":"dnd","mode":"on","until":-1}"#, #"{"v":1,"request":"dnd","mode":"on","until":"09:00"}"#,
                    #"{"v":1,"request":"mode","add":["a"],"until":99999999999999}"#] {
            XCTAssertThrowsError(try Request.decode(line: bad).get(), bad)
        }
        XCTAssertEqual(ModeEndText.seconds("30m"), 1800)
        XCTAssertEqual(ModeEndText.seconds("1h30m"), 5400)
        XCTAssertEqual(ModeEndText.seconds("2s"), 2)
        XCTAssertEqual(ModeEndText.seconds("7d"), 604_800)
        for bad in ["", "30", "m", "8d", "0s", "1x", "-5m", "1h 30m", "99999999999999h", "h1"] {
            XCTAssertNil(ModeEndText.seconds(bad), bad)
        }
        XCTAssertEqual(ModeEndText.clockTime("09:00")?.hour, 9)
        XCTAssertEqual(ModeEndText.clockTime("9:05")?.minute, 5)
        XCTAssertEqual(ModeEndText.clockTime("23:59")?.hour, 23)
        for bad in ["24:00", "12:60", "9", "9:5", "09:00:00", "ab:cd", ":30", ""] {
            XCTAssertNil(ModeEndText.clockTime(bad), bad)
        }
    }

    func testEveryReplyRoundTrips() throws {
        let replies: [Reply] = [
            .ok,
            .ok(.id(9)),
            .ok(.toasts([])),
            .ok(.toasts([
                ToastInfo(id: 1, summary: "a"),
                ToastInfo(id: 2, summary: "b", body: "c", appName: "app", icon: "i", urgency: .critical,
                          category: "cat", tag: "t", value: 50,
                          actions: [NotificationAction(key: "k", label: "K")], ageMs: 1234, reason: .expired),
            ])),
            .ok(.dnd(true)),
            .ok(.dnd(false)),
            .ok(.dnd(true, until: 1_800_000_000)),
            .ok(.modes([])),
            .ok(.modes(["default", "do-not-disturb"])),
            .ok(.version(VersionInfo(daemon: "0.1.0"))),
            .ok(.warnings([])),
            .ok(.warnings(["/c:3: unknown key 'x'", "/c: 2 more problems not listed"])),
            .ok(.settings(DaemonSettings(clickableActions: true))),
            .ok(.settings(DaemonSettings(clickableActions: false))),
            .ok(.status(StatusInfo(open: 3, hidden: 1, history: 50, dnd: true, loading: 2))),
            .ok(.status(StatusInfo(open: 0, hidden: 0, history: 0, dnd: true, dndUntil: 1_800_000_000))),
            .error(ProtocolError(.notFound, "no toast 5")),
            .error(ProtocolError(ErrorCode(rawValue: "some_future_code"), "kept as is")),
        ] + ErrorCode.known.map { .error(ProtocolError($0, "message for \($0)")) }
        for reply in replies {
            let line = reply.encode()
            XCTAssertEqual(try Reply.decode(line: line).get(), reply, line)
            XCTAssertEqual(try ServerMessage.decode(line: line).get(), .reply(reply), line)
        }
        XCTAssertEqual(Reply.error(ProtocolError(.invalidJSON, "x")).encode(),
                       #"{"v":1,"ok":false,"error":{"code":"invalid_json","message":"x"}}"#)
        XCTAssertEqual(Reply.ok(.id(3)).encode(), #"{"v":1,"ok":true,"id":3}"#)
        XCTAssertEqual(Reply.ok(.warnings(["/c:1: bad"])).encode(), #"{"v":1,"ok":true,"warnings":["/c:1: bad"]}"#)
        XCTAssertEqual(Reply.ok(.settings(DaemonSettings(clickableActions: false))).encode(),
                       #"{"v":1,"ok":true,"settings":{"clickable_actions":false}}"#)
        XCTAssertThrowsError(try Reply.decode(line: #"{"v":1,"ok":true,"warnings":[3]}"#).get())
    }

    func testEveryEventRoundTrips() throws {
        let events: [Event] = CloseReason.allCases.map { .closed(id: 4, reason: $0) }
            + [.action(id: 4, key: "default"), .action(id: NotificationID.max, key: "with \"quotes\""),
               .status(StatusInfo(open: 0, hidden: 0, history: 2, dnd: false)),
               .activationToken(id: 4, token: "wayland-token")]
        for event in events {
            let line = event.encode()
            XCTAssertEqual(try Event.decode(line: line).get(), event, line)
            XCTAssertEqual(try ServerMessage.decode(line: line).get(), .event(event), line)
        }
        XCTAssertEqual(Event.status(StatusInfo(open: 2, hidden: 1, history: 5, dnd: true)).encode(),
                       #"{"v":1,"event":"status","open":2,"hidden":1,"history":5,"dnd":true,"loading":0}"#)
        XCTAssertEqual(Request.status(follow: true).encode(), #"{"v":1,"request":"status","follow":true}"#)
        XCTAssertEqual(Event.closed(id: 7, reason: .dismissed).encode(),
                       #"{"v":1,"event":"closed","id":7,"reason":"dismissed"}"#)
        XCTAssertEqual(CloseReason.allCases.map(\.specCode), [1, 2, 3, 4])
    }

    func testRepliesAndEventsAreTellApart() {
        XCTAssertEqual(Reply.decode(line: Event.action(id: 1, key: "k").encode()).failureCode, .invalidType)
        XCTAssertEqual(Event.decode(line: Reply.ok.encode()).failureCode, .invalidType)
        XCTAssertEqual(ServerMessage.decode(line: #"{"v":1}"#).failureCode, .missingField)
        XCTAssertEqual(ServerMessage.decode(line: #"{"v":1,"ok":true,"event":"closed"}"#).failureCode,
                       .conflictingFields)
        XCTAssertEqual(ServerMessage.decode(line: #"{"v":1,"ok":true,"id":1,"dnd":true}"#).failureCode,
                       .conflictingFields)
        XCTAssertEqual(ServerMessage.decode(line: #"{"v":1,"event":"exploded","id":1}"#).failureCode,
                       .unknownRequest)
    }

    func testNewerDaemonsVersionErrorStillDecodes() throws {
        let line = #"{"v":2,"ok":false,"error":{"code":"unsupported_version","message":"speak 2"}}"#
        XCTAssertEqual(try Reply.decode(line: line).get(), .error(ProtocolError(.unsupportedVersion, "speak 2")))
        XCTAssertEqual(Reply.decode(line: #"{"v":2,"ok":true}"#).failureCode, .unsupportedVersion)
    }

    /// Request validation: each bad line and the code it must give.
    func testRequestValidationTable() {
        let long = #"{"v":1,"request":"notify","summary":""# + String(repeating: "x", count: ProtocolLimits.maxLineLength) + #""}"#
        let cases: [(String, ErrorCode)] = [
            (long, .lineTooLong),
            ("{", .invalidJSON),
            (#"{"v":1,"request":"list",}"#, .invalidJSON),
            ("[]", .invalidType),
            (#""notify""#, .invalidType),
            (#"{"request":"list"}"#, .missingField),
            (#"{"v":"1","request":"list"}"#, .invalidType),
            (#"{"v":1.0,"request":"list"}"#, .invalidType),
            (#"{"v":2,"request":"list"}"#, .unsupportedVersion),
            (#"{"v":0,"request":"list"}"#, .unsupportedVersion),
            (#"{"v":1}"#, .missingField),
            (#"{"v":1,"request":7}"#, .invalidType),
            (#"{"v":1,"request":"explode"}"#, .unknownRequest),
            (#"{"v":1,"request":"list","extra":1}"#, .unknownField),
            (#"{"v":1,"request":"list","Request":"x"}"#, .unknownField),
            // notify
            (#"{"v":1,"request":"notify"}"#, .missingField),
            (#"{"v":1,"request":"notify","body":"no summary"}"#, .missingField),
            (#"{"v":1,"request":"notify","summary":null}"#, .missingField),
            (#"{"v":1,"request":"notify","summary":5}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","colour":"red"}"#, .unknownField),
            (#"{"v":1,"request":"notify","summary":"a","urgency":"urgent"}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","urgency":2}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","expire_ms":-2}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","expire_ms":2147483648}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","expire_ms":1.5}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","value":101}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","value":-1}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","value":"50"}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","replace_id":0}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","replace_id":4294967296}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","replace_id":-3}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","tag":""}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","transient":"yes"}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","wait":1}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","hints":[]}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","hints":{"x":5}}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","hints":{"x":{"int":5,"byte":1}}}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","hints":{"x":{"float":5}}}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","hints":{"x":{"int":"5"}}}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","hints":{"x":{"int":2147483648}}}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","hints":{"u":{"byte":256}}}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","hints":{"t":{"boolean":"true"}}}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","actions":{"k":"l"}}"#, .invalidType),
            (#"{"v":1,"request":"notify","summary":"a","actions":[{"key":"k"}]}"#, .missingField),
            (#"{"v":1,"request":"notify","summary":"a","actions":[{"key":"","label":"l"}]}"#, .outOfRange),
            (#"{"v":1,"request":"notify","summary":"a","actions":[{"key":"k","label":"l","x":1}]}"#, .unknownField),
            (#"{"v":1,"request":"notify","summary":"a","actions":[{"key":"k","label":"1"},{"key":"k","label":"2"}]}"#, .outOfRange),
            // dismiss / subscribe
            (#"{"v":1,"request":"dismiss"}"#, .missingField),
            (#"{"v":1,"request":"dismiss","ids":[]}"#, .outOfRange),
            (#"{"v":1,"request":"dismiss","ids":[0]}"#, .outOfRange),
            (#"{"v":1,"request":"dismiss","ids":["1"]}"#, .invalidType),
            (#"{"v":1,"request":"dismiss","ids":5}"#, .invalidType),
            (#"{"v":1,"request":"dismiss","all":false}"#, .outOfRange),
            (#"{"v":1,"request":"dismiss","ids":[1],"all":true}"#, .conflictingFields),
            (#"{"v":1,"request":"dismiss","newest":false}"#, .outOfRange),
            (#"{"v":1,"request":"dismiss","newest":"yes"}"#, .invalidType),
            (#"{"v":1,"request":"dismiss","newest":true,"ids":[1]}"#, .conflictingFields),
            (#"{"v":1,"request":"dismiss","newest":true,"all":true}"#, .conflictingFields),
            (#"{"v":1,"request":"subscribe","all":true,"newest":true}"#, .unknownField),
            (#"{"v":1,"request":"subscribe","all":"yes"}"#, .invalidType),
            // action
            (#"{"v":1,"request":"action","key":null,"name":"x"}"#, .unknownField),
            (#"{"v":1,"request":"action","id":0}"#, .outOfRange),
            (#"{"v":1,"request":"action","id":1,"key":""}"#, .outOfRange),
            (#"{"v":1,"request":"action","id":"1"}"#, .invalidType),
            // dnd
            (#"{"v":1,"request":"dnd"}"#, .missingField),
            (#"{"v":1,"request":"dnd","mode":"maybe"}"#, .outOfRange),
            (#"{"v":1,"request":"dnd","mode":true}"#, .invalidType),
            // hud
            (#"{"v":1,"request":"hud","value":5}"#, .missingField),
            (#"{"v":1,"request":"hud","kind":"volume"}"#, .missingField),
            (#"{"v":1,"request":"hud","kind":"","value":5}"#, .outOfRange),
            (#"{"v":1,"request":"hud","kind":"volume","value":201}"#, .outOfRange),
            (#"{"v":1,"request":"hud","kind":"volume","value":-1}"#, .outOfRange),
            (#"{"v":1,"request":"hud","kind":"volume","value":50.5}"#, .invalidType),
            (#"{"v":1,"request":"hud","kind":"volume","value":5,"muted":"no"}"#, .invalidType),
            // loading
            (#"{"v":1,"request":"loading_start"}"#, .missingField),
            (#"{"v":1,"request":"loading_start","key":"k","detach":"no"}"#, .invalidType),
            (#"{"v":1,"request":"loading_stop","key":"k","label":"x"}"#, .unknownField),
            (#"{"v":1,"request":"list","ids":[1]}"#, .unknownField),
        ]
        for (line, code) in cases {
            switch Request.decode(line: line) {
            case .success(let r): XCTFail("accepted \(line.prefix(120)) as \(r)")
            case .failure(let e): XCTAssertEqual(e.code, code, "\(line.prefix(120)): \(e.message)")
            }
        }
    }

    func testRequestDecodingAcceptsDaemonFriendlyForms() throws {
        // Members in any order, null as absent, whitespace and a trailing CR (socat crlf).
        XCTAssertEqual(try Request.decode(line: " {\"summary\":\"a\",\"body\":null,\"request\":\"notify\",\"v\":1}\r").get(),
                       .notify(NotifyParams(summary: "a")))
        // A double hint may be written as an integer.
        XCTAssertEqual(try Request.decode(line: #"{"v":1,"request":"notify","summary":"a","hints":{"y":{"double":2}}}"#).get(),
                       .notify(NotifyParams(summary: "a", hints: [Hint(name: "y", value: .double(2))])))
        // Exactly at the line limit is fine.
        let prefix = #"{"v":1,"request":"notify","summary":""#
        let line = prefix + String(repeating: "x", count: ProtocolLimits.maxLineLength - prefix.utf8.count - 2) + #""}"#
        XCTAssertEqual(line.utf8.count, ProtocolLimits.maxLineLength)
        XCTAssertNoThrow(try Request.decode(line: line).get())
    }

    /// Without an id, `action` and `dismiss` mean the newest toast showing (makoctl's habit); `dismiss`
    /// still needs one of its three selections, and says so.
    func testAlertIsANotifyMember() {
        var params = NotifyParams(summary: "Deploy?", actions: [NotificationAction(key: "yes", label: "Yes")], wait: true)
        params.alert = true
        XCTAssertEqual(try Request.decode(line: Request.notify(params).encode()).get(), .notify(params))
        XCTAssertTrue(Request.notify(params).encode().hasSuffix(#""wait":true,"alert":true}"#))
    }

    func testCenterAndReplyRequests() {
        XCTAssertEqual(try Request.decode(line: #"{"v":1,"request":"center"}"#).get(), .center(.toggle))
        XCTAssertEqual(try Request.decode(line: #"{"v":1,"request":"center","mode":"open"}"#).get(), .center(.open))
        XCTAssertEqual(Request.center(.close).encode(), #"{"v":1,"request":"center","mode":"close"}"#)
        XCTAssertEqual(Request.reply(id: 3, text: "hi").encode(), #"{"v":1,"request":"reply","id":3,"text":"hi"}"#)
        for bad in [#"{"v":1,"request":"center","mode":"flip"}"#, #"{"v":1,"request":"reply"}"#,
                    #"{"v":1,"request":"reply","text":""}"#, #"{"v":1,"request":"reply","id":0,"text":"x"}"#] {
            XCTAssertThrowsError(try Request.decode(line: bad).get(), bad)
        }
    }

    func testNewestIsWhatActionAndDismissMeanWithoutIDs() throws {
        XCTAssertEqual(try Request.decode(line: #"{"v":1,"request":"action"}"#).get(), .action(id: nil, key: nil))
        XCTAssertEqual(try Request.decode(line: #"{"v":1,"request":"action","id":null,"key":"k"}"#).get(),
                       .action(id: nil, key: "k"))
        XCTAssertEqual(try Request.decode(line: #"{"v":1,"request":"dismiss","newest":true}"#).get(), .dismiss(.newest))
        XCTAssertEqual(Request.decode(line: #"{"v":1,"request":"dismiss"}"#).failureMessage,
                       #"dismiss request needs "ids", "all" or "newest""#)
        XCTAssertEqual(Request.decode(line: #"{"v":1,"request":"subscribe"}"#).failureMessage,
                       #"subscribe request needs "ids" or "all""#)
    }

    func testErrorMessagesNameTheField() throws {
        XCTAssertEqual(Request.decode(line: #"{"v":1,"request":"notify","summary":"a","colour":1}"#).failureMessage,
                       #"unknown field "colour" in notify request"#)
        XCTAssertEqual(Request.decode(line: #"{"v":1,"request":"hud","kind":"v","value":300}"#).failureMessage,
                       #""value" in hud request must be in 0...200, not 300"#)
        // The example in docs/protocol.md.
        let error = try Request.decode(line: #"{"v":1,"request":"notify","summary":"x","urgency":"urgent"}"#).failure()
        XCTAssertEqual(Reply.error(error).encode(),
                       #"{"v":1,"ok":false,"error":{"code":"out_of_range","message":"\"urgency\" in notify request must be one of \"low\", \"normal\", \"critical\", not \"urgent\""}}"#)
    }
}

extension Result where Failure == ProtocolError {
    /// The error of a failure (throws `self` as unexpected success otherwise).
    func failure() throws -> ProtocolError {
        if case .failure(let e) = self { return e }
        throw ProtocolError(.internalError, "expected a failure, got \(self)")
    }

    var failureCode: ErrorCode? {
        if case .failure(let e) = self { return e.code }
        return nil
    }

    var failureMessage: String? {
        if case .failure(let e) = self { return e.message }
        return nil
    }
}
