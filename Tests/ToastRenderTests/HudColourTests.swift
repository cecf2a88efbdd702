import XCTest
@testable import ToastRender

/// The HUD's own colours (`hud-background`, `hud-bar-color`, …) reach its pixels.
final class HudColourTests: XCTestCase {
    func testTheHudDrawsInItsOwnColours() {
        var style = ToastStyle()
        style.hudBackground = Color(rgb: 0x0000ff)
        style.hudFill = Color(rgb: 0x00ff00)
        let renderer = ToastRenderer(style: style)
        let bar = HudBarView(label: "Volume", iconName: nil, value: 100)
        let size = renderer.measureHud(.bar(bar), scale: 1)
        let canvas = Canvas(size: size, scale: 1)
        renderer.drawHud(.bar(bar), in: canvas, at: Point(x: 0, y: 0), scale: 1)

        let box = canvas.pixel(x: size.width / 2, y: 4)
        XCTAssertEqual([box.r, box.g, box.b], [0, 0, 255], "the box is the HUD background")
        var green = 0
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                let pixel = canvas.pixel(x: x, y: y)
                if pixel.r == 0, pixel.g == 255, pixel.b == 0 { green += 1 }
            }
        }
        XCTAssertGreaterThan(green, 200, "a full bar is drawn in the bar colour")

        // Without them, the HUD keeps the toasts' background.
        let plain = ToastRenderer()
        let plainCanvas = Canvas(size: plain.measureHud(.bar(bar), scale: 1), scale: 1)
        plain.drawHud(.bar(bar), in: plainCanvas, at: Point(x: 0, y: 0), scale: 1)
        XCTAssertNotEqual(plainCanvas.pixel(x: size.width / 2, y: 4).b, 255)
    }
}
