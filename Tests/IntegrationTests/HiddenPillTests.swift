import Foundation
import XCTest

/// mako's `[hidden]` and `[grouped]` sections on the stage: they colour the "+N more" pill and the
/// toast of a group, and nothing else.
final class HiddenPillTests: XCTestCase {
    private let blue = RGB(r: 0, g: 0, b: 0xff)

    private func count(_ colour: RGB, in image: Image) -> Int {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x, y).isClose(to: colour, tolerance: 12) { count += 1 }
        }
        return count
    }

    func testAHiddenSectionColoursTheMorePill() throws {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/hidden-\(UUID().uuidString.prefix(8))"
        try Data("max-visible = 1\n[hidden]\nbackground-color=#0000ffff\n".utf8).write(to: URL(fileURLWithPath: path))

        // The file is clean: `hidden` is no longer a criterion toastd skips.
        let check = try stage.run([try stage.binary("toastd"), "--check-config", path])
        XCTAssertEqual(check.status, 0, check.stdoutText + check.stderrText)
        XCTAssertEqual(check.stdoutText, "")

        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])
        XCTAssertTrue(toastd.log.contains("(0 warnings)"), toastd.log)

        // One toast: no pill, and the toast itself is not blue.
        XCTAssertTrue(try toastd.toast(["-t", "0", "First", "alone"]).succeeded)
        let (alone, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(drawn, "the first toast is not drawn: \(toastd.log)")
        XCTAssertEqual(count(blue, in: alone), 0, "a toast took the [hidden] colour; kept at \(stage.keep(alone, name: "hidden-alone"))")

        // Three: one shown, "+2 more" in blue.
        XCTAssertTrue(try toastd.toast(["-t", "0", "Second", "waits"]).succeeded)
        XCTAssertTrue(try toastd.toast(["-t", "0", "Third", "shown"]).succeeded)
        let (image, blueDrawn) = try stage.waitForScreenshot { self.count(self.blue, in: $0) > 300 }
        XCTAssertTrue(blueDrawn, "no blue pill (\(count(blue, in: image)) blue pixels); kept at \(stage.keep(image, name: "hidden-pill"))")
        // The blue is the pill's: under the one toast shown, not the toast's box.
        let box = try XCTUnwrap(image.boundingBox(notMatching: stage.background))
        var blueRows = Set<Int>()
        for y in box.y..<(box.y + box.height) {
            for x in box.x..<(box.x + box.width) where image.pixel(x, y).isClose(to: blue, tolerance: 12) { blueRows.insert(y) }
        }
        XCTAssertLessThan(blueRows.count, 60, "more rows are blue than a pill is tall")
        XCTAssertGreaterThan(blueRows.min() ?? 0, box.y + box.height / 2, "the blue is not at the bottom of the stack")
    }

    func testAGroupedSectionColoursTheToastOfAGroup() throws {
        let stage = try Stage.shared()
        let path = "\(stage.directory)/grouped-\(UUID().uuidString.prefix(8))"
        try Data("group-by = app-name\n[grouped]\nbackground-color=#0000ffff\n".utf8).write(to: URL(fileURLWithPath: path))
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", path, "--no-animations"])
        XCTAssertTrue(toastd.log.contains("(0 warnings)"), toastd.log)

        XCTAssertTrue(try stage.run(["notify-send", "-a", "chat", "One", "alone"], timeout: 15).succeeded)
        let (alone, drawn) = try stage.waitForScreenshot { $0.boundingBox(notMatching: stage.background) != nil }
        XCTAssertTrue(drawn, "the first toast is not drawn: \(toastd.log)")
        XCTAssertEqual(count(blue, in: alone), 0, "a toast alone is blue; kept at \(stage.keep(alone, name: "grouped-alone"))")

        XCTAssertTrue(try stage.run(["notify-send", "-a", "chat", "Two", "grouped"], timeout: 15).succeeded)
        let (image, blueDrawn) = try stage.waitForScreenshot { self.count(self.blue, in: $0) > 2000 }
        XCTAssertTrue(blueDrawn, "the group's toast is not blue; kept at \(stage.keep(image, name: "grouped-two"))")
    }
}
