@testable import ToastConfig
@testable import ToastScene
import XCTest

/// The HUD's place beside toast stacks: past a stack at its anchor, where it was otherwise.
final class HudClearanceTests: XCTestCase {
    private let hud = Margins(all: 40)  // hud-margin 64 less a bleed of 24
    private let bleed = 24, gap = 8

    private func stack(_ anchor: ScreenAnchor, bottom: Int = 0, top: Int = 0, height: Int) -> HudClearance.Stack {
        HudClearance.Stack(anchor: anchor, margins: Margins(top: top, right: 0, bottom: bottom, left: 0), height: height)
    }

    func testAStackAtTheHudsAnchorPushesItPastItsFarthestBox() {
        // margin 12 less the bleed: boxes from 12 to 0 + 300 - 24 = 276 above the bottom edge; the HUD's
        // box starts 8 above, at 284, so its surface at 260.
        let placed = HudClearance.margins(hud, anchor: .bottomCenter, stacks: [stack(.bottomCenter, bottom: 0, height: 300)],
                                          bleed: bleed, gap: gap)
        XCTAssertEqual(placed.bottom, 260)
        XCTAssertEqual(placed.top, hud.top, "the other edges keep their margins")
    }

    func testTheTallestStackThereCountsAndAtTheTopToo() {
        let stacks = [stack(.topCenter, top: 0, height: 100), stack(.topCenter, top: 0, height: 200)]
        XCTAssertEqual(HudClearance.margins(hud, anchor: .topCenter, stacks: stacks, bleed: bleed, gap: gap).top,
                       200 - bleed + gap - bleed)
    }

    func testStacksElsewhereOrSmallLeaveTheHudWhereItIs() {
        let elsewhere = [stack(.bottomRight, height: 400), stack(.topCenter, height: 400), stack(.bottomCenter, height: 0)]
        XCTAssertEqual(HudClearance.margins(hud, anchor: .bottomCenter, stacks: elsewhere, bleed: bleed, gap: gap), hud)
        // A stack whose boxes end below the HUD's configured place: nothing to clear.
        XCTAssertEqual(HudClearance.margins(hud, anchor: .bottomCenter, stacks: [stack(.bottomCenter, height: 50)],
                                            bleed: bleed, gap: gap), hud)
    }
}
