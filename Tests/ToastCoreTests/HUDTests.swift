import ToastVocabulary
import XCTest
import ToastCore

final class HUDTests: XCTestCase {
    private var hud = HUD()

    override func setUp() {
        hud = HUD()
    }

    // MARK: Value bar

    func testBarShowsAndHidesAfterTimeout() throws {
        XCTAssertNil(try hud.showBar(kind: "volume", value: 40, now: t(0)))
        XCTAssertEqual(hud.bar?.value, 40)
        XCTAssertEqual(hud.nextDeadline, t(1500))
        hud.advance(to: t(1499))
        XCTAssertNotNil(hud.bar)
        hud.advance(to: t(1500))
        XCTAssertNil(hud.bar)
        XCTAssertNil(hud.nextDeadline)
    }

    func testTheEarliestOfTwoDeadlinesEitherOfWhichMayBeMissing() {
        XCTAssertEqual(Instant.earliest(t(5), t(3)), t(3))
        XCTAssertEqual(Instant.earliest(t(3), t(5)), t(3))
        XCTAssertEqual(Instant.earliest(nil, t(5)), t(5))
        XCTAssertEqual(Instant.earliest(t(5), nil), t(5))
        XCTAssertNil(Instant.earliest(nil, nil))
    }

    func testSameKindUpdatesInPlaceAndRestartsTimeout() throws {
        try hud.showBar(kind: "volume", value: 40, now: t(0))
        try hud.showBar(kind: "volume", value: 45, muted: true, now: t(1000))
        let bar = try XCTUnwrap(hud.bar)
        XCTAssertEqual(bar.value, 45)
        XCTAssertTrue(bar.isMuted)
        XCTAssertEqual(bar.shownAt, t(0), "an update in place does not re-enter")
        XCTAssertEqual(bar.hidesAt, t(2500))
        hud.advance(to: t(1500))
        XCTAssertNotNil(hud.bar, "the first timeout was restarted")
    }

    func testUpdateAfterDeadlineEntersAnew() throws {
        try hud.showBar(kind: "volume", value: 40, now: t(0))
        try hud.showBar(kind: "volume", value: 50, now: t(1500))   // advance has not run yet
        XCTAssertEqual(hud.bar?.shownAt, t(1500))
    }

    func testMostRecentlyUpdatedKindIsShown() throws {
        try hud.showBar(kind: "volume", value: 40, now: t(0))
        try hud.showBar(kind: "brightness", value: 70, now: t(100))
        XCTAssertEqual(hud.bar?.kind, "brightness")
        XCTAssertEqual(hud.bar?.shownAt, t(100), "another kind enters anew")
    }

    func testBarValueClamping() throws {
        XCTAssertEqual(try hud.showBar(kind: "volume", value: -5, now: t(0)), .clampedToZero(requested: -5))
        XCTAssertEqual(hud.bar?.value, 0)

        XCTAssertNil(try hud.showBar(kind: "volume", value: 150, now: t(0)), "overflow up to the maximum is kept")
        XCTAssertEqual(hud.bar?.value, 150)
        XCTAssertEqual(hud.bar?.isOverflowing, true)

        XCTAssertEqual(try hud.showBar(kind: "volume", value: 250, now: t(0)),
                       .clampedToMaximum(requested: 250, maximum: 200))
        XCTAssertEqual(hud.bar?.value, 200)
    }

    func testBarNeedsAKind() {
        XCTAssertThrowsError(try hud.showBar(kind: "", value: 1, now: t(0))) {
            XCTAssertEqual($0 as? HUDError, .emptyBarKind)
        }
        XCTAssertNil(hud.bar)
    }

    func testBarCustomTimeoutAndHide() throws {
        try hud.showBar(kind: "mic", value: 0, timeout: 300, now: t(0))
        XCTAssertEqual(hud.nextDeadline, t(300))
        XCTAssertTrue(hud.hideBar())
        XCTAssertFalse(hud.hideBar())
        XCTAssertNil(hud.nextDeadline)
    }

    // MARK: Loading keys

    func testBuildAndSyncSpinUntilBothStop() throws {
        XCTAssertNil(hud.spinner)
        XCTAssertTrue(try hud.loadingStart(key: "build", label: "Building", now: t(0)))
        XCTAssertTrue(try hud.loadingStart(key: "sync", label: "Syncing", now: t(10)))
        XCTAssertEqual(hud.spinner, Spinner(label: "Syncing", since: t(0)))
        XCTAssertTrue(hud.isAnimating)

        XCTAssertTrue(hud.loadingStop(key: "sync"))
        XCTAssertEqual(hud.spinner?.label, "Building")
        XCTAssertTrue(hud.loadingStop(key: "build"))
        XCTAssertNil(hud.spinner)
        XCTAssertFalse(hud.isAnimating)
        XCTAssertEqual(hud.drainEvents(), [.loadingChanged(isActive: true), .loadingChanged(isActive: false)])
    }

    func testStartTwiceStopOnceHides() throws {
        XCTAssertTrue(try hud.loadingStart(key: "build", now: t(0)))
        XCTAssertFalse(try hud.loadingStart(key: "build", now: t(5)), "already active: nothing changes")
        XCTAssertTrue(hud.loadingStop(key: "build"))
        XCTAssertNil(hud.spinner)
        XCTAssertFalse(hud.loadingStop(key: "build"), "stopping again changes nothing")
    }

    func testRestartWithNewLabelUpdatesLabel() throws {
        try hud.loadingStart(key: "upload", label: "1/3", now: t(0))
        XCTAssertTrue(try hud.loadingStart(key: "upload", label: "2/3", now: t(1)))
        XCTAssertEqual(hud.spinner?.label, "2/3")
    }

    func testSecondKeyWithoutLabelKeepsTheLabel() throws {
        try hud.loadingStart(key: "build", label: "Building", now: t(0))
        XCTAssertFalse(try hud.loadingStart(key: "sync", now: t(1)), "the spinner shows the same")
        XCTAssertEqual(hud.spinner?.label, "Building")
        try hud.loadingStart(key: "upload", label: "Uploading", now: t(2))
        XCTAssertEqual(hud.spinner?.label, "Uploading")
        XCTAssertTrue(hud.loadingStop(key: "upload"))
        XCTAssertEqual(hud.spinner?.label, "Building")
        XCTAssertTrue(hud.loadingStop(key: "build"))
        XCTAssertNil(hud.spinner?.label, "the only key left has none")
    }

    func testEmptyLoadingKeyIsAnError() {
        XCTAssertThrowsError(try hud.loadingStart(key: "", now: t(0))) {
            XCTAssertEqual($0 as? HUDError, .emptyLoadingKey)
        }
    }

    func testDisconnectedOwnerKeysStopAfterGrace() throws {
        try hud.loadingStart(key: "build", owner: .socket(1), now: t(0))
        try hud.loadingStart(key: "other", owner: .socket(2), now: t(0))
        hud.ownerDisconnected(.socket(1), now: t(100))
        XCTAssertEqual(hud.nextDeadline, t(2100))
        hud.advance(to: t(2099))
        XCTAssertEqual(hud.loadingKeys.map(\.key), ["build", "other"], "still within grace")
        hud.advance(to: t(2100))
        XCTAssertEqual(hud.loadingKeys.map(\.key), ["other"])
        XCTAssertNil(hud.nextDeadline)
    }

    func testLastKeyStoppingByGraceEmitsStop() throws {
        try hud.loadingStart(key: "build", owner: .socket(1), now: t(0))
        hud.ownerDisconnected(.socket(1), now: t(0))
        hud.advance(to: t(2000))
        XCTAssertNil(hud.spinner)
        XCTAssertEqual(hud.drainEvents(), [.loadingChanged(isActive: true), .loadingChanged(isActive: false)])
    }

    func testRestartDuringGraceClaimsTheKey() throws {
        try hud.loadingStart(key: "build", owner: .socket(1), now: t(0))
        hud.ownerDisconnected(.socket(1), now: t(0))
        XCTAssertFalse(try hud.loadingStart(key: "build", owner: .socket(9), now: t(1000)))
        hud.advance(to: t(5000))
        XCTAssertEqual(hud.loadingKeys.map(\.key), ["build"])
        XCTAssertEqual(hud.loadingKeys.first?.owner, .socket(9))
        XCTAssertNil(hud.nextDeadline)
    }

    func testStoppingAnOwnersLastAttachedKeyReleasesIt() throws {
        try hud.loadingStart(key: "build", owner: .socket(1), now: t(0))
        try hud.loadingStart(key: "test", owner: .socket(1), now: t(0))
        try hud.loadingStart(key: "bg", owner: .socket(1), detach: true, now: t(0))
        _ = hud.drainEvents()
        XCTAssertTrue(hud.loadingStop(key: "build", requester: .socket(2)))
        XCTAssertEqual(hud.drainEvents(), [], "it still has an attached key")
        XCTAssertTrue(hud.loadingStop(key: "test", requester: .dbus(":1.5")))
        XCTAssertEqual(hud.drainEvents(), [.loadingOwnerReleased(.socket(1))], "a detached key does not hold it")
    }

    func testStoppingOnesOwnKeyOrADetachedOneReleasesNobody() throws {
        try hud.loadingStart(key: "build", owner: .socket(1), now: t(0))
        try hud.loadingStart(key: "bg", owner: .socket(3), detach: true, now: t(0))
        _ = hud.drainEvents()
        XCTAssertTrue(hud.loadingStop(key: "build", requester: .socket(1)))
        XCTAssertEqual(hud.drainEvents(), [])
        XCTAssertTrue(hud.loadingStop(key: "bg", requester: .socket(2)))
        XCTAssertEqual(hud.drainEvents(), [.loadingChanged(isActive: false)])
    }

    func testDetachedKeySurvivesDisconnect() throws {
        try hud.loadingStart(key: "build", owner: .socket(1), detach: true, now: t(0))
        hud.ownerDisconnected(.socket(1), now: t(0))
        XCTAssertNil(hud.nextDeadline)
        hud.advance(to: t(100_000))
        XCTAssertNotNil(hud.spinner)
    }

    func testGenerationMovesOnVisibleChangesOnly() throws {
        let start = hud.generation
        try hud.loadingStart(key: "a", now: t(0))
        let started = hud.generation
        XCTAssertGreaterThan(started, start)
        try hud.loadingStart(key: "a", now: t(1))
        XCTAssertEqual(hud.generation, started)
        _ = hud.loadingStop(key: "missing")
        XCTAssertEqual(hud.generation, started)
        try hud.showBar(kind: "volume", value: 1, now: t(2))
        XCTAssertGreaterThan(hud.generation, started)
    }
}
