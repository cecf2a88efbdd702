import CCairo
import XCTest
@testable import ToastRender
import ToastVocabulary

/// `image(of:scale:)` is what the daemon composites: it must hold exactly the pixels of `draw` into a
/// transparent canvas of the toast's size, whether its box comes from the cache or not.
final class ToastImageTests: XCTestCase {
    func testImageEqualsADrawIntoATransparentCanvas() {
        let renderer = ToastRenderer()
        let picture = RGBAImage(width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 255, 9, 9, 9, 0])
        let toasts = [
            ToastView(summary: "Build done", body: "All <b>42</b> tests passed", appName: "make"),
            ToastView(summary: "Build done", body: "All 43 tests passed", appName: "make"),  // same box: cache hit
            ToastView(summary: "Disk almost full", body: "3 GB left", urgency: .critical, progress: 93),
            ToastView(summary: "Low", urgency: .low),
            ToastView(summary: "Call", body: "from Ann", appName: "phone", image: picture, actions: ["Answer", "Decline"]),
        ]
        for scale: PixelScale in [1, 2] {
            for round in 0..<2 {  // the second round draws every box from the cache
                for toast in toasts {
                    let size = renderer.measure(toast, scale: scale)
                    let drawn = Canvas(size: size, scale: scale)
                    renderer.draw(toast, in: drawn, at: .zero, scale: scale)
                    let image = renderer.image(of: toast, scale: scale)
                    XCTAssertEqual(image.width, drawn.width)
                    XCTAssertEqual(image.height, drawn.height)
                    let all = Rect(x: 0, y: 0, width: drawn.width, height: drawn.height)
                    XCTAssertEqual(Fixtures.differingPixels(drawn, image, in: all), 0,
                                   "scale \(scale), round \(round), \(toast.summary)")
                    XCTAssertFalse(image.pixel(x: image.width / 2, y: 1).a == 0, "no box drawn: \(toast.summary)")
                }
            }
        }
    }

    /// The picture's memory is not zeroed first (`Canvas(uninitializedWidth:height:)`): the box copied
    /// over all of it must set every pixel, rounded corners included, whatever the memory held.
    func testAPictureSetsEveryPixelWhateverItsMemoryHeld() {
        let renderer = ToastRenderer()
        let toasts = [
            ToastView(summary: "Build done", body: "All <b>42</b> tests passed", appName: "make"),
            ToastView(summary: "Disk almost full", body: "3 GB left", urgency: .critical, progress: 93),
        ]
        for scale: PixelScale in [1, 2] {
            for toast in toasts {
                let size = renderer.measure(toast, scale: scale)
                let drawn = Canvas(size: size, scale: scale)
                renderer.draw(toast, in: drawn, at: .zero, scale: scale)
                // Memory of the picture's size filled with opaque magenta and freed just before: the
                // allocator hands the same block to the picture.
                for _ in 0..<3 {
                    guard let dirty = Canvas(uninitializedWidth: drawn.width, height: drawn.height) else {
                        return XCTFail("no memory")
                    }
                    dirty.withContext(scale: 1) { cr in
                        cairo_set_source_rgba(cr, 1, 0, 1, 1)
                        cairo_paint(cr)
                    }
                }
                let image = renderer.image(of: toast, scale: scale)
                let all = Rect(x: 0, y: 0, width: drawn.width, height: drawn.height)
                XCTAssertEqual(Fixtures.differingPixels(drawn, image, in: all), 0, "scale \(scale), \(toast.summary)")
                XCTAssertEqual(image.pixel(x: 0, y: 0).a, 0, "the rounded corner is transparent")
            }
        }
    }

    /// The memory kept as the screen empties (`keepPictureMemory`) is where the next toast's picture is
    /// drawn when it is large enough, with the pixels of a draw into a transparent canvas whatever it
    /// held; it is handed out once; a larger toast gets memory of its own, and memory above
    /// `keptPictureBytes` is not kept.
    func testTheNextToastsPictureIsDrawnIntoTheMemoryKeptForIt() throws {
        let renderer = ToastRenderer()
        let long = ToastView(summary: "Build done", body: "All 42 tests passed in 3 minutes; the long body wraps onto a second line")
        let short = ToastView(summary: "Hi", body: "one line")
        let memory = try XCTUnwrap(renderer.image(of: long, scale: 1).memory)
        renderer.keepPictureMemory([memory])
        XCTAssertEqual(renderer.keptPictureByteCount, memory.count)

        let next = renderer.image(of: short, scale: 1)
        XCTAssertTrue(next.memory === memory, "the short toast's picture is not in the memory kept")
        XCTAssertEqual(renderer.keptPictureByteCount, 0, "handed out once")
        let drawn = Canvas(size: renderer.measure(short, scale: 1), scale: 1)
        renderer.draw(short, in: drawn, at: .zero, scale: 1)
        XCTAssertEqual(Fixtures.differingPixels(drawn, next, in: Rect(x: 0, y: 0, width: drawn.width, height: drawn.height)), 0)

        renderer.keepPictureMemory([try XCTUnwrap(next.memory)])
        let larger = renderer.image(of: ToastView(summary: "Larger", body: long.body + " and a third line, longer still than that"),
                                    scale: 2)
        XCTAssertFalse(larger.memory === next.memory, "a larger picture drawn into memory too small")

        let huge = try XCTUnwrap(renderer.image(of: long, scale: 4).memory)
        XCTAssertGreaterThan(huge.count, ToastRenderer.keptPictureBytes)
        renderer.keepPictureMemory([huge])
        XCTAssertEqual(renderer.keptPictureByteCount, 0, "\(huge.count) bytes kept while idle")
    }

    /// The "+N more" pill copies its box from the box cache when opaque at an integer scale: the same
    /// pixels, over what is already there, as the pill drawn (the translucent path draws it; at
    /// opacity 0.999 no channel moves by more than rounding).
    func testAnOpaquePillCopiesThePixelsItWouldDraw() {
        let renderer = ToastRenderer()
        let look = MorePillLook(background: Color(rgb: 0x2878c8, alpha: 0.8), borderColor: Color(rgb: 0xfafa00),
                                borderWidth: 2)
        for scale: PixelScale in [1, 2] {
            for (count, look) in [(5, nil), (5, look), (123, look), (5, nil)] {  // the last from the cache
                let size = renderer.measureMorePill(count: count, scale: scale, look: look)
                let canvasSize = Size(width: size.width + 20, height: size.height + 12)
                var drawn: [Canvas] = []
                for opacity in [1, 0.999] {
                    let canvas = Canvas(size: canvasSize, scale: scale)
                    canvas.withContext(scale: 1) { cr in
                        cairo_set_source_rgba(cr, 0.2, 0.6, 0.3, 0.8)  // what the pill goes over
                        cairo_paint(cr)
                    }
                    renderer.drawMorePill(count: count, in: canvas, at: Point(x: 7, y: 5), scale: scale,
                                          opacity: opacity, look: look)
                    drawn.append(canvas)
                }
                var worst = 0
                for y in 0..<drawn[0].height {
                    for x in 0..<drawn[0].width {
                        let a = drawn[0].pixel(x: x, y: y), b = drawn[1].pixel(x: x, y: y)
                        worst = max(worst, abs(Int(a.a) - Int(b.a)), abs(Int(a.r) - Int(b.r)),
                                    abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b)))
                    }
                }
                XCTAssertLessThanOrEqual(worst, 2, "scale \(scale), +\(count), look \(look == nil ? "none" : "set")")
            }
        }
    }
}
