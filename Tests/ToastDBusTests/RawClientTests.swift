import CSystemd
import Foundation
import XCTest
@testable import ToastDBus
import ToastVocabulary

final class RawClientTests: BusTestCase {
    /// A Hud caller that stays connected is not reported; when it disconnects, it is, once.
    func testConnectedHudClientIsReportedOnlyWhenItLeaves() throws {
        let client = try RawClient()
        for key in ["upload", "index"] {
            let m = try client.methodCall(path: NotificationsBus.hudPath, interface: NotificationsBus.hudInterface,
                                          member: "LoadingStart")
            try MessageWriter(m: m).string(key)
            try MessageWriter(m: m).string("Working")
            try client.callAsync(m)
            sd_bus_message_unref(m)
        }
        func pumpBoth(timeout: TimeInterval = 10, until condition: () -> Bool) throws -> Bool {
            try pump([bus], timeout: timeout) { client.process(); return condition() }
        }
        XCTAssertTrue(try pumpBoth { client.replies == 2 })
        XCTAssertEqual(delegate.loadingStarted.map(\.key), ["upload", "index"])
        XCTAssertEqual(delegate.loadingStarted.first?.sender, client.uniqueName)
        // The owner check has been answered and the match installed: still connected, so nothing.
        XCTAssertFalse(try pumpBoth(timeout: 0.3) { !delegate.vanished.isEmpty })
        XCTAssertEqual(bus.watchedClients, [client.uniqueName])

        let name = client.uniqueName
        client.close()
        XCTAssertTrue(try pump([bus]) { delegate.vanished == [name] })
        XCTAssertEqual(bus.watchedClients, [])
        XCTAssertFalse(try pump([bus], timeout: 0.2) { delegate.vanished.count > 1 }, "reported once")
    }

    /// An owner that did not allow replacement (like mako) keeps the name even with `replace: true`,
    /// and the error says so.
    func testReplaceRefusedByOwnerThatDoesNotAllowIt() throws {
        bus = nil  // our first instance leaves the bus
        let owner = try RawClient()
        XCTAssertEqual(sd_bus_request_name(owner.bus, NotificationsBus.busName, 0), 1)
        XCTAssertThrowsError(try NotificationsBus(delegate: RecordingDelegate(), replace: true)) { error in
            guard case BusError.nameTaken(let who) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(who.uniqueName, owner.uniqueName)
            XCTAssertEqual(who.pid, getpid())
            XCTAssertEqual(who.allowsReplacement, false)
            XCTAssertTrue("\(error)".contains("does not allow replacement"), "\(error)")
            let comm = (try? String(contentsOfFile: "/proc/self/comm", encoding: .utf8))?
                .trimmingCharacters(in: .newlines)
            XCTAssertEqual(who.processName, comm)
            XCTAssertTrue("\(error)".contains("`killall \(comm ?? "?")`"), "\(error)")
        }
    }

    /// Against mako or dunst the message names the commands that stop them, since toastd cannot.
    func testTheRefusalNamesTheCommandsThatStopTheOwner() {
        let mako = BusError.nameTaken(NameOwner(uniqueName: ":1.7", pid: 4242, command: "mako", processName: "mako",
                                                allowsReplacement: false))
        XCTAssertEqual("\(mako)", "org.freedesktop.Notifications is already owned by :1.7, pid 4242, mako, which does "
                       + "not allow replacement: stop it first (`systemctl --user stop mako` if systemd runs it, else "
                       + "`killall mako`), then start toastd")
        let dunst = BusError.nameTaken(NameOwner(uniqueName: ":1.9", pid: 77, command: "/usr/bin/dunst -conf x",
                                                 processName: "dunst"))
        XCTAssertEqual("\(dunst)", "org.freedesktop.Notifications is already owned by :1.9, pid 77, /usr/bin/dunst -conf x; "
                       + "stop it (`systemctl --user stop dunst` if systemd runs it, else `killall dunst`) or take it "
                       + "over with toastd --replace")
        let unknown = BusError.nameTaken(NameOwner(uniqueName: ":1.3", pid: nil, command: nil, allowsReplacement: false))
        XCTAssertTrue("\(unknown)".contains("stop it first (its own way)"), "\(unknown)")
    }

    /// Microseconds our parsing of a typical Notify takes (message already received): printed, not asserted.
    func testMeasureNotifyParsing() throws {
        let client = try RawClient()
        let m = try client.methodCall(path: NotificationsBus.objectPath, interface: NotificationsBus.interface,
                                      member: "Notify")
        defer { sd_bus_message_unref(m) }
        try appendTypicalNotify(m)
        XCTAssertGreaterThanOrEqual(sd_bus_message_seal(m, 1, 0), 0)
        let rounds = 2000
        var parsed: BusNotification? = nil
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<rounds {
            _ = sd_bus_message_rewind(m, 1)
            parsed = try NotificationsBus.parseNotify(m, sender: ":1.1")
        }
        let perCall = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(rounds) / 1000
        print("Notify parse: \(String(format: "%.2f", perCall)) µs per call (typical Notify, \(rounds) rounds)")
        XCTAssertEqual(parsed?.summary, "Ada Lovelace")
        XCTAssertEqual(parsed?.actions.count, 2)
        XCTAssertEqual(parsed?.hints["urgency"], .integer(1))
        XCTAssertEqual(parsed?.hints["desktop-entry"], .string("org.example.Chat"))
        XCTAssertEqual(parsed?.expiry, .serverDefault)
    }

    /// Round trip of a typical Notify from a connected client through dbus-daemon to the delegate and
    /// back (both ends in this process, debug build): printed, not asserted.
    func testMeasureNotifyRoundTrip() throws {
        let client = try RawClient()
        var samples: [Double] = []
        for round in 0..<200 {
            let m = try client.methodCall(path: NotificationsBus.objectPath, interface: NotificationsBus.interface,
                                          member: "Notify")
            try appendTypicalNotify(m)
            let start = DispatchTime.now().uptimeNanoseconds
            try client.callAsync(m)
            sd_bus_message_unref(m)
            XCTAssertTrue(try pump([bus]) { client.process(); return client.replies == round + 1 })
            samples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        samples.sort()
        print("Notify round trip via dbus-daemon: median \(Int(samples[100])) µs, p90 \(Int(samples[180])) µs")
        XCTAssertEqual(delegate.notifications.count, 200)
        XCTAssertEqual(client.errors, 0)
    }
}

/// Replies and signals held while the daemon draws (`NotificationsBus.holdsOutput`) reach the client
/// only when sent, in the order they were made.
final class HeldOutputTests: BusTestCase {
    func testHeldRepliesAndSignalsGoOutOnlyWhenSentAndInOrder() throws {
        let client = try RawClient()
        try client.watchSignal("NotificationClosed")
        bus.holdsOutput = true
        let m = try client.methodCall(path: NotificationsBus.objectPath, interface: NotificationsBus.interface, member: "Notify")
        try appendTypicalNotify(m)
        try client.callAsync(m)
        sd_bus_message_unref(m)
        func pumpBoth(timeout: TimeInterval = 10, until condition: () -> Bool) throws -> Bool {
            try pump([bus], timeout: timeout) { client.process(); return condition() }
        }
        XCTAssertTrue(try pumpBoth { delegate.notifications.count == 1 }, "Notify never reached the delegate")
        bus.emitClosed(id: 7, reason: .dismissed)
        XCTAssertFalse(try pumpBoth(timeout: 0.3) { !client.received.isEmpty }, "sent while held: \(client.received)")
        XCTAssertEqual(bus.sendHeld(), 2)
        XCTAssertFalse(bus.holdsOutput)
        XCTAssertTrue(try pumpBoth { client.received.count == 2 }, "\(client.received)")
        XCTAssertEqual(client.received, ["reply", "NotificationClosed"])
    }
}
