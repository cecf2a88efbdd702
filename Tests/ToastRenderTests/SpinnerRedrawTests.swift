import XCTest
@testable import ToastRender

/// `redrawSpinnerWheel` is the daemon's cheap animation frame: over a buffer that holds the spinner HUD at
/// one phase it must give exactly the pixels of a full draw at the new phase, touching only the wheel.
final class SpinnerRedrawTests: XCTestCase {
    func testWheelRedrawEqualsAFullDrawAndStaysInTheWheel() {
        let renderer = ToastRenderer()
        for scale: PixelScale in [1, 2, PixelScale(numerator: 150), PixelScale(numerator: 180)] {
            for label in [nil, "Building the project"] as [String?] {
                let before = SpinnerView(label: label, phase: 0.1), after = SpinnerView(label: label, phase: 0.45)
                let size = renderer.measureHud(.spinner(before), scale: scale)
                let origin = Point(x: 3, y: 5)  // not at 0,0: the redraw must honour the origin
                let full = Canvas(size: Size(width: size.width + 6, height: size.height + 10), scale: scale)
                renderer.drawHud(.spinner(after), in: full, at: origin, scale: scale)
                let partial = Canvas(size: Size(width: size.width + 6, height: size.height + 10), scale: scale)
                renderer.drawHud(.spinner(before), in: partial, at: origin, scale: scale)
                let untouched = Canvas(size: Size(width: size.width + 6, height: size.height + 10), scale: scale)
                renderer.drawHud(.spinner(before), in: untouched, at: origin, scale: scale)

                renderer.redrawSpinnerWheel(after, in: partial, at: origin, scale: scale)
                let all = Rect(x: 0, y: 0, width: full.width, height: full.height)
                XCTAssertEqual(Fixtures.differingPixels(full, partial, in: all), 0, "scale \(scale), label \(label ?? "-")")

                // Everything that changed lies inside the wheel's rect.
                let wheel = renderer.spinnerRect(after, scale: scale)
                let inside = scale.pixelsCovering(wheel).offsetBy(dx: origin.x * scale, dy: origin.y * scale)
                XCTAssertGreaterThan(Fixtures.differingPixels(untouched, partial, in: inside), 0, "the wheel did not turn")
                XCTAssertEqual(Fixtures.differingPixels(untouched, partial, in: all),
                               Fixtures.differingPixels(untouched, partial, in: inside), "pixels outside the wheel changed")
            }
        }
    }
}
