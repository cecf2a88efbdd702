import Foundation
import XCTest

/// Issue 30 on the stage: nothing expires unseen (not while away, not while hidden), do-not-disturb
/// that ends, and a flood from one app drawn as one toast.
final class TimeThatCountsTests: XCTestCase {
    private func start(_ config: String, environment: [String: String] = [:]) throws -> (Stage, ToastdProcess, String) {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/time-\(UUID().uuidString.prefix(8))"
        try Data(config.utf8).write(to: URL(fileURLWithPath: path))
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"], environment: environment)
        XCTAssertTrue(toastd.log.contains("(0 warnings)"), toastd.log)
        return (stage, toastd, path)
    }

    /// The ids `toast list` has open now.
    private func openIDs(_ client: UnixClient) throws -> Set<Int> {
        let reply = try client.request(#"{"v":1,"request":"list"}"#)
        return Set(((reply?["toasts"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? Int })
    }

    private func occurrences(_ text: String, in log: String) -> Int {
        log.components(separatedBy: text).count - 1
    }

    func testAToastWaitsWhileTheSeatIsIdleAndRunsOnAfterInput() throws {
        let (stage, toastd, _) = try start("idle-threshold = 2\n")
        // The bus name is taken before the rest of the start: the idle line may follow it.
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("idle: timeouts wait after 2.0 s without input (org_kde_kwin_idle)") },
                      toastd.log)
        let client = try UnixClient(path: toastd.socketPath)
        let sent = Date()
        XCTAssertTrue(try toastd.toast(["send", "-t", "3000", "Away", "back soon"]).succeeded)
        XCTAssertTrue(waitUntil(timeout: 10) { self.occurrences("the seat is away", in: toastd.log) >= 1 },
                      "no idle from org_kde_kwin_idle: \(toastd.log)")
        // No input for six seconds: twice its timeout, and it is still there.
        let vanished = try waitUntil(Deadline.after(6 - Date().timeIntervalSince(sent)), interval: 0.05) {
            try self.openIDs(client).isEmpty
        }
        XCTAssertFalse(vanished, "it expired while nobody was there: \(toastd.log)")

        let backs = occurrences("the seat is back", in: toastd.log)
        try check(["toastd-stage", "move", "40", "40"], environment: stage.environment(), timeout: 15)
        XCTAssertTrue(waitUntil(timeout: 10) { self.occurrences("the seat is back", in: toastd.log) > backs }, toastd.log)
        let resumed = Date()
        XCTAssertFalse(try openIDs(client).isEmpty, "it went at once on input, not after what it had left")
        // What it had left is at most its 3 s; it goes within that (and half a second) of the input.
        XCTAssertTrue(try waitUntil(timeout: 3.5, interval: 0.02) { try self.openIDs(client).isEmpty },
                      "still open \(Date().timeIntervalSince(resumed)) s after input: \(toastd.log)")
    }

    func testEightAtOnceEachIsOnScreenItsFullTimeoutBeforeItExpires() throws {
        // The frame log tells when the first is drawn, without a screenshot's delay.
        let (_, toastd, _) = try start("max-visible = 5\nidle-threshold = 0\n", environment: ["WAYLAND_DEBUG": "1"])
        let client = try UnixClient(path: toastd.socketPath)
        var sendStart: [Date] = [], replied: [Date] = [], ids: [Int] = []
        for index in 0..<8 {
            sendStart.append(Date())
            let sent = try toastd.toast(["send", "-p", "-t", "5000", "Toast \(index)", "one of eight"])
            replied.append(Date())
            ids.append(try XCTUnwrap(Int(sent.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)), sent.stderrText))
            if index == 0 {
                // The first is drawn before the others come: then pushed under "+N more" by them.
                XCTAssertTrue(waitUntil(timeout: 10, interval: 0.01) { !shownLayerSurfaces(in: toastd.log).isEmpty },
                              "the first toast is not drawn")
            }
        }
        var closedAt: [Int: Date] = [:]
        XCTAssertTrue(try waitUntil(timeout: 30, interval: 0.01) {
            let open = try self.openIDs(client)
            for id in ids where !open.contains(id) && closedAt[id] == nil { closedAt[id] = Date() }
            return closedAt.count == ids.count
        }, "not all closed: \(closedAt.count) of 8")
        let history = try XCTUnwrap(client.request(#"{"v":1,"request":"history"}"#)?["toasts"] as? [[String: Any]])
        XCTAssertEqual(history.filter { ids.contains($0["id"] as? Int ?? 0) }.map { $0["reason"] as? String },
                       Array(repeating: "expired", count: 8))
        // The three oldest were on screen at most from their sending until the toast that pushed them
        // under was answered, and again only after one of the newest five closed: each must have
        // stayed open long enough to have had its full five seconds. (Five, not the issue's two: the
        // screenshot and eight `toast` runs on a loaded machine must take less than a timeout, so
        // that the oldest is surely pushed under before it expires.)
        let firstNewClose = try XCTUnwrap(ids.suffix(5).compactMap { closedAt[$0] }.min())
        let origin = sendStart[0]
        let timeline = ids.indices.map { index in
            String(format: "%d: sent %.2f replied %.2f closed %.2f", index, sendStart[index].timeIntervalSince(origin),
                   replied[index].timeIntervalSince(origin), closedAt[ids[index]]!.timeIntervalSince(origin))
        }.joined(separator: "; ")
        for index in 0..<3 {
            let seenBefore = replied[index + 5].timeIntervalSince(sendStart[index])
            XCTAssertLessThan(seenBefore, 4.5, "toast \(index + 5) came too late to push toast \(index) under: \(timeline)")
            let due = firstNewClose.addingTimeInterval(5.0 - seenBefore - 0.05)
            XCTAssertGreaterThanOrEqual(closedAt[ids[index]]!, due,
                                        "toast \(index) closed \(due.timeIntervalSince(closedAt[ids[index]]!)) s before its five seconds on screen: \(timeline)")
        }
    }

    func testDoNotDisturbForTwoSecondsHoldsAToastThenShowsIt() throws {
        let state = "\(try Stage.shared().directory)/state-\(UUID().uuidString.prefix(8))"
        let (stage, toastd, _) = try start("", environment: ["XDG_STATE_HOME": state])
        let on = try toastd.toast(["dnd", "on", "--for", "2s"])
        let onAt = Date()
        XCTAssertTrue(on.stdoutText.hasPrefix("on until "), on.stdoutText + on.stderrText)
        XCTAssertTrue(try toastd.toast(["send", "-t", "0", "Held", "until the end"]).succeeded)
        let status = try toastd.toast(["dnd", "status"])
        let json = try JSONSerialization.jsonObject(with: try toastd.toast(["status", "--json"]).stdout) as? [String: Any]
        // What the status says while it lasts (a loaded machine may take the two seconds to get here;
        // the 30-minute test below checks the same words without that race).
        if Date().timeIntervalSince(onAt) < 1.5 {
            XCTAssertEqual(status.stdoutText, on.stdoutText, "dnd status names the end")
            XCTAssertEqual(json?["hidden"] as? Int, 1, "held: \(String(describing: json))")
            XCTAssertNotNil(json?["dnd_until"] as? Int)
        }

        // Off by itself, without a command; the held toast then shows.
        XCTAssertTrue(try waitUntil(timeout: 10, interval: 0.05) { try toastd.toast(["dnd", "status"]).stdoutText == "off\n" })
        let after = try JSONSerialization.jsonObject(with: try toastd.toast(["status", "--json"]).stdout) as? [String: Any]
        XCTAssertEqual(after?["hidden"] as? Int, 0)
        let (_, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(drawn, "the held toast is not drawn: \(toastd.log)")
    }

    /// README's line, run as written.
    func testReadmesDoNotDisturbLineRunsAsWritten() throws {
        let state = "\(try Stage.shared().directory)/state-\(UUID().uuidString.prefix(8))"
        let (stage, toastd, _) = try start("", environment: ["XDG_STATE_HOME": state])
        let readme = try String(contentsOfFile: "\(stage.repository)/README.md", encoding: .utf8)
        let line = "toast dnd on --for 30m"
        let written = readme.split(separator: "\n").map { $0.split(separator: "#")[0].trimmingCharacters(in: .whitespaces) }
        XCTAssertTrue(written.contains(line), "README's Use section lacks `\(line)`")
        let on = try toastd.toast(line.split(separator: " ").dropFirst().map(String.init))
        XCTAssertTrue(on.stdoutText.hasPrefix("on until "), on.stdoutText + on.stderrText)
        let status = try JSONSerialization.jsonObject(with: try toastd.toast(["status", "--json"]).stdout) as? [String: Any]
        let until = try XCTUnwrap(status?["dnd_until"] as? Int)
        XCTAssertEqual(Double(until), Date().timeIntervalSince1970 + 1800, accuracy: 60)
        XCTAssertEqual(try toastd.toast(["dnd", "status"]).stdoutText, on.stdoutText, "dnd status names the end")
        let waybar = try toastd.toast(["status", "--waybar"]).stdoutText
        XCTAssertTrue(waybar.contains("do-not-disturb on until "), waybar)
        let bad = try toastd.toast(["dnd", "on", "--for", "soon"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderrText.contains("--for takes a duration like 30m"), bad.stderrText)
    }

    func testATimedDoNotDisturbOutlivesARestartAndStillEnds() throws {
        let state = "\(try Stage.shared().directory)/state-\(UUID().uuidString.prefix(8))"
        let (stage, first, config) = try start("", environment: ["XDG_STATE_HOME": state])
        let on = try first.toast(["dnd", "on", "--for", "4s"])
        XCTAssertTrue(on.stdoutText.hasPrefix("on until "), on.stdoutText + on.stderrText)
        XCTAssertEqual(first.process.terminate(), 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: "\(state)/toastd/modes"))

        let second = try ToastdProcess(stage: stage, arguments: ["--config", config, "--no-animations"],
                                       environment: ["XDG_STATE_HOME": state])
        XCTAssertEqual(try second.toast(["dnd", "status"]).stdoutText, on.stdoutText, "the end is kept: \(second.log)")
        XCTAssertTrue(try second.toast(["send", "-t", "0", "Held", "across a restart"]).succeeded)
        XCTAssertTrue(try waitUntil(timeout: 10, interval: 0.05) { try second.toast(["dnd", "status"]).stdoutText == "off\n" })
        let (_, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(drawn, "the held toast is not drawn: \(second.log)")
    }

    func testAFloodFromOneAppIsOneToastAndAnotherAppKeepsItsPlace() throws {
        let (stage, toastd, _) = try start("max-visible = 5\n")
        let monitor = try BusMonitor(stage: stage)
        XCTAssertTrue(try stage.run(["notify-send", "-t", "0", "-a", "Mail", "Other app", "stays"], timeout: 15).succeeded)
        let (single, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(drawn, toastd.log)
        let singleHeight = try XCTUnwrap(single.boundingBox(notMatching: stage.background)).height

        let bus = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        var ids: Set<UInt32> = []
        let name = "org.freedesktop.Notifications"
        for index in 0..<200 {
            let reply = try bus.call(destination: name, path: "/org/freedesktop/Notifications", interface: name,
                                     member: "Notify", signature: "susssasa{sv}i",
                                     body: StormNotification(appName: "Chat", summary: "Message \(index)",
                                                             body: "flood", timeout: 0).marshalled)
            XCTAssertFalse(reply.isError, reply.errorName ?? "")
            if let id = reply.firstUInt32 { ids.insert(id) }
        }
        XCTAssertEqual(ids.count, 200, "each Notify got an id of its own")
        let list = try JSONSerialization.jsonObject(with: try toastd.toast(["list", "--json"]).stdout) as? [[String: Any]]
        XCTAssertEqual(list?.count, 201, "toast list sees every one")

        // Two boxes: the flood's one toast and Mail's (five boxes and a pill without flood control).
        let (shot, two) = try stage.waitForScreenshot {
            guard let box = $0.boundingBox(notMatching: stage.background) else { return false }
            return box.height > singleHeight * 3 / 2 && box.height < singleHeight * 7 / 2
        }
        XCTAssertTrue(two, "not two toasts: \(String(describing: shot.boundingBox(notMatching: stage.background))), "
                      + "one is \(singleHeight) px; kept at \(stage.keep(shot, name: "flood"))")
        // A dismissal of the flood's toast closes all 200, each with its own NotificationClosed.
        XCTAssertTrue(try toastd.toast(["dismiss"]).succeeded)
        for id in ids.sorted() {
            XCTAssertNotNil(monitor.waitFor(closed: id, reason: 2), "no NotificationClosed(\(id), 2)")
        }
        let left = try JSONSerialization.jsonObject(with: try toastd.toast(["list", "--json"]).stdout) as? [[String: Any]]
        XCTAssertEqual(left?.compactMap { $0["app_name"] as? String }, ["Mail"], "Mail's toast stays")
    }
}
