import Foundation
import XCTest

/// Icons as the desktop has them, on the real stage: each test builds a small icon theme tree under a
/// temporary XDG_DATA_DIRS, starts toastd on it and looks at the screenshot's pixels.
final class IconTests: XCTestCase {
    private var root: String!
    private let pureRed = RGB(r: 255, g: 0, b: 0)
    /// The text colour set in the test's configuration: a symbolic icon must take it.
    private let textGreen = RGB(r: 0, g: 255, b: 0)

    override func setUpWithError() throws {
        root = NSTemporaryDirectory() + "toastd-icons-\(UUID().uuidString.prefix(8))"
        // The theme chain: the GTK setting names Child, which inherits Parent, which has the SVG only.
        try write("share/icons/Child/index.theme", """
            [Icon Theme]
            Name=Child
            Inherits=Parent
            Directories=16x16/apps
            [16x16/apps]
            Size=16
            Type=Fixed
            """)
        try write("share/icons/Parent/index.theme", """
            [Icon Theme]
            Name=Parent
            Directories=scalable/status
            [scalable/status]
            Size=16
            MinSize=8
            MaxSize=512
            Type=Scalable
            """)
        try write("share/icons/Parent/scalable/status/red-only-svg.svg", Self.square("#ff0000"))
        try write("share/icons/Parent/scalable/status/thing-symbolic.svg", Self.square("#bebebe"))
        try write("share/applications/org.example.Red.desktop", "[Desktop Entry]\nName=Red\nIcon=red-only-svg\n")
        try write("config/gtk-3.0/settings.ini", "[Settings]\ngtk-icon-theme-name=Child\n")
        try write("config/toastd/config", "text-color = #00ff00\nanimations = false\n")
        try write("pictures/red.svg", Self.square("#ff0000"))
        try write("pictures/broken.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"16\"><rect")
        var bomb = #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><defs><path id="l0" d="M0 0h1v1z"/>"#
        for level in 1...10 {
            bomb += "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10) + "</g>"
        }
        try write("pictures/bomb.svg", bomb + "</defs><use href=\"#l10\"/></svg>")
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

    /// A 16 px SVG filled with `fill` entirely.
    private static func square(_ fill: String) -> String {
        #"<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16"><rect width="16" height="16" fill=""# + fill + #""/></svg>"#
    }

    private func startToastd(_ stage: Stage) throws -> ToastdProcess {
        try ToastdProcess(stage: stage, arguments: ["--config", root + "/config/toastd/config"],
                          environment: ["XDG_DATA_DIRS": root + "/share", "XDG_DATA_HOME": root + "/nowhere",
                                        "XDG_CONFIG_HOME": root + "/config"],
                          waitForBus: false)
    }

    private func topRight(_ stage: Stage) -> Rect {
        Rect(x: stage.width - 480, y: 0, width: 480, height: 240)
    }

    /// Sends a toast through the control socket and waits until at least `pixels` of the corner are
    /// `colour`; asserts it.
    private func assertShows(_ colour: RGB, pixels: Int = 1200, _ stage: Stage, _ toastd: ToastdProcess,
                             _ arguments: [String], name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(try toastd.toast(["dismiss", "--all"]).succeeded)
        let corner = topRight(stage)
        _ = try stage.waitForScreenshot { $0.isUniform(stage.background, in: corner) }
        let sent = try toastd.toast(["-t", "0"] + arguments)
        XCTAssertTrue(sent.succeeded, "\(name): \(sent.stderrText)", file: file, line: line)
        let area = corner.width * corner.height
        let (shot, drawn) = try stage.waitForScreenshot {
            area - $0.countPixels(in: corner, notMatching: colour, tolerance: 30) >= pixels
        }
        XCTAssertTrue(drawn, "\(name): no \(colour) picture; kept at \(stage.keep(shot, name: "icons-\(name)")); toastd: \(toastd.log)",
                      file: file, line: line)
    }

    /// An icon name found only as an SVG in a theme the user's theme inherits from shows its colours;
    /// a -symbolic one takes the text colour; a desktop entry's Icon= shows that icon.
    func testThemeIconsSymbolicIconsAndDesktopEntries() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        try assertShows(pureRed, stage, toastd, ["-i", "red-only-svg", "Inherited SVG"], name: "inherited-svg")
        try assertShows(textGreen, stage, toastd, ["-i", "thing-symbolic", "S"], name: "symbolic")
        try assertShows(pureRed, stage, toastd, ["-h", "string:desktop-entry:org.example.Red", "By desktop entry"],
                        name: "desktop-entry")
        try assertShows(pureRed, stage, toastd, ["-h", "string:image-path:\(root!)/pictures/red.svg", "SVG by path"],
                        name: "image-path-svg")
    }

    /// A broken SVG and an SVG bomb are refused with a log line; the socket keeps answering meanwhile
    /// and the toasts themselves show.
    func testBrokenSVGAndBombAreRefusedWithoutStalling() throws {
        let stage = try Stage.shared()
        let toastd = try startToastd(stage)
        for (name, expected) in [("broken", "not a usable SVG file"), ("bomb", "<use> elements, over the limit")] {
            let sent = try toastd.toast(["-t", "0", "-h", "string:image-path:\(root!)/pictures/\(name).svg", name])
            XCTAssertTrue(sent.succeeded, sent.stderrText)
            XCTAssertLessThan(try toastd.slowestAnswer(for: 0.5), 50, "\(name): the loop was held up")
            XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains(expected) }, "\(name): no log line: \(toastd.log)")
        }
        let listed = try toastd.toast(["list"])
        XCTAssertTrue(listed.stdoutText.contains("bomb"), "the toast itself shows: \(listed.stdoutText)")
    }

    /// `image-path` to a JPEG (made by cjpeg, which scripts/install-deps installs, from a red PPM)
    /// shows it through gdk-pixbuf; a JPEG whose header declares 30000×30000 is refused before
    /// decoding, with a log line, and the toast itself shows.
    func testJPEGShowsAndAHugeDeclaredOneIsRefused() throws {
        let stage = try Stage.shared()
        let ppm = root + "/pictures/red.ppm", jpeg = root + "/pictures/red.jpg"
        try FileManager.default.createDirectory(atPath: root + "/pictures", withIntermediateDirectories: true)
        try Data(Array("P6\n64 48\n255\n".utf8) + (0..<64 * 48).flatMap { _ in [UInt8(255), 0, 0] })
            .write(to: URL(fileURLWithPath: ppm))
        let made = try stage.run(["cjpeg", "-quality", "95", "-outfile", jpeg, ppm])
        XCTAssertTrue(made.succeeded, "cjpeg: \(made.stderrText)")
        // SOI, then a frame header declaring 30000×30000, and nothing else.
        let huge: [UInt8] = [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 8, 0x75, 0x30, 0x75, 0x30, 3]
            + [UInt8](repeating: 1, count: 9) + [0xFF, 0xD9]
        try Data(huge).write(to: URL(fileURLWithPath: root + "/pictures/huge.jpg"))

        let toastd = try startToastd(stage)
        try assertShows(pureRed, stage, toastd, ["-h", "string:image-path:\(jpeg)", "JPEG by path"], name: "image-path-jpeg")
        let sent = try toastd.toast(["-t", "0", "-h", "string:image-path:\(root!)/pictures/huge.jpg", "hugejpeg"])
        XCTAssertTrue(sent.succeeded, sent.stderrText)
        XCTAssertTrue(waitUntil(timeout: 10) { toastd.log.contains("declaring 30000×30000, over the limit; refused before decoding") },
                      "no log line: \(toastd.log)")
        XCTAssertTrue(try toastd.toast(["list"]).stdoutText.contains("hugejpeg"), "the toast itself shows")
    }
}
