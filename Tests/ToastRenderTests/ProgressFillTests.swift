import XCTest
@testable import ToastRender
import ToastVocabulary

/// mako's progress (`progress-color = over COLOR`): the toast's background filled to the value, not a bar.
final class ProgressFillTests: XCTestCase {
    /// Columns of the toast's middle row, inside the border, that hold `colour`'s pixels (premultiplied
    /// opaque: an opaque fill replaces the translucent background there).
    private func tintedShare(_ c: Canvas, style: ToastStyle, red: UInt8) -> Double {
        let border = Int(style.borderWidth.rounded(.up))
        let y = c.height / 2
        let inside = (border + 1)..<(c.width - border - 1)
        let tinted = inside.filter { x in
            let p = c.pixel(x: x, y: y)
            return p.a == 255 && Int(p.r) - Int(red) < 3 && Int(red) - Int(p.r) < 3
        }
        return Double(tinted.count) / Double(inside.count)
    }

    func testSixtyPercentTintsAboutSixtyPercentOfTheBackground() {
        var style = ToastStyle()
        style.progressFill = .over
        let fill = Color(rgb: 0xf03020)
        style.accents = PerUrgency(all: fill)
        let renderer = ToastRenderer(style: style)
        let c = Fixtures.render(ToastView(summary: "", progress: 60), renderer)
        XCTAssertEqual(tintedShare(c, style: style, red: 0xf0), 0.6, accuracy: 0.02)
        let none = Fixtures.render(ToastView(summary: "", progress: 0), renderer)
        XCTAssertEqual(tintedShare(none, style: style, red: 0xf0), 0, accuracy: 0.001)
        // No bar under the text: the toast is no taller than one without a value.
        XCTAssertEqual(c.height, Fixtures.render(ToastView(summary: ""), renderer).height)
    }

    func testTheBarStaysWithoutAMode() {
        let renderer = ToastRenderer()
        let withValue = Fixtures.render(ToastView(summary: "", progress: 60), renderer)
        XCTAssertGreaterThan(withValue.height, Fixtures.render(ToastView(summary: ""), renderer).height)
    }
}
