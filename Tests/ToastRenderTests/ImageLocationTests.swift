import XCTest
@testable import ToastRender
import ToastVocabulary

/// Where a toast's picture goes (`icon-location`), how large (`max-icon-size`) and whether at all
/// (`icons`): the layout's arithmetic, with a square picture.
final class ImageLocationTests: XCTestCase {
    private let square = RGBAImage(width: 32, height: 32, pixels: [UInt8](repeating: 255, count: 32 * 32 * 4))

    private func layout(_ location: ToastStyle.ImageLocation, size: Int = 48, showsImages: Bool = true,
                        summary: String = "Summary", body: String = "Body") -> (ToastLayout, ToastStyle) {
        var style = ToastStyle()
        style.imageLocation = location
        style.imageSize = size
        style.showsImages = showsImages
        let text = TextEngine(style: style)
        return (ToastLayout(ToastView(summary: summary, body: body, image: square), style: style, scale: 1, text: text), style)
    }

    func testLeftPutsThePictureBeforeTheText() throws {
        let (l, style) = layout(.left)
        let image = try XCTUnwrap(l.imageRect)
        XCTAssertEqual(image.x, Double(style.padding))
        XCTAssertEqual(image.width, 48, "a 32 px picture fills the 48 px box")
        XCTAssertEqual(try XCTUnwrap(l.summary).x, Double(style.padding + 48 + style.imageGap))
        XCTAssertEqual(l.size.height, 2 * style.padding + 48, "two short lines are shorter than the picture")
    }

    func testRightPutsThePictureAfterTheTextWhichStartsAtThePadding() throws {
        let (l, style) = layout(.right)
        let image = try XCTUnwrap(l.imageRect)
        XCTAssertEqual(image.x, Double(style.width - style.padding - 48))
        XCTAssertEqual(image.y, Double(style.padding))
        let summary = try XCTUnwrap(l.summary)
        XCTAssertEqual(summary.x, Double(style.padding))
        XCTAssertLessThanOrEqual(summary.x + summary.layout.width, image.x - Double(style.imageGap))
        XCTAssertEqual(l.size.height, 2 * style.padding + 48)
    }

    func testTopPutsThePictureAboveTheCentredTextColumn() throws {
        let (l, style) = layout(.top)
        let image = try XCTUnwrap(l.imageRect)
        XCTAssertEqual(image.x, Double((style.width - 48) / 2), "centred across the toast")
        XCTAssertEqual(image.y, Double(style.padding))
        let summary = try XCTUnwrap(l.summary), body = try XCTUnwrap(l.body)
        XCTAssertEqual(summary.x, Double(style.padding), "the text takes the whole width")
        XCTAssertEqual(summary.y, Double(style.padding + 48 + style.imageGap))
        XCTAssertEqual(Double(l.size.height), (body.y + body.layout.height + Double(style.padding)).rounded(.up))
    }

    func testBottomPutsThePictureUnderTheText() throws {
        let (l, style) = layout(.bottom)
        let image = try XCTUnwrap(l.imageRect)
        let summary = try XCTUnwrap(l.summary), body = try XCTUnwrap(l.body)
        XCTAssertEqual(summary.y, Double(style.padding))
        XCTAssertEqual(image.y, (body.y + body.layout.height).rounded(.up) + Double(style.imageGap))
        XCTAssertEqual(image.x, Double((style.width - 48) / 2))
        XCTAssertEqual(l.size.height, Int(image.y) + 48 + style.padding)
    }

    func testAPictureAloneAboveOrBelowHasNoGap() throws {
        for location in [ToastStyle.ImageLocation.top, .bottom] {
            let (l, style) = layout(location, summary: "", body: "")
            XCTAssertEqual(try XCTUnwrap(l.imageRect).y, Double(style.padding), "\(location)")
            XCTAssertEqual(l.size.height, 2 * style.padding + 48, "\(location)")
        }
    }

    func testMaxIconSizeSetsTheBoxAndTheTextColumn() throws {
        let (l, style) = layout(.left, size: 96)
        XCTAssertEqual(try XCTUnwrap(l.imageRect).width, 96)
        XCTAssertEqual(try XCTUnwrap(l.summary).x, Double(style.padding + 96 + style.imageGap))
        XCTAssertEqual(l.size.height, 2 * style.padding + 96)
    }

    func testIconsOffLaysOutAsWithoutAPicture() throws {
        let (off, style) = layout(.left, showsImages: false)
        XCTAssertNil(off.imageRect)
        XCTAssertEqual(try XCTUnwrap(off.summary).x, Double(style.padding))
        XCTAssertLessThan(off.size.height, 2 * style.padding + 48)
        // And nothing of the picture is drawn: the box's middle where it would be keeps the background.
        var withStyle = style
        withStyle.showsImages = true
        let on = ToastRenderer(style: withStyle), offRenderer = ToastRenderer(style: style)
        let view = ToastView(summary: "", image: RGBAImage(width: 4, height: 4, pixels: [UInt8](repeating: 255, count: 64)))
        let drawnOn = on.image(of: view, scale: 1), drawnOff = offRenderer.image(of: view, scale: 1)
        let x = style.padding + 24, y = min(drawnOff.height - 2, style.padding + 8)
        XCTAssertEqual(drawnOn.pixel(x: x, y: y).r, 255)
        XCTAssertLessThan(drawnOff.pixel(x: x, y: y).r, 100)
    }
}
