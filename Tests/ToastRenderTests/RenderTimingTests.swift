import XCTest
@testable import ToastRender

/// Prints render timings (µs) for the report; asserts only that rendering produced pixels (no timing
/// assertions). "cold" is only cold when this is the first renderer of the process: run it alone with
/// `swift test --filter RenderTimingTests`.
final class RenderTimingTests: XCTestCase {
    private func micros(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let d = clock.measure(body)
        return Double(d.components.seconds) * 1e6 + Double(d.components.attoseconds) / 1e12
    }

    func testReportPrewarmedFirstToast() {
        let toast = ToastView(summary: "Volume up", body: "Output: <i>Speakers</i>", appName: "Audio")
        let canvas = Canvas(width: 400, height: 200)
        let renderer = ToastRenderer()
        let prewarm = micros { renderer.prewarm(scale: 1) }
        let measure = micros { _ = renderer.measure(toast, scale: 1) }
        let draw = micros { renderer.draw(toast, in: canvas, at: .zero, scale: 1) }
        XCTAssertGreaterThan(canvas.pixel(x: 180, y: 0).a, 0)
        print("toastd-render-timing: prewarm \(Int(prewarm)) µs; first toast after prewarm: measure \(Int(measure)) µs "
              + "+ draw \(Int(draw)) µs")
    }

    func testReportRenderTimes() {
        let toast = ToastView(summary: "Build finished", body: "<b>toastd</b> compiled with <i>zero</i> warnings.",
                              appName: "Terminal")
        let canvas = Canvas(width: 400, height: 200)
        var renderer: ToastRenderer!
        let create = micros { renderer = ToastRenderer() }
        let first = micros {
            let size = renderer.measure(toast, scale: 1)
            renderer.draw(toast, in: canvas, at: .zero, scale: 1)
            XCTAssertEqual(size.width, 360)
        }
        XCTAssertGreaterThan(canvas.pixel(x: 180, y: 0).a, 0)
        var same: [Double] = [], fresh: [Double] = [], fade: [Double] = []
        for i in 0..<50 {
            same.append(micros {
                _ = renderer.measure(toast, scale: 1)
                canvas.clear()
                renderer.draw(toast, in: canvas, at: .zero, scale: 1)
            })
            let other = ToastView(summary: "Message \(i)", body: "Body text number \(i) with <b>markup</b>.",
                                  appName: "App")
            fresh.append(micros {
                _ = renderer.measure(other, scale: 1)
                canvas.clear()
                renderer.draw(other, in: canvas, at: .zero, scale: 1)
            })
            fade.append(micros { renderer.draw(toast, in: canvas, at: .zero, scale: 1, opacity: 0.5) })
        }
        func median(_ v: [Double]) -> Int { Int(v.sorted()[v.count / 2]) }
        print("toastd-render-timing: renderer init \(Int(create)) µs; first toast measure+draw \(Int(first)) µs; "
              + "cold total \(Int(create + first)) µs; warm same toast \(median(same)) µs; "
              + "warm new toast \(median(fresh)) µs; warm faded redraw \(median(fade)) µs (medians of 50, debug build)")
    }
}
