import XCTest

/// The stage every other integration test stands on: a real headless sway and a private bus.
final class StageTests: XCTestCase {
    func testStageComesUpWithItsBackgroundOnScreen() throws {
        let stage = try Stage.shared()
        XCTAssertTrue(try stage.outputNames().contains(stage.output))

        let shot = try stage.screenshot()
        XCTAssertEqual(shot.width, stage.width)
        XCTAssertEqual(shot.height, stage.height)
        // The whole output is the configured colour: no bar, no cursor, no wallpaper.
        let stray = shot.countPixels(in: shot.bounds, notMatching: stage.background)
        XCTAssertEqual(stray, 0, "pixels not \(stage.background); kept at \(stage.keep(shot, name: "background"))")
        XCTAssertEqual(shot.pixel(0, 0), RGB(hex: "203040"))
    }

    func testCreatedOutputTakesScale2() throws {
        // Outputs cannot be removed again in sway 1.7: this test changes a stage of its own.
        let stage = try Stage.makePrivate()
        let added = try stage.createOutput()
        XCTAssertEqual(added, "HEADLESS-2")

        try stage.swaymsg("output", added, "scale", "2")
        let outputs = try XCTUnwrap(stage.swaymsgJSON(type: "get_outputs") as? [[String: Any]])
        let output = try XCTUnwrap(outputs.first { $0["name"] as? String == added })
        XCTAssertEqual(output["scale"] as? Double, 2)
        let rect = try XCTUnwrap(output["rect"] as? [String: Any])

        // grim shoots the scaled output at its buffer size: twice its logical size.
        let shot = try stage.screenshot(output: added)
        XCTAssertEqual(shot.width, 2 * (rect["width"] as? Int ?? 0))
        XCTAssertEqual(shot.height, 2 * (rect["height"] as? Int ?? 0))
    }

    func testPrivateBusHasNoNotificationDaemonToActivate() throws {
        let stage = try Stage.shared()
        // No servicedir: notify-send must fail rather than wake mako or dunst.
        let result = try stage.run(["notify-send", "nobody listens"], timeout: 10)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderrText.contains("ServiceUnknown") || result.stderrText.contains("not provided"),
                      result.stderrText)
    }

    func testBusNamesAreSeenOnThePrivateBus() throws {
        let stage = try Stage.shared()
        XCTAssertTrue(stage.busNameHasOwner("org.freedesktop.DBus"))
        XCTAssertFalse(stage.waitForBusName("org.freedesktop.Notifications", deadline: .after(0.2)))
    }

    func testSpawnedProcessStdoutIsReadLineByLine() throws {
        let stage = try Stage.shared()
        let process = try stage.spawn(["sh", "-c", "echo one; echo two; echo \"$XDG_RUNTIME_DIR\""])
        XCTAssertEqual(process.waitForLine(startingWith: "two"), "two")
        XCTAssertEqual(process.waitForLine(matching: "^/", timeout: 10), stage.runtimeDirectory)
        XCTAssertEqual(process.waitForExit(timeout: 10), 0)
    }

    func testPPMDecoderReadsGrimsLayout() throws {
        let image = try Image(ppm: Data("P6\n2 1\n255\n".utf8) + Data([255, 0, 0, 0, 0, 255]))
        XCTAssertEqual(image.pixel(0, 0), RGB(r: 255, g: 0, b: 0))
        XCTAssertEqual(image.pixel(1, 0), RGB(r: 0, g: 0, b: 255))
        XCTAssertThrowsError(try Image(ppm: Data("P6\n2 2\n255\n".utf8) + Data([1, 2, 3])))
    }
}
