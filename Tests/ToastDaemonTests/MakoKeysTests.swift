import XCTest
@testable import ToastConfig
import ToastRender

/// mako's keys in mako's words.
final class MakoKeysTests: XCTestCase {
    func testProgressColourWithAModeDrawsAsMakoDoes() {
        let parsed = ConfigParser.parse("progress-color = over #313244\n", path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.style.progressFill, .over)
        XCTAssertEqual(parsed.config.style.normalAccent, Color(rgb: 0x313244))
        let plain = ConfigParser.parse("progress-color = #313244\n", path: "cfg")
        XCTAssertEqual(plain.config.style.progressFill, nil)
        let section = ConfigParser.parse("[app-name=x]\nprogress-color = source #ff000080\n", path: "cfg")
        XCTAssertEqual(section.diagnostics, [])
        XCTAssertEqual(section.config.rules.look(for: CriteriaSubject(appName: "x")).progressFill, .source)
        XCTAssertEqual(ConfigParser.parse("progress-color = under #313244\n", path: "cfg").diagnostics.count, 1)
    }
}
