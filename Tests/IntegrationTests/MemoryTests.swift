import Foundation
import XCTest

/// toastd's memory under a storm of hostile notifications over the real bus: whatever comes in, once it
/// is dismissed and the daemon is idle, its resident size is back near where it was (issue 18).
final class MemoryTests: XCTestCase {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    func testAStormOfRandomNotificationsGivesItsMemoryBackOnceDismissed() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage)
        let pid = toastd.process.pid
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        var random = SeededRandom(seed: 18)

        // Warm-up: a few ordinary toasts (text, markup, a picture), so "before" has its usual fonts loaded.
        for i in 0..<5 {
            let body = StormNotification(appName: "warm-up", summary: "Warm-up \(i)", body: "<b>ready</b> \(i)",
                                         hints: [.image(width: 48, height: 48, seed: UInt8(i))]).marshalled
            let reply = try call(client, body)
            XCTAssertFalse(reply.isError, "warm-up Notify: \(reply.errorName ?? "")")
        }
        try dismissAllAndWaitUntilNothingIsOpen(toastd)
        let before = try settledResidentKiB(pid)
        let beforeDetail = MemoryReport(pid: pid)

        // The storm: ≥ 4,000 calls, pipelined a window at a time (dbus-daemon caps pending replies).
        let count = 4000, window = 32
        let started = ContinuousClock.now
        var errors: [String] = []
        var sent = 0
        var peak = 0
        while sent < count {
            let batch = min(window, count - sent)
            var serials: Set<UInt32> = []
            for _ in 0..<batch {
                let notification = StormNotification.random(&random)
                serials.insert(try client.sendCall(destination: Self.name, path: Self.path, interface: Self.name,
                                                   member: "Notify", signature: "susssasa{sv}i",
                                                   body: notification.marshalled))
            }
            let deadline = Deadline.after(20)
            while !serials.isEmpty {
                let message = try client.readMessage(deadline: deadline)
                guard let serial = message.replySerial, serials.remove(serial) != nil else { continue }
                if message.isError { errors.append(message.errorName ?? "?") }
            }
            sent += batch
            if sent % 512 == 0 { peak = max(peak, anonymousKiB(pid) ?? 0) }
        }
        let stormTime = ContinuousClock.now - started
        XCTAssertTrue(toastd.process.isRunning, "toastd died in the storm: \(toastd.log)")
        // A random app name or string may be refused (e.g. too long after escaping); most must be shown.
        XCTAssertLessThan(errors.count, count / 100, "refused: \(Set(errors))")

        try dismissAllAndWaitUntilNothingIsOpen(toastd)
        // Measured (release): 13.3 MB kept while GLib's slice magazines held their pages, 4.7 MB since
        // toastd routes slices through malloc (MemoryReturn.swift); what stays is the history's
        // pictures (512 KiB by design), the Thai word-break dictionary and the font caches.
        let allowedKiB = 5 * 1024
        var after = anonymousKiB(pid) ?? .max
        let settled = waitUntil(timeout: 15, interval: 0.1) {
            after = anonymousKiB(pid) ?? .max
            return after <= before + allowedKiB
        }
        let afterDetail = MemoryReport(pid: pid)
        print("toastd-memory: \(count) Notify calls in \(stormTime); anonymous before \(before) KiB, peak ≥ \(peak) KiB, "
              + "after \(after) KiB (\(after - before) KiB more)\n  before: \(beforeDetail)\n  after:  \(afterDetail)")
        XCTAssertTrue(settled, "anonymous \(after) KiB after the storm, \(before) KiB before: more than \(allowedKiB) KiB kept\n"
                      + "before: \(beforeDetail)\nafter: \(afterDetail)\n\(toastd.log.suffix(2000))")

        // And it still serves, through the most ordinary client.
        let sendAfter = try stage.run(["notify-send", "After the storm", "still here"], timeout: 15)
        XCTAssertTrue(sendAfter.succeeded, "notify-send after the storm: \(sendAfter.stderrText)")
        let listed = try toastd.toast(["list"])
        XCTAssertTrue(listed.stdoutText.contains("After the storm"), "toast list: \(listed.stdoutText)")
    }

    // MARK: Helpers

    private func call(_ client: WireBusClient, _ body: [UInt8]) throws -> WireMessage {
        try client.call(destination: Self.name, path: Self.path, interface: Self.name, member: "Notify",
                        signature: "susssasa{sv}i", body: body)
    }

    private func dismissAllAndWaitUntilNothingIsOpen(_ toastd: ToastdProcess) throws {
        let dismissed = try toastd.toast(["dismiss", "--all"])
        XCTAssertTrue(dismissed.succeeded, "toast dismiss --all: \(dismissed.stderrText)")
        let empty = try waitUntil(timeout: 10, interval: 0.05) {
            try toastd.toast(["list", "--json"]).stdoutText.trimmingCharacters(in: .whitespacesAndNewlines) == "[]"
        }
        XCTAssertTrue(empty, "toasts still open after dismiss --all")
    }

    /// The resident size once it stops moving: two readings 300 ms apart within 64 KiB of each other
    /// (the fade-out ends, the surface goes, the daemon gives back what it can), or the last at 10 s.
    private func settledResidentKiB(_ pid: pid_t) throws -> Int {
        var last = anonymousKiB(pid) ?? 0
        var stableSince = ContinuousClock.now
        _ = waitUntil(timeout: 10, interval: 0.05) {
            let now = anonymousKiB(pid) ?? 0
            if abs(now - last) > 64 { last = now; stableSince = ContinuousClock.now }
            return ContinuousClock.now - stableSince >= .milliseconds(300)
        }
        return last
    }
}

/// RssAnon of `pid` in KiB, from /proc/PID/status: the memory no page cache gives back (file pages a
/// daemon maps, its code and fonts, stay cached whether it maps them or not).
func anonymousKiB(_ pid: pid_t) -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("RssAnon:") }) else { return nil }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])
}

/// Where the resident pages are (anonymous: heap; file: mapped fonts and libraries; shmem: buffers),
/// from /proc/PID/smaps_rollup, for the failure message and the measurement line.
struct MemoryReport: CustomStringConvertible {
    var fields: [(String, Int)] = []

    init(pid: pid_t) {
        if let smaps = FileHandle(forReadingAtPath: "/proc/\(pid)/smaps")?.readDataToEndOfFile() {
            var mapping = "", found: [(String, Int)] = []
            for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                if let first = parts.first, first.contains("-"), !first.hasSuffix(":") {
                    mapping = parts.count > 5 ? String(parts[5...].joined(separator: " ")) : String(first)
                } else if parts.first == "Anonymous:", parts.count > 1, let kib = Int(parts[1]), kib >= 512 {
                    found.append((mapping, kib))
                }
            }
            largestAnonymous = found.sorted { $0.1 > $1.1 }.prefix(6).map { "\($0.0) \($0.1) KiB" }
        }
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8) else { return }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 2, let kib = Int(parts[1]) else { continue }
            let name = String(parts[0].dropLast())
            if ["Rss", "Anonymous", "Shared_Clean", "Private_Clean", "Private_Dirty"].contains(name) {
                fields.append((name, kib))
            }
        }
    }

    /// The mappings holding the most anonymous memory (the heap, other arenas, big blocks).
    var largestAnonymous: [String] = []

    var description: String {
        fields.map { "\($0.0) \($0.1) KiB" }.joined(separator: ", ")
            + (largestAnonymous.isEmpty ? "" : "; largest anonymous: " + largestAnonymous.joined(separator: ", "))
    }
}

/// SplitMix64: a seeded generator, so the storm is the same every run.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// One Notify call's arguments, as a hostile or merely exotic client might send them.
struct StormNotification {
    enum Hint {
        case urgency(UInt8)
        case string(String, String)
        case bool(String, Bool)
        case int(String, Int32)
        case image(width: Int, height: Int, seed: UInt8)
    }

    var appName: String
    var replacesID: UInt32 = 0
    var summary: String
    var body: String
    var actions: [String] = []
    var hints: [Hint] = []
    var timeout: Int32 = -1

    /// Code points from scripts a default font lacks (so Pango falls back), and some it has.
    private static let blocks: [ClosedRange<UInt32>] = [
        0x20...0x7e, 0xa0...0x24f, 0x370...0x3ff, 0x400...0x4ff, 0x590...0x5ff, 0x600...0x6ff, 0x900...0x97f,
        0xe00...0xe7f, 0x10a0...0x10ff, 0x1100...0x11ff, 0x2000...0x2bff, 0x3040...0x30ff, 0x3400...0x4dbf,
        0x4e00...0x9fff, 0xac00...0xd7a3, 0xf900...0xfaff, 0x1f300...0x1f6ff, 0x20000...0x2a6df,
    ]

    static func randomText(_ random: inout SeededRandom, maxBytes: Int, markup: Bool) -> String {
        var text = ""
        let target = Int.random(in: 0...maxBytes, using: &random)
        var open: [String] = []
        while text.utf8.count < target - 8 {
            if markup, Int.random(in: 0..<12, using: &random) == 0 {
                if let tag = open.popLast(), Bool.random(using: &random) {
                    text += "</\(tag)>"
                } else {
                    let tag = ["b", "i", "u"].randomElement(using: &random)!
                    open.append(tag)
                    text += "<\(tag)>"
                }
                continue
            }
            if markup, Int.random(in: 0..<40, using: &random) == 0 { text += "&amp;"; continue }
            let block = blocks.randomElement(using: &random)!
            guard let scalar = Unicode.Scalar(UInt32.random(in: block, using: &random)) else { continue }
            if markup, scalar == "<" || scalar == "&" || scalar == ">" { continue }
            text.unicodeScalars.append(scalar)
        }
        while let tag = open.popLast() { text += "</\(tag)>" }
        return text
    }

    static func random(_ random: inout SeededRandom) -> StormNotification {
        var n = StormNotification(
            appName: "app-\(Int.random(in: 0..<200, using: &random))"
                + randomText(&random, maxBytes: 24, markup: false),
            summary: randomText(&random, maxBytes: 160, markup: false),
            body: randomText(&random, maxBytes: 512, markup: true))
        n.timeout = [-1, -1, 0, 200, 1000, 3000].randomElement(using: &random)!
        if Int.random(in: 0..<4, using: &random) == 0 { n.actions = ["default", "Open", "later", "Later"] }
        n.hints.append(.urgency(UInt8.random(in: 0...2, using: &random)))
        if Bool.random(using: &random) {
            n.hints.append(.string("x-dunst-stack-tag", "tag-\(Int.random(in: 0..<50, using: &random))"))
        }
        if Int.random(in: 0..<4, using: &random) == 0 {
            n.hints.append(.string("category", randomText(&random, maxBytes: 20, markup: false)))
        }
        if Int.random(in: 0..<5, using: &random) == 0 {
            n.hints.append(.int("value", Int32.random(in: -10...110, using: &random)))
        }
        if Int.random(in: 0..<8, using: &random) == 0 { n.hints.append(.bool("transient", true)) }
        if Int.random(in: 0..<5, using: &random) == 0 {
            n.hints.append(.image(width: Int.random(in: 1...512, using: &random),
                                  height: Int.random(in: 1...512, using: &random),
                                  seed: UInt8.random(in: 0...255, using: &random)))
        }
        return n
    }

    /// Notify's arguments `susssasa{sv}i`, marshalled.
    var marshalled: [UInt8] {
        var w = WireWriter()
        w.string(appName); w.uint32(replacesID); w.string(""); w.string(summary); w.string(body)
        w.array(elementAlignment: 4) { w in for a in actions { w.string(a) } }
        w.array(elementAlignment: 8) { w in
            for hint in hints {
                w.align(8)
                switch hint {
                case .urgency(let value):
                    w.string("urgency"); w.signature("y"); w.byte(value)
                case .string(let key, let value):
                    w.string(key); w.signature("s"); w.string(value)
                case .bool(let key, let value):
                    w.string(key); w.signature("b"); w.bool(value)
                case .int(let key, let value):
                    w.string(key); w.signature("i"); w.int32(value)
                case .image(let width, let height, let seed):
                    w.string("image-data"); w.signature("(iiibiiay)")
                    w.align(8)
                    w.int32(Int32(width)); w.int32(Int32(height)); w.int32(Int32(width * 4))
                    w.bool(true); w.int32(8); w.int32(4)
                    var pixels = [UInt8](repeating: 0xff, count: width * height * 4)
                    for i in stride(from: 0, to: pixels.count, by: 4) { pixels[i] = seed &+ UInt8(truncatingIfNeeded: i) }
                    w.array(elementAlignment: 1) { $0.raw(pixels) }
                }
            }
        }
        w.int32(timeout)
        return w.bytes
    }
}
