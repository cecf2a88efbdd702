import ToastCore
import ToastRender
import ToastVocabulary

/// The keyboard on one toast (`toast focus`, or a click on a toast that takes a reply), pure: the
/// button Tab chose and the reply typed so far. Enter sends the reply when one is typed, else invokes
/// the chosen button (none chosen: the default action; a toast without it is dismissed). Tab, Shift+Tab
/// and the arrows choose among the buttons; text and Backspace edit the reply field of a toast that
/// takes a reply (`InlineReply`); Escape gives the keyboard back.
package struct ToastKeys: Equatable, Sendable {
    package let id: NotificationID
    /// The button Tab chose, an index in the toast's `buttonActions` (nil: the default action).
    package private(set) var button: Int?
    /// The reply typed so far (at most `InlineReply.maxTypedBytes`).
    package private(set) var draft = ""

    package init(id: NotificationID) { self.id = id }

    /// What a toast offers the keyboard: its buttons (`buttonActions`), whether it has the action Enter
    /// invokes unchosen, and its reply field's placeholder (nil: it takes no reply).
    package struct Offer: Equatable, Sendable {
        package var buttons: [NotificationAction]
        package var hasDefaultAction: Bool
        package var replyPlaceholder: String?

        package init(buttons: [NotificationAction], hasDefaultAction: Bool, replyPlaceholder: String?) {
            self.buttons = buttons; self.hasDefaultAction = hasDefaultAction; self.replyPlaceholder = replyPlaceholder
        }

        package init(_ notification: Notification) {
            self.init(buttons: notification.buttonActions.filter { $0.key != InlineReply.actionKey },
                      hasDefaultAction: notification.defaultAction != nil,
                      replyPlaceholder: InlineReply.placeholder(of: notification))
        }
    }

    package mutating func handle(_ key: CenterKey, offer: Offer) -> ToastKeyCommand {
        switch key {
        case .escape: return .release
        case .enter:
            if !draft.isEmpty { return .reply(draft) }
            if let button, offer.buttons.indices.contains(button) { return .invoke(offer.buttons[button].key) }
            return offer.hasDefaultAction ? .invoke(NotificationAction.defaultKey) : .dismiss
        case .tab, .right, .backTab, .left:
            let buttons = offer.buttons.count
            guard buttons > 0 else { return .none }
            let step = key == .tab || key == .right ? 1 : -1
            button = button.map { ($0 + step + buttons) % buttons } ?? (step > 0 ? 0 : buttons - 1)
            return .choose(offer.buttons[button!].key)
        case .text(let text):
            guard offer.replyPlaceholder != nil else { return .none }
            let typed = draft + text.filter { !$0.isNewline }
            guard typed.utf8.count <= InlineReply.maxTypedBytes, typed != draft else { return .none }
            draft = typed
            return .redraw
        case .backspace:
            guard !draft.isEmpty else { return .none }
            draft.removeLast()
            return .redraw
        case .up, .down, .pageUp, .pageDown, .home, .end, .delete: return .none
        }
    }

    /// The action key of the button Tab chose among `offer`'s (nil: none chosen).
    package func chosenKey(in offer: Offer) -> String? {
        button.flatMap { offer.buttons.indices.contains($0) ? offer.buttons[$0].key : nil }
    }

    /// The reply field the toast draws (nil: it takes no reply).
    package func field(placeholder: String?) -> ReplyFieldView? {
        placeholder.map { ReplyFieldView(placeholder: $0, draft: draft, focused: true) }
    }
}

/// What a key on a toast asks of the daemon.
package enum ToastKeyCommand: Equatable, Sendable {
    case none
    /// The reply field changed: draw the toast again.
    case redraw
    /// Tab chose the button with this action key (Enter invokes it).
    case choose(String)
    /// Give the keyboard back (Escape).
    case release
    case invoke(String)
    /// Enter on a toast without a default action: it goes.
    case dismiss
    case reply(String)
}
