import ToastVocabulary
import XCTest
import ToastCore

/// The facade the daemon drives: one event queue, one deadline, one generation.
final class ToastModelTests: XCTestCase {
    func testEventsAreDrainedInOrderAcrossNotificationsAndHUD() throws {
        var model = ToastModel()
        let a = try model.notify(request("a", origin: .socket(1)), now: t(0))
        try model.loadingStart(key: "k", now: t(0))
        model.close(id: a, reason: .closedByCall, now: t(1))
        model.loadingStop(key: "k")
        XCTAssertEqual(model.drainEvents(), [.loadingChanged(isActive: true),
                                             .closed(id: a, reason: .closedByCall, origin: .socket(1)),
                                             .loadingChanged(isActive: false)])
        XCTAssertEqual(model.drainEvents(), [], "draining empties the queue")
    }

    func testNextDeadlineSpansNotificationsAndHUD() throws {
        var model = ToastModel()
        XCTAssertNil(model.nextDeadline)
        let id = try model.notify(request("a", timeout: .after(3000)), now: t(0))
        XCTAssertNil(model.nextDeadline, "its time starts when it is drawn")
        model.markDisplayed([id], now: t(0))
        XCTAssertEqual(model.nextDeadline, t(3000))
        try model.showBar(kind: "volume", value: 10, now: t(0))
        XCTAssertEqual(model.nextDeadline, t(1500))

        model.advance(to: t(1500))
        XCTAssertNil(model.hud.bar)
        XCTAssertEqual(model.nextDeadline, t(3000))

        model.advance(to: t(3000))
        XCTAssertEqual(model.drainEvents(), [.closed(id: id, reason: .expired, origin: nil)])
        XCTAssertNil(model.nextDeadline)
    }

    func testGenerationTellsTheDaemonWhenToRedraw() throws {
        var model = ToastModel()
        var drawn = model.generation
        func needsRedraw() -> Bool {
            defer { drawn = model.generation }
            return model.generation != drawn
        }
        _ = try model.notify(request("a"), now: t(0))
        XCTAssertTrue(needsRedraw())
        XCTAssertFalse(needsRedraw())
        try model.showBar(kind: "volume", value: 10, now: t(0))
        XCTAssertTrue(needsRedraw())
        model.advance(to: t(100))
        XCTAssertFalse(needsRedraw(), "nothing was due")
        model.advance(to: t(1500))
        XCTAssertTrue(needsRedraw(), "the bar hid")
    }

    func testToggleDoNotDisturb() throws {
        var model = ToastModel()
        XCTAssertFalse(model.doNotDisturb)
        XCTAssertTrue(model.toggleDoNotDisturb(now: t(0)))
        _ = try model.notify(request("quiet"), now: t(0))
        XCTAssertEqual(model.visible.count, 0)
        XCTAssertEqual(model.all.count, 1)
        XCTAssertFalse(model.toggleDoNotDisturb(now: t(1)))
        XCTAssertEqual(model.visible.count, 1)
    }

    /// Modes keep their order and no duplicates; do-not-disturb is the `do-not-disturb` mode, whichever
    /// way it is turned on; a mode change is a change to draw (a section may restyle open toasts).
    func testModesAndDoNotDisturbAreOne() throws {
        var model = ToastModel()
        XCTAssertEqual(model.modes, ["default"])
        let generation = model.generation
        XCTAssertTrue(model.setModes(["default", "work", "default"], now: t(0)))
        XCTAssertEqual(model.modes, ["default", "work"])
        XCTAssertNotEqual(model.generation, generation)
        XCTAssertFalse(model.setModes(["default", "work"], now: t(0)), "no change")
        _ = try model.notify(request("chat"), now: t(0))
        model.setModes(["work", "do-not-disturb"], now: t(1))
        XCTAssertTrue(model.doNotDisturb)
        XCTAssertEqual(model.visible.count, 0, "held back")
        XCTAssertFalse(model.toggleDoNotDisturb(now: t(2)))
        XCTAssertEqual(model.modes, ["work"])
        XCTAssertEqual(model.visible.count, 1)
        model.setDoNotDisturb(true, now: t(3))
        XCTAssertEqual(model.modes, ["work", "do-not-disturb"])
        model.setModes((0..<40).map { "m\($0)" }, now: t(4))
        XCTAssertEqual(model.modes.count, ModeNames.maxCount)
    }

    func testActionThroughModel() throws {
        var model = ToastModel()
        let id = try model.notify(request("a", actions: [NotificationAction(key: "default", label: "Open")],
                                          origin: .dbus(":1.3")), now: t(0))
        try model.invokeAction(id: id, now: t(1))
        XCTAssertEqual(model.drainEvents(), [.actionInvoked(id: id, key: "default", origin: .dbus(":1.3")),
                                             .closed(id: id, reason: .dismissed, origin: .dbus(":1.3"))])
        XCTAssertEqual(model.history.first?.notification.id, id)
        XCTAssertEqual(model.restoreLast(now: t(2)), id)
    }

    func testSpinnerKeepsDaemonAnimating() throws {
        var model = ToastModel()
        XCTAssertFalse(model.isAnimating)
        try model.loadingStart(key: "k", owner: .socket(4), now: t(0))
        XCTAssertTrue(model.isAnimating)
        model.ownerDisconnected(.socket(4), now: t(10))
        XCTAssertEqual(model.nextDeadline, t(2010))
        model.advance(to: t(2010))
        XCTAssertFalse(model.isAnimating)
    }
}

final class ToastModelExtrasTests: XCTestCase {
    func testDismissNewestTakesTheTopVisibleOne() throws {
        var model = ToastModel()
        let older = try model.notify(request("older"), now: t(0))
        let newer = try model.notify(request("newer"), now: t(1))
        XCTAssertEqual(model.dismissNewest(now: t(2)), newer)
        XCTAssertEqual(model.visible.map(\.id), [older])
        model.setDoNotDisturb(true, now: t(3))
        XCTAssertNil(model.dismissNewest(now: t(4)), "hidden ones are not on top of anything")
    }

    func testLoadingKeysAreCapped() throws {
        var config = HUDConfig()
        config.maxLoadingKeys = 2
        var model = ToastModel(hud: config)
        try model.loadingStart(key: "a", now: t(0))
        try model.loadingStart(key: "b", now: t(0))
        XCTAssertThrowsError(try model.loadingStart(key: "c", now: t(0))) {
            XCTAssertEqual($0 as? HUDError, .tooManyLoadingKeys)
        }
        XCTAssertNoThrow(try model.loadingStart(key: "a", now: t(1)), "an active key can still be claimed")
    }

    func testInstantFromAndToTimespec() {
        XCTAssertEqual(Instant(seconds: 12, nanoseconds: 345_999_999), t(12_345))
        XCTAssertEqual(t(12_345).secondsAndNanoseconds.seconds, 12)
        XCTAssertEqual(t(12_345).secondsAndNanoseconds.nanoseconds, 345_000_000)
        XCTAssertEqual(t(-1).secondsAndNanoseconds.seconds, -1)
        XCTAssertEqual(t(-1).secondsAndNanoseconds.nanoseconds, 999_000_000)
    }

    func testNotificationTypeIsUsableNextToFoundation() throws {
        var model = ToastModel()
        let id = try model.notify(request("a"), now: t(0))
        let shown: ToastCore.Notification? = model.notification(id: id)
        XCTAssertEqual(shown?.summary, "a")
    }
}
