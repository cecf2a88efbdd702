@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastRender
import ToastVocabulary
import XCTest

/// `HudValuePath`: a new value of the bar on screen is drawn without a scene only when it is the one
/// change to a steady HUD that is that bar alone; anything else takes the full path.
final class HudValuePathTests: XCTestCase {
    private let bar = HudBarView(label: "Volume", iconName: "volume", value: 30)

    private func shown(_ huds: [HudView], opacity: Double = 1, animating: Bool = false) -> Scene {
        var scene = Scene()
        scene.huds = huds
        scene.hudOpacity = opacity
        scene.isAnimating = animating
        return scene
    }

    func testAValueAloneMovesTheBar() {
        var next = bar
        next.value = 70
        XCTAssertEqual(HudValuePath.step(from: shown([.bar(bar)]), to: next), .barValue)
        var withToasts = shown([.bar(bar)])
        withToasts.totalCount = 1
        XCTAssertEqual(HudValuePath.step(from: withToasts, to: next), .barValue, "toasts standing still")
    }

    func testTheSameValueDrawsNothing() {
        XCTAssertEqual(HudValuePath.step(from: shown([.bar(bar)]), to: bar), .unchanged)
    }

    func testMoreThanTheValueTakesTheFullPath() {
        var muted = bar
        muted.value = 70
        muted.muted = true
        var titled = bar
        titled.value = 70
        titled.label = "Speakers"
        var renamed = bar
        renamed.value = 70
        renamed.iconName = "mic"
        var otherLevel = bar
        otherLevel.value = 70
        otherLevel.icon = RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 4])
        for (next, what) in [(muted, "muted"), (titled, "a new title"), (renamed, "another icon name"), (otherLevel, "the icon of another level")] {
            XCTAssertEqual(HudValuePath.step(from: shown([.bar(bar)]), to: next), .fullPath, what)
        }
    }

    func testAHudThatIsNotSteadyTakesTheFullPath() {
        var next = bar
        next.value = 70
        XCTAssertEqual(HudValuePath.step(from: shown([.bar(bar)], opacity: 0.5, animating: true), to: next), .fullPath, "fading in")
        XCTAssertEqual(HudValuePath.step(from: shown([.bar(bar)], animating: true), to: next), .fullPath, "a toast fading")
        XCTAssertEqual(HudValuePath.step(from: shown([.bar(bar)], opacity: 0.5), to: next), .fullPath, "drawn translucent")
        XCTAssertEqual(HudValuePath.step(from: shown([.bar(bar), .spinner(SpinnerView())]), to: next), .fullPath, "a spinner under it")
        XCTAssertEqual(HudValuePath.step(from: shown([.spinner(SpinnerView())]), to: next), .fullPath, "the bar appears")
        XCTAssertEqual(HudValuePath.step(from: shown([]), to: next), .fullPath, "nothing shown")
    }
}
