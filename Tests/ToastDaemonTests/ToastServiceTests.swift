import Foundation
import Glibc
import ToastCore
import ToastRender
import ToastVocabulary
import XCTest
@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene

/// The service on a hand-driven clock: what the front doors call, and what they hear back.
final class ToastServiceTests: XCTestCase {
    /// The time the service reads; tests move it.
    private final class HandClock {
        var now = Instant(milliseconds: 1_000)
    }

    private let clock = HandClock()
    private lazy var service = ToastService(
        model: ToastModel(), pictures: PictureLoader(icons: IconTheme(dataDirectories: [])),
        pictureWorker: try! PictureWorker(executable: PictureHelperBinary.path), clock: { [clock] in clock.now })

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

    /// A click on a toast's body: the default action when there is one (not a button's), else a dismissal;
    /// a closed toast takes no click.
    func testABodyClickInvokesTheDefaultActionElseDismisses() throws {
        let actions = [NotificationAction(key: "yes", label: "Yes"), NotificationAction(key: "default", label: "Open")]
        let chat = try service.notify(request("New message", actions: actions, origin: .dbus(":1.2")))
        let plain = try service.notify(request("Build done", actions: [actions[0]], origin: .socket(3)))
        _ = service.drainEvents()
        service.click(id: chat, button: .left)
        XCTAssertEqual(service.drainEvents(), [.actionInvoked(id: chat, key: "default", origin: .dbus(":1.2")),
                                               .closed(id: chat, reason: .dismissed, origin: .dbus(":1.2"))])
        service.click(id: plain, button: .left)
        XCTAssertEqual(service.drainEvents(), [.closed(id: plain, reason: .dismissed, origin: .socket(3))])
        service.click(id: plain, button: .left)
        XCTAssertEqual(service.drainEvents(), [], "a closed toast takes no click")
    }

    /// mako's defaults for the other buttons: right dismisses (even with a default action), middle
    /// does nothing.
    func testRightDismissesAndMiddleDoesNothingByDefault() throws {
        let chat = try service.notify(request("New message", actions: [NotificationAction(key: "default", label: "Open")],
                                              origin: .socket(3)))
        _ = service.drainEvents()
        service.click(id: chat, button: .middle)
        XCTAssertEqual(service.drainEvents(), [])
        XCTAssertNotNil(service.model.notification(id: chat))
        service.click(id: chat, button: .right)
        XCTAssertEqual(service.drainEvents(), [.closed(id: chat, reason: .dismissed, origin: .socket(3))])
    }

    /// `on-button-*` in a rule changes what its toasts do on a click; other toasts keep the defaults.
    func testRulesBindTheButtons() throws {
        service.rules = ConfigParser.parse("""
            [app-name=mail]
            on-button-left = dismiss-all
            on-button-middle = exec echo $TOASTD_ID
            on-button-right = invoke-action reply
            """, path: "cfg").config.rules
        let actions = [NotificationAction(key: "default", label: "Open"), NotificationAction(key: "reply", label: "Reply")]
        var mail = request("Mail", actions: actions, origin: .socket(3))
        mail.appName = "mail"
        let first = try service.notify(mail)
        let other = try service.notify(request("Other", actions: actions, origin: .socket(3)))
        _ = service.drainEvents()
        service.click(id: first, button: .middle)
        XCTAssertEqual(service.drainCommands().map(\.command), ["echo $TOASTD_ID"])
        XCTAssertEqual(service.drainEvents(), [])
        service.click(id: first, button: .right)
        XCTAssertEqual(service.drainEvents(), [.actionInvoked(id: first, key: "reply", origin: .socket(3)),
                                               .closed(id: first, reason: .dismissed, origin: .socket(3))])
        let second = try service.notify(mail)
        _ = service.drainEvents()
        service.click(id: second, button: .left)
        let events = service.drainEvents()
        XCTAssertEqual(events.count, 2, "\(events)")
        XCTAssertTrue(events.contains(.closed(id: second, reason: .dismissed, origin: .socket(3))), "\(events)")
        XCTAssertTrue(events.contains(.closed(id: other, reason: .dismissed, origin: .socket(3))),
                      "dismiss-all closes the other app's toast too: \(events)")
        XCTAssertEqual(service.drainCommands(), [])
    }

    /// `on-notify = exec ...` queues one command per notification it matches, with that notification
    /// in the environment; what the text holds stays in the environment, not in the command.
    func testOnNotifyQueuesTheCommandWithTheNotificationInItsEnvironment() throws {
        service.rules = ConfigParser.parse("""
            on-notify = exec echo "$TOASTD_SUMMARY"
            [app-name=quiet]
            on-notify = none
            """, path: "cfg").config.rules
        var hostile = request("$(touch /tmp/pwned)")
        hostile.body = "b"
        hostile.urgency = .critical
        hostile.category = "email"
        let id = try service.notify(hostile)
        var quiet = request("shh")
        quiet.appName = "quiet"
        _ = try service.notify(quiet)
        let commands = service.drainCommands()
        XCTAssertEqual(commands.count, 1, "the quiet app's rule turns it off")
        XCTAssertEqual(commands.first?.command, "echo \"$TOASTD_SUMMARY\"")
        XCTAssertEqual(commands.first.map { Dictionary(uniqueKeysWithValues: $0.environment.map { ($0.name, $0.value) }) },
                       ["TOASTD_ID": "\(id)", "TOASTD_APP_NAME": "app", "TOASTD_SUMMARY": "$(touch /tmp/pwned)",
                        "TOASTD_BODY": "b", "TOASTD_URGENCY": "critical", "TOASTD_CATEGORY": "email",
                        "TOASTD_DESKTOP_ENTRY": ""])
        XCTAssertEqual(service.drainCommands(), [], "drained")
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

    /// The picture target (the outputs' largest scale, the rules' sizes) is worked out only for a
    /// notification with a picture, an app icon or a desktop entry to look up.
    func testThePictureTargetIsAskedForOnlyWithSomethingToLookUp() throws {
        var asked = 0
        service.pictureTarget = { asked += 1; return PictureLoader.Target() }
        _ = try service.notify(request("plain"))
        XCTAssertEqual(asked, 0, "nothing to look up")
        var withIcon = request("icon")
        withIcon.appIcon = "no-such-icon"
        _ = try service.notify(withIcon)
        XCTAssertEqual(asked, 1, "an app icon is looked up for the target")
        var withEntry = request("entry")
        withEntry.desktopEntry = "no-such-app"
        _ = try service.notify(withEntry)
        var withPicture = request("picture")
        withPicture.image = .path("/nonexistent/picture.png")
        _ = try service.notify(withPicture)
        XCTAssertEqual(asked, 3)
    }

    /// With pictures off (`icons = 0`), nothing is decoded or handed to the worker.
    func testPicturesOffDecodesNothing() throws {
        service.pictureTarget = { PictureLoader.Target(wanted: false) }
        var withPicture = request("big")
        withPicture.image = .pixels(RGBAImage(width: 1000, height: 1000, pixels: [UInt8](repeating: 200, count: 4_000_000)))
        let id = try service.notify(withPicture)
        XCTAssertNil(service.model.notification(id: id)?.image)
        XCTAssertTrue(service.pictureWorker.isIdle, "no work for the worker")
        var rules = RuleSet()
        XCTAssertFalse(rules.mayShowImages(base: false))
        rules.rules = [Rule(criteria: Criteria(), look: LookPatch(icons: true))]
        XCTAssertTrue(rules.mayShowImages(base: false), "a rule may turn them on")
    }

    /// Waits (poll, with a deadline) for the picture worker to finish something, then hands it over.
    private func waitForPictures(file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(20)
        repeat {
            var descriptor = pollfd(fd: service.pictureWorker.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 1000)
            service.picturesFinished()
        } while !service.pictureWorker.isIdle && Date() < deadline
        XCTAssertTrue(service.pictureWorker.isIdle, "the worker finished nothing", file: file, line: line)
    }

    /// Waits for the worker, then returns what it finished (without handing it to the service).
    private func waitForFinished(file: StaticString = #filePath, line: UInt = #line) -> [PictureWorker.Finished] {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            var descriptor = pollfd(fd: service.pictureWorker.fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 1000)
            let done = service.pictureWorker.takeFinished()
            if !done.isEmpty { return done }
        }
        XCTFail("the worker finished nothing", file: file, line: line)
        return []
    }

    func testALargePictureFollowsFromTheWorker() throws {
        var withPicture = request("big")
        withPicture.image = .pixels(RGBAImage(width: 1000, height: 1000, pixels: [UInt8](repeating: 200, count: 4_000_000)))
        let id = try service.notify(withPicture)
        XCTAssertNil(service.model.notification(id: id)?.image, "shown at once, without the picture")
        let revision = service.model.notification(id: id)?.revision
        _ = service.takeChanges()
        waitForPictures()
        XCTAssertTrue(service.takeChanges())
        guard case .pixels(let kept) = service.model.notification(id: id)?.image else { return XCTFail("no picture") }
        XCTAssertEqual([kept.width, kept.height], [PictureLoader.maxPictureSide, PictureLoader.maxPictureSide])
        XCTAssertNotEqual(service.model.notification(id: id)?.revision, revision, "redrawn with it")
    }

    func testAPictureForContentSinceReplacedIsDropped() throws {
        var withPicture = request("big")
        withPicture.image = .pixels(RGBAImage(width: 1000, height: 600, pixels: [UInt8](repeating: 9, count: 2_400_000)))
        let id = try service.notify(withPicture)
        var replacement = request("no picture now")
        replacement.replacesID = id
        XCTAssertEqual(try service.notify(replacement), id)
        waitForPictures()
        XCTAssertNil(service.model.notification(id: id)?.image)
    }

    func testPictureFilesAreCheckedBeforeDecoding() throws {
        let directory = NSTemporaryDirectory() + "pictures-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A header declaring 20000×20000 pixels, and no pixels: refused on the header alone.
        var bomb: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bomb += Array("IHDR".utf8) + [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 0, 0, 0, 0]
        try Data(bomb).write(to: URL(fileURLWithPath: directory + "/bomb.png"))
        try Data("GIF89a, not a PNG".utf8).write(to: URL(fileURLWithPath: directory + "/fake.png"))
        for (name, problem) in [("bomb.png", "20000×20000 is over the limit"), ("fake.png", "a GIF file")] {
            var picture = request(name)
            picture.image = .path(directory + "/" + name)
            let id = try service.notify(picture)
            let finished = waitForFinished()
            XCTAssertNil(finished.first?.image, name)
            XCTAssertTrue(finished.first?.problem?.contains(problem) == true, "\(name): \(finished.first?.problem ?? "none")")
            XCTAssertNil(service.model.notification(id: id)?.image)
        }
        var directoryPicture = request("a directory")
        directoryPicture.image = .path(directory)
        _ = try service.notify(directoryPicture)
        XCTAssertTrue(service.pictureWorker.isIdle, "not a file: refused at once, nothing for the helper")

        // Every file by the helper; the second time, an icon comes from the cache at once.
        try Canvas(width: 64, height: 64).writePNG(path: directory + "/icon.png")
        try Canvas(width: 1200, height: 800).writePNG(path: directory + "/photo.png")
        var icon = request("icon")
        icon.image = .path(directory + "/icon.png")
        let firstIconID = try service.notify(icon)
        XCTAssertNil(service.model.notification(id: firstIconID)?.image)
        waitForPictures()
        guard case .pixels(let decoded) = service.model.notification(id: firstIconID)?.image else { return XCTFail("no icon") }
        XCTAssertEqual(decoded.width, 64)
        let iconID = try service.notify(icon)
        guard case .pixels(let small) = service.model.notification(id: iconID)?.image else { return XCTFail("no cached icon") }
        XCTAssertTrue(small == decoded, "the same pixels")
        var photo = request("photo")
        photo.image = .path(directory + "/photo.png")
        let photoID = try service.notify(photo)
        XCTAssertNil(service.model.notification(id: photoID)?.image)
        waitForPictures()
        guard case .pixels(let shrunk) = service.model.notification(id: photoID)?.image else { return XCTFail("no photo") }
        XCTAssertEqual([shrunk.width, shrunk.height], [256, 170])
    }

    // MARK: Groups (group-by): the toast stands for its group

    private func notify(app: String, _ summary: String) throws -> NotificationID {
        try service.notify(NotificationRequest(appName: app, summary: summary))
    }

    private func dismissedIDs() -> [NotificationID] {
        service.drainEvents().compactMap { if case .closed(let id, .dismissed, _) = $0 { id } else { nil } }
    }

    func testDismissingTheShownToastClosesItsGroupOldestFirst() throws {
        service.rules = ConfigParser.parse("group-by = app-name\n", path: "cfg").config.rules
        let a1 = try notify(app: "chat", "one")
        let b = try notify(app: "mail", "x")
        let a2 = try notify(app: "chat", "two")
        let a3 = try notify(app: "chat", "three")
        _ = dismissedIDs()
        XCTAssertEqual(service.dismissNewest(), a3)
        XCTAssertEqual(dismissedIDs(), [a1, a2, a3])
        XCTAssertEqual(service.model.all.map(\.id), [b])
        XCTAssertEqual(service.model.history.map(\.notification.id).prefix(3), [a3, a2, a1], "newest on top")
    }

    func testClickBindingsAndExplicitIds() throws {
        service.rules = ConfigParser.parse("group-by = app-name\non-button-middle = dismiss-group\n", path: "cfg").config.rules
        let a1 = try notify(app: "chat", "one")
        let a2 = try notify(app: "chat", "two")
        let a3 = try notify(app: "chat", "three")
        _ = dismissedIDs()
        // A client naming an id closes that one only.
        service.close(id: a2, reason: .dismissed)
        XCTAssertEqual(dismissedIDs(), [a2])
        service.click(id: a3, button: .middle)
        XCTAssertEqual(dismissedIDs(), [a1, a3])

        let c1 = try notify(app: "chat", "a")
        let c2 = try notify(app: "chat", "b")
        _ = dismissedIDs()
        service.click(id: c2, button: .right)  // mako's default: dismiss
        XCTAssertEqual(dismissedIDs(), [c1, c2])
    }

    func testAGroupsTimeoutsStartWhenItsToastIsDrawn() throws {
        service.rules = ConfigParser.parse("group-by = app-name\n", path: "cfg").config.rules
        let a1 = try notify(app: "chat", "one")
        let a2 = try notify(app: "chat", "two")
        // The scene draws the group's newest, standing for both; the screen reports what it stands for.
        var animator = Animator(animations: false)
        animator.restyle(rules: service.rules, style: ToastStyle())
        let drawn = animator.scene(for: service.model, now: Instant(milliseconds: 0), maxVisible: 5).toasts
        XCTAssertEqual(drawn.map(\.id), [a2])
        XCTAssertEqual(drawn[0].standsFor, [a2, a1])
        service.displayed(Scene.notifications(drawnAs: drawn))
        XCTAssertNotNil(service.model.notification(id: a1)?.expiresAt, "seen with its group's toast")
    }
}
