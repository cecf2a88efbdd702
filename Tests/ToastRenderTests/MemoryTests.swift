import ToastVocabulary
import XCTest
@testable import ToastRender

final class MemoryTests: XCTestCase {
    private func residentBytes() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = statm.split(separator: " ")
        return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    private func renderBatch(_ r: ToastRenderer, _ canvas: Canvas, from: Int, count: Int) {
        for i in from..<(from + count) {
            let toast = ToastView(summary: "Notification \(i)", body: "Body <b>\(i)</b> with <a href='x'>link</a> & more",
                                  appName: "App \(i % 7)", urgency: Urgency.allCases[i % 3], progress: i % 101,
                                  image: i % 5 == 0 ? Fixtures.image(size: 32 + i % 9) : nil, actions: ["OK \(i)"])
            canvas.clear()
            _ = r.renderStack([toast, toast], in: canvas, scale: PixelScale(1 + i % 2))
            r.drawHud(.bar(HudBarView(label: "Volume", iconName: "audio-volume-high", value: i % 150)), in: canvas,
                      at: .zero, scale: 1)
            r.drawHud(.spinner(SpinnerView(label: "Loading \(i)", phase: Double(i) / 37)), in: canvas, at: .zero, scale: 1)
        }
    }

    /// Caches are bounded and everything drawn is freed: after a warm-up, 1500 more distinct toasts
    /// (new text, images, both scales) and 20 renderer lifetimes leave the resident size nearly flat.
    func testRenderingManyToastsKeepsMemoryFlat() {
        let canvas = Canvas(width: 800, height: 600)
        let r = ToastRenderer()
        renderBatch(r, canvas, from: 0, count: 500)
        for i in 0..<5 { renderBatch(ToastRenderer(), canvas, from: i * 10, count: 10) }
        let before = residentBytes()
        renderBatch(r, canvas, from: 500, count: 1500)
        for i in 0..<20 { renderBatch(ToastRenderer(), canvas, from: i * 10, count: 10) }
        let growth = residentBytes() - before
        print("toastd-render-memory: RSS growth over 1500 toasts + 20 renderers: \(growth / 1024) KiB")
        XCTAssertLessThan(growth, 3 << 20)
        XCTAssertLessThanOrEqual(r.text.cachedCount, r.text.capacity)
    }
}
