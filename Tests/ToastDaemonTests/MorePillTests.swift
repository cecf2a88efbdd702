@testable import ToastConfig
@testable import ToastDaemon
@testable import ToastPlatform
@testable import ToastScene
import ToastCore
import ToastRender
import XCTest

/// `[hidden]` sections: they match the "+N more" pill and nothing else, and restyle it.
final class MorePillTests: XCTestCase {
    private func rules(_ text: String) -> RuleSet {
        let parsed = ConfigParser.parse(text, path: "cfg")
        XCTAssertEqual(parsed.diagnostics, [])
        return parsed.config.rules
    }

    func testHiddenMatchesThePillOnlyAndNoOtherSectionMatchesIt() throws {
        let hidden = try Criteria.parse("hidden").get()
        XCTAssertTrue(hidden.matches(.morePill))
        XCTAssertFalse(hidden.matches(CriteriaSubject(appName: "Mail", summary: "Hi")), "a notification is never the pill")
        XCTAssertFalse(hidden.matches(CriteriaSubject(urgency: .critical)))
        XCTAssertTrue(try Criteria.parse("hidden=true").get().matches(.morePill))

        for header in ["app-name=Mail", "urgency=normal", "hidden=false", "!hidden", "expiring"] {
            let criteria = try Criteria.parse(header).get()
            XCTAssertFalse(criteria.matches(.morePill), "[\(header)] matched the pill")
        }
        XCTAssertTrue(try Criteria.parse("!hidden").get().matches(CriteriaSubject(appName: "Mail")))
        // The global section and a section matching everything style notifications, not the pill.
        XCTAssertFalse(Criteria().matches(.morePill))
    }

    func testHiddenTakesNoOtherCriterion() {
        func error(_ header: String) -> String? {
            if case .failure(let error) = Criteria.parse(header) { return error.message }
            return nil
        }
        XCTAssertEqual(error("hidden app-name=Mail"), "'hidden' matches the \"+N more\" pill and takes no other criterion")
        XCTAssertEqual(error("urgency=low hidden"), "'hidden' matches the \"+N more\" pill and takes no other criterion")
        XCTAssertEqual(error("hidden=maybe"), "hidden must be true or false, got 'maybe'")
        XCTAssertNil(error("hidden=false app-name=Mail"))
        XCTAssertEqual(ConfigParser.parse("[hidden]\nbackground-color = #0000ffff\n", path: "cfg").diagnostics, [],
                       "no longer reported as a mako criterion toastd does not do")
    }

    func testTheHiddenSectionsLookGoesToThePillNotToToasts() {
        let set = rules("""
            background = #202020
            [hidden]
            background-color = #0000ffff
            text-color = #ffff00
            border-size = 2
            format = <i>%h</i> of %t
            [app-name=Mail]
            background-color = #ff0000
            invisible = 1
            """)
        let pill = MorePillRule(rules: set)
        XCTAssertFalse(pill.invisible, "an invisible notification section does not hide the pill")
        let look = pill.pillLook(hidden: 2, total: 3)
        XCTAssertEqual(look?.background, Color(rgb: 0x0000ff))
        XCTAssertEqual(look?.textColor, Color(rgb: 0xffff00))
        XCTAssertEqual(look?.borderWidth, 2)
        XCTAssertEqual(look?.text, "<i>2</i> of 3")
        XCTAssertTrue(set.look(for: CriteriaSubject(appName: "Other")).isEmpty, "a toast gets nothing of [hidden]")
        XCTAssertEqual(set.look(for: CriteriaSubject(appName: "Mail")).background, Color(rgb: 0xff0000))

        XCTAssertNil(MorePillRule(rules: rules("[app-name=Mail]\nbackground = #ff0000\n")).pillLook(hidden: 1, total: 2),
                     "without [hidden], the pill keeps its own look")
        XCTAssertTrue(MorePillRule(rules: rules("[hidden]\ninvisible = 1\n")).invisible)
    }

    func testPercentHAndTAreThePillsCountsAndNothingInAToast() throws {
        let format = try FormatString.parse("(%h more, %t in all) %s").get()
        XCTAssertEqual(format.expandPill(hidden: 4, total: 9), "(4 more, 9 in all)", "a pill has no summary")
        XCTAssertEqual(format.expand(.init(summary: "Hi")), "( more,  in all) Hi", "a toast has no counts")
        XCTAssertEqual(try FormatString.parse(FormatString.makoHidden).get().expandPill(hidden: 3, total: 5), "(3 more)")
    }

    /// The pixel in the middle of the pill's top padding (past its one-pixel border, above the text)
    /// of a stack of one toast with two more waiting, painted with `config`'s rules.
    private func pillPixel(_ config: String) throws -> UInt32 {
        let renderer = ToastRenderer()
        var painter = ToastStackPainter(renderer: renderer, anchor: .topRight)
        let scene = Scene(toasts: [Scene.Toast(id: 1, view: ToastView(summary: "One", body: "shown"), opacity: 1)],
                          hiddenCount: 2, totalCount: 3, morePill: MorePillRule(rules: rules(config)))
        let size = painter.surfaceSize(of: painter.arrangement(of: scene, scale: 1))
        let memory = UnsafeMutableRawPointer.allocate(byteCount: size.width * size.height * 4, alignment: 16)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: size.width * size.height * 4)
        let canvas = Canvas(data: memory, width: size.width, height: size.height, stride: size.width * 4)
        let pill = try XCTUnwrap(painter.paint(scene, scale: 1, into: canvas, over: nil).frame.moreRect, "no pill drawn")
        return canvas.rawPixel(x: pill.x + pill.width / 2, y: pill.y + 2)
    }

    func testAHiddenBackgroundColoursThePill() throws {
        let blue: UInt32 = 0xff00_00ff
        XCTAssertEqual(try pillPixel("[hidden]\nbackground-color = #0000ffff\n"), blue)
        XCTAssertNotEqual(try pillPixel("[app-name=Mail]\nbackground-color = #0000ffff\n"), blue,
                          "a notification's section coloured the pill")
        XCTAssertNotEqual(try pillPixel("background = #202020\n"), blue)
    }
}
