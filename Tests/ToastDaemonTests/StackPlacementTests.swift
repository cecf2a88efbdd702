@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastCore
import ToastRender
import XCTest
import ToastVocabulary

/// How the `Animator` splits toasts into stacks on a hand-driven clock: each toast's place is chosen
/// once, when it arrives, and kept until it has gone (no jumping when the focus moves); each stack has
/// its own "+N more"; toasts held over a fullscreen window are in no stack until released.
final class StackPlacementTests: XCTestCase {
    private var model = ToastModel()
    private var animator = Animator(animations: false)
    /// The output with the focus, as the daemon's placer would read it.
    private var focused = "HEADLESS-1"

    private func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    @discardableResult
    private func notify(_ summary: String, app: String = "app", urgency: ToastVocabulary.Urgency = .normal,
                        at milliseconds: Int64 = 0) throws -> NotificationID {
        var request = NotificationRequest(summary: summary)
        request.appName = app
        request.urgency = urgency
        return try model.notify(request, now: at(milliseconds))
    }

    private func scene(at milliseconds: Int64 = 0, maxVisible: Int = 5) -> Scene {
        animator.scene(for: model, now: at(milliseconds), maxVisible: maxVisible)
    }

    private func place(rules: RuleSet = RuleSet(), defaults: StackDefaults) {
        animator.placer = { [unowned self] notification in
            rules.placement(of: notification, modes: [], defaults: defaults) { self.focused }
        }
    }

    private func outputs(in scene: Scene) -> [String?: [String]] {
        var byOutput: [String?: [String]] = [:]
        for stack in scene.stacks { byOutput[stack.place.output, default: []] += stack.toasts.map(\.view.summary) }
        return byOutput
    }

    func testAFocusedToastKeepsTheOutputItArrivedOn() throws {
        place(defaults: StackDefaults(output: .focused, focusKnown: true))
        try notify("first")
        XCTAssertEqual(outputs(in: scene()), ["HEADLESS-1": ["first"]])
        focused = "HEADLESS-2"
        try notify("second", at: 10)
        let both = scene(at: 10)
        XCTAssertEqual(outputs(in: both), ["HEADLESS-1": ["first"], "HEADLESS-2": ["second"]],
                       "the first stays; the second goes where the focus is now")
        XCTAssertEqual(both.toasts.map(\.view.summary), ["second", "first"])
        focused = "HEADLESS-1"
        XCTAssertEqual(outputs(in: scene(at: 20)), ["HEADLESS-1": ["first"], "HEADLESS-2": ["second"]], "no jumping")
    }

    func testOutputAllAndNamedStacksRecordNoOutput() throws {
        place(defaults: StackDefaults(output: .all, focusKnown: true))
        try notify("everywhere")
        let stacks = scene().stacks
        XCTAssertEqual(stacks.count, 1)
        XCTAssertEqual(stacks.first?.place.key.output, .all)
        XCTAssertNil(stacks.first?.place.output)
    }

    func testARuleWithAnotherAnchorMakesASeparateStackWithItsOwnMore() throws {
        var rule = Rule(criteria: try Criteria.parse("app-name=mail").get())
        rule.stack.anchor = .bottomLeft
        rule.stack.maxVisible = 1
        place(rules: RuleSet(rules: [rule]), defaults: StackDefaults())
        try notify("chat 1", app: "chat")
        try notify("mail 1", app: "mail")
        try notify("mail 2", app: "mail")
        let scene = scene()
        XCTAssertEqual(scene.stacks.count, 2)
        let mail = try XCTUnwrap(scene.stacks.first { $0.place.key.anchor == .bottomLeft })
        let chat = try XCTUnwrap(scene.stacks.first { $0.place.key.anchor == .topRight })
        XCTAssertEqual(mail.toasts.map(\.view.summary), ["mail 2"])
        XCTAssertEqual(mail.hiddenCount, 1, "its own max-visible")
        XCTAssertEqual(chat.toasts.map(\.view.summary), ["chat 1"])
        XCTAssertEqual(chat.hiddenCount, 0)
    }

    func testAHeldToastWaitsUntilReleasedAndThenGoesWhereTheFocusIs() throws {
        var fullscreen = true
        place(defaults: StackDefaults(output: .focused, fullscreen: .hideLow, focusKnown: true))
        animator.holds = { notification, placement in
            fullscreen && placement.fullscreen.holds(critical: notification.urgency == .critical)
        }
        try notify("quiet")
        try notify("alarm", urgency: .critical)
        let held = scene()
        XCTAssertEqual(held.toasts.map(\.view.summary), ["alarm"], "the critical one shows over fullscreen")
        XCTAssertEqual(held.heldCount, 1)
        XCTAssertEqual(held.hiddenCount, 0, "a held toast is not in '+N more'")

        focused = "HEADLESS-2"
        fullscreen = false
        let released = scene(at: 100)
        XCTAssertEqual(outputs(in: released), ["HEADLESS-1": ["alarm"], "HEADLESS-2": ["quiet"]])
        XCTAssertEqual(released.heldCount, 0)
        // Once shown, a toast is never held again (it does not blink when fullscreen comes back).
        fullscreen = true
        XCTAssertEqual(Set(scene(at: 200).toasts.map(\.view.summary)), ["alarm", "quiet"])
    }

    func testHideHoldsCriticalToasts() {
        XCTAssertTrue(FullscreenPolicy.hide.holds(critical: true))
        XCTAssertTrue(FullscreenPolicy.hide.holds(critical: false))
        XCTAssertFalse(FullscreenPolicy.hideLow.holds(critical: true))
        XCTAssertTrue(FullscreenPolicy.hideLow.holds(critical: false))
        XCTAssertFalse(FullscreenPolicy.show.holds(critical: false))
    }

    func testPlacesOfClosedToastsAreForgotten() throws {
        place(defaults: StackDefaults(output: .focused, focusKnown: true))
        let id = try notify("gone soon")
        _ = scene()
        _ = model.close(id: id, reason: .dismissed, now: at(10))
        XCTAssertTrue(scene(at: 10).stacks.isEmpty)
        // The same id can't come back, but a new toast after a focus change goes to the new output.
        focused = "HEADLESS-2"
        try notify("next", at: 20)
        XCTAssertEqual(outputs(in: scene(at: 20)), ["HEADLESS-2": ["next"]])
    }

    func testOutputValuesMeanWhatTheDocsSay() {
        XCTAssertEqual(OutputChoice(configured: nil, focusKnown: true), .focused)
        XCTAssertEqual(OutputChoice(configured: nil, focusKnown: false), .compositor)
        XCTAssertEqual(OutputChoice(configured: "focused", focusKnown: false), .compositor)
        XCTAssertEqual(OutputChoice(configured: "all", focusKnown: false), .all)
        XCTAssertEqual(OutputChoice(configured: "DP-1", focusKnown: true), .named("DP-1"))
    }
}
