import XCTest
@testable import ToastRender

final class ToastSizeTests: XCTestCase {
    let r = ToastRenderer()

    func testWidthIsFixedAcrossUrgencyAndContent() {
        let normal = r.measure(ToastView(summary: "Hi", body: "short", urgency: .normal), scale: 1)
        let critical = r.measure(ToastView(summary: "Hi", body: "short", urgency: .critical), scale: 1)
        let long = r.measure(ToastView(summary: "Hi", body: Fixtures.longBody), scale: 1)
        XCTAssertEqual(normal.width, r.style.width)
        XCTAssertEqual(critical.width, normal.width)
        XCTAssertEqual(long.width, normal.width)
        XCTAssertEqual(critical.height, normal.height)
    }

    func testLongBodyIsCappedAndTallerThanShort() {
        let short = r.measure(ToastView(summary: "S", body: "One line."), scale: 1)
        let long = r.measure(ToastView(summary: "S", body: Fixtures.longBody), scale: 1)
        let longer = r.measure(ToastView(summary: "S", body: Fixtures.longBody + Fixtures.longBody), scale: 1)
        XCTAssertGreaterThan(long.height, short.height + 40, "a long body wraps to several lines")
        XCTAssertEqual(long.height, longer.height, "the body is capped")
        let chrome = short.height - 17  // one body line is ~17 px at Sans 10
        XCTAssertLessThanOrEqual(long.height, chrome + r.style.maxBodyHeight + 2)
    }

    func testBodyWrapsInsideWidth() throws {
        // A single unbreakable word longer than the width still wraps (WORD_CHAR), staying in the box.
        let word = String(repeating: "x", count: 300)
        let one = r.measure(ToastView(summary: "S", body: "x"), scale: 1)
        let wrapped = r.measure(ToastView(summary: "S", body: word), scale: 1)
        XCTAssertGreaterThan(wrapped.height, one.height)
        let canvas = Fixtures.render(ToastView(summary: "S", body: word), r)
        XCTAssertEqual(canvas.width, r.style.width)
    }

    func testSummaryIsOneLine() {
        let short = r.measure(ToastView(summary: "Short"), scale: 1)
        let long = r.measure(ToastView(summary: String(repeating: "Long summary ", count: 40)), scale: 1)
        let twoParagraphs = r.measure(ToastView(summary: "line one\nline two"), scale: 1)
        XCTAssertEqual(short.height, long.height)
        XCTAssertEqual(short.height, twoParagraphs.height)
    }

    func testOptionalPartsAddHeight() {
        let base = r.measure(ToastView(summary: "S", body: "B"), scale: 1)
        XCTAssertGreaterThan(r.measure(ToastView(summary: "S", body: "B", appName: "App"), scale: 1).height, base.height)
        XCTAssertGreaterThan(r.measure(ToastView(summary: "S", body: "B", progress: 50), scale: 1).height, base.height)
        XCTAssertGreaterThan(r.measure(ToastView(summary: "S", body: "B", actions: ["OK"]), scale: 1).height, base.height)
        XCTAssertGreaterThanOrEqual(r.measure(ToastView(summary: "S", image: Fixtures.image()), scale: 1).height,
                                    2 * r.style.padding + r.style.imageSize)
    }

    func testScaleTwoDoublesBufferPixels() {
        let toast = ToastView(summary: "Hello", body: "World", appName: "App")
        let s1 = r.measure(toast, scale: 1), s2 = r.measure(toast, scale: 2)
        XCTAssertEqual(s1.width, s2.width)
        XCTAssertEqual(Double(s1.height), Double(s2.height), accuracy: 1)
        let c1 = Fixtures.render(toast, r, scale: 1), c2 = Fixtures.render(toast, r, scale: 2)
        XCTAssertEqual(c2.width, 2 * c1.width)
        XCTAssertEqual(c2.height, 2 * s2.height)
        // The right border is drawn at the right edge in buffer pixels at both scales.
        let midY1 = c1.height / 2, midY2 = c2.height / 2
        XCTAssertGreaterThan(c1.pixel(x: c1.width - 1, y: midY1).a, 100)
        XCTAssertGreaterThan(c2.pixel(x: c2.width - 1, y: midY2).a, 100)
        XCTAssertGreaterThan(c2.pixel(x: c2.width - 3, y: midY2).a, 100, "the border is 1.5 px × 2 = 3 buffer px")
    }

    func testActionRectsInsideToastWithoutOverlap() {
        let toast = ToastView(summary: "S", actions: ["One", "Two", "A rather long third action", "Four", "Five"])
        let size = r.measure(toast, scale: 1)
        let rects = r.actionRects(toast, scale: 1)
        XCTAssertEqual(rects.count, 5)
        let box = Rect(origin: .zero, size: size)
        for (i, a) in rects.enumerated() {
            XCTAssertEqual(a.union(box), box, "pill \(i) inside the toast")
            for b in rects[(i + 1)...] { XCTAssertFalse(a.intersects(b)) }
        }
        XCTAssertGreaterThan(Set(rects.map(\.y)).count, 1, "pills wrap to a second row")
    }

    /// The button Tab chose is ringed: its pill's pixels change, the other pill's and the text's do not.
    func testTheChosenButtonIsRingedAndNothingElseChanges() {
        var toast = ToastView(summary: "S", body: "Body", actions: ["Later", "Open"])
        let plain = Fixtures.render(toast, r)
        toast.chosenAction = 1
        let chosen = Fixtures.render(toast, r)
        let rects = r.actionRects(toast, scale: 1)
        XCTAssertGreaterThan(Fixtures.differingPixels(plain, chosen, in: rects[1]), 20, "the chosen pill is ringed")
        XCTAssertEqual(Fixtures.differingPixels(plain, chosen, in: rects[0]), 0, "the other pill is unchanged")
        let above = Rect(x: 0, y: 0, width: plain.width, height: rects.map(\.y).min()! - 1)
        XCTAssertEqual(Fixtures.differingPixels(plain, chosen, in: above), 0, "the text is unchanged")
    }

    func testLayoutCacheIsBounded() {
        for i in 0..<500 { _ = r.measure(ToastView(summary: "S\(i)", body: "B\(i)"), scale: 1) }
        XCTAssertLessThanOrEqual(r.text.cachedCount, r.text.capacity)
    }
}

final class ToastTrimTests: XCTestCase {
    func testSurroundingWhitespaceAddsNoHeight() {
        let r = ToastRenderer()
        let plain = r.measure(ToastView(summary: "S", body: "Body"), scale: 1)
        XCTAssertEqual(r.measure(ToastView(summary: " S\n", body: "\n  Body\n\n"), scale: 1), plain)
        XCTAssertEqual(r.measure(ToastView(summary: "S", body: " \n "), scale: 1),
                       r.measure(ToastView(summary: "S"), scale: 1))
        XCTAssertEqual(trimmed("  a b \n"), "a b")
        XCTAssertEqual(trimmed("ab"), "ab")
        // Either end alone, Unicode spaces, and text whose ends are not plain ASCII.
        for (text, expected) in [("a ", "a"), (" a", "a"), ("a\t", "a"), ("\na", "a"), ("a\u{2003}", "a"),
                                 ("\u{A0}a b", "a b"), ("é ", "é"), (" 日本", "日本"), ("x", "x"), (" ", ""), ("", "")] {
            XCTAssertEqual(trimmed(text), expected, "\(Array(text.unicodeScalars))")
        }
    }
}
