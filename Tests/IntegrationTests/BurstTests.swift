import Foundation
import XCTest

/// Ten thousand Notify calls written at once on one bus connection (issue 18): every call is answered,
/// every id closes exactly once, the surface is drawn at most once per frame callback, memory stays
/// bounded, and the daemon and the compositor keep serving.
final class BurstTests: XCTestCase {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"

    func testTenThousandPipelinedNotifyCallsAreAllAnsweredAndEachClosesOnce() throws {
        let stage = try Stage.shared()
        // WAYLAND_DEBUG: the daemon's own record of its requests and events, to check frame pacing.
        let toastd = try ToastdProcess(stage: stage, environment: ["WAYLAND_DEBUG": "client"])
        let pid = toastd.process.pid
        let client = try WireBusClient(address: stage.variables["DBUS_SESSION_BUS_ADDRESS"]!)
        var rule = WireWriter()
        rule.string("type='signal',interface='\(Self.name)',member='NotificationClosed'")
        let match = try client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus", member: "AddMatch", signature: "s",
                                    body: rule.bytes)
        XCTAssertFalse(match.isError, "AddMatch: \(match.errorName ?? "")")
        let before = anonymousKiB(pid) ?? 0

        // Every call goes out before any reply is read: the bus queues them all for the daemon.
        let count = 10_000
        var serials: [UInt32: Int] = [:]
        let started = ContinuousClock.now
        for index in 0..<count {
            var notification = StormNotification(appName: "burst", summary: "Burst \(index)",
                                                 body: "call \(index) of \(count)")
            notification.timeout = index % 3 == 0 ? 500 : -1  // some expire during the burst, most wait
            let serial = try client.sendCall(destination: Self.name, path: Self.path, interface: Self.name,
                                             member: "Notify", signature: "susssasa{sv}i",
                                             body: notification.marshalled)
            serials[serial] = index
        }

        var ids: [UInt32] = [], errors: [String] = [], closes: [UInt32: [UInt32]] = [:]
        var peak = before
        func take(_ message: WireMessage) {
            if message.type == 4, message.member == "NotificationClosed", message.body.count >= 8 {
                var reader = WireReader(bytes: message.body)
                if let id = reader.uint32(), let reason = reader.uint32() { closes[id, default: []].append(reason) }
            } else if let serial = message.replySerial, serials.removeValue(forKey: serial) != nil {
                if message.isError { errors.append(message.errorName ?? "?") } else if let id = message.firstUInt32 { ids.append(id) }
                if (ids.count + errors.count) % 500 == 0 { peak = max(peak, anonymousKiB(pid) ?? 0) }
            }
        }
        let answered = Deadline.after(120)
        while !serials.isEmpty { take(try client.readMessage(deadline: answered)) }
        let drain = ContinuousClock.now - started
        XCTAssertEqual(errors, [], "every Notify is answered with an id")
        XCTAssertEqual(Set(ids).count, count, "each call gets an id of its own")

        // The daemon and the compositor both still answer.
        XCTAssertTrue(try toastd.toast(["version"]).succeeded, "toast version after the burst: \(toastd.log.suffix(500))")
        XCTAssertNoThrow(try stage.swaymsg("-t", "get_version"), "sway after the burst")

        // Dismiss what is open; then every id has closed, each exactly once.
        let dismissed = try toastd.toast(["dismiss", "--all"])
        XCTAssertTrue(dismissed.succeeded, "toast dismiss --all: \(dismissed.stderrText)")
        let closed = Deadline.after(60)
        while closes.count < count, !closed.hasPassed {
            guard let message = try? client.readMessage(deadline: closed) else { break }
            take(message)
        }
        let unclosed = Set(ids).subtracting(closes.keys)
        XCTAssertTrue(unclosed.isEmpty, "\(unclosed.count) ids never closed, e.g. \(unclosed.sorted().prefix(5))")
        let twice = closes.filter { $0.value.count > 1 }
        XCTAssertTrue(twice.isEmpty, "\(twice.count) ids closed more than once, e.g. \(twice.prefix(3))")
        let strangers = Set(closes.keys).subtracting(ids)
        XCTAssertTrue(strangers.isEmpty, "closed ids never handed out: \(strangers.sorted().prefix(5))")
        let reasons = Dictionary(grouping: closes.values.compactMap(\.first), by: { $0 }).mapValues(\.count)

        // Frame pacing, read from the daemon's own Wayland log.
        let pacing = FramePacing(log: toastd.log)
        XCTAssertGreaterThan(pacing.bufferCommits, 0, "no frame was drawn at all")
        XCTAssertEqual(pacing.commitsAheadOfFrame, 0,
                       "buffers committed while the last frame's callback was still pending: \(pacing.examples)")

        let after = anonymousKiB(pid) ?? 0
        print("toastd-burst: \(count) pipelined Notify calls answered in \(drain); closes by reason \(reasons.sorted { $0.key < $1.key }); "
              + "\(pacing.bufferCommits) buffer commits over \(pacing.frameCallbacks) frame callbacks; "
              + "anonymous before \(before) KiB, peak ≥ \(peak) KiB, after \(after) KiB")
        // Bounded: at most 1,000 toasts are open (docs/dbus.md), each a few KiB of model and text.
        XCTAssertLessThan(peak - before, 96 * 1024, "anonymous memory grew by \(peak - before) KiB during the burst")
        XCTAssertTrue(toastd.process.isRunning, "toastd died: \(toastd.log.suffix(1000))")
    }
}

/// Counts, in a `WAYLAND_DEBUG=client` log, buffer commits made while the surface's previous frame
/// callback had not yet fired (the daemon promises to draw at most once per frame).
struct FramePacing {
    private(set) var bufferCommits = 0
    private(set) var frameCallbacks = 0
    private(set) var commitsAheadOfFrame = 0
    private(set) var examples: [String] = []

    init(log: String) {
        // Per surface: the callback asked for before the last commit, while it has not fired.
        var requested: [String: String] = [:], pending: [String: String] = [:], attached: Set<String> = []
        var callbackOwner: [String: String] = [:]
        for line in log.split(separator: "\n") {
            guard let body = line.split(separator: "]", maxSplits: 1).last.map({ $0.trimmingCharacters(in: .whitespaces) })
            else { continue }
            if body.hasPrefix("-> wl_surface@") {
                let surface = String(body.dropFirst(3).prefix { $0 != "." })
                if body.contains(".frame(new id wl_callback@") {
                    let callback = String(body.split(separator: "wl_callback@").last!.prefix { $0.isNumber })
                    requested[surface] = callback
                    callbackOwner[callback] = surface
                } else if body.contains(".attach(wl_buffer@") {
                    attached.insert(surface)
                } else if body.contains(".commit()") {
                    guard attached.remove(surface) != nil else { continue }
                    bufferCommits += 1
                    if let waiting = pending[surface] {
                        commitsAheadOfFrame += 1
                        if examples.count < 3 { examples.append("\(surface) before wl_callback@\(waiting).done: \(line)") }
                    }
                    if let callback = requested.removeValue(forKey: surface) { pending[surface] = callback }
                } else if body.contains(".destroy()") {
                    requested[surface] = nil; pending[surface] = nil
                }
            } else if body.hasPrefix("wl_callback@"), body.contains(".done(") {
                let callback = String(body.dropFirst("wl_callback@".count).prefix { $0.isNumber })
                if let surface = callbackOwner.removeValue(forKey: callback), pending[surface] == callback {
                    pending[surface] = nil
                    frameCallbacks += 1
                }
            }
        }
    }
}
