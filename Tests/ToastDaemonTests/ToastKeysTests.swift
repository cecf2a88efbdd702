import XCTest
@testable import ToastCore
@testable import ToastRender
@testable import ToastScene
import ToastVocabulary

/// The keys of a toast that has the keyboard (`toast focus`, a click on a toast that takes a reply)
/// and key repeat on a hand-driven clock, without a compositor.
final class ToastKeysTests: XCTestCase {
    private let replying = ToastKeys.Offer(buttons: [NotificationAction(key: "later", label: "Later")],
                                           hasDefaultAction: true, replyPlaceholder: "Reply to Ann")

    func testTypedTextGoesToTheReplyFieldAndEnterSendsIt() {
        var keys = ToastKeys(id: 7)
        for text in ["o", "n", " ", "m", "y", "y"] { XCTAssertEqual(keys.handle(.text(text), offer: replying), .redraw) }
        XCTAssertEqual(keys.handle(.backspace, offer: replying), .redraw)
        for text in [" ", "w", "a", "y"] { _ = keys.handle(.text(text), offer: replying) }
        XCTAssertEqual(keys.field(placeholder: "Reply to Ann"), ReplyFieldView(placeholder: "Reply to Ann", draft: "on my way"))
        XCTAssertEqual(keys.handle(.enter, offer: replying), .reply("on my way"))
    }

    func testEnterWithNothingTypedInvokesTheChosenButtonOrTheDefaultAction() {
        var keys = ToastKeys(id: 7)
        XCTAssertEqual(keys.handle(.backspace, offer: replying), .none, "nothing to delete")
        XCTAssertEqual(keys.handle(.enter, offer: replying), .invoke(NotificationAction.defaultKey))
        XCTAssertEqual(keys.handle(.tab, offer: replying), .choose("later"))
        XCTAssertEqual(keys.handle(.enter, offer: replying), .invoke("later"))
        let bare = ToastKeys.Offer(buttons: [], hasDefaultAction: false, replyPlaceholder: nil)
        XCTAssertEqual(keys.handle(.enter, offer: bare), .dismiss, "no default action: Enter dismisses")
        XCTAssertEqual(keys.handle(.escape, offer: bare), .release)
    }

    /// The button Tab chose is the one the toast draws ringed: none before Tab, then each in turn.
    func testTheChosenButtonIsNamedForDrawing() {
        let two = ToastKeys.Offer(buttons: [NotificationAction(key: "later", label: "Later"),
                                            NotificationAction(key: "open", label: "Open")],
                                  hasDefaultAction: true, replyPlaceholder: nil)
        var keys = ToastKeys(id: 7)
        XCTAssertNil(keys.chosenKey(in: two))
        _ = keys.handle(.tab, offer: two)
        XCTAssertEqual(keys.chosenKey(in: two), "later")
        _ = keys.handle(.tab, offer: two)
        XCTAssertEqual(keys.chosenKey(in: two), "open")
        _ = keys.handle(.backTab, offer: two)
        XCTAssertEqual(keys.chosenKey(in: two), "later")
        XCTAssertNil(keys.chosenKey(in: ToastKeys.Offer(buttons: [], hasDefaultAction: true, replyPlaceholder: nil)),
                     "a button that is gone is not drawn chosen")
    }

    func testAToastWithoutAReplyTakesNoTextAndADraftIsBoundedInBytes() {
        var keys = ToastKeys(id: 7)
        let bare = ToastKeys.Offer(buttons: [], hasDefaultAction: true, replyPlaceholder: nil)
        XCTAssertEqual(keys.handle(.text("x"), offer: bare), .none)
        XCTAssertNil(keys.field(placeholder: nil))
        XCTAssertEqual(keys.handle(.text(String(repeating: "é", count: InlineReply.maxTypedBytes / 2)), offer: replying), .redraw)
        XCTAssertEqual(keys.handle(.text("x"), offer: replying), .none, "past the bound: refused, nothing lost")
        XCTAssertEqual(keys.draft.utf8.count, InlineReply.maxTypedBytes)
        XCTAssertEqual(keys.handle(.text("\n"), offer: ToastKeys.Offer(buttons: [], hasDefaultAction: true, replyPlaceholder: "R")), .none)
    }

    func testTheInlineReplyActionIsAFieldNotAButton() {
        var request = NotificationRequest(summary: "Ann")
        request.actions = [NotificationAction(key: "inline-reply", label: "Reply"), NotificationAction(key: "default", label: "Open")]
        var model = ToastModel()
        let id = try! model.notify(request, now: Instant(milliseconds: 0))
        let offer = ToastKeys.Offer(model.notification(id: id)!)
        XCTAssertEqual(offer.buttons, [], "Tab does not stop on the inline-reply action")
        XCTAssertEqual(offer.replyPlaceholder, "Reply")
        XCTAssertTrue(offer.hasDefaultAction)
    }

    // MARK: - Key repeat

    private func at(_ ms: Int64) -> Instant { Instant(milliseconds: ms) }

    func testAHeldKeyRepeatsAfterTheDelayAtTheRateUntilReleased() {
        var keys = KeyRepeat()
        keys.configure(rate: 25, delay: 600)
        XCTAssertNil(keys.deadline, "nothing held: no timer")
        keys.pressed(108, repeats: true, at: at(1000))
        XCTAssertEqual(keys.deadline, at(1600))
        XCTAssertNil(keys.fire(at: at(1599)), "early: nothing")
        XCTAssertEqual(keys.fire(at: at(1600)), 108)
        XCTAssertEqual(keys.deadline, at(1640), "25 a second: every 40 ms")
        XCTAssertEqual(keys.fire(at: at(1641)), 108)
        XCTAssertEqual(keys.deadline, at(1680), "on the grid, not drifting with a late wakeup")
        keys.released(103)
        XCTAssertNotNil(keys.deadline, "another key's release changes nothing")
        keys.released(108)
        XCTAssertNil(keys.deadline)
        XCTAssertNil(keys.fire(at: at(2000)))
    }

    func testAStallDropsMissedRepeatsAndKeysThatDoNotRepeatStopTheHeldOne() {
        var keys = KeyRepeat()
        keys.configure(rate: 50, delay: 200)
        keys.pressed(108, repeats: true, at: at(0))
        XCTAssertEqual(keys.fire(at: at(1000)), 108, "one repeat after a stall, not forty")
        XCTAssertEqual(keys.deadline, at(1020))
        keys.pressed(28, repeats: false, at: at(1010))
        XCTAssertNil(keys.deadline, "Enter pressed: nothing repeats")
        keys.pressed(14, repeats: true, at: at(1100))
        keys.stop()
        XCTAssertNil(keys.deadline, "the keyboard left")
    }

    func testRateZeroOrNegativeMeansNoRepeat() {
        var keys = KeyRepeat()
        XCTAssertEqual(keys.rate, KeyRepeat.defaultRate)
        keys.pressed(108, repeats: true, at: at(0))
        XCTAssertEqual(keys.deadline, at(Int64(KeyRepeat.defaultDelay)), "the defaults before repeat_info")
        keys.configure(rate: 0, delay: 300)
        XCTAssertNil(keys.deadline, "repeat turned off while held")
        keys.pressed(108, repeats: true, at: at(0))
        XCTAssertNil(keys.deadline)
        keys.configure(rate: 5000, delay: -1)
        keys.pressed(108, repeats: true, at: at(0))
        XCTAssertEqual(keys.deadline, at(0))
        XCTAssertEqual(keys.interval, 1)
    }

    func testOnlyKeysThatMoveOrTypeRepeat() {
        XCTAssertTrue(CenterKey.down.repeats)
        XCTAssertTrue(CenterKey.backspace.repeats)
        XCTAssertTrue(CenterKey.text("a").repeats)
        XCTAssertFalse(CenterKey.enter.repeats)
        XCTAssertFalse(CenterKey.escape.repeats)
        XCTAssertFalse(CenterKey.delete.repeats)
    }
}
