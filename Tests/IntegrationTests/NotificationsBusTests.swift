import Foundation
import XCTest

/// toastd on the stage's session bus, driven by real clients (notify-send, gdbus, dbus-send, and a
/// wire-protocol client where a caller must stay connected): org.freedesktop.Notifications and
/// org.toastd.Hud1 end to end, with what appears on screen and what the bus says back.
final class NotificationsBusTests: XCTestCase {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let hudPath = "/org/toastd/Hud"

    // MARK: notify-send

    func testNotifySendShowsAToastAndReplacesItInPlace() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let monitor = try BusMonitor(stage: stage)
        let first = try notifySend(stage, ["-p", "-t", "0", "First summary", "first body"])
        let id = try XCTUnwrap(UInt32(first.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)),
                               "notify-send -p printed no id: \(first.stdoutText) \(first.stderrText)")

        let corner = topRight(stage)
        let (shot, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background, in: corner) }
        XCTAssertTrue(shown, "no toast at the top right; kept at \(stage.keep(shot, name: "bus-first")); toastd: \(toastd.log)")

        let second = try notifySend(stage, ["-p", "-t", "0", "-r", "\(id)", "Second summary", "second body"])
        XCTAssertEqual(second.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines), "\(id)",
                       "the replacement got another id: \(second.stderrText)")
        let toasts = try list(toastd)
        XCTAssertEqual(toasts.count, 1, "one toast after a replace: \(toasts)")
        XCTAssertEqual(toasts.first?["id"] as? Int, Int(id))
        XCTAssertEqual(toasts.first?["summary"] as? String, "Second summary")
        let (_, stillShown) = try stage.waitForScreenshot { !$0.isUniform(stage.background, in: corner) }
        XCTAssertTrue(stillShown, "the replaced toast vanished")

        // Replacing closes nothing: the first NotificationClosed for this id is the dismissal's.
        XCTAssertTrue(try toastd.toast(["dismiss", "\(id)"]).succeeded)
        let closed = monitor.waitFor(line: "NotificationClosed (uint32 \(id), ", match: .contains)
        XCTAssertEqual(closed.map { $0.hasSuffix("(uint32 \(id), uint32 2)") }, true,
                       "the replace was announced as a close: \(monitor.lines)")
    }

    func testNotifySendWaitReturnsAfterExpiryAndTheBusSaysExpired() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let monitor = try BusMonitor(stage: stage)
        let sent = try notifySend(stage, ["--wait", "-p", "-t", "500", "Short lived"], timeout: 20)
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        let id = try XCTUnwrap(UInt32(sent.stdoutText.split(separator: "\n").first ?? ""),
                               "no id from notify-send -p: \(sent.stdoutText)")
        XCTAssertNotNil(monitor.waitFor(closed: id, reason: 1),
                        "no NotificationClosed(\(id), 1): \(monitor.lines); toastd: \(toastd.log)")
        XCTAssertEqual(try list(toastd).count, 0, "the expired toast is still listed")
    }

    func testNotifySendActionInvokedFromTheCLIReachesNotifySend() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        // notify-send ignores a failed CloseNotification silently: watch the replies on the bus.
        let calls = try stage.spawn(["dbus-monitor", "--session", "type='method_call',member='CloseNotification'",
                                     "type='method_return'", "type='error'"])
        defer { calls.terminate() }
        guard calls.waitForLine(matching: "member=NameLost", timeout: 15) != nil else {
            throw StageError.startFailed("dbus-monitor never got ready: \(calls.lines) \(calls.stderrText)")
        }
        // notify-send block-buffers its stdout into a pipe: its id arrives at exit, so find it with `toast list`.
        let asking = try stage.spawn(["notify-send", "-p", "-A", "yes=Yes", "-A", "no=No", "Question", "yes or no?"])
        defer { asking.terminate() }
        var id: Int?
        waitUntil(timeout: 15) {
            id = (try? list(toastd))?.first { $0["summary"] as? String == "Question" }?["id"] as? Int
            return id != nil
        }
        let shownID = try XCTUnwrap(id, "notify-send's toast never listed; toastd: \(toastd.log)")

        let invoked = try toastd.toast(["action", "\(shownID)", "yes"])
        XCTAssertTrue(invoked.succeeded, invoked.stderrText)
        XCTAssertEqual(asking.waitForExit(timeout: 15), 0, "notify-send: \(asking.stderrText)")
        asking.pump(until: .after(1))
        XCTAssertEqual(asking.lines, ["\(shownID)", "yes"])
        XCTAssertEqual(asking.stderrText, "", "notify-send complained")

        // Then notify-send closes the already closed id: that call must be answered with success.
        let close = try XCTUnwrap(calls.waitForLine(matching: "^method call .* member=CloseNotification"),
                                  "notify-send did not call CloseNotification: \(calls.lines)")
        let caller = try XCTUnwrap(field("sender", in: close)), serial = try XCTUnwrap(field("serial", in: close))
        let answer = calls.waitForLine(matching: "^(method return|error) .*destination=\(caller) .*reply_serial=\(serial)$")
        XCTAssertEqual(answer.map { $0.hasPrefix("method return") }, true,
                       "CloseNotification on a closed id was not a success: \(answer ?? "no answer")")
        XCTAssertTrue(toastd.process.isRunning, toastd.log)
    }

    /// `name=value` out of a dbus-monitor header line.
    private func field(_ name: String, in line: String) -> String? {
        line.split(separator: " ").first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
    }

    // MARK: The same hints through both doors

    /// notify-send (D-Bus) and `toast -h` (the control socket) with the same hints make the same toast.
    func testHintsMeanTheSameThroughNotifySendAndTheCLI() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let cases: [(name: String, hints: [String], expect: [String: String])] = [
            ("value as a byte", ["byte:value:40"], ["value": "40"]),
            ("value as an int", ["int:value:73"], ["value": "73"]),
            ("both stack tags", ["string:x-canonical-private-synchronous:a", "string:x-dunst-stack-tag:b"], ["tag": "b"]),
            ("urgency as a byte", ["byte:urgency:0", "string:category:email.arrived"],
             ["urgency": "low", "category": "email.arrived"]),
        ]
        for (index, testCase) in cases.enumerated() {
            let hintArguments = testCase.hints.flatMap { ["-h", $0] }
            // Two app names: toasts of one app with one stack tag replace each other.
            _ = try notifySend(stage, ["-t", "0", "-a", "bus-door", "bus \(index)"] + hintArguments)
            let viaCLI = try toastd.toast(["-t", "0", "-a", "socket-door", "socket \(index)"] + hintArguments)
            XCTAssertTrue(viaCLI.succeeded, viaCLI.stderrText)
            let listed = try list(toastd)
            let bus = try XCTUnwrap(listed.first { $0["summary"] as? String == "bus \(index)" }, "\(listed)")
            let socket = try XCTUnwrap(listed.first { $0["summary"] as? String == "socket \(index)" }, "\(listed)")
            for (key, value) in testCase.expect {
                XCTAssertEqual(bus[key].map { "\($0)" }, value, "notify-send, \(testCase.name): \(bus)")
                XCTAssertEqual(socket[key].map { "\($0)" }, value, "toast, \(testCase.name): \(socket)")
            }
        }
    }

    /// An `image-path` given as a `file://` URI with an escaped space shows its picture through either door.
    func testImagePathURIWithAnEscapedSpaceShowsThePictureThroughBothDoors() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let directory = NSTemporaryDirectory() + "toastd-uri-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let pureRed = RGB(r: 255, g: 0, b: 0)
        try PNGFile.write(solid: pureRed, side: 32, to: directory + "/red square.png")
        let uri = "file://" + directory + "/red%20square.png"
        let corner = topRight(stage)
        let senders: [(String, () throws -> CommandResult)] = [
            ("toast", { try toastd.toast(["-t", "0", "-h", "string:image-path:\(uri)", "Picture by URI"]) }),
            ("notify-send", { try self.notifySend(stage, ["-t", "0", "-h", "string:image-path:\(uri)", "Picture by URI"]) }),
        ]
        for (name, send) in senders {
            XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
            _ = try stage.waitForScreenshot { $0.isUniform(stage.background, in: corner) }
            let sent = try send()
            XCTAssertTrue(sent.succeeded, "\(name): \(sent.stderrText)")
            let (shot, drawn) = try stage.waitForScreenshot {
                $0.countPixels(in: corner, notMatching: pureRed, tolerance: 40) < corner.width * corner.height - 256
            }
            XCTAssertTrue(drawn, "\(name): no red picture; kept at \(stage.keep(shot, name: "uri-\(name)")); toastd: \(toastd.log)")
        }
    }

    // MARK: Images

    func testImageDataHintIsDrawnInTheToast() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let red = Array(repeating: "0xff, 0x00, 0x00, 0xff", count: 16).joined(separator: ", ")
        let reply = try notify(stage, summary: "Red square", hints: "{'image-data': <(4, 4, 16, true, 8, 4, [byte \(red)])>}")
        XCTAssertTrue(reply.succeeded, reply.stderrText)
        XCTAssertNotNil(notifyID(reply), reply.stdoutText)

        let pureRed = RGB(r: 255, g: 0, b: 0)
        let corner = topRight(stage)
        let (shot, drawn) = try stage.waitForScreenshot {
            $0.countPixels(in: corner, notMatching: pureRed, tolerance: 40) < corner.width * corner.height - 16
        }
        XCTAssertTrue(drawn, "no red image in the toast; kept at \(stage.keep(shot, name: "bus-image")); toastd: \(toastd.log)")
        XCTAssertTrue(shot.isUniform(stage.background, in: Rect(x: 0, y: 0, width: stage.width / 2, height: stage.height)),
                      "something drawn outside the toast corner")
    }

    func testLargeImageIsShownAndTheDaemonAnswersOn() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        // 1024x1024 RGBA, rows padded to 4100 bytes: 4 MB in one call, drawn scaled down.
        let side = 1024, rowstride = side * 4 + 4
        var pixels = [UInt8](repeating: 0, count: rowstride * side)
        for y in 0..<side {
            for x in 0..<side { pixels[y * rowstride + x * 4] = 0xff; pixels[y * rowstride + x * 4 + 3] = 0xff }
        }
        let reply = try client.call(destination: Self.name, path: Self.path, interface: Self.name, member: "Notify",
                                    signature: "susssasa{sv}i",
                                    body: Self.notifyBody(summary: "Large image",
                                                          image: (side, side, rowstride, pixels)),
                                    timeout: 20)
        XCTAssertFalse(reply.isError, "Notify with a large image: \(reply.errorName ?? "")")
        let corner = topRight(stage)
        let (shot, drawn) = try stage.waitForScreenshot {
            $0.countPixels(in: corner, notMatching: RGB(r: 255, g: 0, b: 0), tolerance: 40) < corner.width * corner.height - 16
        }
        XCTAssertTrue(drawn, "no red image; kept at \(stage.keep(shot, name: "bus-large-image")); toastd: \(toastd.log)")
        try assertStillServing(stage, toastd)
    }

    // MARK: Hostile pictures

    /// How long another client may wait while a picture is handled, in this debug build. The target is
    /// 20 ms in release (measured there: ~5 ms while a 4K file is decoded); a debug build draws a
    /// toast several times slower, and the loop does draw the toast while the worker decodes.
    private static let loopBoundMs = 50.0

    /// A PNG whose header declares 20000×20000 pixels (a 389 KB file of that size froze the daemon for
    /// seconds and took 3 GB): refused from its header, with a log line, and nothing waits.
    func testAPictureBombIsRefusedFromItsHeader() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let path = NSTemporaryDirectory() + "toastd-bomb-\(UUID().uuidString.prefix(8)).png"
        var bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bomb += Array("IHDR".utf8) + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 0, 0, 0, 0]
        bomb += [UInt8](repeating: 0, count: 400_000)  // as large as the real one; never read
        try Data(bomb).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sender = try stage.spawn(["notify-send", "-t", "0", "-h", "string:image-path:\(path)", "Bomb"])
        defer { sender.terminate() }
        XCTAssertLessThan(try toastd.slowestAnswer(for: 0.5), Self.loopBoundMs, "the loop was held up")
        XCTAssertEqual(sender.waitForExit(timeout: 15), 0, sender.stderrText)
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("20000×20000 is over the limit") },
                      "no log line for the refused picture: \(toastd.log)")
        XCTAssertEqual(try list(toastd).first?["summary"] as? String, "Bomb", "the toast itself shows")
    }

    /// A 4K picture by image-path and as image-data is shown, shrunk off the loop; meanwhile another
    /// client's calls are answered within 20 ms.
    func testA4KPictureIsShownWhileTheDaemonAnswersOthersAtOnce() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let corner = topRight(stage)
        let pureRed = RGB(r: 255, g: 0, b: 0)
        let path = NSTemporaryDirectory() + "toastd-4k-\(UUID().uuidString.prefix(8)).png"
        try PNGFile.write(solid: pureRed, width: 3840, height: 2160, to: path)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let sender = try stage.spawn(["notify-send", "-t", "0", "-h", "string:image-path:\(path)", "4K by path"])
        defer { sender.terminate() }
        XCTAssertLessThan(try toastd.slowestAnswer(for: 1), Self.loopBoundMs, "the loop was held up by a 4K file")
        let (shot, drawn) = try stage.waitForScreenshot {
            $0.countPixels(in: corner, notMatching: pureRed, tolerance: 40) < corner.width * corner.height - 256
        }
        XCTAssertTrue(drawn, "no red picture; kept at \(stage.keep(shot, name: "4k-path")); toastd: \(toastd.log)")
        XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
        _ = try stage.waitForScreenshot { $0.isUniform(stage.background, in: corner) }

        // The same as image-data: 33 MB of pixels in one call.
        let width = 3840, height = 2160
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) { pixels[index] = 0xff; pixels[index + 3] = 0xff }
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        let serial = try client.sendCall(destination: Self.name, path: Self.path, interface: Self.name, member: "Notify",
                                         signature: "susssasa{sv}i",
                                         body: Self.notifyBody(summary: "4K as image-data", image: (width, height, width * 4, pixels)))
        // The 33 MB stay in the bus message: the worker reads and shrinks them there, and the loop
        // copies nothing (copying them held it 20–50 ms in release; now 13.6 ms at worst, on a loaded
        // machine). Bounded more loosely than a file in this debug build: receiving the message still
        // takes the loop a few slices, and a full test run on two busy cores measured 56 ms once.
        XCTAssertLessThan(try toastd.slowestAnswer(for: 1), 2 * Self.loopBoundMs, "the loop was held up by 4K image-data")
        let deadline = Deadline.after(20)
        var reply: WireMessage
        repeat { reply = try client.readMessage(deadline: deadline) } while reply.replySerial != serial
        XCTAssertFalse(reply.isError, "Notify with 4K image-data: \(reply.errorName ?? "")")
        let (dataShot, dataDrawn) = try stage.waitForScreenshot {
            $0.countPixels(in: corner, notMatching: pureRed, tolerance: 40) < corner.width * corner.height - 256
        }
        XCTAssertTrue(dataDrawn, "no red picture; kept at \(stage.keep(dataShot, name: "4k-data")); toastd: \(toastd.log)")
    }

    func testMismatchedImagesAreAnsweredAndReadNothingOutOfBounds() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let bad = [
            "(4, 4, 100, true, 8, 4, [byte 0xff, 0x00])",  // rowstride says 400 bytes, 2 sent
            "(4, 4, 16, true, 8, 4, [byte 0xff, 0x00, 0x00, 0xff])",  // 4 bytes for 64
            "(4, 4, 2147483647, true, 8, 4, [byte 0xff, 0x00, 0x00, 0xff])",  // huge rowstride
            "(4, 4, -16, true, 8, 4, [byte 0xff, 0x00, 0x00, 0xff])",  // negative rowstride
            "(2048, 2048, 8192, true, 8, 4, [byte 0xff])",  // large image, one byte
            "(-4, 4, 16, true, 8, 4, [byte 0xff])",  // negative width
            "(4, 4, 16, false, 8, 4, [byte 0xff])",  // 4 channels without alpha
            "(4, 4, 16, true, 16, 4, [byte 0xff])",  // 16 bits per sample
            "(1, 1, 4)",  // not (iiibiiay) at all
        ]
        for image in bad {
            for key in ["image-data", "image_data", "icon_data"] {
                let reply = try notify(stage, summary: "Bad image", hints: "{'\(key)': <\(image)>}")
                XCTAssertTrue(reply.succeeded || reply.stderrText.contains("org.freedesktop.DBus.Error."),
                              "\(key) \(image): no answer: \(reply.stdoutText) \(reply.stderrText)")
                XCTAssertTrue(toastd.process.isRunning, "toastd died on \(key) \(image): \(toastd.log)")
            }
        }
        try assertStillServing(stage, toastd)
    }

    // MARK: Errors

    func testMalformedCallsGetDBusErrorsAndTheDaemonServesOn() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let calls: [(args: [String], error: String)] = [
            ([Self.path, "org.freedesktop.Notifications.Notify", "string:a", "uint32:0"], "InvalidArgs"),
            ([Self.path, "org.freedesktop.Notifications.Notify", "string:app", "uint32:0", "string:", "string:s",
              "string:b", "array:string:", "dict:string:string:", "int32:-1"], "InvalidArgs"),  // a{ss} hints
            ([Self.path, "org.freedesktop.Notifications.CloseNotification"], "InvalidArgs"),
            ([Self.path, "org.freedesktop.Notifications.CloseNotification", "string:1"], "InvalidArgs"),
            ([Self.path, "org.freedesktop.Notifications.CloseNotification", "uint32:1", "uint32:2"], "InvalidArgs"),
            ([Self.path, "org.freedesktop.Notifications.GetServerInformation", "string:extra"], "InvalidArgs"),
            ([Self.path, "org.freedesktop.Notifications.Frobnicate"], "UnknownMethod"),
            (["/org/freedesktop/Nope", "org.freedesktop.Notifications.GetServerInformation"], "UnknownObject"),
            ([Self.path, "org.example.Nope.GetServerInformation"], "UnknownInterface"),
            ([Self.hudPath, "org.freedesktop.Notifications.Notify"], "UnknownInterface"),
            ([Self.hudPath, "org.toastd.Hud1.LoadingStart", "int32:3"], "InvalidArgs"),
            ([Self.hudPath, "org.toastd.Hud1.ShowValue", "string:volume", "string:40"], "InvalidArgs"),
        ]
        for call in calls {
            let result = try stage.run(["dbus-send", "--session", "--print-reply", "--dest=\(Self.name)"] + call.args,
                                       timeout: 15)
            XCTAssertFalse(result.succeeded, "\(call.args) succeeded: \(result.stdoutText)")
            XCTAssertTrue(result.stderrText.contains("Error org.freedesktop.DBus.Error.\(call.error)"),
                          "\(call.args): expected \(call.error), got \(result.stderrText)")
        }
        try assertStillServing(stage, toastd)
    }

    func testRefusedCallsSayWhyInWords() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        // Refused with the reason a person can read (not a Swift case name).
        let noKey = try gdbusCall(stage, path: Self.hudPath, method: "org.toastd.Hud1.LoadingStart", ["", "label"])
        XCTAssertFalse(noKey.succeeded, noKey.stdoutText)
        XCTAssertTrue(noKey.stderrText.contains("needs a key"), "unclear error: \(noKey.stderrText)")

        let noKind = try gdbusCall(stage, path: Self.hudPath, method: "org.toastd.Hud1.ShowValue", ["", "40", "", "false"])
        XCTAssertFalse(noKind.succeeded, noKind.stdoutText)
        XCTAssertTrue(noKind.stderrText.contains("needs a kind"), "unclear error: \(noKind.stderrText)")
        try assertStillServing(stage, toastd)
    }

    /// Nothing but an app name: shown (an empty box with the app name, as mako does), as the
    /// specification allows.
    func testAnEmptyNotificationIsShown() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let empty = try gdbusCall(stage, path: Self.path, method: "org.freedesktop.Notifications.Notify",
                                  ["--", "Mailer", "0", "", "", "", "@as []", "@a{sv} {}", "0"])
        XCTAssertTrue(empty.succeeded, empty.stderrText)
        XCTAssertNotNil(notifyID(empty), empty.stdoutText)
        let corner = topRight(stage)
        let (shot, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background, in: corner) }
        XCTAssertTrue(shown, "nothing drawn; kept at \(stage.keep(shot, name: "bus-empty")); toastd: \(toastd.log)")
        XCTAssertEqual(try list(toastd).first?["app_name"] as? String, "Mailer")
    }

    func testIntrospectionListsTheMethodsAndSignals() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let notifications = try gdbusIntrospect(stage, path: Self.path)
        for member in ["interface org.freedesktop.Notifications", "Notify(", "CloseNotification(", "GetCapabilities(",
                       "GetServerInformation(", "NotificationClosed(", "ActionInvoked("] {
            XCTAssertTrue(notifications.contains(member), "no \(member) in:\n\(notifications)")
        }
        let hud = try gdbusIntrospect(stage, path: Self.hudPath)
        for member in ["interface org.toastd.Hud1", "ShowValue(", "LoadingStart(", "LoadingStop("] {
            XCTAssertTrue(hud.contains(member), "no \(member) in:\n\(hud)")
        }
        let capabilities = try gdbusCall(stage, path: Self.path, method: "org.freedesktop.Notifications.GetCapabilities", [])
        for capability in ["'actions'", "'body'", "'body-markup'", "'persistence'"] {
            XCTAssertTrue(capabilities.stdoutText.contains(capability), "no \(capability): \(capabilities.stdoutText)")
        }
        let info = try gdbusCall(stage, path: Self.path, method: "org.freedesktop.Notifications.GetServerInformation", [])
        XCTAssertTrue(info.stdoutText.hasPrefix("('toastd', 'toastd', '") && info.stdoutText.contains("'1.3')"),
                      "GetServerInformation: \(info.stdoutText) \(info.stderrText)")
        // gdbus introspect gets the child nodes from the root: both objects are reachable from there.
        let root = try gdbusIntrospect(stage, path: "/", recurse: true)
        XCTAssertTrue(root.contains("Notify("), "Notifications not reachable from /:\n\(root)")
        XCTAssertTrue(root.contains("LoadingStart("), "Hud not reachable from /:\n\(root)")
        XCTAssertTrue(toastd.process.isRunning)
    }

    // MARK: Owning the name

    func testSecondDaemonRefusesThenReplaceTakesTheNameAndTheSocket() throws {
        let stage = try Stage.shared()
        let first = try startToastd(stage)
        XCTAssertEqual(try ownerPID(stage), first.process.pid)

        let secondSocket = "\(stage.runtimeDirectory)/toastd-second-\(getpid()).sock"
        let second = try stage.spawn([try stage.binary("toastd")], environment: ["TOASTD_SOCKET": secondSocket])
        defer { second.terminate() }
        let status = second.waitForExit(timeout: 15)
        XCTAssertNotNil(status, "a second toastd kept running while the first owns the name")
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(second.stderrText.contains("pid \(first.process.pid)"),
                      "the error does not name the owner (pid \(first.process.pid)): \(second.stderrText)")
        XCTAssertTrue(second.stderrText.contains(Self.name), second.stderrText)
        XCTAssertFalse(FileManager.default.fileExists(atPath: secondSocket), "the refused daemon left its socket")
        XCTAssertEqual(try ownerPID(stage), first.process.pid, "the refused daemon took the name anyway")

        // `toastd --replace` on the same socket: it takes the socket and the name, and the first one,
        // on NameLost, exits cleanly; `toast` then talks to the replacer.
        let replacer = try stage.spawn([try stage.binary("toastd"), "--replace"],
                                       environment: ["TOASTD_SOCKET": first.socketPath])
        defer { replacer.terminate() }
        XCTAssertEqual(first.process.waitForExit(timeout: 15), 0, "the first daemon did not exit cleanly: \(first.log)")
        XCTAssertTrue(first.log.contains("another daemon took \(Self.name) (toastd --replace): exiting"), first.log)
        XCTAssertTrue(waitUntil(timeout: 15) { (try? ownerPID(stage)) == replacer.pid },
                      "the name's owner is \(String(describing: try? ownerPID(stage))); replacer: \(replacer.stderrText)")
        XCTAssertTrue(replacer.isRunning, replacer.stderrText)
        XCTAssertTrue(replacer.stderrText.contains("took over the control socket \(first.socketPath)"), replacer.stderrText)

        let sent = try first.toast(["send", "-p", "After the replace", "-t", "0"])
        XCTAssertTrue(sent.succeeded, "the socket does not reach the replacer: \(sent.stderrText)")
        let reply = try notify(stage, summary: "To the replacer")
        let id = try XCTUnwrap(notifyID(reply), reply.stderrText)
        XCTAssertEqual(try list(first).map { $0["summary"] as? String }, ["After the replace", "To the replacer"])
        XCTAssertEqual(try list(first).last?["id"] as? Int, Int(id))
    }

    // MARK: One core for both front doors

    func testCLIAndBusShareIdsAndEvents() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let monitor = try BusMonitor(stage: stage)

        let sent = try notifySend(stage, ["-p", "-t", "0", "From the bus"])
        let busID = try XCTUnwrap(Int(sent.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)), sent.stderrText)
        let listed = try list(toastd)
        XCTAssertEqual(listed.map { $0["id"] as? Int }, [busID])
        XCTAssertEqual(listed.first?["summary"] as? String, "From the bus")

        // An id from the CLI follows the bus's: one counter.
        let cli = try toastd.toast(["send", "-p", "-t", "0", "From the CLI"])
        let cliID = try XCTUnwrap(Int(cli.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)), cli.stderrText)
        XCTAssertGreaterThan(cliID, busID)

        XCTAssertTrue(try toastd.toast(["dismiss", "\(busID)"]).succeeded)
        XCTAssertNotNil(monitor.waitFor(closed: UInt32(busID), reason: 2),
                        "no NotificationClosed(\(busID), 2) after toast dismiss: \(monitor.lines)")

        // CloseNotification over the bus closes a toast the CLI made: reason 3.
        let closed = try gdbusCall(stage, path: Self.path, method: "org.freedesktop.Notifications.CloseNotification",
                                   ["\(cliID)"])
        XCTAssertTrue(closed.succeeded, closed.stderrText)
        XCTAssertNotNil(monitor.waitFor(closed: UInt32(cliID), reason: 3), "\(monitor.lines)")

        let withAction = try notify(stage, summary: "Pick", actions: "['go', 'Go']")
        let actionID = try XCTUnwrap(notifyID(withAction), withAction.stderrText)
        XCTAssertGreaterThan(Int(actionID), cliID)
        let invoked = try toastd.toast(["action", "\(actionID)", "go"])
        XCTAssertTrue(invoked.succeeded, invoked.stderrText)
        XCTAssertNotNil(monitor.waitFor(line: "ActionInvoked (uint32 \(actionID), 'go')"),
                        "no ActionInvoked(\(actionID), go): \(monitor.lines)")
        let left = try list(toastd)
        XCTAssertEqual(left.count, 0, "toasts left: \(left)")
    }

    // MARK: org.toastd.Hud1

    func testHudLoadingStartShowsTheSpinnerAndLoadingStopHidesIt() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let bottom = bottomCentre(stage)
        // The spinner belongs to its caller's connection: a one-shot gdbus would take it along when it
        // leaves, so the start comes from a client that stays on the bus.
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        var body = WireWriter()
        body.string("it-dbus"); body.string("Working")
        let started = try client.call(destination: Self.name, path: Self.hudPath, interface: "org.toastd.Hud1",
                                      member: "LoadingStart", signature: "ss", body: body.bytes)
        XCTAssertFalse(started.isError, "LoadingStart failed: \(started.errorName ?? "")")

        let (shot, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background, in: bottom) }
        XCTAssertTrue(shown, "no spinner at the bottom centre; kept at \(stage.keep(shot, name: "bus-spinner")); toastd: \(toastd.log)")
        XCTAssertTrue(shot.isUniform(stage.background, in: topRight(stage)), "the spinner is not at the bottom")

        let stopped = try gdbusCall(stage, path: Self.hudPath, method: "org.toastd.Hud1.LoadingStop", ["it-dbus"])
        XCTAssertTrue(stopped.succeeded, stopped.stderrText)
        let (after, gone) = try stage.waitForScreenshot { $0.isUniform(stage.background) }
        XCTAssertTrue(gone, "the spinner stayed after LoadingStop; kept at \(stage.keep(after, name: "bus-spinner-stop"))")
        XCTAssertTrue(toastd.process.isRunning, toastd.log)
    }

    func testHudShowValueShowsABarAtTheBottomCentre() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        let shown = try gdbusCall(stage, path: Self.hudPath, method: "org.toastd.Hud1.ShowValue",
                                  ["volume", "40", "Speakers", "false"])
        XCTAssertTrue(shown.succeeded, shown.stderrText)
        let (shot, drawn) = try stage.waitForScreenshot { !$0.isUniform(stage.background, in: bottomCentre(stage)) }
        XCTAssertTrue(drawn, "no value bar at the bottom centre; kept at \(stage.keep(shot, name: "bus-bar")); toastd: \(toastd.log)")
        XCTAssertTrue(shot.isUniform(stage.background, in: topRight(stage)), "the bar is not at the bottom")
    }

    func testHudSpinnerGoesWithTheConnectionThatStartedIt() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        var client: WireBusClient? = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        var body = WireWriter()
        body.string("it-dbus-owned"); body.string("")
        let started = try XCTUnwrap(client).call(destination: Self.name, path: Self.hudPath, interface: "org.toastd.Hud1",
                                                 member: "LoadingStart", signature: "ss", body: body.bytes)
        XCTAssertFalse(started.isError, "LoadingStart failed: \(started.errorName ?? "")")
        let (_, shown) = try stage.waitForScreenshot { !$0.isUniform(stage.background, in: bottomCentre(stage)) }
        XCTAssertTrue(shown, "no spinner; toastd: \(toastd.log)")

        client = nil  // hangs up
        let (after, gone) = try stage.waitForScreenshot(timeout: 15) { $0.isUniform(stage.background) }
        XCTAssertTrue(gone, "the spinner outlived its caller; kept at \(stage.keep(after, name: "bus-spinner-orphan"))")
    }

    // MARK: Helpers

    /// Starts toastd and makes sure it is the one that owns the name: `ToastdProcess` only waits for the
    /// name to have an owner, which a daemon left over on the shared stage would satisfy.
    private func startToastd(_ stage: Stage, arguments: [String] = []) throws -> ToastdProcess {
        let toastd = try ToastdProcess(stage: stage, arguments: arguments)
        guard waitUntil(timeout: 15, { (try? ownerPID(stage)) == toastd.process.pid }) else {
            throw StageError.startFailed("\(Self.name) belongs to pid \(String(describing: try? ownerPID(stage))), "
                                         + "not to our toastd (\(toastd.process.pid)): \(toastd.log)")
        }
        return toastd
    }

    /// Where toasts go: the top-right corner.
    private func topRight(_ stage: Stage) -> Rect {
        Rect(x: stage.width - 480, y: 0, width: 480, height: 240)
    }

    /// Where the HUD goes: the bottom centre.
    private func bottomCentre(_ stage: Stage) -> Rect {
        Rect(x: stage.width / 2 - 240, y: stage.height - 240, width: 480, height: 240)
    }

    private func notifySend(_ stage: Stage, _ args: [String], timeout: Double = 15) throws -> CommandResult {
        let result = try stage.run(["notify-send"] + args, timeout: timeout)
        XCTAssertTrue(result.succeeded, "notify-send \(args): \(result.stderrText)")
        return result
    }

    private func gdbusCall(_ stage: Stage, path: String, method: String, _ args: [String]) throws -> CommandResult {
        try stage.run(["gdbus", "call", "--session", "--dest", Self.name, "--object-path", path, "--method", method]
                      + args, timeout: 15)
    }

    /// Notify through gdbus, with its arguments in GVariant text.
    private func notify(_ stage: Stage, summary: String, actions: String = "@as []", hints: String = "@a{sv} {}",
                        timeout: Int32 = 0) throws -> CommandResult {
        try gdbusCall(stage, path: Self.path, method: "org.freedesktop.Notifications.Notify",
                      ["it-dbus", "0", "", summary, "body", actions, hints, "\(timeout)"])
    }

    /// Notify's arguments `susssasa{sv}i`, marshalled, with an optional `image-data` hint.
    static func notifyBody(summary: String, image: (width: Int, height: Int, rowstride: Int, rgba: [UInt8])? = nil,
                           timeout: Int32 = 0) -> [UInt8] {
        var w = WireWriter()
        w.string("it-dbus"); w.uint32(0); w.string(""); w.string(summary); w.string("")
        w.array(elementAlignment: 4) { _ in }
        w.array(elementAlignment: 8) { w in
            guard let image else { return }
            w.align(8); w.string("image-data"); w.signature("(iiibiiay)")
            w.align(8)
            w.int32(Int32(image.width)); w.int32(Int32(image.height)); w.int32(Int32(image.rowstride))
            w.bool(true); w.int32(8); w.int32(4)
            w.array(elementAlignment: 1) { $0.raw(image.rgba) }
        }
        w.int32(timeout)
        return w.bytes
    }

    /// The id in gdbus's `(uint32 N,)`.
    private func notifyID(_ reply: CommandResult) -> UInt32? {
        let text = reply.stdoutText
        guard let start = text.range(of: "(uint32 "), let end = text.range(of: ",)") else { return nil }
        return UInt32(text[start.upperBound..<end.lowerBound])
    }

    private func gdbusIntrospect(_ stage: Stage, path: String, recurse: Bool = false) throws -> String {
        let result = try stage.run(["gdbus", "introspect", "--session", "--dest", Self.name, "--object-path", path]
                                   + (recurse ? ["--recurse"] : []), timeout: 15)
        XCTAssertTrue(result.succeeded, "gdbus introspect \(path): \(result.stderrText)")
        return result.stdoutText
    }

    /// `toast list --json`, decoded.
    private func list(_ toastd: ToastdProcess) throws -> [[String: Any]] {
        let result = try toastd.toast(["list", "--json"])
        guard result.succeeded else {
            throw SubprocessError.failed(argv: ["toast", "list"], status: result.status, stderr: result.stderrText)
        }
        return try JSONSerialization.jsonObject(with: result.stdout) as? [[String: Any]] ?? []
    }

    /// The PID of the connection that owns org.freedesktop.Notifications.
    private func ownerPID(_ stage: Stage) throws -> pid_t? {
        let result = try stage.run(["gdbus", "call", "--session", "--dest", "org.freedesktop.DBus",
                                    "--object-path", "/org/freedesktop/DBus",
                                    "--method", "org.freedesktop.DBus.GetConnectionUnixProcessID", Self.name],
                                   timeout: 10)
        let text = result.stdoutText
        guard result.succeeded, let start = text.range(of: "(uint32 "), let end = text.range(of: ",)") else { return nil }
        return pid_t(text[start.upperBound..<end.lowerBound])
    }

    /// The daemon is alive and a valid call is answered, and a notification still shows.
    private func assertStillServing(_ stage: Stage, _ toastd: ToastdProcess, file: StaticString = #filePath,
                                    line: UInt = #line) throws {
        XCTAssertTrue(toastd.process.isRunning, "toastd died: \(toastd.log)", file: file, line: line)
        let info = try gdbusCall(stage, path: Self.path, method: "org.freedesktop.Notifications.GetServerInformation", [])
        XCTAssertTrue(info.succeeded && info.stdoutText.contains("'toastd'"),
                      "GetServerInformation afterwards: \(info.stdoutText) \(info.stderrText)", file: file, line: line)
        let reply = try notify(stage, summary: "Still serving")
        XCTAssertNotNil(notifyID(reply), "Notify afterwards: \(reply.stderrText)", file: file, line: line)
    }
}

/// `gdbus monitor` on org.freedesktop.Notifications, started before the calls it should see.
final class BusMonitor {
    let process: BackgroundProcess

    /// Starts the monitor and waits until it watches the name's owner (its match rule is in by then).
    init(stage: Stage) throws {
        process = try stage.spawn(["gdbus", "monitor", "--session", "--dest", NotificationsBusTests.name])
        guard process.waitForLine(startingWith: "The name \(NotificationsBusTests.name) is owned by", timeout: 15) != nil
        else {
            process.terminate()
            throw StageError.startFailed("gdbus monitor never saw the owner: \(process.lines) \(process.stderrText)")
        }
    }

    deinit { process.terminate() }

    var lines: [String] {
        process.pump(until: .after(0))
        return process.lines
    }

    enum Match { case suffix, contains }

    /// Waits for the first line that ends with (or contains) `line`; gdbus prefixes the object path.
    func waitFor(line: String, match: Match = .suffix, timeout: Double = 10) -> String? {
        process.waitForLine(from: 0, deadline: .after(timeout)) {
            match == .suffix ? $0.hasSuffix(line) : $0.contains(line)
        }
    }

    func waitFor(closed id: UInt32, reason: UInt32, timeout: Double = 10) -> String? {
        waitFor(line: "org.freedesktop.Notifications.NotificationClosed (uint32 \(id), uint32 \(reason))", timeout: timeout)
    }
}
