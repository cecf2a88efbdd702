import ToastAccessibility
import XCTest

/// `a11y-hud-interval` on a hand-driven clock: a screen reader hears a HUD value at most once per
/// interval, the first at once and the last one always, and never a backlog.
final class AnnouncementThrottleTests: XCTestCase {
    func testAQuietChangeIsToldAtOnceAndAKeyHeldDownOnceAnIntervalEndingOnItsLastValue() {
        var throttle = AnnouncementThrottle<Int>(interval: 1000)
        XCTAssertEqual(throttle.offer(40, now: 10_000), 40, "the first change after a quiet time")
        XCTAssertNil(throttle.due)
        // A key held down: a value every 30 ms for 2.5 s.
        var told: [(Int, Int64)] = [(40, 10_000)]
        var now: Int64 = 10_000
        for value in 41...124 {
            now += 30
            if let due = throttle.due, due <= now, let waiting = throttle.take(now: due) { told.append((waiting, due)) }
            if let at = throttle.offer(value, now: now) { told.append((at, now)) }
        }
        XCTAssertEqual(throttle.waiting, 124)
        let end = throttle.due!
        XCTAssertNil(throttle.take(now: end - 1), "a timer that fires early finds nothing")
        XCTAssertEqual(throttle.take(now: end), 124, "the last value is told when its interval ends")
        told.append((124, end))
        XCTAssertNil(throttle.due, "nothing waits after")
        XCTAssertEqual(told.map(\.0), [40, 73, 106, 124])
        for (earlier, later) in zip(told, told.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later.1 - earlier.1, 1000, "two announcements within an interval: \(told)")
        }
        // Quiet again for an interval: the next change is told at once.
        XCTAssertEqual(throttle.offer(50, now: end + 1000), 50)
    }

    func testALeavingBarTellsItsWaitingValueAndZeroTellsEveryValue() {
        var throttle = AnnouncementThrottle<Int>(interval: 1000)
        _ = throttle.offer(10, now: 0)
        XCTAssertNil(throttle.offer(20, now: 100))
        XCTAssertEqual(throttle.flush(now: 200), 20)
        XCTAssertNil(throttle.flush(now: 300), "flushed once")
        XCTAssertNil(throttle.offer(30, now: 900), "the flush counts as told")

        var every = AnnouncementThrottle<Int>(interval: 0)
        XCTAssertEqual((1...5).compactMap { every.offer($0, now: 7) }, [1, 2, 3, 4, 5])
        XCTAssertNil(every.due)
    }

    func testTheBarIsTheApplicationsLastChildAProgressBarWithItsValue() {
        var tree = AccessibleTree()
        let toast = AccessibleTree.Toast(id: 4, summary: "a", body: "", actions: [], critical: false)
        _ = tree.update([toast])
        let bar = AccessibleTree.Bar(name: "Volume", value: 40, muted: false, maximum: 200, width: 300, height: 60)
        XCTAssertEqual(tree.update(bar: bar), .shown(bar, index: 1))
        XCTAssertNil(tree.update(bar: bar), "the same bar again changes nothing")
        XCTAssertEqual(tree.children(of: .application), [AccessibleTree.path(toast: 4), AccessibleTree.barPath])
        XCTAssertEqual(tree.node(at: AccessibleTree.barPath)?.role, .progressBar)
        XCTAssertEqual(tree.node(at: AccessibleTree.barPath)?.name, "Volume")
        var muted = bar
        muted.muted = true
        XCTAssertEqual(tree.update(bar: muted), .changed(from: bar, to: muted))
        XCTAssertEqual(muted.valueText, "40%, muted")
        XCTAssertEqual(tree.node(at: AccessibleTree.barPath)?.description, "muted")
        _ = tree.update([])
        XCTAssertEqual(tree.update(bar: nil), .hidden(muted, index: 0), "its index once the toast left")
        XCTAssertNil(tree.node(at: AccessibleTree.barPath), "no bar, no object")
    }
}

/// Which events readers listen for (the registry's list), as at-spi2-atk matches them.
final class ReaderEventsTests: XCTestCase {
    func testAListenerHearsItsEventAndEverythingUnderAShorterOne() {
        var events = ReaderEvents()
        XCTAssertFalse(events.hear("Object:Announcement"), "nobody listens yet")
        events.add(bus: ":1.5", event: "Object:StateChanged:Showing")
        XCTAssertTrue(events.hear("Object:StateChanged:Showing"))
        XCTAssertFalse(events.hear("Object:Announcement"))
        XCTAssertFalse(events.hear("Object:StateChanged:Focused"))
        events.add(bus: ":1.7", event: "Object:Announcement:")
        XCTAssertTrue(events.hear("Object:Announcement"))
        events.remove(bus: ":1.7", event: "Object:Announcement:")
        XCTAssertFalse(events.hear("Object:Announcement"), "deregistered")
        events.add(bus: ":1.9", event: "Object:")
        XCTAssertTrue(events.hear("Object:Announcement"), "a listener of every object event")
        XCTAssertFalse(events.hear("Window:Activate"))
        events.removeAll()
        XCTAssertFalse(events.hear("Object:StateChanged:Showing"))
    }
}

extension ReaderEventsTests {
    func testAListenersOwnSpellingIsTheSameEvent() {
        var events = ReaderEvents()
        events.add(bus: ":1.5", event: "object:state-changed:showing")
        XCTAssertTrue(events.hear("Object:StateChanged:Showing"))
        XCTAssertFalse(events.hear("Object:Announcement"))
    }
}
