import Foundation
import XCTest

/// The picture keys (`icon-location`, `max-icon-size`, `icons`) on the real stage: a solid red PNG
/// named by `image-path`, the configuration changed by `toast reload`, and where the red lands.
final class PictureLayoutTests: XCTestCase {
    private var root: String!
    private let pureRed = RGB(r: 255, g: 0, b: 0)
    /// The toast's width and padding, and the stack's margin: toastd's defaults.
    private let width = 360, padding = 12, margin = 12

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "toastd-picture-layout-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try PNGFile.write(solid: pureRed, side: 32, to: root + "/red.png")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func configure(_ toastd: ToastdProcess?, _ stage: Stage, _ lines: String) throws -> ToastdProcess {
        try Data(("animations = false\n" + lines + "\n").utf8).write(to: URL(fileURLWithPath: root + "/config"))
        if let toastd {
            let reloaded = try toastd.toast(["reload"])
            XCTAssertTrue(reloaded.succeeded, reloaded.stdoutText + reloaded.stderrText)
            return toastd
        }
        return try ToastdProcess(stage: stage, arguments: ["--config", root + "/config"], waitForBus: false)
    }

    /// The bounding box of the red pixels in the top-right corner once a toast with the red picture
    /// shows (nil: none showed while the toast's box did).
    private func redBox(_ stage: Stage, _ toastd: ToastdProcess, name: String) throws -> Rect? {
        XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
        let corner = Rect(x: stage.width - 480, y: 0, width: 480, height: 300)
        _ = try stage.waitForScreenshot { $0.isUniform(stage.background, in: corner) }
        let sent = try toastd.toast(["-t", "0", "-h", "string:image-path:\(root!)/red.png", "Picture", "where is it"])
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        // The toast's text is drawn last: wait until it and the picture, if any, are on screen and still.
        var last: Image?
        let (shot, settled) = try stage.waitForScreenshot { shot in
            defer { last = shot }
            return shot.countPixels(in: corner, notMatching: stage.background, tolerance: 8) > 2000
                && last.map { $0.rgb == shot.rgb } == true
        }
        XCTAssertTrue(settled, "\(name): no toast; kept at \(stage.keep(shot, name: "picture-\(name)")); \(toastd.log)")
        var x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for y in corner.y..<corner.y + corner.height {
            for x in corner.x..<corner.x + corner.width where shot.pixel(x, y).isClose(to: pureRed, tolerance: 30) {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
            }
        }
        if x1 < 0 { return nil }
        print("\(name): red at \(Rect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)); shot kept at \(stage.keep(shot, name: "picture-\(name)"))")
        return Rect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }

    /// (The picture's outermost pixels blend with the box: up to 2 px of slack.)
    func testIconLocationMaxIconSizeAndIconsOff() throws {
        let stage = try Stage.shared()
        let right = stage.width - margin  // the toast's right edge
        var toastd = try configure(nil, stage, "icon-border-radius = 0")

        let left = try XCTUnwrap(try redBox(stage, toastd, name: "left"), "the default shows the picture")
        XCTAssertEqual(left.width, 48, accuracy: 2, "the default box is 48 px")
        XCTAssertEqual(left.x, right - width + padding, accuracy: 2, "left of the text")

        toastd = try configure(toastd, stage, "icon-border-radius = 0\nicon-location = right\nmax-icon-size = 80")
        let rightBox = try XCTUnwrap(try redBox(stage, toastd, name: "right-80"))
        XCTAssertEqual(rightBox.width, 80, accuracy: 2, "max-icon-size sets the box")
        XCTAssertEqual(rightBox.height, 80, accuracy: 2)
        XCTAssertEqual(rightBox.x + rightBox.width, right - padding, accuracy: 2, "right of the text")
        XCTAssertEqual(rightBox.y, margin + padding, accuracy: 2)

        toastd = try configure(toastd, stage, "icon-border-radius = 0\nicon-location = top")
        let top = try XCTUnwrap(try redBox(stage, toastd, name: "top"))
        XCTAssertEqual(top.x + top.width / 2, right - width / 2, accuracy: 2, "centred across the toast")
        XCTAssertEqual(top.y, margin + padding, accuracy: 2, "above the text")

        toastd = try configure(toastd, stage, "icon-border-radius = 0\nicon-location = bottom")
        let bottom = try XCTUnwrap(try redBox(stage, toastd, name: "bottom"))
        XCTAssertGreaterThan(bottom.y, margin + padding + 20, "under the summary and body")

        toastd = try configure(toastd, stage, "icons = 0")
        XCTAssertNil(try redBox(stage, toastd, name: "icons-off"), "icons = 0 draws no picture")
    }
}
