import ToastCore
import ToastVocabulary

/// One notification as the notification center lists it: an open one or a history entry.
package struct CenterEntry: Equatable, Sendable {
    package var id: NotificationID
    package var appName: String
    package var summary: String
    package var body: String
    /// Its buttons: the actions but the default one and `inline-reply`.
    package var buttons: [NotificationAction]
    package var hasDefaultAction: Bool
    /// The reply field's placeholder; nil: the notification takes no reply (`InlineReply`).
    package var replyPlaceholder: String?
    /// Open (else closed, from the history).
    package var isOpen: Bool

    package init(id: NotificationID, appName: String, summary: String, body: String, buttons: [NotificationAction] = [],
                 hasDefaultAction: Bool = false, replyPlaceholder: String? = nil, isOpen: Bool) {
        self.id = id; self.appName = appName; self.summary = summary; self.body = body; self.buttons = buttons
        self.hasDefaultAction = hasDefaultAction; self.replyPlaceholder = replyPlaceholder; self.isOpen = isOpen
    }

    package init(_ notification: Notification, isOpen: Bool) {
        self.init(id: notification.id, appName: notification.appName, summary: notification.summary,
                  body: notification.body,
                  buttons: notification.buttonActions.filter { $0.key != InlineReply.actionKey },
                  hasDefaultAction: notification.defaultAction != nil,
                  replyPlaceholder: isOpen ? InlineReply.placeholder(of: notification) : nil, isOpen: isOpen)
    }
}

/// A row of the center's list: an app's heading, or an entry (its index in `CenterList.entries`).
package enum CenterRow: Equatable, Sendable {
    case group(appName: String, isOpen: Bool)
    case entry(Int)
}

/// What has the keyboard's focus in the center.
package enum CenterFocus: Equatable, Sendable {
    case doNotDisturb
    case clearAll
    /// An entry itself (Enter: its default action).
    case entry(Int)
    /// One of an entry's buttons.
    case button(Int, Int)
    /// An entry's reply field.
    case reply(Int)

    /// The entry this focus is on, if any.
    package var entry: Int? {
        switch self {
        case .doNotDisturb, .clearAll: nil
        case .entry(let i), .button(let i, _), .reply(let i): i
        }
    }
}

/// A key, as the center reads it (the keysym already interpreted).
package enum CenterKey: Equatable, Sendable {
    case up, down, left, right, tab, backTab, pageUp, pageDown, home, end
    case enter, delete, backspace, escape
    /// Text typed (goes to a reply field).
    case text(String)
}

/// What the center asks of the daemon after a key or a click.
package enum CenterCommand: Equatable, Sendable {
    /// Nothing changed.
    case none
    /// Only the focus, scroll or a draft changed: draw again.
    case redraw
    case invoke(NotificationID, key: String)
    case dismiss(NotificationID)
    /// Forget a history entry.
    case forget(NotificationID)
    /// Bring a history entry back.
    case restore(NotificationID)
    case reply(NotificationID, String)
    case toggleDoNotDisturb
    case clearAll
    case close
}

/// Heights of the center's parts, in logical pixels.
package struct CenterMetrics: Equatable, Sendable {
    package var padding = 12
    /// The fixed top: title, do-not-disturb switch, "clear all".
    package var headerHeight = 84
    package var groupHeight = 30
    /// An entry's card without buttons or reply field: summary and one line of body.
    package var entryHeight = 58
    package var buttonsHeight = 34
    package var replyHeight = 36
    /// Between cards.
    package var gap = 8

    package init() {}
}

/// The notification center's list (pure): the entries, open ones first, then the history, each part
/// newest first and grouped by app; the focus, the scroll offset and the reply drafts. Every row's
/// height follows from what the entry has (`CenterMetrics`), not from its text, so a list of 1,000
/// is laid out by a sum, and only the rows in view are drawn (`visibleRows`).
package struct CenterList {
    package let metrics: CenterMetrics
    package private(set) var entries: [CenterEntry] = []
    package private(set) var rows: [CenterRow] = []
    /// The top of each row in the list's coordinates, and the list's height last.
    package private(set) var rowTops: [Int] = [0]
    /// The row of each entry.
    private var entryRows: [Int] = []
    package internal(set) var focus: CenterFocus = .doNotDisturb
    /// How far the list is scrolled, in logical pixels.
    package private(set) var scroll = 0
    /// The list's visible height (the panel's height less its header).
    package var viewportHeight = 0 { didSet { clampScroll() } }
    /// Text typed into reply fields, by notification.
    package private(set) var drafts: [NotificationID: String] = [:]
    /// A draft holds at most this many bytes.
    package static let maxDraftBytes = InlineReply.maxTypedBytes

    package init(metrics: CenterMetrics = CenterMetrics()) { self.metrics = metrics }

    /// The entries for `open` notifications and `history` (both newest first): grouped by app, each
    /// app where its newest entry is; open ones first.
    package static func entries(open: OpenNotifications, history: [HistoryEntry]) -> [CenterEntry] {
        grouped(open.map { CenterEntry($0, isOpen: true) }) + grouped(history.map { CenterEntry($0.notification, isOpen: false) })
    }

    private static func grouped(_ entries: [CenterEntry]) -> [CenterEntry] {
        var order: [String] = []
        var byApp: [String: [CenterEntry]] = [:]
        for entry in entries {
            if byApp[entry.appName] == nil { order.append(entry.appName) }
            byApp[entry.appName, default: []].append(entry)
        }
        return order.flatMap { byApp[$0]! }
    }

    /// New entries (the model changed, or the center opened): the focus stays on the notification
    /// it was on while that is listed, else on the entry now in its place.
    package mutating func update(entries new: [CenterEntry]) {
        let focusedID = focus.entry.map { entries[$0].id }
        entries = new
        rows = []
        entryRows = []
        rowTops = [0]
        var top = 0
        var lastGroup: (String, Bool)?
        for (index, entry) in new.enumerated() {
            if lastGroup.map({ $0 != (entry.appName, entry.isOpen) }) ?? true {
                rows.append(.group(appName: entry.appName, isOpen: entry.isOpen))
                top += metrics.groupHeight
                rowTops.append(top)
                lastGroup = (entry.appName, entry.isOpen)
            }
            entryRows.append(rows.count)
            rows.append(.entry(index))
            top += height(of: entry)
            rowTops.append(top)
        }
        drafts = drafts.filter { id, _ in new.contains { $0.id == id && $0.replyPlaceholder != nil } }
        switch focus {
        case .doNotDisturb, .clearAll: break
        case .entry(let old), .button(let old, _), .reply(let old):
            if new.isEmpty {
                focus = .clearAll
            } else if let id = focusedID, let index = new.firstIndex(where: { $0.id == id }) {
                focus = Self.sameFocus(focus, at: index, in: new[index])
            } else {
                focus = .entry(min(old, new.count - 1))
            }
        }
        clampScroll()
    }

    /// `focus` moved to entry `index`, where the part it was on may be gone.
    private static func sameFocus(_ focus: CenterFocus, at index: Int, in entry: CenterEntry) -> CenterFocus {
        switch focus {
        case .button(_, let b) where b < entry.buttons.count: .button(index, b)
        case .reply where entry.replyPlaceholder != nil: .reply(index)
        default: .entry(index)
        }
    }

    /// The center opened: the newest entry has the focus (the switch when there is none), at the top.
    package mutating func focusFirst() {
        focus = entries.isEmpty ? .doNotDisturb : .entry(0)
        scroll = 0
    }

    /// The height of an entry's row: its card and the gap below it.
    package func height(of entry: CenterEntry) -> Int {
        metrics.entryHeight + (entry.buttons.isEmpty ? 0 : metrics.buttonsHeight)
            + (entry.replyPlaceholder == nil ? 0 : metrics.replyHeight) + metrics.gap
    }

    /// The list's whole height.
    package var contentHeight: Int { rowTops.last ?? 0 }

    /// The rows that meet the viewport, found by bisection (1,000 entries cost ten steps, not a walk).
    package var visibleRows: Range<Int> {
        guard !rows.isEmpty else { return 0..<0 }
        // The first row whose bottom is below the scroll offset.
        var low = 0, high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rowTops[mid + 1] <= scroll { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < rows.count, rowTops[end] < scroll + viewportHeight { end += 1 }
        return low..<end
    }

    /// The row of entry `index`.
    package func row(ofEntry index: Int) -> Int { entryRows[index] }

    /// Scrolls by `delta` logical pixels (the wheel); returns whether the offset moved.
    @discardableResult
    package mutating func scroll(by delta: Int) -> Bool {
        let old = scroll
        scroll += delta
        clampScroll()
        return scroll != old
    }

    private mutating func clampScroll() {
        scroll = max(0, min(scroll, contentHeight - viewportHeight))
    }

    /// Scrolls so that the focused entry is in view (with its app's heading when it is the first).
    mutating func revealFocus() {
        guard let index = focus.entry else {
            scroll = 0
            return
        }
        let row = entryRows[index]
        var top = rowTops[row]
        if row > 0, case .group = rows[row - 1] { top = rowTops[row - 1] }
        let bottom = rowTops[row + 1]
        if top < scroll {
            scroll = top
        } else if bottom > scroll + viewportHeight {
            scroll = max(top > scroll ? min(top, bottom - viewportHeight) : scroll, bottom - viewportHeight)
        }
        clampScroll()
    }

    /// The focus stops of entry `index` in Tab order: itself, its buttons, its reply field.
    func stopsOf(_ index: Int) -> [CenterFocus] {
        let entry = entries[index]
        return [.entry(index)] + entry.buttons.indices.map { .button(index, $0) }
            + (entry.replyPlaceholder == nil ? [] : [.reply(index)])
    }

    /// Every focus stop in Tab order: the switch, "clear all", then each entry's stops.
    var everyStop: [CenterFocus] {
        [.doNotDisturb, .clearAll] + entries.indices.flatMap { stopsOf($0) }
    }

    /// Sets (nil: clears) the reply draft of notification `id`.
    mutating func setDraft(_ text: String?, for id: NotificationID) { drafts[id] = text }

    /// Gives the focus to `focus` (a click), scrolled into view.
    package mutating func focus(on focus: CenterFocus) {
        self.focus = focus
        revealFocus()
    }
}
