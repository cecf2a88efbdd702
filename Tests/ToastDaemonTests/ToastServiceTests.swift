import ToastCore
import ToastVocabulary
import XCTest
@testable import ToastDaemon

/// The service on a hand-driven clock: what the front doors call, and what they hear back.
final class ToastServiceTests: XCTestCase {
    /// The time the service reads; tests move it.
    private final class HandClock {
        var now = Instant(milliseconds: 1_000)
    }

    private let clock = HandClock()
    private lazy var service = ToastService(
        model: ToastModel(), pictures: PictureLoader(icons: IconTheme(dataDirectories: [])),
        clock: { [clock] in clock.now })

    private func request(_ summary: String, timeout: ExpireTimeout = .serverDefault,
                         actions: [NotificationAction] = [], origin: ClientID? = nil) -> NotificationRequest {
        var request = NotificationRequest(appName: "app", summary: summary)
        request.expireTimeout = timeout
        request.actions = actions
        request.origin = origin
        return request
    }

    func testChangesAreTakenOncePerTurn() throws {
        XCTAssertFalse(service.takeChanges())
        _ = try service.notify(request("a"))
        XCTAssertTrue(service.takeChanges())
        XCTAssertFalse(service.takeChanges(), "taken")
    }

    func testTimeComesFromTheClock() throws {
        let id = try service.notify(request("a", timeout: .after(500), origin: .socket(4)))
        XCTAssertNil(service.model.nextDeadline, "not drawn yet")
        _ = service.takeChanges()
        service.displayed([id])
        XCTAssertTrue(service.takeChanges(), "a deadline to arm")
        service.displayed([id])
        XCTAssertFalse(service.takeChanges(), "drawn again: nothing changes")
        XCTAssertEqual(service.model.nextDeadline, Instant(milliseconds: 1_500))
        clock.now = Instant(milliseconds: 1_499)
        service.advanceClock()
        XCTAssertEqual(service.drainEvents(), [])
        clock.now = Instant(milliseconds: 1_500)
        service.advanceClock()
        XCTAssertEqual(service.drainEvents(), [.closed(id: id, reason: .expired, origin: .socket(4))])
    }

    func testAButtonClickInvokesTheButtonsActionNotTheDefault() throws {
        let actions = [NotificationAction(key: "default", label: "Open"), NotificationAction(key: "yes", label: "Yes"),
                       NotificationAction(key: "no", label: "No")]
        let id = try service.notify(request("Deploy?", actions: actions, origin: .dbus(":1.2")))
        service.invokeButton(id: id, index: 1)
        XCTAssertEqual(service.drainEvents(), [.actionInvoked(id: id, key: "no", origin: .dbus(":1.2")),
                                               .closed(id: id, reason: .dismissed, origin: .dbus(":1.2"))])
        service.invokeButton(id: id, index: 0)
        XCTAssertEqual(service.drainEvents(), [], "a closed toast's buttons do nothing")
    }

    /// `dismiss` and `action` without an id act on the newest toast the user can see: one hidden by
    /// do-not-disturb is skipped, and with none showing there is nothing to act on.
    func testTheNewestShowingIsWhatAnUnnamedDismissActsOn() throws {
        XCTAssertNil(service.newestShowing)
        XCTAssertNil(service.dismissNewest())
        var loud = request("Loud")
        loud.urgency = .critical
        let older = try service.notify(loud)
        let newer = try service.notify(request("Newer"))
        XCTAssertEqual(service.newestShowing, newer)
        service.setDoNotDisturb(true)
        _ = try service.notify(request("Hidden by dnd"))
        XCTAssertEqual(service.newestShowing, older, "the normal toasts are hidden; the critical one shows")
        XCTAssertEqual(service.dismissNewest(), older)
        XCTAssertNil(service.newestShowing)
        service.setDoNotDisturb(false)
        XCTAssertNotNil(service.newestShowing)
    }

    func testRefusalsKeepTheCoresWords() {
        XCTAssertThrowsError(try service.invokeAction(id: 77, key: "x")) {
            XCTAssertEqual("\($0)", "no toast 77 is showing")
        }
        XCTAssertThrowsError(try service.showBar(kind: "", value: 1, muted: false, label: nil)) {
            XCTAssertEqual("\($0)", "a HUD needs a kind")
        }
    }

    func testLoadingStoppedFromElsewhereReleasesItsOwner() throws {
        try service.loadingStart(key: "build", label: nil, owner: .socket(5))
        _ = service.drainEvents()
        XCTAssertFalse(service.loadingStop(key: "other", requester: .dbus(":1.3")))
        XCTAssertTrue(service.loadingStop(key: "build", requester: .dbus(":1.3")))
        XCTAssertEqual(service.drainEvents(), [.loadingChanged(isActive: false), .loadingOwnerReleased(.socket(5))])
    }

    func testDoNotDisturbOnOffAndToggle() {
        XCTAssertTrue(service.setDoNotDisturb(true))
        XCTAssertFalse(service.setDoNotDisturb(nil))
        XCTAssertTrue(service.setDoNotDisturb(nil))
        XCTAssertFalse(service.setDoNotDisturb(false))
    }

    func testAPictureThatIsNoFileShowsNone() throws {
        var withPicture = request("p")
        withPicture.image = .path("/nonexistent/picture.png")
        let id = try service.notify(withPicture)
        XCTAssertNil(service.model.notification(id: id)?.image)
        withPicture.image = .pixels(RGBAImage(width: 600, height: 300, pixels: [UInt8](repeating: 255, count: 600 * 300 * 4)))
        let big = try service.notify(withPicture)
        guard case .pixels(let kept) = service.model.notification(id: big)?.image else { return XCTFail("no picture") }
        XCTAssertEqual([kept.width, kept.height], [PictureLoader.maxPictureSide, PictureLoader.maxPictureSide / 2],
                       "shrunk to the largest side kept")
    }
}
