import ToastCore
import ToastVocabulary
import XCTest

/// `ToastModel.reconfigure`: a configuration reload swaps the settings without touching what is open.
final class ReconfigureTests: XCTestCase {
    func testNewTimeoutsApplyToLaterNotificationsOnly() throws {
        var model = ToastModel()
        let before = try model.notify(request("before"), now: t(0))
        model.markDisplayed([before], now: t(0))
        var notifications = NotificationConfig()
        notifications.defaultTimeouts.normal = 1000
        model.reconfigure(notifications: notifications, hud: HUDConfig())
        let after = try model.notify(request("after"), now: t(0))
        model.markDisplayed([after], now: t(0))
        XCTAssertEqual(model.all.first { $0.id == before }?.expiresAt, t(5000), "an open toast keeps its deadline")
        XCTAssertEqual(model.all.first { $0.id == after }?.expiresAt, t(1000))
        XCTAssertEqual(model.notifications.config.defaultTimeouts.normal, 1000)
    }

    func testASmallerHistoryDropsTheOldestEntries() throws {
        var model = ToastModel()
        for index in 0..<5 {
            let id = try model.notify(request("n\(index)"), now: t(0))
            _ = model.close(id: id, reason: .dismissed, now: t(1))
        }
        XCTAssertEqual(model.history.count, 5)
        var notifications = NotificationConfig()
        notifications.historyLimit = 2
        model.reconfigure(notifications: notifications, hud: HUDConfig())
        XCTAssertEqual(model.history.map(\.notification.summary), ["n4", "n3"])
    }

    func testTheNextBarUpdateUsesTheNewBarTimeout() throws {
        var model = ToastModel()
        try model.showBar(kind: "volume", value: 10, now: t(0))
        XCTAssertEqual(model.hud.bar?.hidesAt, t(1500))
        var hud = HUDConfig()
        hud.barTimeout = 300
        model.reconfigure(notifications: NotificationConfig(), hud: hud)
        XCTAssertEqual(model.hud.bar?.hidesAt, t(1500), "the bar on screen keeps its deadline")
        try model.showBar(kind: "volume", value: 20, now: t(100))
        XCTAssertEqual(model.hud.bar?.hidesAt, t(400))
    }
}
