import ToastVocabulary
import XCTest
@testable import ToastCore

final class NotificationStoreTests: XCTestCase {
    private var store = NotificationStore()

    override func setUp() {
        store = NotificationStore()
    }

    /// Notifies and, as an idle screen does, draws the notification at once (its timeout starts).
    private func notify(_ request: NotificationRequest, at now: Int64 = 0) -> NotificationID {
        // Every request in these tests is valid; a throw is a test failure.
        let id = try! store.notify(request, now: t(now))
        store.markDisplayed([id], now: t(now))
        return id
    }

    private var visibleSummaries: [String] { store.visible.map(\.summary) }

    // MARK: Ids

    func testIdsIncreaseFromOne() {
        XCTAssertEqual(notify(request("a")), 1)
        XCTAssertEqual(notify(request("b")), 2)
        XCTAssertEqual(notify(request("c")), 3)
    }

    func testIdsAreNotReusedWhileCountingUp() {
        let first = notify(request("a"))
        store.close(id: first, reason: .dismissed, now: t(1))
        XCTAssertEqual(notify(request("b")), 2)
    }

    func testIdsWrapSkippingZeroAndIdsInUse() {
        store.ids = IDAllocator(next: 1)
        let one = notify(request("stays"))           // id 1 stays open
        XCTAssertEqual(one, 1)
        store.ids = IDAllocator(next: .max)
        XCTAssertEqual(notify(request("max")), .max)
        XCTAssertEqual(notify(request("wrapped")), 2, "wraps past 0 and skips 1, which is open")
    }

    // MARK: Replace

    func testReplaceByIdKeepsIdAndPosition() {
        let a = notify(request("a"))
        let b = notify(request("b"))
        _ = notify(request("c"))
        let replaced = notify(request("b2", replaces: b), at: 100)
        XCTAssertEqual(replaced, b)
        XCTAssertEqual(visibleSummaries, ["c", "b2", "a"])
        XCTAssertEqual(store.all.count, 3)
        XCTAssertEqual(store.notification(id: a)?.summary, "a")
    }

    func testReplaceRestartsTimeoutAndKeepsEntranceTime() {
        let id = notify(request("a"), at: 0)
        _ = notify(request("a2", replaces: id), at: 4000)
        let notification = store.notification(id: id)!
        XCTAssertEqual(notification.expiresAt, t(9000))
        XCTAssertEqual(notification.shownAt, t(0), "an update in place does not re-enter")
        XCTAssertEqual(notification.createdAt, t(0))
        XCTAssertEqual(notification.updatedAt, t(4000))
    }

    func testUnknownReplaceIdGetsNewId() {
        let a = notify(request("a"))
        let id = notify(request("b", replaces: 77))
        XCTAssertNotEqual(id, 77)
        XCTAssertNotEqual(id, a)
        XCTAssertEqual(store.all.count, 2)
    }

    func testReplaceByTagKeepsIdAndPosition() {
        let volume = notify(request("vol 10", tag: "volume"))
        _ = notify(request("other"))
        let again = notify(request("vol 20", tag: "volume"))
        XCTAssertEqual(again, volume)
        XCTAssertEqual(visibleSummaries, ["other", "vol 20"])
    }

    func testTagIsScopedToAppName() {
        let mine = notify(request("a", app: "one", tag: "t"))
        let theirs = notify(request("b", app: "two", tag: "t"))
        XCTAssertNotEqual(mine, theirs)
        XCTAssertEqual(store.all.count, 2)
    }

    func testClosedTagDoesNotReplace() {
        let first = notify(request("a", tag: "t"))
        store.close(id: first, reason: .dismissed, now: t(1))
        XCTAssertNotEqual(notify(request("b", tag: "t")), first)
    }

    func testReplaceByAnotherClientTellsThePreviousOrigin() {
        let id = notify(request("a", tag: "t", origin: .socket(1)))
        _ = notify(request("b", tag: "t", origin: .socket(2)))
        XCTAssertEqual(store.drainEvents(), [.replaced(id: id, previousOrigin: .socket(1))])
        _ = notify(request("c", tag: "t", origin: .socket(2)))
        XCTAssertEqual(store.drainEvents(), [], "same origin: nothing to tell")
    }

    // MARK: Close

    func testCloseReasonsCarryDBusValuesAndSocketNames() {
        XCTAssertEqual(CloseReason.allCases.map(\.specCode), [1, 2, 3, 4])
        XCTAssertEqual(CloseReason.allCases.map(\.rawValue), ["expired", "dismissed", "closed", "undefined"])
        XCTAssertEqual(CloseReason(specCode: 3), .closedByCall)
        XCTAssertNil(CloseReason(specCode: 0))
        XCTAssertNil(CloseReason(specCode: 5))
    }

    func testCloseEmitsClosedWithOrigin() {
        let id = notify(request("a", origin: .dbus(":1.7")))
        let closed = store.close(id: id, reason: .closedByCall, now: t(5))
        XCTAssertEqual(closed?.id, id)
        XCTAssertEqual(store.drainEvents(), [.closed(id: id, reason: .closedByCall, origin: .dbus(":1.7"))])
        XCTAssertTrue(store.all.isEmpty)
    }

    func testClosingUnknownOrClosedIdIsQuietNoOp() {
        let id = notify(request("a"))
        store.close(id: id, reason: .dismissed, now: t(1))
        _ = store.drainEvents()
        XCTAssertNil(store.close(id: id, reason: .closedByCall, now: t(2)))
        XCTAssertNil(store.close(id: 999, reason: .closedByCall, now: t(2)))
        XCTAssertEqual(store.drainEvents(), [])
        XCTAssertEqual(store.history.count, 1)
    }

    func testDismissAllClosesEverythingOldestFirst() {
        let a = notify(request("a"))
        let b = notify(request("b"))
        XCTAssertEqual(store.dismissAll(now: t(1)), 2)
        XCTAssertEqual(store.drainEvents(), [.closed(id: a, reason: .dismissed, origin: nil),
                                             .closed(id: b, reason: .dismissed, origin: nil)])
        XCTAssertEqual(store.history.map(\.notification.summary), ["b", "a"], "newest stays on top")
    }

    // MARK: History

    func testHistoryIsNewestFirstAndBounded() {
        var config = NotificationConfig()
        config.historyLimit = 3
        store = NotificationStore(config: config)
        for index in 1...5 {
            let id = notify(request("n\(index)"))
            store.close(id: id, reason: .dismissed, now: t(Int64(index)))
        }
        XCTAssertEqual(store.history.map(\.notification.summary), ["n5", "n4", "n3"])
        XCTAssertEqual(store.history.first?.reason, .dismissed)
        XCTAssertEqual(store.history.first?.closedAt, t(5))
    }

    /// A picture of `side`×`side` pixels: `side * side * 4` bytes.
    private func pictured(_ summary: String, side: Int) -> NotificationRequest {
        var r = request(summary)
        r.image = .pixels(RGBAImage(width: side, height: side, pixels: [UInt8](repeating: 7, count: side * side * 4)))
        return r
    }

    func testHistoryKeepsPicturesWithinItsByteBudgetAndTheTextOfEveryEntry() {
        var config = NotificationConfig()
        config.historyPictureBytes = 3 * 64 * 64 * 4  // three 64-px pictures
        store = NotificationStore(config: config)
        // Closed one by one on a hand-driven clock, as a stream of toasts expiring would be.
        for index in 1...6 {
            let id = notify(pictured("p\(index)", side: 64), at: Int64(index) * 10)
            store.close(id: id, reason: .expired, now: t(Int64(index) * 10 + 5))
        }
        XCTAssertEqual(store.history.map(\.notification.summary), ["p6", "p5", "p4", "p3", "p2", "p1"],
                       "every entry keeps its text")
        XCTAssertEqual(store.history.map { $0.notification.image != nil }, [true, true, true, false, false, false],
                       "only the newest three keep their pixels")
        let kept = store.history.compactMap { entry -> Int? in
            if case .pixels(let image) = entry.notification.image { return image.pixels.count } else { return nil }
        }
        XCTAssertLessThanOrEqual(kept.reduce(0, +), config.historyPictureBytes)
    }

    func testHistoryPicturesStayBoundedWhateverTheirSizes() {
        // The default budget against a long stream of pictures of every size up to the loader's cap.
        var generator = SplitMix(seed: 18)
        for index in 0..<400 {
            let id = notify(pictured("n\(index)", side: 1 + Int(generator.next() % 256)), at: Int64(index))
            store.close(id: id, reason: .dismissed, now: t(Int64(index) + 1))
            let bytes = store.history.reduce(0) { sum, entry in
                if case .pixels(let image) = entry.notification.image { sum + image.pixels.count } else { sum }
            }
            XCTAssertLessThanOrEqual(bytes, NotificationConfig().historyPictureBytes)
            XCTAssertLessThanOrEqual(store.history.count, NotificationConfig().historyLimit)
        }
        XCTAssertNotNil(store.history.first?.notification.image, "the newest entry keeps its picture")
    }

    func testRestoredEntryPastTheBudgetComesBackAsText() {
        var config = NotificationConfig()
        config.historyPictureBytes = 32 * 32 * 4
        store = NotificationStore(config: config)
        let old = notify(pictured("old", side: 32))
        store.close(id: old, reason: .dismissed, now: t(1))
        let new = notify(pictured("new", side: 32), at: 2)
        store.close(id: new, reason: .dismissed, now: t(3))
        XCTAssertNil(store.history.last?.notification.image)
        // A smaller budget on reload applies to what is already kept.
        config.historyPictureBytes = 0
        store.reconfigure(config)
        XCTAssertTrue(store.history.allSatisfy { $0.notification.image == nil })
        XCTAssertEqual(store.restoreLast(now: t(10)), new)
        XCTAssertEqual(store.notification(id: new)?.summary, "new")
    }

    func testTransientSkipsHistory() {
        var transient = request("t")
        transient.isTransient = true
        let id = notify(transient)
        store.close(id: id, reason: .dismissed, now: t(1))
        XCTAssertTrue(store.history.isEmpty)
    }

    func testRestoreLastBringsBackNewestWithSameIdAndFreshTimeout() {
        let a = notify(request("a"))
        let b = notify(request("b"))
        store.close(id: a, reason: .dismissed, now: t(1))
        store.close(id: b, reason: .expired, now: t(2))
        XCTAssertEqual(store.restoreLast(now: t(1000)), b)
        XCTAssertEqual(visibleSummaries, ["b"])
        XCTAssertEqual(store.notification(id: b)?.waitingTimeout, 5000, "its full time again, from its next drawing")
        store.markDisplayed([b], now: t(1000))
        XCTAssertEqual(store.notification(id: b)?.expiresAt, t(6000))
        XCTAssertEqual(store.notification(id: b)?.shownAt, t(1000))
        XCTAssertEqual(store.history.map(\.notification.summary), ["a"])
    }

    func testRestoreLastTakesNewIdWhenOldOneIsTaken() {
        store.ids = IDAllocator(next: 5)
        let old = notify(request("old"))
        store.close(id: old, reason: .dismissed, now: t(1))
        store.ids = IDAllocator(next: 5)
        XCTAssertEqual(notify(request("new")), old, "test setup: id 5 reused")
        let restored = store.restoreLast(now: t(2))
        XCTAssertNotNil(restored)
        XCTAssertNotEqual(restored, old)
        XCTAssertEqual(store.all.count, 2)
    }

    func testRestoreLastWithEmptyHistoryIsNil() {
        XCTAssertNil(store.restoreLast(now: t(0)))
    }

    // MARK: Actions

    private let openAction = NotificationAction(key: "default", label: "Open")
    private let replyAction = NotificationAction(key: "reply", label: "Reply")

    func testDefaultActionInvokesThenCloses() throws {
        let id = notify(request("a", actions: [openAction, replyAction], origin: .socket(3)))
        try store.invokeAction(id: id, now: t(1))
        XCTAssertEqual(store.drainEvents(), [.actionInvoked(id: id, key: "default", origin: .socket(3)),
                                             .closed(id: id, reason: .dismissed, origin: .socket(3))])
        XCTAssertNil(store.notification(id: id))
    }

    func testNamedAction() throws {
        let id = notify(request("a", actions: [openAction, replyAction]))
        try store.invokeAction(id: id, key: "reply", now: t(1))
        XCTAssertEqual(store.drainEvents().first, .actionInvoked(id: id, key: "reply", origin: nil))
    }

    func testUnknownActionKeyIsAnError() {
        let id = notify(request("a", actions: [replyAction]))
        XCTAssertThrowsError(try store.invokeAction(id: id, key: "nope", now: t(1))) {
            XCTAssertEqual($0 as? ActionError, .unknownAction(id: id, key: "nope"))
        }
        XCTAssertThrowsError(try store.invokeAction(id: id, now: t(1))) {
            XCTAssertEqual($0 as? ActionError, .unknownAction(id: id, key: "default"), "no default action")
        }
        XCTAssertNotNil(store.notification(id: id), "a failed invocation leaves it open")
        XCTAssertEqual(store.drainEvents(), [])
    }

    func testUnknownIdIsAnError() {
        XCTAssertThrowsError(try store.invokeAction(id: 42, now: t(1))) {
            XCTAssertEqual($0 as? ActionError, .unknownNotification(42))
        }
    }

    func testResidentStaysAfterAction() throws {
        var resident = request("a", actions: [openAction])
        resident.isResident = true
        let id = notify(resident)
        try store.invokeAction(id: id, now: t(1))
        XCTAssertEqual(store.drainEvents(), [.actionInvoked(id: id, key: "default", origin: nil)])
        XCTAssertNotNil(store.notification(id: id))
    }

    // MARK: Do not disturb

    func testDoNotDisturbHidesAllButCritical() {
        XCTAssertTrue(store.setDoNotDisturb(true, now: t(0)))
        XCTAssertFalse(store.setDoNotDisturb(true, now: t(0)), "already on")
        _ = notify(request("quiet"))
        _ = notify(request("loud", urgency: .critical))
        XCTAssertEqual(visibleSummaries, ["loud"])
        XCTAssertEqual(store.all.map(\.summary), ["loud", "quiet"], "hidden ones are still listed")
    }

    func testDoNotDisturbHidesWhatWasShownAndShowsItAgainWhenOff() {
        _ = notify(request("a"), at: 0)
        store.setDoNotDisturb(true, now: t(100))
        XCTAssertEqual(visibleSummaries, [])
        store.setDoNotDisturb(false, now: t(200))
        XCTAssertEqual(visibleSummaries, ["a"])
        XCTAssertEqual(store.visible.first?.shownAt, t(200), "it enters again")
        XCTAssertNil(store.visible.first?.expiresAt, "hidden time does not count")
        store.markDisplayed(store.visible.map(\.id), now: t(216))
        XCTAssertEqual(store.visible.first?.expiresAt, t(5116), "drawn again: the 4900 ms it had left")
    }

    func testHiddenNotificationsWaitUnseenInsteadOfExpiring() {
        store.setDoNotDisturb(true, now: t(0))
        let id = notify(request("quiet"), at: 0)
        XCTAssertNil(store.nextDeadline, "nothing to wake for while nothing shows")
        store.advance(to: t(60_000))
        XCTAssertEqual(store.drainEvents(), [])
        XCTAssertEqual(store.notification(id: id)?.waitingTimeout, 5000)
    }

    // MARK: Expiry

    func testDefaultTimeoutsPerUrgency() {
        let low = notify(request("low", urgency: .low), at: 10)
        let normal = notify(request("normal"), at: 10)
        let critical = notify(request("critical", urgency: .critical), at: 10)
        XCTAssertEqual(store.notification(id: low)?.expiresAt, t(5010))
        XCTAssertEqual(store.notification(id: normal)?.expiresAt, t(5010))
        XCTAssertNil(store.notification(id: critical)?.expiresAt, "critical stays unless told otherwise")
    }

    func testExplicitTimeouts() {
        let never = notify(request("never", timeout: .never))
        let short = notify(request("short", timeout: .after(300)))
        let critical = notify(request("critical", urgency: .critical, timeout: .after(700)))
        XCTAssertNil(store.notification(id: never)?.expiresAt)
        XCTAssertEqual(store.notification(id: short)?.expiresAt, t(300))
        XCTAssertEqual(store.notification(id: critical)?.expiresAt, t(700))
    }

    func testAdvanceExpiresWhatIsDueInDeadlineOrder() {
        let late = notify(request("late", timeout: .after(2000)))
        let early = notify(request("early", timeout: .after(1000)))
        let critical = notify(request("critical", urgency: .critical))
        XCTAssertEqual(store.nextDeadline, t(1000))

        store.advance(to: t(999))
        XCTAssertEqual(store.drainEvents(), [], "nothing is due before its deadline")

        store.advance(to: t(5000))
        XCTAssertEqual(store.drainEvents(), [.closed(id: early, reason: .expired, origin: nil),
                                             .closed(id: late, reason: .expired, origin: nil)])
        XCTAssertEqual(store.all.map(\.id), [critical])
        XCTAssertNil(store.nextDeadline)
    }

    func testNextDeadlineFollowsReplacement() {
        let id = notify(request("a", timeout: .after(1000)))
        _ = notify(request("a", timeout: .after(1000), replaces: id), at: 800)
        XCTAssertEqual(store.nextDeadline, t(1800))
        store.advance(to: t(1000))
        XCTAssertNotNil(store.notification(id: id), "the restarted timeout is not due yet")
    }

    // MARK: Redraw generation

    func testGenerationMovesOnlyWhenVisibleSetChanges() {
        let start = store.generation
        let id = notify(request("a"))
        XCTAssertGreaterThan(store.generation, start)

        let afterShow = store.generation
        store.close(id: 999, reason: .dismissed, now: t(1))
        XCTAssertEqual(store.generation, afterShow, "a no-op close does not redraw")

        store.setDoNotDisturb(true, now: t(2))
        let hidden = store.generation
        XCTAssertGreaterThan(hidden, afterShow)
        _ = notify(request("quiet"))
        XCTAssertEqual(store.generation, hidden, "a hidden notification does not redraw")

        store.close(id: id, reason: .dismissed, now: t(3))
        XCTAssertEqual(store.generation, hidden, "closing a hidden one does not redraw")
    }

    // MARK: Capacity

    func testOpenNotificationsAreCapped() {
        var config = NotificationConfig()
        config.maxOpen = 2
        store = NotificationStore(config: config)
        let oldest = notify(request("a"))
        _ = notify(request("b"))
        _ = notify(request("c"))
        XCTAssertEqual(store.all.map(\.summary), ["c", "b"])
        XCTAssertEqual(store.drainEvents(), [.closed(id: oldest, reason: .undefined, origin: nil)])
    }
}

/// Timeouts run from display: a toast's time starts when the daemon draws it.
final class TimeoutFromDisplayTests: XCTestCase {
    func testEightToastsFiveDrawnEachGetsItsFullTime() throws {
        var store = NotificationStore()
        var ids: [NotificationID] = []
        for index in 0..<8 {
            ids.append(try store.notify(request("t\(index)", timeout: .after(2000)), now: t(Int64(index))))
        }
        XCTAssertEqual(store.all.map(\.expiresAt), Array(repeating: nil, count: 8), "nothing drawn yet")
        // The first frame draws the newest five; t2, t1, t0 wait under "+3 more" with their full time.
        store.markDisplayed(ids[3...], now: t(16))
        XCTAssertEqual(store.all.map(\.expiresAt), [t(2016), t(2016), t(2016), t(2016), t(2016), nil, nil, nil])
        XCTAssertEqual(store.all.suffix(3).map(\.waitingTimeout), [2000, 2000, 2000])
        store.advance(to: t(2016))
        XCTAssertEqual(store.drainEvents().count, 5)
        XCTAssertEqual(store.all.map(\.id), [ids[2], ids[1], ids[0]])
        store.markDisplayed(ids[..<3], now: t(2032))
        XCTAssertEqual(store.all.map(\.expiresAt), [t(4032), t(4032), t(4032)])
        store.advance(to: t(4031))
        XCTAssertEqual(store.all.count, 3, "each is on screen its full two seconds")
        store.advance(to: t(4032))
        XCTAssertEqual(store.all, [])
        XCTAssertEqual(store.history.map(\.reason), Array(repeating: .expired, count: 8))
    }

    func testDrawnAgainChangesNothing() throws {
        var store = NotificationStore()
        let id = try store.notify(request("a", timeout: .after(1000)), now: t(0))
        store.markDisplayed([id], now: t(10))
        store.markDisplayed([id], now: t(500))
        XCTAssertEqual(store.notification(id: id)?.expiresAt, t(1010))
        store.markDisplayed([999], now: t(600))
    }

    func testNeverToastsAreUnaffectedAndHiddenOnesWait() throws {
        var store = NotificationStore()
        let sticky = try store.notify(request("sticky", timeout: .never), now: t(0))
        XCTAssertNil(store.notification(id: sticky)?.waitingTimeout)
        store.setDoNotDisturb(true, now: t(0))
        let hidden = try store.notify(request("quiet", timeout: .after(300)), now: t(1))
        XCTAssertNil(store.notification(id: hidden)?.expiresAt, "hidden by do-not-disturb: waits to be seen")
        XCTAssertEqual(store.notification(id: hidden)?.waitingTimeout, 300)
    }

    func testAReplacementRestartsItsTimeFromItsNextDrawing() throws {
        var store = NotificationStore()
        let id = try store.notify(request("a", timeout: .after(1000)), now: t(0))
        store.markDisplayed([id], now: t(0))
        _ = try store.notify(request("a2", timeout: .after(1000), replaces: id), now: t(500))
        XCTAssertNil(store.notification(id: id)?.expiresAt)
        store.markDisplayed([id], now: t(516))
        XCTAssertEqual(store.notification(id: id)?.expiresAt, t(1516))
    }
}
