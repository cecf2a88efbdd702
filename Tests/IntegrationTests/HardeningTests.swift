import Foundation
import XCTest

/// What one hostile program of the session could do to a real toastd (issue 37; docs/security.md),
/// each attack made for real while another client pings the daemon: it must keep answering. The
/// latencies are printed for the record (`hardening:` lines), never asserted.
final class HardeningTests: XCTestCase {
    private var stage: Stage!
    private var directory: String!

    override func setUpWithError() throws {
        stage = try Stage.shared()
        directory = "\(stage.directory)/hardening-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    private func config(_ text: String) throws -> String {
        let path = "\(directory!)/config-\(UUID().uuidString.prefix(8))"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private func bus() throws -> WireBusClient {
        try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
    }

    private func report(_ attack: String, _ result: Pinger.Result) {
        print("hardening: \(attack): another client's pings: \(result)")
        XCTAssertEqual(result.unanswered, 0, "\(attack): a ping went unanswered")
        XCTAssertGreaterThan(result.count, 0, "\(attack): no ping at all")
    }

    /// Other apps' toasts cannot break `toast list` or `toast history`: 200 open and 1000 closed, each
    /// with a 16 KiB body of control characters (six bytes each in JSON: replies of ~20 and ~100 MB).
    /// Both parse; the old send bound dropped the client after its first megabyte.
    func testListAndHistoryOfAThousandHugeToastsParse() throws {
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config",
                                                                 try config("history = 1000\npersistent-history = false\n")])
        let client = try bus()
        let controls = String(String.UnicodeScalarView((1..<32).map { Unicode.Scalar(UInt8($0)) }))
        let body = String(repeating: controls, count: 16 * 1024 / 31 + 1).utf8.prefix(16 * 1024)
        let text = String(decoding: body, as: UTF8.self)
        func notifyMany(_ count: Int, prefix: String) throws {
            let sent = try client.notifyPipelined((0..<count).map {
                StormNotification(appName: "flood\($0 % 50)", summary: "\(prefix) \($0)", body: text, timeout: 0)
            })
            XCTAssertEqual(sent, count, "Notify calls refused")
        }
        try notifyMany(1000, prefix: "closed")
        XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
        try notifyMany(200, prefix: "open")

        let pinger = try Pinger(socket: toastd.socketPath)
        for (verb, expected) in [("list", 200), ("history", 1000)] {
            let result = try toastd.toast([verb, "--json"], timeout: 300)
            XCTAssertEqual(result.status, 0, "toast \(verb) --json: \(result.stderrText.prefix(300))")
            let toasts = try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]]
            XCTAssertEqual(toasts?.count, expected, "toast \(verb) --json")
            XCTAssertEqual((toasts?.first?["body"] as? String)?.utf8.count, 16 * 1024, "the body came whole")
            print("hardening: toast \(verb) --json: \(result.stdout.count) bytes")
        }
        report("toast list and history of 1200 toasts with 16 KiB control-character bodies", pinger.stop())
    }

    /// 128 connections that send nothing or half a line take every slot; a real client still gets
    /// served at once (the quietest idle one gives way), where it used to hear `busy`.
    func testIdleAndHalfLineClientsCannotLockOutARealOne() throws {
        let path = "\(stage.runtimeDirectory)/hd-\(UUID().uuidString.prefix(8)).sock"
        let daemon = try stage.startToastd(socket: path)
        defer { daemon.terminate() }
        let pinger = try Pinger(socket: path)
        XCTAssertTrue(pinger.waitForFirstAnswer(), "the pinger got no answer")
        var squatters: [UnixClient] = []
        for index in 0..<128 {
            let client = try UnixClient(path: path)
            if index % 2 == 1 { try client.send(#"{"v":1,"request":"#) }  // half a line, never finished
            squatters.append(client)
        }
        for attempt in 0..<3 {
            let real = try UnixClient(path: path)
            let reply = try real.request(#"{"v":1,"request":"version"}"#)
            XCTAssertEqual(reply?["ok"] as? Bool, true, "attempt \(attempt): \(String(describing: reply))")
        }
        report("128 idle and half-line clients", pinger.stop())
        XCTAssertTrue(waitUntil(timeout: 10) { daemon.stderrText.contains("gave their slot to a newcomer") }, daemon.stderrText)
        _ = squatters
    }

    /// 500 notifications, each from its own app name, with a FIFO as `sound-file`, then 500 with a real
    /// file and a player that does not end: no player for a FIFO, never more children than the bound,
    /// and what did not start is logged, not skipped silently. The old per-app limit left 500 players.
    func testASoundFloodStaysWithinTheChildBound() throws {
        let fifo = "\(directory!)/sound.fifo"
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let sound = "\(directory!)/bell.oga"
        try Data("OggS".utf8).write(to: URL(fileURLWithPath: sound))
        let player = "\(directory!)/player"
        try "#!/bin/sh\nexec sleep 60\n".write(toFile: player, atomically: true, encoding: .utf8)
        XCTAssertEqual(chmod(player, 0o755), 0)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config",
                                                                 try config("sound-command = \(player)\npersistent-history = false\n")])
        let pid = toastd.process.pid
        func children() -> [pid_t] {
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? "")
                .split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        defer { for child in children() { kill(child, SIGKILL) } }
        let client = try bus()
        let pinger = try Pinger(socket: toastd.socketPath)
        var most = 0
        for file in [fifo, sound] {
            let sent = try client.notifyPipelined((0..<500).map {
                StormNotification(appName: "app-\($0)", summary: "Sound \($0)", body: "", hints: [.string("sound-file", file)], timeout: 1)
            }) { most = max(most, children().count) }
            XCTAssertEqual(sent, 500)
            most = max(most, children().count)
            if file == fifo {
                XCTAssertEqual(children(), [], "a player was started for a FIFO")
                XCTAssertTrue(toastd.log.contains("not a regular file"), toastd.log.suffix(2000).description)
            }
        }
        report("1000 Notify calls from 1000 app names with sounds", pinger.stop())
        print("hardening: sound flood: at most \(most) children")
        XCTAssertEqual(children().count, 16, "the players running: the bound")
        XCTAssertLessThanOrEqual(most, 16)
        XCTAssertTrue(toastd.log.contains("programs running, the most toastd runs at once"), toastd.log.suffix(2000).description)
        XCTAssertLessThan(toastd.log.components(separatedBy: "dropped").count, 10, "a log line per drop")
    }

    /// `toastd --replace` takes over while the old daemon has a close it has not saved yet (saves wait
    /// ~1 s for more): the toast is dismissed on the old daemon while the new one starts (its socket is
    /// there, its bus name not yet). The new one reads the history after the old one's last save, so
    /// the close is there; it used to read the file first and then write over it.
    func testReplaceKeepsTheLastCloseOfTheOldDaemon() throws {
        let state = "\(directory!)/state"
        let settings = try config("history = 1000\n")
        let old = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", settings],
                                    environment: ["XDG_STATE_HOME": state])
        // 300 toasts with 4 KiB bodies closed at once: the old daemon's last save takes a while, long
        // enough that a new daemon reading the file at once would read it before that save.
        let oldClient = try UnixClient(path: old.socketPath)
        let body = String(repeating: "history ", count: 512)  // the file keeps ~120 of them
        try oldClient.send((0..<300).map { #"{"v":1,"request":"notify","summary":"Toast \#($0)","body":"\#(body)","expire_ms":0}"# + "\n" }.joined())
        for index in 0..<300 { XCTAssertEqual(oldClient.readObject()?["ok"] as? Bool, true, "toast \(index)") }
        XCTAssertEqual(try oldClient.request(#"{"v":1,"request":"notify","summary":"Closed just before the replace","expire_ms":0}"#)?["ok"] as? Bool, true)
        let socket = "\(stage.runtimeDirectory)/hd-\(UUID().uuidString.prefix(8)).sock"
        let new = try stage.spawn([try stage.binary("toastd"), "--no-animations", "--replace", "--config", settings],
                                  environment: ["TOASTD_SOCKET": socket, "XDG_STATE_HOME": state])
        defer { new.terminate() }
        // The new daemon's socket comes first in its start, its bus name last: dismiss in between.
        XCTAssertTrue(waitUntil(timeout: 15, interval: 0.001) { FileManager.default.fileExists(atPath: socket) })
        let dismissed = try oldClient.request(#"{"v":1,"request":"dismiss","all":true}"#)
        XCTAssertEqual(dismissed?["ok"] as? Bool, true, "the old daemon was gone before the dismissal")
        XCTAssertNotNil(old.process.waitForExit(timeout: 10), "the old daemon did not exit")
        let history = try stage.toast(["history", "--json"], socket: socket)
        XCTAssertEqual(history.status, 0, history.stderrText)
        let toasts = try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]] ?? []
        // The file keeps the newest that fit in its 512 KiB: the last close first.
        XCTAssertEqual(toasts.first?["summary"] as? String, "Closed just before the replace",
                       "\(toasts.count) in the history; old: \(old.log.suffix(1000))\nnew: \(new.stderrText.suffix(1000))")
    }

    /// Client text in the log is escaped: a newline in an `image-path` cannot forge a line of toastd's
    /// own. A configuration file others may write is refused with the fix named, and the daemon runs on.
    func testClientTextCannotForgeLogLinesAndAWritableConfigIsRefused() throws {
        let shared = try config("on-notify = exec touch \(directory!)/ran\n")
        XCTAssertEqual(chmod(shared, 0o666), 0)
        let check = try stage.run([try stage.binary("toastd"), "--check-config", shared])
        XCTAssertEqual(check.status, 1)
        XCTAssertTrue(check.stdoutText.contains("writable by others") && check.stdoutText.contains("chmod go-w"), check.stdoutText)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--no-animations", "--config", shared])
        XCTAssertTrue(toastd.log.contains("writable by others"), toastd.log)
        let forged = "/nonexistent/a.png\ntoastd: ready: forged"
        let client = try bus()
        XCTAssertEqual(try client.notifyPipelined([StormNotification(appName: "forger", summary: "Forge", body: "",
                                                                     hints: [.string("image-path", forged)])]), 1)
        XCTAssertTrue(waitUntil(timeout: 10) { (try? toastd.toast(["list", "--json"]))?.stdoutText.contains("Forge") == true })
        XCTAssertFalse(toastd.log.split(separator: "\n").contains { $0.hasPrefix("toastd: ready: forged") }, toastd.log)
        XCTAssertFalse(FileManager.default.fileExists(atPath: "\(directory!)/ran"), "the refused file's exec line ran")
        let reload = try toastd.toast(["reload"])
        XCTAssertTrue(reload.stdoutText.contains("writable by others") || reload.stderrText.contains("writable by others"),
                      reload.stdoutText + reload.stderrText)
    }
}

extension WireBusClient {
    /// Sends `Notify` for each notification, a hundred at a time without waiting for the replies, and
    /// returns how many were answered with an id. `between` runs after each hundred.
    func notifyPipelined(_ notifications: [StormNotification], timeout: Double = 120,
                         between: () -> Void = {}) throws -> Int {
        let name = "org.freedesktop.Notifications"
        var answered = 0
        var start = 0
        while start < notifications.count {
            var serials = Set<UInt32>()
            for notification in notifications[start..<min(start + 100, notifications.count)] {
                serials.insert(try sendCall(destination: name, path: "/org/freedesktop/Notifications", interface: name,
                                            member: "Notify", signature: "susssasa{sv}i", body: notification.marshalled))
            }
            let deadline = Deadline.after(timeout)
            while !serials.isEmpty {
                let message = try readMessage(deadline: deadline)
                guard message.type == 2 || message.type == 3, let serial = message.replySerial,
                      serials.remove(serial) != nil else { continue }
                if message.type == 2 { answered += 1 }
            }
            between()
            start += 100
        }
        return answered
    }
}
