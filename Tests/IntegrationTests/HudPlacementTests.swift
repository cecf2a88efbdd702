import Foundation
import XCTest

/// The HUD beside a toast stack at the same anchor (issue #36): `anchor = bottom-center` put the stack
/// over the HUD's bar. The HUD takes its place past the stack, the stack stays where it was, and both
/// are whole on screen. Colours set apart in the config (no shadows) tell the boxes apart; the bar
/// stays 20 s, so that screenshots until two agree cannot outlast it on a loaded machine.
final class HudPlacementTests: XCTestCase {
    private static let hudBackground = RGB(hex: "a020f0")!, toastBackground = RGB(hex: "e0b020")!
    private static let barFill = RGB(hex: "30f080")!

    func testTheHudIsWholeAboveAStackAtItsAnchorAndTheStackStays() throws {
        let stage = try Stage.shared()
        let config = try stage.shadowlessConfig("""
            anchor = bottom-center
            background = #e0b020
            border-color = #e0b020
            hud-background = #a020f0
            hud-border-color = #a020f0
            hud-bar-color = #30f080
            hud-timeout = 20000
            """)
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", config])
        for n in 1...3 {
            XCTAssertEqual(try toastd.toast(["Toast \(n)", "at the bottom centre", "-t", "0"]).status, 0)
        }
        var previous: Image?
        let (toastsOnly, settled) = try stage.waitForScreenshot(timeout: 15) { shot in
            defer { previous = shot }
            return shot.longestRun(of: Self.toastBackground, in: shot.bounds) > 0
                && previous.map { !shot.differs(in: shot.bounds, from: $0) } == true
        }
        XCTAssertTrue(settled, "no settled toasts; toastd: \(toastd.log)")
        let stack = try XCTUnwrap(toastsOnly.boundingBox(notMatching: stage.background), "no stack drawn")

        XCTAssertEqual(try toastd.toast(["hud", "volume", "70"]).status, 0)
        previous = nil
        let (both, shown) = try stage.waitForScreenshot(timeout: 15) { shot in
            defer { previous = shot }
            return shot.longestRun(of: Self.barFill, in: shot.bounds) > 0
                && previous.map { !shot.differs(in: shot.bounds, from: $0) } == true
        }
        XCTAssertTrue(shown, "no settled HUD; kept at \(stage.keep(both, name: "hud-stack-none")); toastd: \(toastd.log)")
        let hud = try XCTUnwrap(both.boundingBox(matching: Self.hudBackground), "no HUD box drawn")
        let kept = stage.keep(both, name: "hud-beside-stack")
        // Whole: as wide as hud-width, the bar at 70 % of its track, no toast pixel inside its box.
        XCTAssertEqual(hud.width, 300, "the HUD's box is cut; kept at \(kept)")
        XCTAssertEqual(both.countPixels(in: hud, matching: Self.toastBackground), 0, "a toast covers the HUD; kept at \(kept)")
        XCTAssertFalse(hud.intersects(stack), "the HUD \(hud) overlaps the stack \(stack); kept at \(kept)")
        XCTAssertLessThan(hud.y + hud.height, stack.y, "the HUD is not above the stack; kept at \(kept)")
        XCTAssertEqual(Double(both.longestRun(of: Self.barFill, in: hud)) / Double(hud.width - 28), 0.7, accuracy: 0.05,
                       "kept at \(kept)")
        // The stack is where it was, drawn as it was.
        XCTAssertFalse(both.differs(in: stack, from: toastsOnly), "the stack moved or changed; kept at \(kept)")

        // The stack gone, the HUD goes back to hud-margin (64) above the bottom edge.
        XCTAssertEqual(try toastd.toast(["dismiss", "--all"]).status, 0)
        let (alone, back) = try stage.waitForScreenshot(timeout: 15) { shot in
            shot.longestRun(of: Self.toastBackground, in: shot.bounds) == 0
                && shot.boundingBox(matching: Self.hudBackground).map { $0.y + $0.height == stage.height - 64 } == true
        }
        XCTAssertTrue(back, "the HUD stayed up; kept at \(stage.keep(alone, name: "hud-back"))")
    }
}

private extension Image {
    /// The smallest rect holding every pixel of exactly `colour`.
    func boundingBox(matching colour: RGB) -> Rect? {
        var (minX, minY, maxX, maxY) = (Int.max, Int.max, -1, -1)
        for y in 0..<height {
            for x in 0..<width where pixel(x, y) == colour {
                minX = min(minX, x); minY = min(minY, y); maxX = max(maxX, x); maxY = max(maxY, y)
            }
        }
        return maxX < 0 ? nil : Rect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    func countPixels(in rect: Rect, matching colour: RGB) -> Int {
        var count = 0
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) where pixel(x, y) == colour { count += 1 }
        }
        return count
    }
}

private extension Rect {
    func intersects(_ other: Rect) -> Bool {
        x < other.x + other.width && other.x < x + width && y < other.y + other.height && other.y < y + height
    }
}
