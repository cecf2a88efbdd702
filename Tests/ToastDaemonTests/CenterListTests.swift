import XCTest
@testable import ToastConfig
@testable import ToastCore
@testable import ToastRender
@testable import ToastScene
import ToastVocabulary

/// The notification center's list, focus, keys, scrolling and layout, without a compositor.
final class CenterListTests: XCTestCase {
    private func entry(_ id: NotificationID, app: String = "mail", open: Bool = true, buttons: [String] = [],
                       hasDefault: Bool = false, reply: String? = nil) -> CenterEntry {
        CenterEntry(id: id, appName: app, summary: "summary \(id)", body: "body \(id)",
                    buttons: buttons.map { NotificationAction(key: $0, label: $0.capitalized) },
                    hasDefaultAction: hasDefault, replyPlaceholder: reply, isOpen: open)
    }

    private func list(_ entries: [CenterEntry], viewport: Int = 600) -> CenterList {
        var list = CenterList()
        list.viewportHeight = viewport
        list.update(entries: entries)
        list.focusFirst()
        return list
    }

    func testEntriesAreOpenFirstThenHistoryEachGroupedByAppWhereItsNewestIs() {
        var store = NotificationStore()
        let now = Instant(milliseconds: 1000)
        func notify(_ app: String, _ summary: String) -> NotificationID {
            try! store.notify(NotificationRequest(appName: app, summary: summary), now: now)
        }
        let a1 = notify("chat", "a1"), b1 = notify("mail", "b1"), a2 = notify("chat", "a2"), c1 = notify("mail", "c1")
        _ = store.close(id: a1, reason: .dismissed, now: now)
        _ = store.close(id: b1, reason: .expired, now: now)
        let entries = CenterList.entries(open: store.all, history: store.history)
        // Open, newest first: c1 (mail), a2 (chat); history newest first: b1 (mail), a1 (chat).
        XCTAssertEqual(entries.map(\.id), [c1, a2, b1, a1])
        XCTAssertEqual(entries.map(\.isOpen), [true, true, false, false])

        let grouped = CenterList.entries(open: [], history: []) + entries
        var list = CenterList()
        list.update(entries: grouped)
        XCTAssertEqual(list.rows, [.group(appName: "mail", isOpen: true), .entry(0), .group(appName: "chat", isOpen: true), .entry(1),
                                   .group(appName: "mail", isOpen: false), .entry(2), .group(appName: "chat", isOpen: false), .entry(3)])
    }

    func testAnAppsEntriesStayTogetherUnderItsNewest() {
        var store = NotificationStore()
        let now = Instant(milliseconds: 1000)
        let c3 = try! store.notify(NotificationRequest(appName: "chat", summary: "3"), now: now)
        let m4 = try! store.notify(NotificationRequest(appName: "mail", summary: "4"), now: now)
        let c5 = try! store.notify(NotificationRequest(appName: "chat", summary: "5"), now: now)
        XCTAssertEqual(CenterList.entries(open: store.all, history: []).map(\.id), [c5, c3, m4])
    }

    func testDownThenEnterInvokesTheSecondEntrysDefaultAction() {
        var list = list([entry(3, hasDefault: true), entry(2, hasDefault: true), entry(1)])
        XCTAssertEqual(list.focus, .entry(0))
        XCTAssertEqual(list.handle(.down), .redraw)
        XCTAssertEqual(list.handle(.enter), .invoke(2, key: "default"))
        XCTAssertEqual(list.handle(.down), .redraw)
        XCTAssertEqual(list.handle(.enter), .none, "no default action: Enter does nothing")
        XCTAssertEqual(list.handle(.down), .none, "the last entry: Down goes nowhere")
        XCTAssertEqual(list.handle(.escape), .close)
    }

    func testUpFromTheFirstEntryReachesTheHeaderControls() {
        var list = list([entry(1)])
        _ = list.handle(.up)
        XCTAssertEqual(list.focus, .clearAll)
        XCTAssertEqual(list.handle(.enter), .clearAll)
        _ = list.handle(.left)
        XCTAssertEqual(list.focus, .doNotDisturb)
        XCTAssertEqual(list.handle(.enter), .toggleDoNotDisturb)
        _ = list.handle(.down)
        XCTAssertEqual(list.focus, .entry(0))
    }

    func testTabWalksButtonsAndTheReplyFieldThenTheNextEntryAndWraps() {
        var list = list([entry(2, buttons: ["yes", "no"], reply: "Reply"), entry(1)])
        var seen: [CenterFocus] = []
        for _ in 0..<7 {
            _ = list.handle(.tab)
            seen.append(list.focus)
        }
        XCTAssertEqual(seen, [.button(0, 0), .button(0, 1), .reply(0), .entry(1), .doNotDisturb, .clearAll, .entry(0)])
        _ = list.handle(.backTab)
        XCTAssertEqual(list.focus, .clearAll)
    }

    func testEnterOnAButtonInvokesItsKey() {
        var list = list([entry(7, buttons: ["yes", "no"])])
        _ = list.handle(.right)
        _ = list.handle(.right)
        XCTAssertEqual(list.handle(.enter), .invoke(7, key: "no"))
        _ = list.handle(.right)
        XCTAssertEqual(list.focus, .button(0, 1), "Right stops at the entry's last stop")
    }

    func testTypingGoesToTheReplyFieldAndEnterSendsIt() {
        var list = list([entry(9, reply: "Reply to Ann")])
        for word in ["o", "n", " ", "m", "y", " ", "w", "a", "y", "x"] { _ = list.handle(.text(word)) }
        XCTAssertEqual(list.focus, .reply(0))
        XCTAssertEqual(list.handle(.backspace), .redraw)
        XCTAssertEqual(list.drafts[9], "on my way")
        XCTAssertEqual(list.handle(.enter), .reply(9, "on my way"))
        XCTAssertNil(list.drafts[9], "a sent draft is gone")
        XCTAssertEqual(list.handle(.enter), .none, "an empty field sends nothing")
    }

    func testTypingWithoutAReplyFieldDoesNothingAndADraftIsBoundedByBytes() {
        var plain = list([entry(1)])
        XCTAssertEqual(plain.handle(.text("a")), .none)
        var list = list([entry(1, reply: "Reply")])
        _ = list.handle(.text(String(repeating: "é", count: CenterList.maxDraftBytes / 2)))
        XCTAssertEqual(list.handle(.text("x")), .none, "past the bound nothing is added")
        XCTAssertEqual(list.drafts[1]?.utf8.count, CenterList.maxDraftBytes)
    }

    func testDeleteDismissesAnOpenEntryAndForgetsAClosedOne() {
        var list = list([entry(2), entry(1, open: false)])
        XCTAssertEqual(list.handle(.delete), .dismiss(2))
        _ = list.handle(.down)
        XCTAssertEqual(list.handle(.delete), .forget(1))
        XCTAssertEqual(list.handle(.enter), .restore(1), "Enter on a closed entry brings it back")
    }

    func testTheFocusStaysOnItsNotificationWhenTheListChanges() {
        var list = list([entry(3), entry(2), entry(1)])
        _ = list.handle(.down)
        XCTAssertEqual(list.focus, .entry(1))
        list.update(entries: [entry(4), entry(3), entry(2), entry(1)])
        XCTAssertEqual(list.focus, .entry(2), "still on notification 2")
        list.update(entries: [entry(4), entry(3)])
        XCTAssertEqual(list.focus, .entry(1), "2 is gone: the entry now in its place, or the last")
        list.update(entries: [])
        XCTAssertEqual(list.focus, .clearAll)
    }

    func testAThousandEntriesScrollAndOnlyTheVisibleRowsAreLaidOut() {
        let entries = (1...1000).reversed().map { entry(NotificationID($0), app: "app\($0 % 7)", buttons: $0 % 3 == 0 ? ["ok"] : []) }
        var list = list(entries, viewport: 500)
        let first = list.visibleRows
        XCTAssertEqual(first.lowerBound, 0)
        XCTAssertLessThan(first.count, 20, "only what fits in 500 px")
        _ = list.handle(.end)
        XCTAssertEqual(list.focus, .entry(999))
        XCTAssertEqual(list.scroll, list.contentHeight - 500, "scrolled to the bottom")
        XCTAssertEqual(list.visibleRows.upperBound, list.rows.count)
        _ = list.handle(.home)
        XCTAssertEqual(list.scroll, 0)
        _ = list.handle(.pageDown)
        XCTAssertGreaterThan(list.focus.entry ?? 0, 3)
        let row = list.row(ofEntry: list.focus.entry!)
        XCTAssertTrue(list.visibleRows.contains(row), "the focused entry is in view")
        XCTAssertTrue(list.scroll(by: 10_000_000))
        XCTAssertEqual(list.scroll, list.contentHeight - 500, "the wheel stops at the end")
        XCTAssertFalse(list.scroll(by: 40), "already at the end")

        let painter = CenterPainter(config: CenterConfig())
        let items = painter.items(for: list, size: Size(width: 380, height: 584), doNotDisturb: false)
        XCTAssertLessThan(items.count, 120, "items for the rows in view, not a thousand entries")
    }

    func testAClickFindsTheButtonTheEntryAndTheHeader() {
        var list = list([entry(2, buttons: ["yes", "no"], reply: "Reply"), entry(1)], viewport: 500)
        let painter = CenterPainter(config: CenterConfig())
        let metrics = painter.metrics
        let firstCardTop = metrics.headerHeight + metrics.groupHeight
        XCTAssertEqual(painter.target(at: 20, Double(firstCardTop + 12), in: list, width: 380), .entry(0))
        XCTAssertEqual(painter.target(at: Double(metrics.padding * 2 + 4), Double(firstCardTop + metrics.entryHeight + 6), in: list, width: 380),
                       .button(0, 0))
        XCTAssertEqual(painter.target(at: 100, Double(firstCardTop + metrics.entryHeight + metrics.buttonsHeight + 10), in: list, width: 380),
                       .reply(0))
        XCTAssertEqual(painter.target(at: 20, 60, in: list, width: 380), .doNotDisturb)
        XCTAssertEqual(painter.target(at: 340, 60, in: list, width: 380), .clearAll)
        XCTAssertNil(painter.target(at: 200, 20, in: list, width: 380), "the title takes no click")
        list.focus(on: .entry(1))
        XCTAssertEqual(list.focus, .entry(1))
    }

    func testKeysymsAreReadAsTheCentersKeys() {
        XCTAssertEqual(CenterKey(keysym: 0xff54, text: "", shift: false), .down)
        XCTAssertEqual(CenterKey(keysym: 0xff09, text: "\t", shift: true), .backTab)
        XCTAssertEqual(CenterKey(keysym: 0xff0d, text: "\r", shift: false), .enter)
        XCTAssertEqual(CenterKey(keysym: 0x61, text: "a", shift: false), .text("a"))
        XCTAssertNil(CenterKey(keysym: 0xffe1, text: "", shift: true), "Shift alone")
    }
}
