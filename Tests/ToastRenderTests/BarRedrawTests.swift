import XCTest
@testable import ToastRender
import ToastVocabulary

/// `redrawBarValue` is the daemon's cheap HUD update for a stream of values: over a buffer that holds the
/// bar HUD at one value it must give exactly the pixels of a full draw at the new value, touching only
/// `barValueRect`.
final class BarRedrawTests: XCTestCase {
    func testValueRedrawEqualsAFullDrawAndStaysInTheValueRect() {
        let renderer = ToastRenderer()
        let steps: [(Int, Int)] = [(30, 70), (100, 5), (0, 150), (9, 10)]
        for scale: PixelScale in [1, 2, PixelScale(numerator: 150), PixelScale(numerator: 180)] {
            // A theme's icon is part of the unchanging chrome, as the drawn glyph is.
            for (icon, picture, label) in [("audio-volume-high", nil, "Volume"), (nil, nil, "A rather long label for a bar HUD"),
                                           ("volume", Fixtures.image(size: 36), "Volume")]
                as [(String?, RGBAImage?, String)] {
                for (from, to) in steps {
                    let before = HudBarView(label: label, iconName: icon, icon: picture, value: from)
                    var after = before
                    after.value = to
                    let size = renderer.measureHud(.bar(before), scale: scale)
                    let origin = Point(x: 3, y: 5)  // not at 0,0: the redraw must honour the origin
                    let canvasSize = Size(width: size.width + 6, height: size.height + 10)
                    let full = Canvas(size: canvasSize, scale: scale)
                    renderer.drawHud(.bar(after), in: full, at: origin, scale: scale)
                    let partial = Canvas(size: canvasSize, scale: scale)
                    renderer.drawHud(.bar(before), in: partial, at: origin, scale: scale)
                    let untouched = Canvas(size: canvasSize, scale: scale)
                    renderer.drawHud(.bar(before), in: untouched, at: origin, scale: scale)

                    renderer.redrawBarValue(after, in: partial, at: origin, scale: scale)
                    let what = "scale \(scale), \(label), \(from) → \(to)"
                    let all = Rect(x: 0, y: 0, width: full.width, height: full.height)
                    XCTAssertEqual(Fixtures.differingPixels(full, partial, in: all), 0, what)

                    // Everything that changed lies inside the value rect, which is smaller than the HUD.
                    let part = renderer.barValueRect(after, scale: scale)
                    XCTAssertLessThan(part.width * part.height, size.width * size.height, what)
                    let inside = scale.pixelsCovering(part).offsetBy(dx: origin.x * scale, dy: origin.y * scale)
                    XCTAssertGreaterThan(Fixtures.differingPixels(untouched, partial, in: inside), 0, "nothing changed: \(what)")
                    XCTAssertEqual(Fixtures.differingPixels(untouched, partial, in: all),
                                   Fixtures.differingPixels(untouched, partial, in: inside), "pixels outside changed: \(what)")
                }
            }
        }
    }
}
