import XCTest
import CCairo
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
        for scale: PixelScale in [1, 2] {
            let canvas = Canvas(width: 400 * scale, height: 900 * scale)
            let arrangement = r.renderStack(toasts + toasts, in: canvas, at: Point(x: 20, y: 20), scale: scale)
            XCTAssertEqual(arrangement.hiddenCount, 5)
            let path = Fixtures.sampleDir + "/stack@\(scale)x.png"
            try canvas.writePNG(path: path)
            XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        }
        // A "desktop" preview: a busy wallpaper under a stack (top right) and a volume HUD (bottom centre),
        // to judge the translucency.
        for scale: PixelScale in [1, 2] {
            let canvas = Canvas(width: 900 * scale, height: 600 * scale)
            let cr = cairo_create(canvas.surface)!
            let g = cairo_pattern_create_linear(0, 0, Double(900 * scale), Double(600 * scale))!
            cairo_pattern_add_color_stop_rgb(g, 0, 0.16, 0.35, 0.55)
            cairo_pattern_add_color_stop_rgb(g, 0.5, 0.85, 0.55, 0.35)
            cairo_pattern_add_color_stop_rgb(g, 1, 0.25, 0.15, 0.35)
            cairo_set_source(cr, g)
            cairo_paint(cr)
            cairo_pattern_destroy(g)
            cairo_set_source_rgba(cr, 1, 1, 1, 0.5)
            cairo_set_line_width(cr, Double(3 * scale))
            for i in stride(from: 0, to: 900 * scale, by: 40 * scale) {
                cairo_move_to(cr, Double(i), 0); cairo_line_to(cr, Double(i) + 300, Double(600 * scale))
            }
            cairo_stroke(cr)
            cairo_destroy(cr)
            let stack = r.measureStack(Array(toasts.prefix(3)), scale: scale)
            r.renderStack(Array(toasts.prefix(3)), in: canvas, at: Point(x: 900 - 12 - stack.size.width, y: 12),
                          scale: scale, clear: false)
            let hud = HudView.bar(HudBarView(label: "Volume", iconName: "audio-volume-high", value: 65))
            let hs = r.measureHud(hud, scale: scale)
            r.drawHud(hud, in: canvas, at: Point(x: (900 - hs.width) / 2, y: 600 - 60 - hs.height), scale: scale)
            r.drawHud(.spinner(SpinnerView(label: "Connecting to VPN…", phase: 0.25)), in: canvas,
                      at: Point(x: 24, y: 24), scale: scale)
            try canvas.writePNG(path: Fixtures.sampleDir + "/desktop@\(scale)x.png")
        }

        let huds: [HudView] = [
            .bar(HudBarView(label: "Volume", iconName: "audio-volume-high", value: 70)),
            .bar(HudBarView(label: "Volume", iconName: "audio-volume-high", value: 130)),
            .bar(HudBarView(label: "Volume", iconName: "audio-volume-muted", value: 40, muted: true)),
            .bar(HudBarView(label: "Brightness", iconName: "display-brightness", value: 55)),
            .spinner(SpinnerView(label: "Syncing mail…", phase: 0.1)),
            .spinner(SpinnerView(label: nil, phase: 0.6)),
        ]
        for scale: PixelScale in [1, 2] {
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
