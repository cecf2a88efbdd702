import Foundation
import XCTest

/// The soft drop shadow on the real stage: just outside a toast's border the background is darker
/// with `shadow = soft` (the default) and untouched with `shadow = none`; the box stays where
/// `margin` puts it either way.
final class ShadowTests: XCTestCase {
    private var root: String!
    /// The default normal-urgency border colour: how the test finds the box's edges.
    private let border = RGB(r: 0x5b, g: 0x8d, b: 0xef)

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "toastd-shadow-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// The shot once a toast is on screen and still, and the box's left, right and bottom edges
    /// (the outermost border pixels across its middle).
    private func toastEdges(_ stage: Stage, _ toastd: ToastdProcess, name: String) throws
        -> (shot: Image, left: Int, right: Int, top: Int, bottom: Int)
    {
        XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
        let corner = Rect(x: stage.width - 480, y: 0, width: 480, height: 240)
        _ = try stage.waitForScreenshot { $0.isUniform(stage.background, in: corner) }
        XCTAssertTrue(try toastd.toast(["-t", "0", "Shadow", "under the box"]).succeeded)
        var last: Image?
        let (shot, held) = try stage.waitForScreenshot { shot in
            defer { last = shot }
            return shot.countPixels(in: corner, notMatching: stage.background, tolerance: 8) > 2000
                && last.map { $0.rgb == shot.rgb } == true
        }
        print("\(name): kept at \(stage.keep(shot, name: "shadow-\(name)"))")
        XCTAssertTrue(held, "\(name): no toast; \(toastd.log)")
        let midX = stage.width - 12 - 180
        let column = (0..<240).filter { shot.pixel(midX, $0).isClose(to: border, tolerance: 40) }
        let top = try XCTUnwrap(column.first, "\(name): no border"), bottom = try XCTUnwrap(column.last)
        let midY = (top + bottom) / 2
        let row = (corner.x..<stage.width).filter { shot.pixel($0, midY).isClose(to: border, tolerance: 40) }
        return (shot, try XCTUnwrap(row.first), try XCTUnwrap(row.last), top, bottom)
    }

    private func darkness(_ pixel: RGB, under background: RGB) -> Int {
        Int(background.r) + Int(background.g) + Int(background.b) - Int(pixel.r) - Int(pixel.g) - Int(pixel.b)
    }

    func testSoftShadowDarkensJustOutsideTheBorderAndNoneLeavesIt() throws {
        let stage = try Stage.shared()
        try Data("animations = false\n".utf8).write(to: URL(fileURLWithPath: root + "/config"))
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", root + "/config"], waitForBus: false)
        let soft = try toastEdges(stage, toastd, name: "soft")
        XCTAssertEqual(soft.right, stage.width - 13, accuracy: 1, "the box stays 12 px from the edge")
        XCTAssertEqual(soft.top, 12, accuracy: 1)
        let midY = (soft.top + soft.bottom) / 2, midX = (soft.left + soft.right) / 2
        let below = soft.shot.pixel(midX, soft.bottom + 3), left = soft.shot.pixel(soft.left - 3, midY)
        XCTAssertGreaterThan(darkness(below, under: stage.background), 12, "below the box: \(below)")
        XCTAssertGreaterThan(darkness(left, under: stage.background), 6, "left of the box: \(left)")
        XCTAssertGreaterThan(darkness(below, under: stage.background), darkness(left, under: stage.background),
                             "the light comes from above")
        XCTAssertTrue(soft.shot.pixel(midX, soft.bottom + 14).isClose(to: stage.background, tolerance: 2),
                      "it fades out within its radius")

        try Data("animations = false\nshadow = none\n".utf8).write(to: URL(fileURLWithPath: root + "/config"))
        XCTAssertTrue(try toastd.toast(["reload"]).succeeded)
        let none = try toastEdges(stage, toastd, name: "none")
        XCTAssertEqual(none.right, soft.right, "the box does not move")
        XCTAssertEqual(none.top, soft.top)
        XCTAssertEqual(none.shot.pixel(midX, none.bottom + 3), stage.background)
        XCTAssertEqual(none.shot.pixel(none.left - 3, midY), stage.background)
    }
}

extension ShadowTests {
    /// The HUD has the same shadow: darker just below its box than the background, and its box where
    /// `hud-margin` puts it.
    func testTheHudHasAShadowToo() throws {
        let stage = try Stage.shared()
        try Data("animations = false\nhud-timeout = 600000\n".utf8).write(to: URL(fileURLWithPath: root + "/config"))
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", root + "/config"], waitForBus: false)
        XCTAssertTrue(try toastd.toast(["hud", "brightness", "50"]).succeeded)
        let hudBorder = RGB(r: 0x4a, g: 0x4d, b: 0x5c)  // the low-urgency border the HUD takes
        let midX = stage.width / 2
        var bottom = -1
        let (shot, held) = try stage.waitForScreenshot { shot in
            bottom = (stage.height / 2..<stage.height).last { shot.pixel(midX, $0).isClose(to: hudBorder, tolerance: 12) } ?? -1
            return bottom > 0
        }
        print("hud: kept at \(stage.keep(shot, name: "shadow-hud"))")
        XCTAssertTrue(held, "no HUD; \(toastd.log)")
        XCTAssertEqual(bottom, stage.height - 64 - 1, accuracy: 1, "the box stays 64 px from the bottom")
        XCTAssertGreaterThan(darkness(shot.pixel(midX, bottom + 3), under: stage.background), 12)
    }

    /// Two toasts, to look at: the shadows of a stack (kept as a screenshot, not asserted beyond
    /// both showing).
    func testStackOfTwoKeepsAScreenshot() throws {
        let stage = try Stage.shared()
        try Data("animations = false\n".utf8).write(to: URL(fileURLWithPath: root + "/config"))
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", root + "/config"], waitForBus: false)
        XCTAssertTrue(try toastd.toast(["-t", "0", "First", "one body line"]).succeeded)
        XCTAssertTrue(try toastd.toast(["-t", "0", "-u", "critical", "Second", "another"]).succeeded)
        let corner = Rect(x: stage.width - 480, y: 0, width: 480, height: 240)
        let (shot, held) = try stage.waitForScreenshot { $0.countPixels(in: corner, notMatching: stage.background) > 20000 }
        print("stack: kept at \(stage.keep(shot, name: "shadow-stack"))")
        XCTAssertTrue(held)
    }
}
