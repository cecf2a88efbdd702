import XCTest
@testable import ToastRender

/// Writes sample PNGs to `Fixtures.sampleDir` for eyeballing; asserts only that they were written.
final class SampleImageTests: XCTestCase {
    func testWriteSamples() throws {
        let r = ToastRenderer()
        let toasts = [
            ToastView(summary: "Build finished", body: "<b>toastd</b> compiled in 41.2 s with <i>zero</i> warnings.",
                      appName: "Terminal", urgency: .normal),
            ToastView(summary: "Battery low", body: "5% remaining. Plug in the charger &amp; save your work.",
                      appName: "Power", urgency: .critical, actions: ["Dismiss", "Power settings"]),
            ToastView(summary: "Alice Example", body: "Lunch at 1? See <a href=\"https://x.org\">the menu</a> <img src=\"x\" alt=\"[pic]\">",
                      appName: "Chat", urgency: .normal, image: Fixtures.image(), actions: ["Reply", "Mark read"]),
            ToastView(summary: "Downloading debian-12.iso", body: "1.2 GB of 3.7 GB", appName: "Downloads",
                      urgency: .low, progress: 32),
            ToastView(summary: "A very long summary line that must be ellipsized because it cannot fit in one line",
                      body: Fixtures.longBody, appName: "", urgency: .normal),
        ]
        for scale in [1, 2] {
            let canvas = Canvas(width: 400 * scale, height: 900 * scale)
            let arrangement = r.renderStack(toasts + toasts, in: canvas, at: Point(x: 20, y: 20), scale: scale)
            XCTAssertEqual(arrangement.hiddenCount, 5)
            let path = Fixtures.sampleDir + "/stack@\(scale)x.png"
            try canvas.writePNG(path: path)
            XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        }
        let huds: [HudView] = [
            .bar(HudBarView(label: "Volume", iconName: "audio-volume-high", value: 70)),
            .bar(HudBarView(label: "Volume", iconName: "audio-volume-high", value: 130)),
            .bar(HudBarView(label: "Volume", iconName: "audio-volume-muted", value: 40, muted: true)),
            .bar(HudBarView(label: "Brightness", iconName: "display-brightness", value: 55)),
            .spinner(SpinnerView(label: "Syncing mail…", phase: 0.1)),
            .spinner(SpinnerView(label: nil, phase: 0.6)),
        ]
        for scale in [1, 2] {
            let canvas = Canvas(width: 340 * scale, height: 520 * scale)
            var y = 10
            for hud in huds {
                r.drawHud(hud, in: canvas, at: Point(x: 20, y: y), scale: scale)
                y += r.measureHud(hud, scale: scale).height + 10
            }
            try canvas.writePNG(path: Fixtures.sampleDir + "/huds@\(scale)x.png")
        }
    }
}
