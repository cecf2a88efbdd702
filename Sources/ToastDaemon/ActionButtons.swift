import ToastCore
import ToastRender
import ToastVocabulary

/// One action pill of a toast as placed on the toast stack's surface: what a click on it invokes.
struct ActionButton: Equatable {
    /// The toast the pill belongs to.
    var id: NotificationID
    /// Which of the toast's `Notification.buttonActions` (the order pills are drawn in).
    var index: Int
    /// Where the pill is, in surface-local logical pixels.
    var rect: Rect
}

/// The opt-in `clickable-actions` mode: the toast surface's input region is the union of the pills
/// drawn on it, so they take clicks and everything else stays pass-through.
/// Pure geometry, apart from the surface, so it can be unit tested.
enum ActionButtons {
    /// The pills of a stack: `toasts` gives each visible toast's rect in the stack (surface-local, already
    /// oriented for the anchor) and its pill rects relative to the toast's top-left, in drawing order.
    /// A pill outside its toast (it cannot be, but the region must never cover more) is clipped to it.
    static func place(_ toasts: [(id: NotificationID, rect: Rect, pills: [Rect])]) -> [ActionButton] {
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

    /// The pill under a surface-local point (pointer coordinates are fractional), if any.
    static func button(at x: Double, _ y: Double, in buttons: [ActionButton]) -> ActionButton? {
        let point = Point(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
        return buttons.first { $0.rect.contains(point) }
    }
}
