import XCTest
@testable import ToastRender

final class PixelTests: XCTestCase {
    let r = ToastRenderer()

    func testBoxDrawnAndCornersTransparent() {
        let toast = ToastView(summary: "Hello", body: "World")
        let c = Fixtures.render(toast, r)
        let w = c.width, h = c.height
        for (x, y) in [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1), (1, 1), (w - 2, h - 2)] {
            XCTAssertEqual(c.pixel(x: x, y: y).a, 0, "corner (\(x),\(y)) outside the rounded box")
        }
        // Inside: the translucent background, near its configured alpha; the edge: the opaque border.
        let inside = c.pixel(x: w / 2, y: h - 5)
        XCTAssertEqual(Double(inside.a) / 255, r.style.backgrounds.normal.alpha, accuracy: 0.02)
        XCTAssertEqual(c.pixel(x: w / 2, y: 0).a, 255)
        // Normal urgency border is the blue one: blue dominates.
        let edge = c.pixel(x: 0, y: h / 2)
        XCTAssertGreaterThan(edge.b, edge.r)
    }

    func testCriticalBorderIsRed() {
        let c = Fixtures.render(ToastView(summary: "Hello", urgency: .critical), r)
        let edge = c.pixel(x: 0, y: c.height / 2)
        XCTAssertGreaterThan(edge.r, 150)
        XCTAssertGreaterThan(edge.r, edge.b &+ 50)
    }

    func testTextChangesPixelsInside() {
        let a = Fixtures.render(ToastView(summary: "Hello"), r)
        let b = Fixtures.render(ToastView(summary: "World"), r)
        XCTAssertEqual(a.height, b.height)
        let text = Rect(x: r.style.padding, y: r.style.padding, width: 100, height: a.height - 2 * r.style.padding)
        XCTAssertGreaterThan(Fixtures.differingPixels(a, b, in: text), 50)
        // Nothing changes in the right half, where neither text reaches.
        XCTAssertEqual(Fixtures.differingPixels(a, b, in: Rect(x: 200, y: 0, width: 160, height: a.height)), 0)
    }

    func testBodyTextIsDrawn() {
        let empty = Fixtures.render(ToastView(summary: "S", body: "."), r)
        let text = Fixtures.render(ToastView(summary: "S", body: "<b>Bold</b> body &amp; more"), r)
        XCTAssertEqual(empty.height, text.height)
        let all = Rect(x: 0, y: 0, width: empty.width, height: empty.height)
        XCTAssertGreaterThan(Fixtures.differingPixels(empty, text, in: all), 100)
    }

    func testOpacityScalesAlpha() {
        let toast = ToastView(summary: "Fade")
        let size = r.measure(toast, scale: 1)
        let c = Canvas(size: size, scale: 1)
        r.draw(toast, in: c, at: .zero, scale: 1, opacity: 0.5)
        XCTAssertEqual(Double(c.pixel(x: size.width / 2, y: 0).a), 127.5, accuracy: 2)
    }

    func testDrawOneToastLeavesOthersAlone() {
        let toasts = [ToastView(summary: "Top"), ToastView(summary: "Bottom")]
        let c = Canvas(width: 400, height: 300)
        let a = r.renderStack(toasts, in: c, scale: 1)
        let before = Canvas(width: 400, height: 300)
        r.renderStack(toasts, in: before, scale: 1)
        // Redraw only the second toast with other content.
        let second = a.rects[1]
        let changed = ToastView(summary: "Changed", urgency: .critical)
        c.clear(second, scale: 1)
        r.draw(changed, in: c, at: second.origin, scale: 1)
        XCTAssertEqual(Fixtures.differingPixels(c, before, in: a.rects[0]), 0, "first toast untouched")
        XCTAssertGreaterThan(Fixtures.differingPixels(c, before, in: second), 100)
    }

    func testClearingARectZeroesItsPixelsOnlyEvenPastTheEdges() {
        // An opaque white buffer of the caller's (as a wl_shm buffer is).
        var memory = [UInt8](repeating: 0xFF, count: 40 * 4 * 30)
        memory.withUnsafeMutableBytes { bytes in
            let c = Canvas(data: bytes.baseAddress!, width: 40, height: 30, stride: 160)
            // Reaching past the right and bottom edges: only the part inside goes, and nothing else.
            c.clear(Rect(x: 30, y: 20, width: 20, height: 20), scale: 1)
            XCTAssertEqual(c.pixel(x: 35, y: 25).a, 0)
            XCTAssertEqual(c.pixel(x: 39, y: 29).a, 0)
            XCTAssertEqual(c.pixel(x: 29, y: 25).a, 255, "left of the rect")
            XCTAssertEqual(c.pixel(x: 35, y: 19).a, 255, "above the rect")
            // Whole rows at once, at a fractional scale: every pixel the logical rect touches.
            c.clear(Rect(x: 0, y: 4, width: 40, height: 2), scale: PixelScale(numerator: 180))
            XCTAssertEqual(c.pixel(x: 10, y: 6).a, 0)
            XCTAssertEqual(c.pixel(x: 10, y: 8).a, 0, "row 8 is partly covered at 1.5")
            XCTAssertEqual(c.pixel(x: 10, y: 9).a, 255, "below the covered rows")
            XCTAssertEqual(c.pixel(x: 10, y: 5).a, 255, "above the covered rows")
            // Drawn over afterwards, the cleared area takes what is drawn (cairo saw the change).
            r.draw(ToastView(summary: "Over"), in: c, at: Point(x: 0, y: 0), scale: 1)
            XCTAssertGreaterThan(c.pixel(x: 35, y: 25).a, 200, "the toast box drawn over the cleared corner")
        }
    }

    func testImageIsDrawn() {
        let with = Fixtures.render(ToastView(summary: "S", image: Fixtures.image()), r)
        let p = with.pixel(x: r.style.padding + r.style.imageSize / 2, y: r.style.padding + r.style.imageSize / 2)
        XCTAssertEqual(p.a, 255)
        XCTAssertEqual(p.b, 220, "the image's blue channel")
    }

    func testCallerBufferIsDrawnInto() {
        let toast = ToastView(summary: "Hello")
        let size = r.measure(toast, scale: 1)
        let stride = size.width * 4 + 64
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * size.height, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xAB, count: stride * size.height)
        let canvas = Canvas(data: memory, width: size.width, height: size.height, stride: stride)
        canvas.clear()
        r.draw(toast, in: canvas, at: .zero, scale: 1)
        let top = memory.load(fromByteOffset: size.width / 2 * 4, as: UInt32.self)
        XCTAssertEqual(top >> 24, 255, "the border, ARGB32 native-endian")
        XCTAssertEqual(memory.load(as: UInt32.self), 0, "cleared corner")
    }

    func testHudBarFillGrowsWithValue() {
        func filledLength(_ value: Int) -> Int {
            let hud = HudView.bar(HudBarView(label: "Volume", value: value))
            let size = r.measureHud(hud, scale: 1)
            let c = Canvas(size: size, scale: 1)
            r.drawHud(hud, in: c, at: .zero, scale: 1)
            let y = size.height - 14 - r.style.hudBarHeight / 2
            return (0..<size.width).filter { c.pixel(x: $0, y: y).g > 200 }.count
        }
        let l40 = filledLength(40), l70 = filledLength(70), l100 = filledLength(100)
        XCTAssertGreaterThan(l40, 50)
        XCTAssertGreaterThan(l70, l40 + 50)
        XCTAssertEqual(Double(l70) / Double(l40), 70.0 / 40.0, accuracy: 0.1)
        XCTAssertGreaterThan(l100, l70)
    }

    func testHudOverflowUsesOverflowColour() {
        func redPixels(_ value: Int) -> Int {
            let hud = HudView.bar(HudBarView(label: "Volume", value: value))
            let size = r.measureHud(hud, scale: 1)
            let c = Canvas(size: size, scale: 1)
            r.drawHud(hud, in: c, at: .zero, scale: 1)
            let y = size.height - 14 - r.style.hudBarHeight / 2
            return (0..<size.width).filter { let p = c.pixel(x: $0, y: y); return p.r > 200 && p.g < 120 }.count
        }
        XCTAssertEqual(redPixels(100), 0)
        XCTAssertGreaterThan(redPixels(130), 40)
        XCTAssertGreaterThan(redPixels(150), redPixels(130))
    }

    func testSpinnerPhasesDifferOnlyInsideSpinner() {
        for label in [nil, "Loading"] as [String?] {
            let a = SpinnerView(label: label, phase: 0), b = SpinnerView(label: label, phase: 0.37)
            let size = r.measureHud(.spinner(a), scale: 2)
            XCTAssertEqual(size, r.measureHud(.spinner(b), scale: 2))
            let ca = Canvas(size: size, scale: 2), cb = Canvas(size: size, scale: 2)
            r.drawHud(.spinner(a), in: ca, at: .zero, scale: 2)
            r.drawHud(.spinner(b), in: cb, at: .zero, scale: 2)
            let s = r.spinnerRect(a, scale: 2)
            let inside = Rect(x: s.x * 2, y: s.y * 2, width: s.width * 2, height: s.height * 2)
            let all = Rect(x: 0, y: 0, width: ca.width, height: ca.height)
            let total = Fixtures.differingPixels(ca, cb, in: all)
            XCTAssertGreaterThan(Fixtures.differingPixels(ca, cb, in: inside), 50)
            XCTAssertEqual(total, Fixtures.differingPixels(ca, cb, in: inside), "nothing outside the spinner changes")
        }
    }

    func testScaledCanvasForSize() {
        let c = Canvas(size: Size(width: 10, height: 7), scale: 2)
        XCTAssertEqual(c.width, 20)
        XCTAssertEqual(c.height, 14)
        XCTAssertEqual(c.pixel(x: 19, y: 13).a, 0)
    }

    func testWritePNGFailsOnBadPath() {
        XCTAssertThrowsError(try Canvas(width: 2, height: 2).writePNG(path: "/nonexistent-dir/x.png"))
    }
}
