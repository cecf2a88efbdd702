import XCTest
@testable import ToastRender
import ToastVocabulary

final class ShadowBlurTests: XCTestCase {
    private func blurred(_ mask: [UInt8], width: Int, radius: Int, passes: Int = 3) -> [UInt8] {
        var mask = mask
        mask.withUnsafeMutableBufferPointer {
            ShadowBlur.blur($0.baseAddress!, width: width, height: $0.count / width, stride: width, radius: radius, passes: passes)
        }
        return mask
    }

    /// One pass of radius 1 is the mean of three, along each axis.
    func testOnePassAveragesTheNeighbours() {
        var mask = [UInt8](repeating: 0, count: 5 * 5)
        mask[2 * 5 + 2] = 90
        let out = blurred(mask, width: 5, radius: 1, passes: 1)
        XCTAssertEqual(out[2 * 5 + 2], 10)  // 90 / 3 / 3
        XCTAssertEqual(out[1 * 5 + 1], 10)
        XCTAssertEqual(out[0], 0, "two pixels away: untouched")
    }

    /// Three passes spread a square's coverage symmetrically, keep its total (margin left), fall off
    /// smoothly from the inside to the outside, and reach no further than passes × radius.
    func testThreePassesSpreadSymmetricallyWithinTheirReach() {
        let side = 40, radius = 3
        var mask = [UInt8](repeating: 0, count: side * side)
        for y in 15..<25 { for x in 15..<25 { mask[y * side + x] = 255 } }
        let out = blurred(mask, width: side, radius: radius)
        let before = mask.reduce(0) { $0 + Int($1) }, after = out.reduce(0) { $0 + Int($1) }
        XCTAssertEqual(Double(after), Double(before), accuracy: Double(before) * 0.02, "coverage is kept")
        for i in 0..<side {
            XCTAssertEqual(out[i * side + 20], out[i * side + 19], "symmetric across the middle, row \(i)")
            // Each pass rounds, across first: the two directions may differ by one.
            XCTAssertEqual(Double(out[20 * side + i]), Double(out[i * side + 20]), accuracy: 1, "the same across and down")
        }
        // From the middle outwards along a row: never rising, and nothing past 3 × 3 pixels out.
        let row = (20..<side).map { out[20 * side + $0] }
        XCTAssertEqual(row, row.sorted(by: >))
        XCTAssertGreaterThan(row[25 - 20 + 4], 0, "the edge is soft 4 px out")
        XCTAssertEqual(out[20 * side + 25 + 9], 0, "nothing beyond the reach")
        XCTAssertLessThan(out[20 * side + 25], 200, "the edge itself is half covered")
        XCTAssertGreaterThan(out[20 * side + 25], 40)
    }

    func testRadiusZeroChangesNothing() {
        let mask: [UInt8] = [0, 255, 0, 12]
        XCTAssertEqual(blurred(mask, width: 2, radius: 0), mask)
    }

    /// The renderer's shadow: larger than the box by its radius, empty under the box, darkest just
    /// below it, fading to nothing at its outer edge; none when the style has none.
    func testShadowImageSurroundsTheBoxAndLeavesItsInsideEmpty() throws {
        let r = ToastRenderer()
        let toast = ToastView(summary: "S")
        let size = r.measure(toast, scale: 1)
        let mask = try XCTUnwrap(r.shadowImage(of: toast, size: size, scale: 1))
        let e = r.style.shadowExtent
        XCTAssertEqual(mask.width, size.width + 2 * e)
        XCTAssertEqual(mask.height, size.height + 2 * e)
        XCTAssertEqual(mask.byteCount, mask.height * ((mask.width + 3) / 4 * 4), "one byte a pixel")
        // As it is seen: blended over nothing.
        let shadow = Canvas(width: mask.width, height: mask.height)
        shadow.composite(mask, atPixelX: 0, y: 0)
        XCTAssertEqual(shadow.pixel(x: e + size.width / 2, y: e + size.height / 2).a, 0, "nothing under the box")
        let below = shadow.pixel(x: e + size.width / 2, y: e + size.height + 2).a
        let above = shadow.pixel(x: e + size.width / 2, y: e - 3).a
        XCTAssertGreaterThan(below, 30)
        XCTAssertGreaterThan(below, above, "dropped: darker below than above")
        XCTAssertLessThanOrEqual(shadow.pixel(x: e + size.width / 2, y: shadow.height - 1).a, 2, "faded out at the edge")
        XCTAssertTrue(mask === r.shadowImage(of: toast, size: size, scale: 1), "made once per box")
        var none = r.style
        none.shadow = nil
        XCTAssertNil(r.shadowImage(of: ToastView(summary: "S", style: none), size: size, scale: 1))
    }

    /// The painter's cheap way (blend only the edges: copy a box's interior, skip a shadow's) gives the
    /// same pixels as blending everything, for two toasts whose shadows reach under each other's edges.
    func testBlendingOnlyTheEdgesGivesTheSamePixelsAsBlendingEverything() throws {
        let r = ToastRenderer(style: ToastStyle())
        let toast = ToastView(summary: "Shadow", body: "under its neighbour", appName: "test")
        let size = r.measure(toast, scale: 1)
        let box = Fixtures.render(toast, r)
        let shadow = try XCTUnwrap(r.shadowImage(of: toast, size: size, scale: 1))
        let reach = r.style.shadowExtent, corner = Int(r.style.cornerRadius.rounded(.up))
        XCTAssertGreaterThan(reach, 8, "the shadows must overlap the neighbour for this test to mean anything")
        let origins = [(reach, reach), (reach, reach + size.height + 8)]
        let canvasSize = Size(width: size.width + 2 * reach, height: 2 * size.height + 8 + 2 * reach)
        let everything = Canvas(size: canvasSize, scale: 1), edges = Canvas(size: canvasSize, scale: 1)
        for (x, y) in origins {
            everything.composite(shadow, atPixelX: x - reach, y: y - reach)
            edges.composite(shadow, atPixelX: x - reach, y: y - reach, clip: nil, blendingOnly: reach + corner)
        }
        for (x, y) in origins {
            everything.composite(box, atPixelX: x, y: y)
            edges.composite(box, atPixelX: x, y: y, clip: nil, blendingOnly: max(reach, corner))
        }
        let whole = Rect(x: 0, y: 0, width: canvasSize.width, height: canvasSize.height)
        XCTAssertEqual(Fixtures.differingPixels(everything, edges, in: whole), 0)
    }
}
