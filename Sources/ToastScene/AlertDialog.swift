import ToastConfig
import ToastCore
import ToastRender
import ToastVocabulary

/// What an alert asks of the daemon after a key or a click.
package enum AlertCommand: Equatable, Sendable {
    case none
    case redraw
    /// The user chose this action.
    case answer(String)
    /// Escape: no answer (the alert closes as dismissed).
    case dismiss
}

/// An alert (`toast alert`), pure: a centred dialog with a title, a body and a row of buttons, one of
/// which has the focus. Left/Right and Tab move it, Enter answers with it, Escape dismisses; a click
/// on a button answers with that one. Drawn in the notification center's look (`[center]`).
package struct AlertDialog: Equatable {
    package let id: NotificationID
    package let title: String
    package let body: String
    package let buttons: [NotificationAction]
    package private(set) var focus = 0

    package static let width = 420
    private static let padding = 20
    private static let buttonHeight = 34

    package init(_ notification: Notification) {
        id = notification.id
        title = notification.summary
        body = notification.body
        buttons = notification.actions
    }

    /// The dialog's size in logical pixels.
    package var size: Size {
        Size(width: Self.width, height: Self.padding + 26 + (body.isEmpty ? 0 : 24) + 18 + Self.buttonHeight + Self.padding)
    }

    package mutating func handle(_ key: CenterKey) -> AlertCommand {
        switch key {
        case .escape: return .dismiss
        case .enter: return buttons.indices.contains(focus) ? .answer(buttons[focus].key) : .dismiss
        case .right, .tab, .down: return move(by: 1, wrapping: key == .tab)
        case .left, .backTab, .up: return move(by: -1, wrapping: key == .backTab)
        default: return .none
        }
    }

    private mutating func move(by delta: Int, wrapping: Bool) -> AlertCommand {
        guard !buttons.isEmpty else { return .none }
        let next = wrapping ? ((focus + delta) % buttons.count + buttons.count) % buttons.count
                            : min(max(focus + delta, 0), buttons.count - 1)
        guard next != focus else { return .none }
        focus = next
        return .redraw
    }

    /// The buttons, right-aligned in the bottom row, each as wide as its label needs within a share.
    package var buttonRects: [Rect] {
        guard !buttons.isEmpty else { return [] }
        let gap = 8, width = min(120, (Self.width - 2 * Self.padding - gap * (buttons.count - 1)) / buttons.count)
        let y = size.height - Self.padding - Self.buttonHeight
        let start = Self.width - Self.padding - buttons.count * width - (buttons.count - 1) * gap
        return buttons.indices.map { Rect(x: start + $0 * (width + gap), y: y, width: width, height: Self.buttonHeight) }
    }

    /// The button at (`x`, `y`), if any.
    package func button(at x: Double, _ y: Double) -> Int? {
        buttonRects.firstIndex { $0.contains(Point(x: Int(x), y: Int(y))) }
    }

    package func items(_ look: CenterConfig) -> [PanelItem] {
        let pad = Self.padding
        var items: [PanelItem] = [.fill(Rect(origin: .zero, size: size), look.background, radius: 12),
                                  .outline(Rect(origin: .zero, size: size), look.accentColor, radius: 12, width: 1),
                                  .text(title, Rect(x: pad, y: pad, width: Self.width - 2 * pad, height: 24), look.textColor,
                                        font: look.summaryFont, markup: false)]
        if !body.isEmpty {
            items.append(.text(body, Rect(x: pad, y: pad + 26, width: Self.width - 2 * pad, height: 22), look.textColor,
                               font: look.font, markup: true))
        }
        for (index, rect) in buttonRects.enumerated() {
            items.append(.fill(rect, index == focus ? look.accentColor : look.cardColor, radius: 8))
            items.append(.text(buttons[index].label, rect.inset(by: 8), index == focus ? look.background : look.textColor,
                               font: look.font, markup: false, align: .center))
        }
        return items
    }
}
