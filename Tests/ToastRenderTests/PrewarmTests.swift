import CCairo
import Foundation
@testable import ToastRender
import XCTest

/// What the prewarm leaves to the first toast: the fonts are loaded and shaped, but no glyph is drawn,
/// so that pixman's glyph cache (a 256 KiB table written whole when it is made) is not made at start.
final class PrewarmTests: XCTestCase {
    /// Set in the environment of the process `testThePrewarmDrawsNoGlyph` starts.
    private static let freshProcess = "TOASTD_PREWARM_TEST_FRESH_PROCESS"

    /// The process's own resident memory (`RssAnon` of /proc/self/status): what a table it writes adds,
    /// and not the libraries' code that drawing runs the first time.
    private static func anonymousResidentKiB() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") })
        return try XCTUnwrap(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    /// Only in a process where nothing drew text before (started by the test below): the first text
    /// drawn after the prewarm makes pixman's glyph table, so the process grows by its 256 KiB then.
    /// Had the prewarm drawn its samples, the table would be there already and the text's glyphs too.
    func testTheFirstTextDrawnAfterThePrewarmMakesTheGlyphTable() throws {
        try XCTSkipUnless(ProcessInfo.processInfo.environment[Self.freshProcess] != nil,
                          "run in a process of its own by testThePrewarmDrawsNoGlyph")
        let renderer = ToastRenderer()
        renderer.prewarm(scale: 1)
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, 64, 16)
        let cr = try XCTUnwrap(cairo_create(surface))
        defer { cairo_destroy(cr); cairo_surface_destroy(surface) }
        let layout = renderer.text.layout(TextKey(text: "fox", isMarkup: false, role: .body, width: nil, maxHeight: nil,
                                                  scale: 1))
        let before = try Self.anonymousResidentKiB()
        layout.draw(cr, x: 0, y: 0, color: Color(rgb: 0))
        let grown = try Self.anonymousResidentKiB() - before
        print("toastd-prewarm: drawing \"fox\" after the prewarm: \(grown) KiB more anonymous memory")
        XCTAssertGreaterThanOrEqual(grown, 256, "drawing \"fox\" grew the process by \(grown) KiB only")
    }

    func testThePrewarmDrawsNoGlyph() throws {
        let test = Process()
        test.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        test.arguments = ["ToastRenderTests.PrewarmTests/testTheFirstTextDrawnAfterThePrewarmMakesTheGlyphTable"]
        test.environment = ProcessInfo.processInfo.environment.merging([Self.freshProcess: "1"]) { $1 }
        let output = Pipe()
        test.standardOutput = output
        test.standardError = output
        try test.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        test.waitUntilExit()
        XCTAssertEqual(test.terminationStatus, 0, printed)
        XCTAssertTrue(printed.contains("Executed 1 test, with 0 failures"), "the test did not run there: \(printed)")
    }
}
