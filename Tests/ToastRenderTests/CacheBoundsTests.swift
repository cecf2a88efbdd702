import Foundation
import ToastVocabulary
import XCTest
@testable import ToastRender

/// The renderer's caches are bounded by bytes as well as entries, and let go of what they hold
/// (fallback fonts included) when the daemon has nothing on screen (issue 18).
final class CacheBoundsTests: XCTestCase {
    private func picture(_ side: Int, _ seed: UInt8) -> RGBAImage {
        RGBAImage(width: side, height: side, pixels: [UInt8](repeating: seed, count: side * side * 4))
    }

    func testConvertedPicturesStayWithinTheirByteBudget() {
        let r = ToastRenderer()
        let canvas = Canvas(width: 800, height: 400)
        for i in 0..<40 {
            // 256 px at scale 2: 256 KiB each; eight of them would be twice the budget.
            let toast = ToastView(summary: "Picture \(i)", appName: "test", image: picture(256, UInt8(i)))
            r.draw(toast, in: canvas, at: .zero, scale: 2)
            XCTAssertLessThanOrEqual(r.imageBytes, r.imageByteBudget, "after picture \(i)")
            XCTAssertGreaterThan(r.imageBytes, 0, "the picture being drawn is kept")
        }
    }

    func testBoxesStayWithinTheirByteBudget() {
        let r = ToastRenderer()
        for i in 0..<40 {
            // Bodies of ever more lines: a box per height, at scale 3.
            let body = (0...i % 12).map { "line \($0)" }.joined(separator: "\n")
            _ = r.image(of: ToastView(summary: "Box \(i)", body: body, appName: "test", urgency: Urgency.allCases[i % 3]),
                        scale: 3)
            XCTAssertLessThanOrEqual(r.boxBytes, r.boxByteBudget, "after box \(i)")
        }
    }

    /// A toast on its own draws its box into its picture and keeps no copy of it; the second of its
    /// size before the stacks settle (a burst) caches the box, and releasing the boxes (the stack
    /// settled) lets it go and keeps the shadows. Every way gives the same picture.
    func testABoxIsCachedAtItsSecondUseAndReleasedWhenTheStackSettles() throws {
        let r = ToastRenderer()
        let toast = ToastView(summary: "Settled", body: "keeps its shadow", appName: "test")
        let whole = { (c: Canvas) in Rect(x: 0, y: 0, width: c.width, height: c.height) }
        let alone = r.image(of: toast, scale: 1)
        XCTAssertEqual(r.cachedBoxCount, 0, "a toast on its own keeps no copy of its box")
        let second = r.image(of: toast, scale: 1)
        XCTAssertEqual(r.cachedBoxCount, 1, "the second of its size caches it")
        let copied = r.image(of: toast, scale: 1)
        let shadow = try XCTUnwrap(r.shadowImage(of: toast, size: r.measure(toast, scale: 1), scale: 1))
        XCTAssertEqual(r.boxBytes, alone.stride * alone.height + shadow.byteCount, "its box and its shadow")
        r.releaseBoxes()
        XCTAssertEqual(r.cachedBoxCount, 0)
        XCTAssertEqual(r.boxBytes, shadow.byteCount, "the shadow alone")
        XCTAssertTrue(shadow === r.shadowImage(of: toast, size: r.measure(toast, scale: 1), scale: 1), "kept")
        let again = r.image(of: toast, scale: 1)
        XCTAssertEqual(r.cachedBoxCount, 0, "drawn in place again: the first use since the release")
        for picture in [second, copied, again] {
            XCTAssertEqual(Fixtures.differingPixels(alone, picture, in: whole(alone)), 0)
        }
    }

    func testTextLayoutsStayWithinTheirByteBudget() {
        let r = ToastRenderer()
        let long = String(repeating: "é漢字 word ", count: 160)  // ~1,900 bytes
        for i in 0..<300 {
            _ = r.measure(ToastView(summary: "Layout \(i)", body: "\(i) \(long)", appName: "test"), scale: 1)
            XCTAssertLessThanOrEqual(r.text.cachedBytes, r.text.byteBudget, "after toast \(i)")
            XCTAssertLessThanOrEqual(r.text.cachedCount, r.text.capacity)
        }
        XCTAssertLessThan(r.text.cachedCount, 96, "long bodies are bounded by bytes before the entry cap")
    }

    /// A full layout cache lets go of the layout used least recently, not of one used since.
    func testAFullLayoutCacheDropsTheLeastRecentlyUsed() {
        let engine = TextEngine(style: ToastStyle(), capacity: 4)
        func key(_ text: String) -> TextKey {
            TextKey(text: text, isMarkup: false, role: .body, width: nil, maxHeight: nil, scale: 1)
        }
        let kept = (0..<4).map { engine.layout(key("text \($0)")) }
        for i in [3, 0, 2] { XCTAssertTrue(engine.layout(key("text \(i)")) === kept[i], "a hit returns the cached layout") }
        _ = engine.layout(key("text 4"))  // full: "text 1", used longest ago, goes
        XCTAssertEqual(engine.cachedCount, 4)
        for i in [0, 2, 3] { XCTAssertTrue(engine.layout(key("text \(i)")) === kept[i], "text \(i) was used since") }
        XCTAssertFalse(engine.layout(key("text 1")) === kept[1], "text 1 was dropped and made again")
    }

    func testReleasingCachesKeepsLatinTextFontsAndDropsFallbackFonts() {
        let r = ToastRenderer()
        let canvas = Canvas(width: 400, height: 200)
        r.draw(ToastView(summary: "Plain", body: "café — naïve “quotes”…", appName: "test"), in: canvas, at: .zero, scale: 1)
        XCTAssertFalse(r.releaseCaches(), "Latin-1 text loads no fallback font: the font map stays")
        XCTAssertEqual(r.text.cachedCount, 0)
        r.draw(ToastView(summary: "漢字 かな 한글", body: "مرحبا שלום", appName: "test"), in: canvas, at: .zero, scale: 1)
        XCTAssertTrue(r.releaseCaches(), "text in other scripts: a fresh font map")
        XCTAssertLessThan(r.text.cachedBytes, 64 << 10, "only the fresh map's warm-up sample is cached")
        XCTAssertEqual(r.imageBytes, 0)
        XCTAssertEqual(r.boxBytes, 0)
        // And it still draws, with the fresh fonts.
        let after = Canvas(width: 400, height: 200)
        r.draw(ToastView(summary: "漢字 again", appName: "test"), in: after, at: .zero, scale: 1)
        let drawn = (0..<200).contains { y in (0..<400).contains { x in after.pixel(x: x, y: y).a != 0 } }
        XCTAssertTrue(drawn)
    }
}
