import Foundation
import XCTest

/// toastd's control socket, spoken to with raw bytes: permissions, peer credentials, malformed
/// input, many clients, a missing, second or stale daemon. Each daemon here serves the socket
/// only (`--no-dbus`), so it never competes for the stage's bus name.
final class ControlSocketTests: XCTestCase {
    private static let version = #"{"v":1,"request":"version"}"#

    private func socketPath(in directory: String? = nil) throws -> String {
        "\(try directory ?? Stage.shared().runtimeDirectory)/cs-\(UUID().uuidString.prefix(8)).sock"
    }

    /// Asserts that a fresh connection to `path` gets a version reply.
    private func assertServes(_ path: String, _ why: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let client = try UnixClient(path: path)
            let reply = try client.request(Self.version)
            XCTAssertEqual(reply?["ok"] as? Bool, true, "\(why): \(String(describing: reply))", file: file, line: line)
        } catch {
            XCTFail("\(why): \(error)", file: file, line: line)
        }
    }

    // MARK: - Timeouts from display

    /// Eight toasts with 2 s timeouts, five drawn and "+3 more": the three waiting ones get their full
    /// two seconds once they come on screen, and every one closes as expired.
    func testToastsWaitingUnderMoreKeepTheirFullTime() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        let client = try UnixClient(path: path)
        defer { client.close() }
        var burst = ""
        for index in 0..<8 {
            burst += #"{"v":1,"request":"notify","summary":"Burst \#(index)","expire_ms":2000,"wait":true}"# + "\n"
        }
        try client.send(burst)
        var ids: [Int] = []
        for _ in 0..<8 { ids.append(try XCTUnwrap(client.readObject()?["id"] as? Int)) }

        var closedAt: [Int: Date] = [:]
        var reasons: Set<String> = []
        while closedAt.count < 8, let event = client.readObject(timeout: 15) {
            guard event["event"] as? String == "closed", let id = event["id"] as? Int else { continue }
            closedAt[id] = Date()
            reasons.insert(event["reason"] as? String ?? "?")
        }
        XCTAssertEqual(closedAt.count, 8, "not every toast closed: \(closedAt)")
        XCTAssertEqual(reasons, ["expired"])
        // The newest five were drawn first; the oldest three waited under "+3 more" until they left.
        let firstFive = ids[3...].compactMap { closedAt[$0] }.max() ?? .distantFuture
        let lastThree = ids[..<3].compactMap { closedAt[$0] }.min() ?? .distantPast
        XCTAssertGreaterThanOrEqual(lastThree.timeIntervalSince(firstFive), 1.9,
                                    "a waiting toast expired before two seconds on screen")
    }

    // MARK: - Permissions

    func testSocketFileIsMode0600AndOwnedByTheDaemonsUser() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFSOCK, "not a socket")
        XCTAssertEqual(info.st_mode & 0o7777, 0o600, String(info.st_mode & 0o7777, radix: 8))
        XCTAssertEqual(info.st_uid, getuid())
    }

    /// A client of another uid: with the socket's mode 0600 its connect fails (file permissions);
    /// with the file opened to everyone, toastd itself refuses it (SO_PEERCRED) with a
    /// `permission_denied` reply and a hang-up, and keeps serving its own user.
    func testAnotherUserIsRefused() throws {
        let stage = try Stage.shared()
        guard getuid() == 0 else { throw XCTSkip("needs root to run a client as another user") }
        guard let user = getpwnam("toastd-stage") else { throw XCTSkip("no user toastd-stage (the stage makes it)") }
        let (uid, gid) = (user.pointee.pw_uid, user.pointee.pw_gid)

        // A directory the other user can traverse, so only the socket's own checks stand in its way.
        let directory = "/tmp/toastd-cs-\(getpid())-\(UUID().uuidString.prefix(6))"
        XCTAssertEqual(mkdir(directory, 0o755), 0)
        chmod(directory, 0o755)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = try socketPath(in: directory)
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        let keptOpen = try UnixClient(path: path)

        let asOther = ["setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--init-groups",
                       "socat", "-t", "5", "-", "UNIX-CONNECT:\(path)"]
        let input = Data((Self.version + "\n").utf8)

        // 1. File mode alone: connect(2) needs write permission on the socket file.
        let denied = try stage.run(asOther, input: input, timeout: 15)
        XCTAssertNotEqual(denied.status, 0, "another user connected to a 0600 socket: \(denied.stdoutText)")
        XCTAssertTrue(denied.stderrText.contains("Permission denied"), denied.stderrText)
        XCTAssertEqual(denied.stdoutText, "")

        // 2. SO_PEERCRED: the file lets anyone in; the daemon must still refuse the peer.
        XCTAssertEqual(chmod(path, 0o666), 0)
        let refused = try stage.run(asOther, input: input, timeout: 15)
        let reply = (try? JSONSerialization.jsonObject(with: Data(refused.stdoutText.utf8))) as? [String: Any]
        XCTAssertEqual(errorCode(reply), "permission_denied",
                       "the daemon answered another uid: \(refused.stdoutText) \(refused.stderrText)")
        XCTAssertEqual(refused.stdoutText.split(separator: "\n").count, 1,
                       "the version request must not be answered: \(refused.stdoutText)")

        XCTAssertTrue(daemon.isRunning, daemon.stderrText)
        XCTAssertEqual(try keptOpen.request(Self.version)?["ok"] as? Bool, true, "a connection of its own user")
        assertServes(path, "after refusing another user")
    }

    // MARK: - Malformed input

    private struct BadLine {
        let name: String
        let bytes: [UInt8]
        let code: String
        init(_ name: String, _ text: String, _ code: String) {
            self.name = name; bytes = Array(text.utf8); self.code = code
        }
        init(_ name: String, bytes: [UInt8], _ code: String) {
            self.name = name; self.bytes = bytes; self.code = code
        }
    }

    private static let badLines: [BadLine] = [
        BadLine("truncated", #"{"v":1,"request":"#, "invalid_json"),
        BadLine("not json", "hello toastd", "invalid_json"),
        BadLine("trailing comma", #"{"v":1,"request":"list",}"#, "invalid_json"),
        BadLine("duplicate key", #"{"v":1,"v":1,"request":"list"}"#, "invalid_json"),
        BadLine("trailing data", #"{"v":1,"request":"list"} {}"#, "invalid_json"),
        BadLine("lone surrogate", #"{"v":1,"request":"notify","summary":"\ud800"}"#, "invalid_json"),
        BadLine("too deep", #"{"v":1,"request":"list","x":"# + String(repeating: "[", count: 40)
            + String(repeating: "]", count: 40) + "}", "invalid_json"),
        BadLine("stray byte", bytes: Array(#"{"v":1,"request":"notify","summary":""#.utf8) + [0xFF] + Array(#""}"#.utf8),
                "invalid_utf8"),
        BadLine("overlong slash", bytes: Array(#"{"v":1,"request":"notify","summary":""#.utf8) + [0xC0, 0xAF]
            + Array(#""}"#.utf8), "invalid_utf8"),
        BadLine("encoded surrogate", bytes: Array(#"{"v":1,"request":"notify","summary":""#.utf8) + [0xED, 0xA0, 0x80]
            + Array(#""}"#.utf8), "invalid_utf8"),
        BadLine("truncated sequence", bytes: Array(#"{"v":1,"request":"notify","summary":""#.utf8) + [0xE2, 0x82]
            + Array(#""}"#.utf8), "invalid_utf8"),
        BadLine("over 64 KiB", #"{"v":1,"request":"notify","summary":""# + String(repeating: "a", count: 70_000) + #""}"#,
                "line_too_long"),
        BadLine("unknown field", #"{"v":1,"request":"list","colour":"red"}"#, "unknown_field"),
        BadLine("unknown notify field", #"{"v":1,"request":"notify","summary":"x","sumary":"y"}"#, "unknown_field"),
        BadLine("array line", "[1,2,3]", "invalid_type"),
        BadLine("string summary", #"{"v":1,"request":"notify","summary":5}"#, "invalid_type"),
        BadLine("string value", #"{"v":1,"request":"notify","summary":"x","value":"50"}"#, "invalid_type"),
        BadLine("fractional version", #"{"v":1.0,"request":"list"}"#, "invalid_type"),
        BadLine("ids not array", #"{"v":1,"request":"dismiss","ids":7}"#, "invalid_type"),
        BadLine("bad urgency", #"{"v":1,"request":"notify","summary":"x","urgency":"urgent"}"#, "out_of_range"),
        BadLine("value 101", #"{"v":1,"request":"notify","summary":"x","value":101}"#, "out_of_range"),
        BadLine("id 0", #"{"v":1,"request":"dismiss","ids":[0]}"#, "out_of_range"),
        BadLine("id too big", #"{"v":1,"request":"action","id":4294967296}"#, "out_of_range"),
        BadLine("empty tag", #"{"v":1,"request":"notify","summary":"x","tag":""}"#, "out_of_range"),
        BadLine("expire too long", #"{"v":1,"request":"notify","summary":"x","expire_ms":2147483648}"#, "out_of_range"),
        BadLine("hint of wrong type", #"{"v":1,"request":"notify","summary":"x","hints":{"x":{"int":"5"}}}"#, "invalid_type"),
        BadLine("hint int too big", #"{"v":1,"request":"notify","summary":"x","hints":{"x":{"int":2147483648}}}"#, "out_of_range"),
        BadLine("hint byte 256", #"{"v":1,"request":"notify","summary":"x","hints":{"urgency":{"byte":256}}}"#, "out_of_range"),
        BadLine("duplicate action keys", #"{"v":1,"request":"notify","summary":"x","actions":[{"key":"a","label":"A"},{"key":"a","label":"B"}]}"#,
                "out_of_range"),
        BadLine("empty action key", #"{"v":1,"request":"notify","summary":"x","actions":[{"key":"","label":"A"}]}"#, "out_of_range"),
        BadLine("value -1", #"{"v":1,"request":"notify","summary":"x","value":-1}"#, "out_of_range"),
        BadLine("expire -2", #"{"v":1,"request":"notify","summary":"x","expire_ms":-2}"#, "out_of_range"),
        BadLine("replace id 0", #"{"v":1,"request":"notify","summary":"x","replace_id":0}"#, "out_of_range"),
        BadLine("hud value 201", #"{"v":1,"request":"hud","kind":"volume","value":201}"#, "out_of_range"),
        BadLine("empty ids", #"{"v":1,"request":"dismiss","ids":[]}"#, "out_of_range"),
        BadLine("bad dnd mode", #"{"v":1,"request":"dnd","mode":"maybe"}"#, "out_of_range"),
        BadLine("unknown request", #"{"v":1,"request":"explode"}"#, "unknown_request"),
        BadLine("version 2", #"{"v":2,"request":"list"}"#, "unsupported_version"),
        BadLine("version 0", #"{"v":0,"request":"version"}"#, "unsupported_version"),
        BadLine("no version", #"{"request":"list"}"#, "missing_field"),
        BadLine("no summary", #"{"v":1,"request":"notify"}"#, "missing_field"),
        BadLine("ids and all", #"{"v":1,"request":"dismiss","ids":[1],"all":true}"#, "conflicting_fields"),
        BadLine("no such toast", #"{"v":1,"request":"dismiss","ids":[4000000000]}"#, "not_found"),
        BadLine("no such action", #"{"v":1,"request":"action","id":4000000000,"key":"x"}"#, "not_found"),
    ]

    /// Each bad line, on a fresh connection and on one connection kept open across all of them,
    /// gets one error reply with the right code; afterwards both kinds of connection still work.
    func testMalformedInputsGetTheRightErrorAndTheDaemonServesOn() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        let kept = try UnixClient(path: path)
        XCTAssertEqual(try kept.request(Self.version)?["ok"] as? Bool, true)

        for bad in Self.badLines {
            let fresh = try UnixClient(path: path)
            try fresh.send(bad.bytes + [0x0A])
            let reply = fresh.readObject()
            XCTAssertEqual(reply?["ok"] as? Bool, false, "\(bad.name): \(String(describing: reply))")
            XCTAssertEqual(reply?["v"] as? Int, 1, "\(bad.name)")
            XCTAssertEqual(errorCode(reply), bad.code, "\(bad.name) on a fresh connection: \(String(describing: reply))")
            XCTAssertFalse(((reply?["error"] as? [String: Any])?["message"] as? String ?? "").isEmpty, "\(bad.name): no message")
            // The same connection takes a good request after the bad line.
            XCTAssertEqual(try fresh.request(Self.version)?["ok"] as? Bool, true, "\(bad.name): connection unusable after")

            try kept.send(bad.bytes + [0x0A])
            let keptReply = kept.readObject()
            XCTAssertEqual(errorCode(keptReply), bad.code, "\(bad.name) on the kept connection: \(String(describing: keptReply))")
        }
        XCTAssertTrue(daemon.isRunning, "toastd died: \(daemon.stderrText)")
        XCTAssertEqual(try kept.request(Self.version)?["ok"] as? Bool, true, "the kept connection after every bad line")
        assertServes(path, "a fresh connection after every bad line")
        XCTAssertEqual((try kept.request(#"{"v":1,"request":"list"}"#)?["toasts"] as? [Any])?.count, 0,
                       "no bad line made a toast")
    }

    /// The line limit is 65536 bytes, newline excluded: a request of exactly that length is served,
    /// one byte more is `line_too_long`, and the line after it is read from the right place.
    func testLineLimitIsExactly64KiB() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        let client = try UnixClient(path: path)
        let head = #"{"v":1,"request":"dnd","mode":"status""#
        let atLimit = head + String(repeating: " ", count: 65536 - head.utf8.count - 1) + "}"
        XCTAssertEqual(atLimit.utf8.count, 65536)
        XCTAssertEqual(try client.request(atLimit)?["dnd"] as? Bool, false, "a line of exactly 65536 bytes")
        let overLimit = head + String(repeating: " ", count: 65536 - head.utf8.count) + "}"
        try client.send(overLimit + "\n" + #"{"v":1,"request":"dnd","mode":"on"}"# + "\n")
        XCTAssertEqual(errorCode(client.readObject()), "line_too_long")
        XCTAssertEqual(client.readObject()?["dnd"] as? Bool, true, "the request after a long line")
    }

    /// A client that sends requests and never reads the replies is dropped once they pile up;
    /// the daemon does not grow or stall, and serves everyone else.
    func testAClientThatNeverReadsIsDropped() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        let greedy = try UnixClient(path: path)
        let chunk = Array(String(repeating: Self.version + "\n", count: 1000).utf8)
        var hungUp = false
        for _ in 0..<400 where !hungUp {  // up to 11 MB of requests, 28 MB of replies
            do { try greedy.send(chunk) } catch { hungUp = true }
        }
        XCTAssertTrue(hungUp, "toastd kept queueing replies for a client that never reads")
        assertServes(path, "after dropping a client that never reads")
        XCTAssertTrue(daemon.isRunning, daemon.stderrText)
    }

    /// Several requests in one write, a request split over many writes, blank and CRLF lines:
    /// exactly one reply per request, in order.
    func testFramingOneReplyPerRequestInOrder() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        let client = try UnixClient(path: path)

        try client.send(#"{"v":1,"request":"dnd","mode":"on"}"# + "\n\n  \n" + #"{"v":2}"# + "\r\n"
                        + #"{"v":1,"request":"dnd","mode":"status"}"# + "\r\n")
        XCTAssertEqual(client.readObject()?["dnd"] as? Bool, true)
        XCTAssertEqual(errorCode(client.readObject()), "unsupported_version")
        XCTAssertEqual(client.readObject()?["dnd"] as? Bool, true)

        for byte in Array(#"{"v":1,"request":"dnd","mode":"toggle"}"#.utf8) + [0x0A] {
            try client.send([byte])
        }
        XCTAssertEqual(client.readObject()?["dnd"] as? Bool, false)
        XCTAssertNil(client.readLine(timeout: 0.2), "blank lines must not be answered")
    }

    /// A client that connects and says nothing, one that hangs up in the middle of a line and one
    /// that keeps half a line open do not stop anyone else being served.
    func testSilentAndHalfLineClientsDoNotBlockOthers() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }

        let silent = try UnixClient(path: path)
        let halfOpen = try UnixClient(path: path)
        try halfOpen.send(#"{"v":1,"request":"notify","summ"#)
        for _ in 0..<3 {
            let quitter = try UnixClient(path: path)
            try quitter.send(#"{"v":1,"request":"notify","summary":"never finished""#)
            quitter.close()
        }
        assertServes(path, "with a silent client, a half line held open and clients gone mid-line")
        XCTAssertNil(silent.readLine(timeout: 0.1), "nothing is sent to a client that asked nothing")
        XCTAssertNil(halfOpen.readLine(timeout: 0.1), "half a line is not a request")

        // The half line completes later and is answered then; the unfinished ones made no toast.
        try halfOpen.send(#"ary":"finished late","expire_ms":0}"# + "\n")
        XCTAssertNotNil(halfOpen.readObject()?["id"] as? Int, "the completed line was not answered as a notify")
        let list = try UnixClient(path: path).request(#"{"v":1,"request":"list"}"#)
        let summaries = (list?["toasts"] as? [[String: Any]])?.compactMap { $0["summary"] as? String }
        XCTAssertEqual(summaries, ["finished late"])
        XCTAssertTrue(daemon.isRunning, daemon.stderrText)
    }

    /// 100 clients connect at once, each sends a notify before any reads: each gets its own id.
    func testHundredClientsAtOnce() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }

        let clients = try (0..<100).map { _ in try UnixClient(path: path) }
        for (i, client) in clients.enumerated() {
            try client.send(#"{"v":1,"request":"notify","summary":"client \#(i)","expire_ms":0,"transient":true}"# + "\n")
        }
        var ids = Set<Int>()
        for (i, client) in clients.enumerated() {
            let reply = client.readObject()
            XCTAssertEqual(reply?["ok"] as? Bool, true, "client \(i): \(String(describing: reply))")
            if let id = reply?["id"] as? Int { ids.insert(id) }
        }
        XCTAssertEqual(ids.count, 100, "every client gets a distinct id")
        let list = try XCTUnwrap(try clients[0].request(#"{"v":1,"request":"list"}"#)?["toasts"] as? [[String: Any]])
        XCTAssertEqual(list.count, 100)
        XCTAssertEqual(try clients[99].request(#"{"v":1,"request":"dismiss","all":true}"#)?["ok"] as? Bool, true)
        assertServes(path, "after 100 clients")
    }

    /// At most 128 clients at once: when all of them wait on the daemon (here: subscribed, so none is
    /// idle and gives way), the next is answered `busy` and hung up on; when one leaves, a new client
    /// is served again. (Idle ones give way: IntegrationTests/HardeningTests.swift.)
    func testClientsBeyondTheLimitAreToldBusy() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        // A round trip first: by its reply toastd has also seen startToastd's probe connection go.
        var clients = [try UnixClient(path: path)]
        XCTAssertEqual(try clients[0].request(Self.version)?["ok"] as? Bool, true)
        clients += try (1..<128).map { _ in try UnixClient(path: path) }
        for (index, client) in clients.enumerated() {
            let reply = try client.request(#"{"v":1,"request":"subscribe","all":true}"#)
            XCTAssertEqual(reply?["ok"] as? Bool, true, "client \(index + 1) could not subscribe")
        }
        XCTAssertEqual(try clients[127].request(Self.version)?["ok"] as? Bool, true, "the 128th client")
        let extra = try UnixClient(path: path)
        XCTAssertEqual(errorCode(extra.readObject()), "busy", "the 129th client")
        XCTAssertTrue(extra.waitForHangUp())
        clients.removeFirst().close()
        XCTAssertTrue(waitUntil(timeout: 10) {
            guard let client = try? UnixClient(path: path) else { return false }
            return (try? client.request(Self.version))??["ok"] as? Bool == true
        }, "no room again after a client left")
        XCTAssertEqual(try clients[0].request(Self.version)?["ok"] as? Bool, true)
    }

    // MARK: - Events, subscriptions, spinners

    /// `subscribe` with `all` hears every toast's action and closed events, whoever sent it;
    /// `subscribe` by an id that is not showing is `not_found`.
    func testSubscribeHearsEveryToastsEvents() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        let watcher = try UnixClient(path: path)
        XCTAssertEqual(errorCode(try watcher.request(#"{"v":1,"request":"subscribe","ids":[4000000000]}"#)), "not_found")
        XCTAssertEqual(try watcher.request(#"{"v":1,"request":"subscribe","all":true}"#)?["ok"] as? Bool, true)

        let sender = try UnixClient(path: path)
        let notify = try sender.request(#"{"v":1,"request":"notify","summary":"Choose","expire_ms":0,"#
                                        + #""actions":[{"key":"yes","label":"Yes"},{"key":"no","label":"No"}]}"#)
        let id = try XCTUnwrap(notify?["id"] as? Int, "\(String(describing: notify))")
        let invoked = try stage.toast(["action", String(id), "yes"], socket: path)
        XCTAssertEqual(invoked.status, 0, invoked.stderrText)
        let action = watcher.readObject()
        XCTAssertEqual(action?["event"] as? String, "action", "\(String(describing: action))")
        XCTAssertEqual(action?["id"] as? Int, id)
        XCTAssertEqual(action?["key"] as? String, "yes")
        let closed = watcher.readObject()
        XCTAssertEqual(closed?["event"] as? String, "closed", "\(String(describing: closed))")
        XCTAssertEqual(closed?["id"] as? Int, id)
        XCTAssertEqual(closed?["reason"] as? String, "dismissed")
        XCTAssertNil(sender.readLine(timeout: 0.1), "the sender did not ask for events (no wait)")

        let short = try stage.toast(["-p", "-t", "50", "Short"], socket: path)
        let expired = watcher.readObject()
        XCTAssertEqual(expired?["id"] as? Int, Int(short.stdoutText.trimmingCharacters(in: .newlines)))
        XCTAssertEqual(expired?["reason"] as? String, "expired", "\(String(describing: expired))")
    }

    /// A spinner without `detach` belongs to its connection: `loading_stop` from elsewhere stops it
    /// and the daemon hangs up on the owner (so a blocked `toast loading start` exits 0).
    /// Stopping an unknown key is `not_found`.
    func testLoadingStopFromElsewhereReleasesTheOwner() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        let other = try UnixClient(path: path)
        XCTAssertEqual(errorCode(try other.request(#"{"v":1,"request":"loading_stop","key":"nothing"}"#)), "not_found")

        let owner = try UnixClient(path: path)
        XCTAssertEqual(try owner.request(#"{"v":1,"request":"loading_start","key":"sync","label":"Syncing"}"#)?["ok"] as? Bool, true)
        XCTAssertEqual(try other.request(#"{"v":1,"request":"loading_stop","key":"sync"}"#)?["ok"] as? Bool, true)
        XCTAssertTrue(owner.waitForHangUp(), "the owner of a stopped spinner stays connected")

        let blocked = try stage.spawn([try stage.binary("toast"), "loading", "start", "upload"],
                                      environment: ["TOASTD_SOCKET": path])
        let stopped = try waitUntil(timeout: 10) {
            try stage.toast(["loading", "stop", "upload"], socket: path).succeeded
        }
        XCTAssertTrue(stopped, "toast loading stop never found the key: \(blocked.stderrText)")
        XCTAssertEqual(blocked.waitForExit(timeout: 10), 0, "toast loading start: \(blocked.stderrText)")
        XCTAssertTrue(daemon.isRunning, daemon.stderrText)
    }

    // MARK: - No daemon, two daemons, a dead daemon

    func testToastWithoutDaemonSaysHowToStartItAndExits69() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let result = try stage.toast(["hello"], socket: path)
        XCTAssertEqual(result.status, 69, result.stderrText)
        XCTAssertEqual(result.stdoutText, "")
        let lines = result.stderrText.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(lines.count, 2, "one line, newline-terminated: \(result.stderrText)")
        XCTAssertTrue(result.stderrText.contains("toastd is not running"), result.stderrText)
        XCTAssertTrue(result.stderrText.contains(path), result.stderrText)
        XCTAssertTrue(result.stderrText.contains("start it with: toastd"), result.stderrText)

        // No TOASTD_SOCKET and no XDG_RUNTIME_DIR: still one clear line and 69.
        let nowhere = try IntegrationTests.run(
            [try stage.binary("toast"), "hello"],
            environment: stage.environment().filter { $0.key != "XDG_RUNTIME_DIR" && $0.key != "TOASTD_SOCKET" },
            timeout: 15)
        XCTAssertEqual(nowhere.status, 69, nowhere.stderrText)
        XCTAssertTrue(nowhere.stderrText.contains("XDG_RUNTIME_DIR"), nowhere.stderrText)
    }

    func testSecondDaemonOnTheSameSocketExitsWithAClearMessage() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let first = try stage.startToastd(socket: path)
        defer { first.terminate() }

        let second = try stage.run([try stage.binary("toastd"), "--no-dbus", "--socket", path], timeout: 15)
        XCTAssertNotEqual(second.status, 0)
        XCTAssertTrue(second.stderrText.contains("already listening on \(path)"), second.stderrText)
        XCTAssertEqual(second.stderrText.split(separator: "\n").count, 1, second.stderrText)

        XCTAssertTrue(first.isRunning)
        assertServes(path, "the first daemon after a second one gave up")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "the second daemon removed the socket")
    }

    func testStaleSocketOfAKilledDaemonIsReplaced() throws {
        let stage = try Stage.shared()
        let path = try socketPath()
        let killed = try stage.startToastd(socket: path)
        kill(killed.pid, SIGKILL)
        XCTAssertEqual(killed.waitForExit(timeout: 10), 128 + SIGKILL)
        XCTAssertTrue(FileManager.default.fileExists(atPath: path), "SIGKILL leaves the socket file behind")

        let stale = try stage.toast(["hello"], socket: path)
        XCTAssertEqual(stale.status, 69, stale.stderrText)
        XCTAssertTrue(stale.stderrText.contains("stale socket"), stale.stderrText)

        let fresh = try stage.startToastd(socket: path)
        defer { fresh.terminate() }
        let sent = try stage.toast(["-p", "hello again"], socket: path)
        XCTAssertEqual(sent.status, 0, sent.stderrText)
        XCTAssertNotNil(UInt32(sent.stdoutText.trimmingCharacters(in: .newlines)), sent.stdoutText)

        // A clean exit removes the socket.
        XCTAssertEqual(fresh.terminate(), 0, fresh.stderrText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "SIGTERM should remove the socket")
    }
}
