import ToastVocabulary
import XCTest
@testable import ToastCore

/// History entries ↔ the records the history file keeps, and a history put back into the store.
final class HistoryRecordTests: XCTestCase {
    /// Wall clock minus the test clock: the records' times are this much larger.
    private let offset: Int64 = 1_700_000_000_000

    private func closedEntries(_ summaries: [String], in store: inout NotificationStore) -> [HistoryEntry] {
        for (index, summary) in summaries.enumerated() {
            var request = request(summary, body: "body \(index)", app: "app", urgency: .critical, tag: "t\(index)",
                                  actions: [NotificationAction(key: "open", label: "Open")])
            request.category = "build"
            request.desktopEntry = "org.example.App"
            request.progress = 40
            request.isResident = true
            request.expireTimeout = .after(7000)
            request.image = .pixels(RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 4]))
            let id = try! store.notify(request, now: t(Int64(index) * 100))
            store.markDisplayed([id], now: t(Int64(index) * 100))
            store.close(id: id, reason: .dismissed, now: t(Int64(index) * 100 + 50))
        }
        return store.history
    }

    func testARecordKeepsEverythingButThePictureAndTheSender() throws {
        var store = NotificationStore()
        let entry = try XCTUnwrap(closedEntries(["Saved"], in: &store).first)
        let record = HistoryRecord(entry, wallMinusMonotonic: offset)
        XCTAssertEqual(record.summary, "Saved")
        XCTAssertEqual(record.closedAt, 50 + offset)
        XCTAssertEqual(record.createdAt, offset)
        XCTAssertEqual(record.shownAt, offset)

        // Another run, whose monotonic clock is 10 s behind the wall clock's distance.
        let back = record.entry(wallMinusMonotonic: offset - 10_000)
        XCTAssertEqual(back.closedAt, t(10_050))
        XCTAssertEqual(back.reason, .dismissed)
        var expected = entry.notification
        expected.image = nil
        expected.origin = nil
        let n = back.notification
        XCTAssertEqual([n.summary, n.body, n.appName, n.category, n.desktopEntry, n.tag],
                       [expected.summary, expected.body, expected.appName, expected.category, expected.desktopEntry, expected.tag])
        XCTAssertEqual(n.id, expected.id)
        XCTAssertEqual(n.urgency, .critical)
        XCTAssertEqual(n.actions, expected.actions)
        XCTAssertEqual(n.progress, 40)
        XCTAssertTrue(n.isResident)
        XCTAssertEqual(n.expireTimeout, .after(7000))
        XCTAssertNil(n.image, "pictures are not kept")
        XCTAssertEqual(n.createdAt, t(10_000))
        XCTAssertEqual(n.shownAt, t(10_000))
    }

    func testARecordFromTheFileIsBroughtWithinTheLimits() {
        var record = HistoryRecord(id: 3, summary: String(repeating: "x", count: 100), reason: .expired, createdAt: 0, closedAt: 1)
        record.progress = 900
        var limits = TextLimits()
        limits.summaryBytes = 10
        let entry = record.entry(wallMinusMonotonic: 0, limits: limits)
        XCTAssertLessThanOrEqual(entry.notification.summary.utf8.count, 10)
        XCTAssertEqual(entry.notification.progress, 100)
    }

    func testLoadedHistoryGoesBehindThisRunsAndNewIdsStartPastIt() {
        var earlier = NotificationStore()
        let kept = closedEntries(["One", "Two", "Three"], in: &earlier)   // ids 1...3, newest first
        var config = NotificationConfig()
        config.historyLimit = 3
        var store = NotificationStore(config: config)
        let generation = store.historyGeneration
        _ = closedEntries(["Now"], in: &store)                             // id 1 in this run
        store.loadHistory(kept)
        XCTAssertEqual(store.history.map(\.notification.summary), ["Now", "Three", "Two"], "bounded by history")
        XCTAssertGreaterThan(store.historyGeneration, generation + 1)
        XCTAssertEqual(try store.notify(request("Next"), now: t(1000)), 4, "a new id is past the loaded ones")
    }

    func testHistoryGenerationMovesWithEveryHistoryChangeOnly() throws {
        var store = NotificationStore()
        var generation = store.historyGeneration
        let id = try store.notify(request("a"), now: t(0))
        XCTAssertEqual(store.historyGeneration, generation, "an open toast is not history")
        store.close(id: id, reason: .expired, now: t(1))
        XCTAssertGreaterThan(store.historyGeneration, generation)
        generation = store.historyGeneration
        store.setDoNotDisturb(true, now: t(2))
        XCTAssertEqual(store.historyGeneration, generation)
        store.restoreLast(now: t(3))
        XCTAssertGreaterThan(store.historyGeneration, generation, "restore takes an entry out")
        generation = store.historyGeneration
        var transient = request("t")
        transient.isTransient = true
        store.close(id: try store.notify(transient, now: t(4)), reason: .expired, now: t(5))
        XCTAssertEqual(store.historyGeneration, generation, "transient toasts skip the history")
    }

    func testRestoreByIdAndClear() throws {
        var store = NotificationStore()
        _ = closedEntries(["One", "Two", "Three"], in: &store)        // ids 1, 2, 3
        XCTAssertNil(store.restore(id: 9, now: t(1000)), "no such entry")
        XCTAssertEqual(store.restore(id: 2, now: t(1000)), 2)
        XCTAssertEqual(store.all.map(\.summary), ["Two"])
        XCTAssertEqual(store.history.map(\.notification.summary), ["Three", "One"])
        let generation = store.historyGeneration
        XCTAssertEqual(store.clearHistory(), 2)
        XCTAssertTrue(store.history.isEmpty)
        XCTAssertGreaterThan(store.historyGeneration, generation)
        XCTAssertEqual(store.clearHistory(), 0)
        XCTAssertNil(store.restore(id: nil, now: t(1001)))
    }
}
