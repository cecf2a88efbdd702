import ToastVocabulary
import XCTest
@testable import ToastCore

/// Timeouts count only time a notification is seen: on screen, with the seat present. A hand clock.
final class TimeThatCountsTests: XCTestCase {
    private var store = NotificationStore()

    override func setUp() {
        store = NotificationStore()
    }

    private func notify(_ summary: String, timeout: Milliseconds = 2000, app: String = "test",
                        transient: Bool = false, at now: Int64) -> NotificationID {
        var request = request(summary, app: app, timeout: .after(timeout))
        request.isTransient = transient
        return try! store.notify(request, now: t(now))
    }

    func testAToastPushedUnderMoreStopsAndRunsOnFromWhatItHadLeft() {
        let old = notify("old", at: 0)
        store.markDisplayed([old], now: t(0))
        // 1500 ms later newer toasts take its place: it goes under "+N more" with 500 ms left.
        XCTAssertTrue(store.markOffScreen(except: { $0 != old }, now: t(1500)))
        XCTAssertNil(store.notification(id: old)?.expiresAt)
        XCTAssertEqual(store.notification(id: old)?.waitingTimeout, 500)
        XCTAssertNil(store.nextDeadline, "no timer for what nobody sees")
        store.advance(to: t(10_000))
        XCTAssertNotNil(store.notification(id: old), "it did not expire unseen")
        store.markDisplayed([old], now: t(10_000))
        XCTAssertEqual(store.notification(id: old)?.expiresAt, t(10_500))
        XCTAssertFalse(store.markOffScreen(except: { _ in true }, now: t(10_100)), "still shown: nothing changes")
    }

    func testEightAtOnceFiveShownEachIsOnScreenItsFullTime() {
        let ids = (0..<8).map { notify("t\($0)", at: Int64($0)) }
        var onScreenSince: [NotificationID: Instant] = [:]
        var seen: [NotificationID: Milliseconds] = [:]
        var now: Int64 = 16
        var shown = Set(ids.suffix(5))
        store.markDisplayed(shown, now: t(now))
        for id in shown { onScreenSince[id] = t(now) }
        // The daemon's loop: at each deadline the expired leave, the next wait comes up and is drawn.
        while let deadline = store.nextDeadline {
            now = deadline.milliseconds
            store.advance(to: t(now))
            for case .closed(let id, let reason, _) in store.drainEvents() {
                XCTAssertEqual(reason, .expired)
                seen[id, default: 0] += t(now) - onScreenSince[id]!
            }
            shown = Set(store.all.prefix(5).map(\.id))
            store.markOffScreen(except: { shown.contains($0) }, now: t(now))
            for id in shown where !store.notification(id: id)!.isOnScreen { onScreenSince[id] = t(now) }
            store.markDisplayed(shown, now: t(now))
        }
        XCTAssertEqual(store.all, [])
        XCTAssertEqual(seen.count, 8)
        for id in ids { XCTAssertGreaterThanOrEqual(seen[id] ?? 0, 2000, "toast \(id) was on screen its full time") }
    }

    func testAwayStopsEveryTimeoutButATransientOne() {
        let normal = notify("normal", at: 0)
        let transient = notify("transient", transient: true, at: 0)
        store.markDisplayed([normal, transient], now: t(0))
        XCTAssertTrue(store.setAway(true, now: t(500)))
        XCTAssertFalse(store.setAway(true, now: t(600)), "already away")
        XCTAssertNil(store.notification(id: normal)?.expiresAt)
        XCTAssertEqual(store.notification(id: transient)?.expiresAt, t(2000), "dunst's rule: transient ones still expire")
        store.advance(to: t(60_000))
        XCTAssertEqual(store.all.map(\.id), [normal])
        // A toast that arrives and is drawn while away waits too.
        let late = notify("late", at: 60_000)
        store.markDisplayed([late], now: t(60_000))
        XCTAssertNil(store.notification(id: late)?.expiresAt)
        store.setAway(false, now: t(90_000))
        XCTAssertEqual(store.notification(id: normal)?.expiresAt, t(91_500), "back: the 1500 ms it had left")
        XCTAssertEqual(store.notification(id: late)?.expiresAt, t(92_000), "its full time from now")
    }

    func testAnInvisibleNotificationRunsAtOnceAsNothingWillDrawIt() {
        var request = request("ghost", timeout: .after(300))
        request.rules.isInvisible = true
        let id = try! store.notify(request, now: t(0))
        XCTAssertEqual(store.notification(id: id)?.expiresAt, t(300))
        store.setAway(true, now: t(100))
        XCTAssertEqual(store.notification(id: id)?.expiresAt, t(300), "away or not")
    }

    func testDoNotDisturbStopsWhatWasOnScreenAndCriticalShowsUnlessConfigured() {
        let shown = notify("shown", at: 0)
        store.markDisplayed([shown], now: t(0))
        store.setDoNotDisturb(true, now: t(800))
        XCTAssertEqual(store.notification(id: shown)?.waitingTimeout, 1200)
        XCTAssertFalse(store.notification(id: shown)!.isOnScreen)
        _ = try! store.notify(request("alarm", urgency: .critical), now: t(900))
        XCTAssertEqual(store.visible.map(\.summary), ["alarm"])

        var config = NotificationConfig()
        config.dndAllowsCritical = false
        var strict = NotificationStore(config: config)
        strict.setDoNotDisturb(true, now: t(0))
        _ = try! strict.notify(request("alarm", urgency: .critical), now: t(0))
        XCTAssertEqual(strict.visible, [], "dnd-allows = none")
    }
}

/// More than `flood-limit` from one app within `flood-window` is a flood, drawn as one toast.
final class FloodTests: XCTestCase {
    func testTheGateCountsPerAppWithinTheWindow() {
        var gate = FloodGate()
        let floods = (0..<11).map { gate.noteArrival(from: "chat", now: t(Int64($0) * 10), limit: 10, window: 1000) }
        XCTAssertEqual(floods, Array(repeating: false, count: 10) + [true])
        XCTAssertFalse(gate.noteArrival(from: "mail", now: t(110), limit: 10, window: 1000), "another app is not flooding")
        XCTAssertFalse(gate.noteArrival(from: "chat", now: t(2000), limit: 10, window: 1000), "a second later it is over")
        XCTAssertFalse(gate.noteArrival(from: "chat", now: t(2001), limit: 0, window: 1000), "0: off")
    }

    func testTheGateForgetsQuietAppsAndStaysBoundedWhateverNamesAClientMakesUp() {
        var gate = FloodGate()
        for app in 0..<1000 { _ = gate.noteArrival(from: "app\(app)", now: t(Int64(app) * 1000), limit: 10, window: 1000) }
        XCTAssertLessThanOrEqual(gate.appCount, 129, "quiet apps are forgotten")
        for app in 0..<10_000 { _ = gate.noteArrival(from: "made-up \(app)", now: t(2_000_000), limit: 10, window: 1000) }
        XCTAssertLessThanOrEqual(gate.appCount, 2 * FloodGate.maxApps + 1, "all within one window")
    }

    func testAFloodMarksTheAppsOpenNotificationsAndNotOthers() throws {
        var store = NotificationStore()
        let other = try store.notify(request("mail", app: "Mail"), now: t(0))
        var chat: [NotificationID] = []
        for index in 0..<200 { chat.append(try store.notify(request("message \(index)", app: "Chat"), now: t(Int64(index) * 5))) }
        XCTAssertEqual(store.all.count, 201, "each keeps its id")
        XCTAssertTrue(chat.allSatisfy { store.notification(id: $0)!.isFlood }, "the first ten join the flood")
        XCTAssertFalse(store.notification(id: other)!.isFlood)
        XCTAssertTrue(store.hasFlood)
        let later = try store.notify(request("calm again", app: "Chat"), now: t(5000))
        XCTAssertFalse(store.notification(id: later)!.isFlood, "the flood is over")
        store.dismissAll(now: t(6000))
        XCTAssertEqual(store.drainEvents().count, 202, "each its NotificationClosed")
        XCTAssertEqual(store.history.count, 50, "each its history entry, within the history's limit")
    }
}

/// Modes turned on for a while end by themselves.
final class ModeEndTests: XCTestCase {
    func testDoNotDisturbEndsAtItsTimeAndTheHeldToastShows() throws {
        var model = ToastModel()
        model.setDoNotDisturb(true, now: t(0))
        model.setModeEnd(ModeNames.doNotDisturb, at: t(2000))
        let id = try model.notify(request("held"), now: t(100))
        XCTAssertEqual(model.visible, [])
        XCTAssertEqual(model.nextDeadline, t(2000), "the end wakes the daemon; the held toast does not")
        model.advance(to: t(1999))
        XCTAssertTrue(model.doNotDisturb)
        model.advance(to: t(2000))
        XCTAssertFalse(model.doNotDisturb)
        XCTAssertEqual(model.visible.map(\.id), [id])
        XCTAssertEqual(model.modeEnds, [:])
        XCTAssertNil(model.nextDeadline, "its timeout waits to be drawn")
    }

    func testTurningAModeOffForgetsItsEndAndAnOffModeTakesNone() {
        var model = ToastModel()
        model.setModeEnd("work", at: t(10))
        XCTAssertEqual(model.modeEnds, [:], "work is off")
        model.setModes(model.modes + ["work"], now: t(0))
        model.setModeEnd("work", at: t(1000))
        XCTAssertEqual(model.modeEnds, ["work": t(1000)])
        model.setModes(model.modes.filter { $0 != "work" }, now: t(1))
        XCTAssertEqual(model.modeEnds, [:])
        model.advance(to: t(1000))
        XCTAssertFalse(model.modes.contains("work"))
    }
}
