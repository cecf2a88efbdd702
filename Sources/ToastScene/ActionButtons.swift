import ToastConfig
import ToastCore
import ToastRender
import ToastVocabulary

/// One action pill of a toast as placed on the toast stack's surface: what a click on it invokes.
package struct ActionButton: Equatable {
    /// The toast the pill belongs to.
    package var id: NotificationID
    /// Which of the toast's `Notification.buttonActions` (the order pills are drawn in).
    package var index: Int
    /// Where the pill is, in surface-local logical pixels.
    package var rect: Rect
}

/// One toast as placed on the toast stack's surface: a click on it, off its pills, activates it.
package struct ToastBody: Equatable {
    package var id: NotificationID
    /// The whole toast, pills included, in surface-local logical pixels.
    package var rect: Rect
}

/// What a left click on the toast stack's surface lands on.
package enum ToastClick: Equatable {
    /// An action pill: its action.
    case button(ActionButton)
    /// The rest of a toast: its default action if it has one, else dismissing it.
    case body(NotificationID)
}

/// The opt-in `clickable-actions` mode: the toast surface's input region is the union of the toasts
/// drawn on it, so they take clicks (a pill its action, the rest of a toast its default action or a
/// dismissal) and everything else (the gaps, the "+N more" pill) stays pass-through.
/// Pure geometry, apart from the surface, so it can be unit tested.
package enum ActionButtons {
    /// The pills of a stack: `toasts` gives each visible toast's rect in the stack (surface-local, already
    /// oriented for the anchor) and its pill rects relative to the toast's top-left, in drawing order.
    /// A pill outside its toast (it cannot be, but the region must never cover more) is clipped to it.
    package static func place(_ toasts: [(id: NotificationID, rect: Rect, pills: [Rect])]) -> [ActionButton] {
        var buttons: [ActionButton] = []
        for toast in toasts {
            for (index, pill) in toast.pills.enumerated() {
                let placed = pill.offsetBy(dx: toast.rect.x, dy: toast.rect.y)
                let x0 = max(placed.x, toast.rect.x), y0 = max(placed.y, toast.rect.y)
                let x1 = min(placed.maxX, toast.rect.maxX), y1 = min(placed.maxY, toast.rect.maxY)
                guard x1 > x0, y1 > y0 else { continue }
                buttons.append(ActionButton(id: toast.id, index: index,
                                            rect: Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)))
            }
        }
        return buttons
    }

    /// What a click at a surface-local point hits: a pill before the toast under it; nil off every toast.
    package static func target(at x: Double, _ y: Double, buttons: [ActionButton], bodies: [ToastBody]) -> ToastClick? {
        if let button = button(at: x, y, in: buttons) { return .button(button) }
        let point = Point(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
        return bodies.first { $0.rect.contains(point) }.map { .body($0.id) }
    }

    /// The pill under a surface-local point (pointer coordinates are fractional), if any.
    package static func button(at x: Double, _ y: Double, in buttons: [ActionButton]) -> ActionButton? {
        let point = Point(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
        return buttons.first { $0.rect.contains(point) }
    }
}
