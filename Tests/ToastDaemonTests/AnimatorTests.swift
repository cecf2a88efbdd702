@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastCore
import ToastRender
import XCTest
import ToastVocabulary

/// The `Animator` on a hand-driven clock: fades, slides, bursts, "+N more", the spinner and the HUD at
/// chosen instants. The default fade is 160 ms, so t = 80 ms is half-way.
final class AnimatorTests: XCTestCase {
    private var model = ToastModel()
    private var animator = Animator(animations: true)

    private func at(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    @discardableResult
    private func notify(_ summary: String, at milliseconds: Int64, urgency: ToastVocabulary.Urgency = .normal) throws -> NotificationID {
        var request = NotificationRequest(summary: summary)
        request.urgency = urgency
        return try model.notify(request, now: at(milliseconds))
    }

    private func scene(at milliseconds: Int64, maxVisible: Int = 5) -> Scene {
        animator.scene(for: model, now: at(milliseconds), maxVisible: maxVisible)
    }

    // MARK: - Toasts

    func testAToastFadesAndSlidesIn() throws {
        let id = try notify("Hello", at: 1000)

        let first = scene(at: 1000)
        XCTAssertEqual(first.toasts.map(\.id), [id])
        XCTAssertEqual(first.toasts[0].opacity, animator.minimumOpacity, "the first frame already shows it")
        XCTAssertEqual(first.toasts[0].slide, 1, "it starts a whole slide away")
        XCTAssertTrue(first.isAnimating)

        let half = scene(at: 1080)
        XCTAssertEqual(half.toasts[0].opacity, 0.5, accuracy: 1e-9)
        XCTAssertEqual(half.toasts[0].slide, 0.25, accuracy: 1e-9, "ease-out: three quarters of the way in")
        XCTAssertTrue(half.isAnimating)

        let done = scene(at: 1160)
        XCTAssertEqual(done.toasts[0].opacity, 1)
        XCTAssertEqual(done.toasts[0].slide, 0)
        XCTAssertFalse(done.isAnimating)
    }

    func testAClosedToastFadesAndSlidesOut() throws {
        let id = try notify("Bye", at: 0)
        _ = scene(at: 0)
        _ = scene(at: 500)
        _ = model.close(id: id, reason: .dismissed, now: at(1000))

        let leaving = scene(at: 1000)
        XCTAssertEqual(leaving.toasts.map(\.id), [id], "the model forgot it; the animator still shows it")
        XCTAssertEqual(leaving.toasts[0].opacity, 1)
        XCTAssertTrue(leaving.isAnimating)

        let half = scene(at: 1080)
        XCTAssertEqual(half.toasts[0].opacity, 0.5, accuracy: 1e-9)
        XCTAssertEqual(half.toasts[0].slide, 0.25, accuracy: 1e-9, "ease-in: a quarter of the way out")

        let gone = scene(at: 1160)
        XCTAssertEqual(gone.toasts, [])
        XCTAssertFalse(gone.isAnimating)
    }

    func testTwoToastsAtOnceStillFadeIn() throws {
        try notify("One", at: 0)
        try notify("Two", at: 0)
        let scene = scene(at: 0)
        XCTAssertEqual(scene.toasts.map(\.opacity), [animator.minimumOpacity, animator.minimumOpacity])
        XCTAssertTrue(scene.isAnimating)
    }

    func testMoreThanBurstSizeWithinOneFadeAppearAtOnce() throws {
        XCTAssertEqual(animator.burstSize, 2)
        // One after another, each drawn as it comes (as the daemon does), all within one fade.
        let a = try notify("A", at: 0)
        XCTAssertEqual(scene(at: 0).toasts.map(\.opacity), [animator.minimumOpacity])
        let b = try notify("B", at: 10)
        XCTAssertLessThan(scene(at: 10).toasts[0].opacity, 1, "two are not a burst yet")
        let c = try notify("C", at: 20)

        let burst = scene(at: 20)
        XCTAssertEqual(burst.toasts.map(\.id), [c, b, a])
        XCTAssertEqual(burst.toasts.map(\.opacity), [1, 1, 1], "the third makes a burst: all three stand still")
        XCTAssertEqual(burst.toasts.map(\.slide), [0, 0, 0])
        XCTAssertFalse(burst.isAnimating)
    }

    func testToastsFurtherApartThanAFadeAreNoBurst() throws {
        try notify("A", at: 0)
        _ = scene(at: 0)
        try notify("B", at: 200)
        _ = scene(at: 200)
        let c = try notify("C", at: 400)
        let scene = scene(at: 400)
        XCTAssertEqual(scene.toasts.first?.id, c)
        XCTAssertEqual(scene.toasts.map(\.opacity), [animator.minimumOpacity, 1, 1])
    }

    func testOpenToastsBeyondMaxVisibleAreTheHiddenCount() throws {
        var ids: [NotificationID] = []
        for n in 0..<5 { ids.append(try notify("N\(n)", at: Int64(n) * 1000)) }
        let scene = scene(at: 10_000, maxVisible: 3)
        XCTAssertEqual(scene.toasts.map(\.id), Array(ids.reversed().prefix(3)), "the newest three, newest first")
        XCTAssertEqual(scene.hiddenCount, 2)
    }

    func testACriticalToastIsDrawnBeforeMorePushesOthersOut() throws {
        // Six toasts, room for three: the newest, critical, is drawn (and was anyway, being newest).
        var ids: [NotificationID] = []
        for n in 0..<5 { ids.append(try notify("N\(n)", at: Int64(n) * 1000)) }
        let critical = try notify("Battery low", at: 5000, urgency: .critical)
        var drawn = scene(at: 10_000, maxVisible: 3)
        XCTAssertEqual(drawn.toasts.map(\.id), [critical, ids[4], ids[3]])
        XCTAssertEqual(drawn.hiddenCount, 3)

        // Newer normal toasts arrive: the older critical one keeps its place, they share the rest.
        let later = [try notify("Later 1", at: 11_000), try notify("Later 2", at: 12_000), try notify("Later 3", at: 13_000)]
        drawn = scene(at: 20_000, maxVisible: 3)
        XCTAssertEqual(drawn.toasts.map(\.id), [later[2], later[1], critical], "still newest on top, the critical one kept")
        XCTAssertEqual(drawn.hiddenCount, 6)
    }

    func testTheOldestCriticalToastIsDrawnInABacklog() throws {
        let critical = try notify("Disk full", at: 0, urgency: .critical)
        var normal: [NotificationID] = []
        for n in 1...5 { normal.append(try notify("N\(n)", at: Int64(n) * 1000)) }
        let drawn = scene(at: 10_000, maxVisible: 3)
        XCTAssertEqual(drawn.toasts.map(\.id), [normal[4], normal[3], critical])
        XCTAssertEqual(drawn.hiddenCount, 3)
        // More critical toasts than room: the newest of them, and no normal one.
        let second = try notify("Overheating", at: 11_000, urgency: .critical)
        let third = try notify("Fan failed", at: 12_000, urgency: .critical)
        let fourth = try notify("Shutting down", at: 13_000, urgency: .critical)
        XCTAssertEqual(Set(scene(at: 20_000, maxVisible: 3).toasts.map(\.id)), [fourth, third, second])
    }

    func testAToastPushedUnderMoreLeavesAtOnceWithoutFading() throws {
        let a = try notify("A", at: 0)
        _ = scene(at: 0, maxVisible: 2)
        let b = try notify("B", at: 1000)
        _ = scene(at: 1000, maxVisible: 2)
        XCTAssertEqual(scene(at: 2000, maxVisible: 2).toasts.map(\.id), [b, a])

        let c = try notify("C", at: 3000)
        let pushed = scene(at: 3000, maxVisible: 2)
        XCTAssertEqual(pushed.toasts.map(\.id), [c, b], "A is still open, under \"+1 more\": it goes, no fade-out")
        XCTAssertEqual(pushed.hiddenCount, 1)
        XCTAssertEqual(scene(at: 3080, maxVisible: 2).toasts.map(\.id), [c, b])
    }

    // MARK: - HUD

    func testTheSpinnerTurnsOncePerPeriodASpokeAtATime() throws {
        try model.loadingStart(key: "build", now: at(1000))
        XCTAssertEqual(animator.spinnerPeriod, 1000)
        XCTAssertEqual(Animator.spinnerSteps, 12)
        // (now, phase, next step): twelve steps a turn, each starting at the first millisecond at or after
        // k × 1000/12 ms, never before.
        let expected: [(Int64, Double, Int64)] = [(1000, 0, 1084), (1083, 0, 1084), (1084, 1.0 / 12, 1167),
                                                  (1250, 0.25, 1334), (1500, 0.5, 1584), (2750, 0.75, 2834)]
        for (now, phase, next) in expected {
            let scene = scene(at: now)
            guard case .spinner(let spinner) = scene.huds.first else { return XCTFail("no spinner at \(now)") }
            XCTAssertEqual(spinner.phase, phase, accuracy: 1e-9, "at \(now) ms")
            XCTAssertEqual(scene.nextStep, at(next), "at \(now) ms")
        }
        XCTAssertTrue(scene(at: 1000).isAnimating, "fading in: frame callbacks pace it")
        XCTAssertFalse(scene(at: 1250).isAnimating, "a steady spinner waits for its next step, not for frames")
        XCTAssertEqual(scene(at: 1084).huds, scene(at: 1166).huds, "within a step nothing changes: nothing to draw")
        XCTAssertNotEqual(scene(at: 1166).huds, scene(at: 1167).huds)
    }

    func testTheHudFadesInAndOut() throws {
        try model.showBar(kind: "volume", value: 40, now: at(0))
        let bar = HudView.bar(HudBarView(label: "Volume", iconName: "volume", value: 40))

        let entering = scene(at: 40)
        XCTAssertEqual(entering.huds, [bar])
        XCTAssertEqual(entering.hudOpacity, 0.25, accuracy: 1e-9)
        XCTAssertTrue(entering.isAnimating)
        let shown = scene(at: 160)
        XCTAssertEqual(shown.hudOpacity, 1)
        XCTAssertFalse(shown.isAnimating)

        model.hideBar()
        let leaving = scene(at: 1000)
        XCTAssertEqual(leaving.huds, [bar], "the last HUDs stay while they fade out")
        XCTAssertEqual(leaving.hudOpacity, 1)
        XCTAssertEqual(scene(at: 1040).hudOpacity, 0.75, accuracy: 1e-9)
        let gone = scene(at: 1160)
        XCTAssertEqual(gone.huds, [])
        XCTAssertFalse(gone.isAnimating)
    }

    /// A bar's value on a steady HUD needs no scene (`steadyBar`), and what it returns is what the scene
    /// shows, down to the fade-out after the last value taken that way.
    func testASteadyBarsValueIsTheScenesBarAndFadesOutAtTheLastValue() throws {
        try model.showBar(kind: "volume", value: 40, now: at(0))
        _ = scene(at: 0)
        XCTAssertNil(animator.steadyBar(for: model, now: at(80)), "fading in: frames drive the fade")
        _ = scene(at: 160)
        try model.showBar(kind: "volume", value: 70, now: at(200))
        let steady = animator.steadyBar(for: model, now: at(200))
        XCTAssertEqual(steady, HudBarView(label: "Volume", iconName: "volume", value: 70))
        XCTAssertEqual(scene(at: 200).huds, steady.map { [.bar($0)] }, "the same view as a scene's")

        try model.showBar(kind: "volume", value: 30, now: at(300))
        XCTAssertNotNil(animator.steadyBar(for: model, now: at(300)))
        model.hideBar()
        XCTAssertEqual(scene(at: 1000).huds, [.bar(HudBarView(label: "Volume", iconName: "volume", value: 30))],
                       "the bar fades out at the value last drawn, not at the last scene's")
        XCTAssertNil(animator.steadyBar(for: model, now: at(1040)), "no bar")
    }

    func testASpinnerOrANewBarNeedsAScene() throws {
        try model.showBar(kind: "volume", value: 40, now: at(0))
        _ = scene(at: 200)
        try model.showBar(kind: "volume", value: 50, now: at(2000))
        XCTAssertNil(animator.steadyBar(for: model, now: at(2000)), "the bar timed out: a new one fades in")
        _ = scene(at: 2200)
        try model.loadingStart(key: "build", now: at(2300))
        XCTAssertNil(animator.steadyBar(for: model, now: at(2300)), "a spinner turns under the bar")
    }

    /// With no toast open, a HUD scene skips the toasts' work; a toast still fading out (the model
    /// forgot it, the animator has not) is no such case: it fades on under a stream of values, and a toast
    /// after it starts a stack again.
    func testAToastFadingOutUnderAHudStreamKeepsFading() throws {
        let id = try notify("Bye", at: 0)
        _ = scene(at: 0)
        _ = scene(at: 500)
        _ = model.close(id: id, reason: .dismissed, now: at(1000))
        try model.showBar(kind: "volume", value: 30, now: at(1000))
        XCTAssertEqual(scene(at: 1000).toasts.map(\.id), [id])
        try model.showBar(kind: "volume", value: 70, now: at(1080))
        let half = scene(at: 1080)
        XCTAssertEqual(half.toasts.map(\.id), [id], "still fading while the values come")
        XCTAssertEqual(half.toasts.first?.opacity ?? 0, 0.5, accuracy: 1e-9)
        XCTAssertEqual(half.stacks.count, 1)
        XCTAssertTrue(half.isAnimating)
        try model.showBar(kind: "volume", value: 30, now: at(1200))
        let gone = scene(at: 1200)
        XCTAssertEqual(gone.toasts, [])
        XCTAssertEqual(gone.stacks.count, 0)
        XCTAssertFalse(gone.isAnimating)
        XCTAssertEqual(scene(at: 1300).huds.count, 1)
        let next = try notify("Next", at: 1400)
        let shown = scene(at: 1400)
        XCTAssertEqual(shown.toasts.map(\.id), [next])
        XCTAssertEqual(shown.stacks.map { $0.toasts.map(\.id) }, [[next]])
    }

    /// A bar without a label is titled by its kind, remembered for the next value but not for another kind.
    func testABarIsTitledByItsKindAtEveryValue() throws {
        func label(_ kind: String, _ value: Int, at ms: Int64) throws -> String? {
            try model.showBar(kind: kind, value: value, now: at(ms))
            guard case .bar(let bar) = scene(at: ms).huds.first else { return nil }
            return bar.label
        }
        XCTAssertEqual(try label("volume", 30, at: 0), "Volume")
        XCTAssertEqual(try label("volume", 70, at: 10), "Volume")
        XCTAssertEqual(try label("brightness", 50, at: 20), "Brightness")
        XCTAssertEqual(try label("volume", 40, at: 30), "Volume")
    }

    // MARK: - Animations off

    func testWithoutAnimationsEverythingChangesAtOnce() throws {
        animator = Animator(animations: false)
        XCTAssertEqual(animator.fadeMilliseconds, 0)
        XCTAssertFalse(animator.animationsEnabled)

        let id = try notify("Hello", at: 0)
        let shown = scene(at: 0)
        XCTAssertEqual(shown.toasts.map(\.opacity), [1])
        XCTAssertEqual(shown.toasts.map(\.slide), [0])
        XCTAssertFalse(shown.isAnimating)
        _ = model.close(id: id, reason: .dismissed, now: at(10))
        XCTAssertEqual(scene(at: 10).toasts, [], "no fade-out")

        try model.loadingStart(key: "build", now: at(20))
        try model.showBar(kind: "volume", value: 40, now: at(20))
        let hud = scene(at: 270)
        XCTAssertEqual(hud.hudOpacity, 1)
        guard case .spinner(let spinner) = hud.huds.last else { return XCTFail("no spinner") }
        XCTAssertEqual(spinner.phase, 0, "the spinner stands still")
        XCTAssertFalse(hud.isAnimating)

        model.hideBar()
        _ = model.loadingStop(key: "build")
        XCTAssertEqual(scene(at: 300).huds, [], "no fade-out")
    }
}
