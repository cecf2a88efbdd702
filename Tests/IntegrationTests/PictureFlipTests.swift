import Foundation
import Glibc
import Synchronization
import XCTest

/// Pictures from hostile clients against the real daemon: names flipped between a PNG and a FIFO,
/// hundreds of 16 MB `image-data`, the picture helper killed in the middle of a 4K picture.
final class PictureFlipTests: XCTestCase {
    private static let name = "org.freedesktop.Notifications"
    private static let path = "/org/freedesktop/Notifications"

    /// Notify's arguments with hints `image-path` (a string) or `image-data` (RGBA), timeout `timeout`.
    private static func notifyBody(_ summary: String, imagePath: String? = nil,
                                   image: (width: Int, height: Int, rgba: [UInt8])? = nil, timeout: Int32 = 0) -> [UInt8] {
        var w = WireWriter()
        w.string("picture-tests"); w.uint32(0); w.string(""); w.string(summary); w.string("")
        w.array(elementAlignment: 4) { _ in }
        w.array(elementAlignment: 8) { w in
            if let imagePath {
                w.align(8); w.string("image-path"); w.signature("s"); w.string(imagePath)
            }
            if let image {
                w.align(8); w.string("image-data"); w.signature("(iiibiiay)")
                w.align(8)
                w.int32(Int32(image.width)); w.int32(Int32(image.height)); w.int32(Int32(image.width * 4))
                w.bool(true); w.int32(8); w.int32(4)
                w.array(elementAlignment: 1) { $0.raw(image.rgba) }
            }
        }
        w.int32(timeout)
        return w.bytes
    }

    private func notify(_ client: WireBusClient, _ body: [UInt8]) throws -> WireMessage {
        let serial = try client.sendCall(destination: Self.name, path: Self.path, interface: Self.name, member: "Notify",
                                         signature: "susssasa{sv}i", body: body)
        let deadline = Deadline.after(30)
        var reply: WireMessage
        repeat { reply = try client.readMessage(deadline: deadline) } while reply.replySerial != serial
        return reply
    }

    /// Another client's `version` requests over the control socket, one after another, until stopped:
    /// how many were answered and how many took over 20 ms (reported; a stall fails the test).
    private final class Pinger: @unchecked Sendable {
        let counts = Mutex<(answered: Int, slow: Int, slowest: Double, failed: Int)>((0, 0, 0, 0))
        let running = Atomic<Bool>(true)
        let done = DispatchSemaphore(value: 0)

        init(socketPath: String) {
            Thread.detachNewThread { [self] in
                defer { done.signal() }
                guard let client = try? UnixClient(path: socketPath) else {
                    counts.withLock { $0.failed += 1 }
                    return
                }
                defer { client.close() }
                while running.load(ordering: .relaxed) {
                    let start = Date()
                    let reply = try? client.request(#"{"v":1,"request":"version"}"#, timeout: 5)
                    let took = Date().timeIntervalSince(start) * 1000
                    counts.withLock {
                        if reply?["ok"] as? Bool == true { $0.answered += 1 } else { $0.failed += 1 }
                        if took > 20 { $0.slow += 1 }
                        $0.slowest = max($0.slowest, took)
                    }
                }
            }
        }

        func stop() -> (answered: Int, slow: Int, slowest: Double, failed: Int) {
            running.store(false, ordering: .relaxed)
            done.wait()
            return counts.withLock { $0 }
        }
    }

    /// A name flipped between a PNG and a FIFO while thousands of `Notify` calls name it: the daemon
    /// opens it once, without blocking, and refuses the FIFO on its descriptor; it never waits for a
    /// writer, and another client's requests are answered throughout (every one; the slow ones counted).
    func testANameFlippedToAFIFONeverStallsTheDaemon() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let directory = NSTemporaryDirectory() + "toastd-flip-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let png = directory + "/icon.png", fifo = directory + "/fifo", link = directory + "/picture.png"
        try PNGFile.write(solid: RGB(r: 255, g: 0, b: 0), width: 64, height: 64, to: png)
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertEqual(symlink(png, link), 0)

        let flipping = Atomic<Bool>(true)
        let flipperDone = DispatchSemaphore(value: 0)
        let flips = Atomic<Int>(0)
        Thread.detachNewThread {
            defer { flipperDone.signal() }
            var target = false
            while flipping.load(ordering: .relaxed) {
                let temporary = directory + "/next.png"
                unlink(temporary)
                guard symlink(target ? png : fifo, temporary) == 0, rename(temporary, link) == 0 else { return }
                target.toggle()
                flips.add(1, ordering: .relaxed)
            }
        }
        let pinger = Pinger(socketPath: toastd.socketPath)
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        let calls = 2000
        var answered = 0
        for index in 0..<calls {
            let reply = try notify(client, Self.notifyBody("flip \(index)", imagePath: link, timeout: 1))
            if !reply.isError { answered += 1 }
        }
        flipping.store(false, ordering: .relaxed)
        flipperDone.wait()
        let pings = pinger.stop()
        print("flip: \(calls) Notify calls, \(flips.load(ordering: .relaxed)) flips; other client: \(pings.answered) answered, "
              + "\(pings.slow) over 20 ms, slowest \(String(format: "%.1f", pings.slowest)) ms, \(pings.failed) unanswered")
        XCTAssertEqual(answered, calls, "every Notify answered")
        XCTAssertEqual(pings.failed, 0, "the other client was always answered")
        XCTAssertGreaterThan(pings.answered, 0)
        XCTAssertTrue(toastd.process.isRunning)
        XCTAssertTrue(toastd.log.contains("not a readable regular file"), "the FIFO refused: \(toastd.log.suffix(2000))")
        XCTAssertTrue(try toastd.toast(["list"]).succeeded, "toastd answers after the flood")
    }

    /// 300 `image-data` pictures of 16 MB: the memory held for pictures waiting stays within the
    /// bound (`PictureLimits.maxPendingBytes`, 64 MiB) plus what the bus holds, where it peaked at
    /// 465 MB before; every call is answered.
    func testThreeHundredSixteenMegabytePicturesStayWithinTheBound() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let pid = toastd.process.pid
        let side = 2048
        var rgba = [UInt8](repeating: 0, count: side * side * 4)
        for index in stride(from: 0, to: rgba.count, by: 4) { rgba[index + 1] = 0xff; rgba[index + 3] = 0xff }
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        _ = try notify(client, Self.notifyBody("warm", image: (64, 64, Array(rgba.prefix(64 * 64 * 4))), timeout: 1))
        let before = peakKiB(pid) ?? 0
        let body = Self.notifyBody("16 MB", image: (side, side, rgba), timeout: 1)
        var errors = 0
        for _ in 0..<300 {
            if try notify(client, body).isError { errors += 1 }
        }
        let peak = peakKiB(pid) ?? 0
        print("300 × 16 MB image-data: peak RSS \(before) KiB before, \(peak) KiB after (+\((peak - before) >> 10) MiB)")
        XCTAssertEqual(errors, 0)
        XCTAssertTrue(toastd.process.isRunning)
        // The bound, two messages the bus library may hold while the loop turns, and slack.
        XCTAssertLessThan(peak - before, (64 + 2 * 16 + 32) * 1024, "peak RSS grew by \((peak - before) >> 10) MiB")
        XCTAssertTrue(try toastd.toast(["list"]).succeeded)
    }

    /// The picture helper killed (SIGSEGV, then SIGKILL) while it shrinks a 4K picture: that toast
    /// shows without it, toastd answers, and the next picture shows.
    func testAHelperKilledMidPictureCostsOnlyThatPicture() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        let width = 3840, height = 2160
        var fourK = [UInt8](repeating: 0, count: width * height * 4)
        for index in stride(from: 0, to: fourK.count, by: 4) { fourK[index] = 0xff; fourK[index + 3] = 0xff }
        let small = [UInt8](repeating: 0xff, count: 32 * 32 * 4)
        for signal in [SIGSEGV, SIGKILL] {
            let logged = toastd.log.count
            XCTAssertFalse(try notify(client, Self.notifyBody("warm", image: (32, 32, small), timeout: 1)).isError)
            XCTAssertFalse(try notify(client, Self.notifyBody("4K", image: (width, height, fourK))).isError)
            // The helper is started at the first picture needing it; it is the daemon's child.
            var helper: pid_t?
            XCTAssertTrue(waitUntil(timeout: 15) {
                // Confined (Seccomp: 2): past its start, where a signal would still meet the runtime's handlers.
                helper = childPID(of: toastd.process.pid, named: "toastd-picture")
                guard let helper, let status = try? String(contentsOfFile: "/proc/\(helper)/status", encoding: .utf8) else { return false }
                return status.contains("Seccomp:\t2")
            }, "no helper: \(toastd.log)")
            guard let helper else { return }
            kill(helper, signal)
            XCTAssertTrue(waitUntil(timeout: 20) { toastd.log.dropFirst(logged).contains("could not be decoded: the picture helper \(helper)") },
                          "the dropped picture's log line: \(toastd.log.dropFirst(logged))")
            XCTAssertTrue(try toastd.toast(["list"]).succeeded, "toastd answers")
            XCTAssertFalse(try notify(client, Self.notifyBody("next", image: (width, height, fourK), timeout: 1)).isError)
            XCTAssertTrue(waitUntil(timeout: 30) {
                guard let next = childPID(of: toastd.process.pid, named: "toastd-picture") else { return false }
                return next != helper
            }, "a new helper for the next picture")
            _ = try toastd.toast(["dismiss", "--all"])
        }
        XCTAssertFalse(toastd.log.contains("could not be decoded: the picture helper stopped"),
                       "only the killed pictures were dropped")
    }
}

/// The peak resident set (VmHWM) of `pid`, in KiB.
private func peakKiB(_ pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
}

/// A child of `parent` whose command name is `name`.
private func childPID(of parent: pid_t, named name: String) -> pid_t? {
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
    for entry in entries {
        guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
        let comm = stat[stat.index(after: open)..<close]
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if comm == name, fields.count > 2, pid_t(fields[1]) == parent, fields[0] != "Z" { return pid }
    }
    return nil
}
