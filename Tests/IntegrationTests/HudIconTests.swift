import Foundation
import XCTest

/// The value bar's icons on the real stage, from a small theme tree of the test's own under a
/// temporary XDG_DATA_DIRS: the theme's icon for the volume level (a symbolic one in the text
/// colour), an icon named with `--icon`, and the drawn glyph when the theme has none.
final class HudIconTests: XCTestCase {
    private var root: String!
    private let pureRed = RGB(r: 255, g: 0, b: 0)
    /// The text colour set in the test's configuration: a symbolic icon must take it.
    private let textGreen = RGB(r: 0, g: 255, b: 0)

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "toastd-hud-icons-\(UUID().uuidString.prefix(8))"
        try write("share/icons/Test/index.theme", """
            [Icon Theme]
            Name=Test
            Directories=scalable/status
            [scalable/status]
            Size=16
            MinSize=8
            MaxSize=512
            Type=Scalable
            """)
        // A medium volume icon that is symbolic (drawn in the text colour), a muted one that is not.
        try write("share/icons/Test/scalable/status/audio-volume-medium-symbolic.svg", Self.square("#bebebe"))
        try write("share/icons/Test/scalable/status/audio-volume-muted.svg", Self.square("#ff0000"))
        try write("share/icons/Test/scalable/status/red-thing.svg", Self.square("#ff0000"))
        // No shadow: the test finds the HUD's box as whatever differs from the background.
        try write("config", "text-color = #00ff00\nanimations = false\nicon-theme = Test\nshadow = none\n")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: root)
    }

    private func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private static func square(_ fill: String) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect width="16" height="16" fill=""# + fill + #""/></svg>"#
    }

    /// Shows the bar `arguments` describe and returns how many pixels of its icon box (18 px square
    /// left of the label: 14 px in from the HUD's corner) are `colour`, once the bar is drawn and still.
    private func iconPixels(_ colour: RGB, _ stage: Stage, _ toastd: ToastdProcess, _ arguments: [String],
                            file: StaticString = #filePath, line: UInt = #line) throws -> Int {
        // An icon not decoded before is decoded by the picture helper while the bar shows the drawn
        // glyph; the first one also waits for the helper to start, which on a busy machine can outlast
        // the bar. Shown again, the bar finds its icon decoded.
        var (shot, held, counted) = try iconPixelsOnce(colour, stage, toastd, arguments, file: file, line: line)
        for _ in 0..<2 where !held {
            (shot, held, counted) = try iconPixelsOnce(colour, stage, toastd, arguments, file: file, line: line)
        }
        XCTAssertTrue(held, "no bar; kept at \(stage.keep(shot, name: "hud-icon")); \(toastd.log)", file: file, line: line)
        print("\(arguments): \(counted) px of \(colour); shot kept at \(stage.keep(shot, name: "hud-icon-\(arguments.joined(separator: "_"))"))")
        return counted
    }

    private func iconPixelsOnce(_ colour: RGB, _ stage: Stage, _ toastd: ToastdProcess, _ arguments: [String],
                                file: StaticString, line: UInt) throws -> (Image, Bool, Int) {
        let shown = try toastd.toast(["hud"] + arguments)
        XCTAssertTrue(shown.succeeded, shown.stderrText, file: file, line: line)
        var last: Image?
        var counted = 0
        let (shot, held) = try stage.waitForScreenshot { shot in
            defer { last = shot }
            guard let box = shot.boundingBox(notMatching: stage.background), box.width > 200,
                  last.map({ $0.rgb == shot.rgb }) == true else { return false }
            // The label row is at least as tall as the icon box; the box is centred on it.
            let iconBox = Rect(x: box.x + 14, y: box.y + 14, width: 18, height: 22)
            counted = iconBox.width * iconBox.height - shot.countPixels(in: iconBox, notMatching: colour, tolerance: 40)
            return true
        }
        return (shot, held, counted)
    }

    func testThemeIconsByLevelNamedIconsAndTheGlyphWithoutOne() throws {
        let stage = try Stage.shared()
        let toastd = try ToastdProcess(stage: stage, arguments: ["--config", root + "/config"],
                                       environment: ["XDG_DATA_DIRS": root + "/share", "XDG_DATA_HOME": root + "/nowhere",
                                                     "XDG_CONFIG_HOME": root + "/nowhere"],
                                       waitForBus: false)
        let full = 16 * 16  // the 18 px box less a pixel of blended edge all round
        XCTAssertGreaterThanOrEqual(try iconPixels(textGreen, stage, toastd, ["volume", "50"]), full,
                                    "audio-volume-medium-symbolic, in the text colour")
        XCTAssertGreaterThanOrEqual(try iconPixels(pureRed, stage, toastd, ["volume", "50", "--muted"]), full,
                                    "audio-volume-muted, its own colours")
        XCTAssertGreaterThanOrEqual(try iconPixels(pureRed, stage, toastd, ["brightness", "50", "--icon", "red-thing"]), full,
                                    "--icon names a theme icon")
        let glyph = try iconPixels(textGreen, stage, toastd, ["brightness", "60"])
        XCTAssertGreaterThan(glyph, 20, "no display-brightness icon: the drawn sun")
        XCTAssertLessThan(glyph, full / 2, "the drawn sun, not a square")
    }
}
