import XCTest
@testable import ToastConfig
import ToastRender
import ToastVocabulary

/// mako's keys in mako's words.
final class MakoKeysTests: XCTestCase {
    func testProgressColourWithAModeDrawsAsMakoDoes() {
        let parsed = ConfigParser.parse("progress-color = over #313244\n", path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.style.progressFill, .over)
        XCTAssertEqual(parsed.config.style.accents[.normal], Color(rgb: 0x313244))
        let plain = ConfigParser.parse("progress-color = #313244\n", path: "cfg")
        XCTAssertEqual(plain.config.style.progressFill, nil)
        let section = ConfigParser.parse("[app-name=x]\nprogress-color = source #ff000080\n", path: "cfg")
        XCTAssertEqual(section.diagnostics, [])
        XCTAssertEqual(section.config.rules.look(for: CriteriaSubject(appName: "x")).progressFill, .source)
        XCTAssertEqual(ConfigParser.parse("progress-color = under #313244\n", path: "cfg").diagnostics.count, 1)
    }
}

final class MakoSortAndMarginTests: XCTestCase {
    func testSortOrdersTheStackAsMakoDoes() {
        let newestFirst: [NotificationID] = [4, 3, 2, 1]
        let urgency: [NotificationID: Urgency] = [4: .low, 3: .critical, 2: .normal, 1: .critical]
        XCTAssertEqual(ToastSort(makoValue: "-time")?.arrange(newestFirst) { urgency[$0] }, [4, 3, 2, 1])
        XCTAssertEqual(ToastSort(makoValue: "+time")?.arrange(newestFirst) { urgency[$0] }, [1, 2, 3, 4])
        XCTAssertEqual(ToastSort(makoValue: "-priority")?.arrange(newestFirst) { urgency[$0] }, [3, 1, 2, 4])
        XCTAssertEqual(ToastSort(makoValue: "+priority")?.arrange(newestFirst) { urgency[$0] }, [4, 2, 3, 1])
        XCTAssertNil(ToastSort(makoValue: "time"))
        XCTAssertEqual(ConfigParser.parse("sort = +priority\n", path: "cfg").config.sort, .priority(highestFirst: false))
        XCTAssertEqual(ConfigParser.parse("sort = sideways\n", path: "cfg").diagnostics.map(\.description),
                       ["cfg:1: 'sort' must be one of -time, +time, -priority, +priority, got 'sideways'"])
    }

    func testOuterMarginAddsToMarginAndHeightCapsTheToast() {
        let parsed = ConfigParser.parse("outer-margin = 5\nmargin = 10,20\nheight = 120\n", path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        XCTAssertEqual(parsed.config.edgeMargins, Margins(top: 15, right: 25, bottom: 15, left: 25))
        XCTAssertEqual(parsed.config.style.maxHeight, 120)
    }
}
