import ToastVocabulary
import XCTest
@testable import ToastCore

final class OpenNotificationsTests: XCTestCase {
    private func note(_ id: NotificationID) -> ToastCore.Notification {
        Notification(id: id, request: request("n\(id)"), createdAt: t(0), now: t(0))
    }

    func testNewestFirstAndRemovalFromEitherEndOrBetween() {
        var open: OpenNotifications = []
        for id: NotificationID in 1...5 { open.prepend(note(id)) }
        XCTAssertEqual(open.map(\.id), [5, 4, 3, 2, 1])
        XCTAssertEqual(open.remove(at: 4).id, 1, "the oldest")
        XCTAssertEqual(open.remove(at: 0).id, 5, "the newest")
        XCTAssertEqual(open.remove(at: 1).id, 3, "one between")
        XCTAssertEqual(open.map(\.id), [4, 2])
        open[1].summary = "changed in place"
        XCTAssertEqual(open.map(\.summary), ["n4", "changed in place"])
        XCTAssertEqual(open, [note(4), { var n = note(2); n.summary = "changed in place"; return n }()])
    }

    /// Random prepends, removals and edits against an array doing the same: the ring wraps, grows and
    /// shrinks many times over, and must always list what the array lists.
    func testAgreesWithAnArrayThroughRandomChanges() {
        var rng = SplitMix(seed: 34)
        var open = OpenNotifications()
        var reference: [ToastCore.Notification] = []
        var next: NotificationID = 1
        for step in 0..<20_000 {
            // Grow for a while, then drain, so that the count goes up to hundreds and back to zero.
            let growing = (step / 2_000) % 2 == 0
            if reference.isEmpty || Int.random(in: 0..<10, using: &rng) < (growing ? 6 : 3) {
                open.prepend(note(next))
                reference.insert(note(next), at: 0)
                next += 1
            } else if Int.random(in: 0..<10, using: &rng) == 0 {
                let i = Int.random(in: 0..<reference.count, using: &rng)
                open[i].body = "edited \(step)"
                reference[i].body = "edited \(step)"
            } else {
                let i = switch Int.random(in: 0..<3, using: &rng) {
                case 0: reference.count - 1
                case 1: 0
                default: Int.random(in: 0..<reference.count, using: &rng)
                }
                XCTAssertEqual(open.remove(at: i), reference.remove(at: i))
            }
            XCTAssertEqual(open.count, reference.count)
            if step % 97 == 0 || reference.count < 3 {
                XCTAssertEqual(Array(open), reference, "step \(step)")
            }
        }
        while !reference.isEmpty { XCTAssertEqual(open.remove(at: reference.count - 1), reference.removeLast()) }
        XCTAssertTrue(open.isEmpty)
    }

    /// The store's order is still newest first, and the oldest is what goes past `maxOpen`.
    func testStoreKeepsNewestFirstAndPushesOutTheOldest() throws {
        var config = NotificationConfig()
        config.maxOpen = 3
        var store = NotificationStore(config: config)
        let ids = try (1...5).map { try store.notify(request("s\($0)", app: "app\($0)"), now: t(0)) }
        XCTAssertEqual(store.all.map(\.id), [ids[4], ids[3], ids[2]])
        XCTAssertEqual(store.history.map(\.notification.id), [ids[1], ids[0]])
    }
}
