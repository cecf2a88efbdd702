import XCTest
@testable import ToastConfig
import ToastRender

/// The `[center]` section: its keys, its errors (one per bad line, the rest applies), and where it ends.
final class CenterConfigTests: XCTestCase {
    func testTheCenterSectionSetsTheCentersLookOnly() {
        let parsed = ConfigParser.parse("""
            width = 300
            [ Center ]
            anchor = left
            width = 420
            accent-color = #ff0000
            font = Mono 12
            [global]
            margin = 5
            """, path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.center.side, .left)
        XCTAssertEqual(parsed.config.center.width, 420)
        XCTAssertEqual(parsed.config.center.accentColor, Color(rgb: 0xff0000))
        XCTAssertEqual(parsed.config.center.font, "Mono 12")
        XCTAssertEqual(parsed.config.style.width, 300, "the toasts' width is the global one")
        XCTAssertEqual(parsed.config.margins, Margins(all: 5), "after [global], keys are global again")
        XCTAssertEqual(parsed.config.center.margin, 0)
    }

    /// Every `[center]` key is in toastd(5)'s CENTER and in configuration.md's center table, and
    /// nothing there is not a key.
    func testEveryCenterKeyIsDocumented() throws {
        func file(_ path: String) throws -> String {
            try String(contentsOfFile: #filePath.replacingOccurrences(of: "Tests/ToastDaemonTests/CenterConfigTests.swift",
                                                                      with: path), encoding: .utf8)
        }
        let page = try file("docs/man/toastd.5.scd")
        let center = try XCTUnwrap(page.range(of: "\n# CENTER\n").map { String(page[$0.upperBound...].prefix { _ in true }) })
        let centerPart = String(center[..<(center.range(of: "\n# ")?.lowerBound ?? center.endIndex)])
        let markdown = try file("docs/configuration.md")
        let part = try XCTUnwrap(markdown.range(of: "### The notification center").map { String(markdown[$0.upperBound...]) })
        XCTAssertEqual(CenterConfig.keys.count, 8)
        for key in CenterConfig.keys {
            XCTAssertTrue(centerPart.contains("*\(key)* ="), "toastd(5)'s CENTER does not document '\(key)'")
            XCTAssertTrue(part.contains("| `\(key)` |"), "docs/configuration.md's center table has no row for '\(key)'")
        }
        XCTAssertTrue(page.contains("*[center]*"))
    }

    func testBadLinesInTheCenterSectionAreReportedWithTheirLine() {
        let parsed = ConfigParser.parse("[center]\nanchor = top\nwidth = 99999\nshadow = none\nwidth = 500\n", path: "cfg")
        XCTAssertEqual(parsed.diagnostics.map(\.line), [2, 3, 4])
        XCTAssertTrue(parsed.diagnostics[0].message.contains("left or right"), parsed.diagnostics[0].message)
        XCTAssertTrue(parsed.diagnostics[2].message.contains("unknown key 'shadow' in [center]"), parsed.diagnostics[2].message)
        XCTAssertEqual(parsed.config.center.width, 500, "the good line after them applies")
        XCTAssertEqual(parsed.config.center.side, .right)
    }
}
