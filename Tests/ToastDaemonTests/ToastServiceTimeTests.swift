import ToastCore
@testable import ToastConfig
@testable import ToastDaemon
import ToastProtocol
import ToastRender
@testable import ToastScene
import ToastVocabulary
import XCTest

/// The service's part in time that counts, on hand clocks (monotonic and wall): timed modes between
/// the two clocks, and which toasts the scene no longer shows.
final class ToastServiceTimeTests: XCTestCase {
    private final class HandClock {
        var now = Instant(milliseconds: 1_000)
        var wall: Int64 = 1_800_000_000_000
        func advance(_ milliseconds: Int64) {
            now = now + milliseconds
            wall += milliseconds
        }
    }

    private let clock = HandClock()
    private lazy var service: ToastService = {
        let service = ToastService(model: ToastModel(), pictures: PictureLoader(icons: IconTheme(dataDirectories: [])),
                                   pictureWorker: try! PictureWorker(), clock: { [clock] in clock.now })
        service.wallNow = { [clock] in clock.wall }
        return service
    }()

    func testDoNotDisturbUntilAWallClockSecondEndsThereAndSaysSo() {
        XCTAssertTrue(service.setDoNotDisturb(true, until: 1_800_000_002))
        XCTAssertEqual(service.doNotDisturbUntil, 1_800_000_002)
        XCTAssertEqual(service.model.nextDeadline, Instant(milliseconds: 3_000))
        XCTAssertEqual(service.timedModes, [TimedMode(name: ModeNames.doNotDisturb, end: 1_800_000_002_000)])
        clock.advance(1_999)
        service.advanceClock()
        XCTAssertTrue(service.model.doNotDisturb)
        clock.advance(1)
        service.advanceClock()
        XCTAssertFalse(service.model.doNotDisturb, "over, without a command")
        XCTAssertNil(service.doNotDisturbUntil)
        XCTAssertEqual(service.timedModes, [])
    }

    func testOnWithoutAnEndStaysAndAModeAddedForAWhileEnds() {
        service.setDoNotDisturb(true, until: 1_800_000_060)
        service.setDoNotDisturb(true, until: nil)
        XCTAssertNil(service.doNotDisturbUntil, "on again without an end: it stays")
        XCTAssertEqual(service.changeModes(ModeChange(add: ["work"], until: 1_800_000_001)), ["default", "do-not-disturb", "work"])
        clock.advance(1_000)
        service.advanceClock()
        XCTAssertEqual(service.model.modes, ["default", "do-not-disturb"])
    }

    func testAnEarlierRunsModesComeBackUnlessOverOrInvalid() {
        service.restoreTimedModes([TimedMode(name: "do-not-disturb", end: 1_800_000_005_000),
                                   TimedMode(name: "gone", end: 1_799_999_999_000),
                                   TimedMode(name: "bad name", end: 1_800_000_005_000)])
        XCTAssertEqual(service.model.modes, ["default", "do-not-disturb"])
        XCTAssertEqual(service.doNotDisturbUntil, 1_800_000_005)
        XCTAssertEqual(service.model.nextDeadline, Instant(milliseconds: 6_000))
    }

    private func toast(_ id: NotificationID) -> Scene.Toast {
        Scene.Toast(id: id, view: ToastView(summary: "", body: ""), opacity: 1)
    }

    func testAToastTheSceneNoLongerShowsStopsAndAFloodIsSeenWithItsToast() throws {
        let old = try service.notify(NotificationRequest(appName: "a", summary: "old"))
        service.displayed([old])
        XCTAssertNotNil(service.model.notification(id: old)?.expiresAt)
        _ = service.takeChanges()
        service.showing([toast(old)])
        XCTAssertFalse(service.takeChanges(), "still shown: no change")
        service.showing([])
        XCTAssertNil(service.model.notification(id: old)?.expiresAt, "under +N more: stopped")

        var flood: [NotificationID] = []
        for index in 0..<12 { flood.append(try service.notify(NotificationRequest(appName: "chat", summary: "m\(index)"))) }
        // The scene draws the flood's newest as its toast, standing for all of it: every notification of it runs.
        var animator = Animator(animations: false)
        let drawn = animator.scene(for: service.model, now: clock.now, maxVisible: 5).toasts
        XCTAssertEqual(drawn.map(\.id), [flood.last!, old])
        XCTAssertEqual(Set(drawn[0].grouped), Set(flood))
        service.displayed(Scene.notifications(drawnAs: drawn))
        XCTAssertTrue(flood.allSatisfy { service.model.notification(id: $0)?.expiresAt != nil })
        service.showing(drawn)
        XCTAssertTrue(flood.allSatisfy { service.model.notification(id: $0)?.expiresAt != nil }, "shown with its toast")
        service.showing([toast(flood.last!)])
        XCTAssertTrue(flood.dropLast().allSatisfy { service.model.notification(id: $0)?.expiresAt == nil },
                      "a toast that no longer stands for them: they left the screen")
    }

    func testAwayStopsAndBackRunsOn() throws {
        let id = try service.notify(NotificationRequest(appName: "a", summary: "x"))
        service.displayed([id])
        clock.advance(1_000)
        service.setAway(true)
        XCTAssertNil(service.model.nextDeadline, "nothing wakes the daemon while away")
        clock.advance(60_000)
        service.setAway(false)
        XCTAssertEqual(service.model.notification(id: id)?.expiresAt, clock.now + 4_000)
    }
}

/// Expiry pauses while the pointer is over a surface of ours or a toast has the keyboard; either
/// ending alone leaves it paused.
final class AttendedExpiryTests: XCTestCase {
    func testThePointerLeavingDoesNotRestartTimeoutsWhileAToastHasTheKeyboard() {
        let service = ToastService(model: ToastModel(), pictures: PictureLoader(icons: IconTheme(dataDirectories: [])),
                                   pictureWorker: try! PictureWorker(), clock: { Instant(milliseconds: 1_000) })
        service.hover(true)
        service.holdKeyboard(true)
        XCTAssertTrue(service.model.notifications.expiryPaused)
        service.hover(false)
        XCTAssertTrue(service.model.notifications.expiryPaused, "the keyboard is still held")
        service.holdKeyboard(false)
        XCTAssertFalse(service.model.notifications.expiryPaused)
        service.holdKeyboard(true)
        XCTAssertTrue(service.model.notifications.expiryPaused, "the keyboard alone pauses")
    }
}
