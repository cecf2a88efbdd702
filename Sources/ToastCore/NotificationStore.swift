import ToastVocabulary

/// Settings of the notification store.
public struct NotificationConfig: Equatable, Sendable {
    /// Timeouts used when the client asks for the server default (D-Bus -1); nil means never.
    public var defaultTimeouts = PerUrgency<Milliseconds?>(low: 5000, normal: 5000, critical: nil)
    /// Closed notifications kept for listing and `restoreLast` (transient ones are not kept).
    public var historyLimit = 50
    /// Bytes of picture pixels the history keeps: past this, older entries lose their picture (their
    /// text stays). Fifty entries with icon-sized pictures would otherwise hold megabytes nobody sees.
    public var historyPictureBytes = 512 << 10
    /// Open notifications beyond this many push out the oldest (closed as `undefined`). Also what
    /// guarantees a free id always exists.
    public var maxOpen = 1000
    public var limits = TextLimits()
    /// More than `floodLimit` notifications from one app within `floodWindow` are a flood, drawn as
    /// one toast (`FloodGate`); 0 turns that off.
    public var floodLimit = 10
    public var floodWindow: Milliseconds = 1000
    /// Whether critical notifications show through do-not-disturb (`dnd-allows = critical`; `none`: no).
    public var dndAllowsCritical = true

    public init() {}
}

/// The open notifications, the history of closed ones and do-not-disturb.
///
/// Timeouts count only time seen (see `NotificationStore+Seen.swift`): a notification's timeout runs
/// while the daemon has it on screen and the seat is not away; otherwise it keeps what it has left
/// (`Notification.waitingTimeout`).
///
/// Do-not-disturb: while it is on, non-critical notifications are accepted and listed (`all`) but not
/// visible, and their timeouts wait: those still open when it is turned off become visible then, with
/// the time they had left. Critical ones show regardless.
public struct NotificationStore: Sendable {
    public private(set) var config: NotificationConfig
    /// Open notifications, newest first (a replacement keeps its place).
    public internal(set) var all: OpenNotifications = []
    /// Closed notifications, newest first, at most `config.historyLimit`.
    public private(set) var history: [HistoryEntry] = []
    public private(set) var doNotDisturb = false
    /// Whether the seat is away (idle past `idle-threshold`): timeouts wait, transient ones' excepted.
    public internal(set) var isAway = false
    /// Which app sends too many too fast (`flood-limit` within `flood-window`).
    var floodGate = FloodGate()
    /// Bumped whenever what the renderer draws (`visible`) changes.
    public internal(set) var generation: UInt64 = 0
    /// Bumped whenever `history` changes (an entry added, taken back, dropped, or loaded): the daemon
    /// saves the history file when it moved.
    public private(set) var historyGeneration: UInt64 = 0

    var ids = IDAllocator()
    private var events: [CoreEvent] = []
    /// The last `Notification.revision` handed out.
    private var lastRevision: UInt64 = 0

    public init(config: NotificationConfig = NotificationConfig()) {
        self.config = config
    }

    /// New settings (the daemon's configuration was reloaded). Open notifications keep their
    /// deadlines; later ones get the new timeouts. A smaller history limit drops the oldest entries.
    public mutating func reconfigure(_ config: NotificationConfig) {
        self.config = config
        boundHistory()
    }

    /// Puts back a history kept from an earlier run (newest first), behind whatever closed since this
    /// run started, within `historyLimit`. New ids start past the ids it holds, so that a new
    /// notification does not take the id of one listed in the history.
    public mutating func loadHistory(_ entries: [HistoryEntry]) {
        guard !entries.isEmpty else { return }
        history += entries
        boundHistory()
        if let highest = history.map(\.notification.id).max(), highest >= ids.next, highest < .max {
            ids = IDAllocator(next: highest + 1)
        }
        historyGeneration += 1
    }

    // MARK: Queries

    /// What the renderer draws, newest first.
    public var visible: [Notification] { all.filter(\.isVisible) }

    public func notification(id: NotificationID) -> Notification? {
        all.first { $0.id == id }
    }

    /// The earliest time a notification expires, if any does.
    public var nextDeadline: Instant? {
        // Read in place at every turn of the loop that changed the model: no key path, no copy.
        var earliest: Instant?
        for i in all.indices { earliest = Instant.earliest(earliest, all[i].expiresAt) }
        return earliest
    }

    /// Events since the last call, oldest first.
    public mutating func drainEvents() -> [CoreEvent] {
        defer { events.removeAll() }
        return events
    }

    // MARK: Notify

    /// Shows a notification, or replaces one in place, and returns its id.
    ///
    /// A known non-zero `replacesID` is replaced (same id, same place, timeout restarted); otherwise an open
    /// notification with the same tag and app name is; otherwise a new id is allocated.
    public mutating func notify(_ request: NotificationRequest, now: Instant) throws(NotificationError) -> NotificationID {
        let request = try request.validated(limits: config.limits)
        if let index = indexToReplace(for: request) {
            replace(at: index, with: request, now: now)
            return all[index].id
        }
        makeRoomForOne(now: now)
        let id = allocateID()
        var notification = Notification(id: id, request: request, createdAt: now, now: now)
        notification.revision = nextRevision()
        if noteArrival(of: notification, now: now) { notification.isFlood = true }
        show(&notification, now: now)
        all.prepend(notification)
        if notification.isVisible { generation += 1 }
        return id
    }

    private func indexToReplace(for request: NotificationRequest) -> Int? {
        if request.replacesID != 0, let index = index(of: request.replacesID) {
            return index
        }
        if let tag = request.tag {
            return all.indices.first { all[$0].tag == tag && all[$0].appName == request.appName }
        }
        return nil
    }

    private mutating func replace(at index: Int, with request: NotificationRequest, now: Instant) {
        let old = all[index]
        var new = Notification(id: old.id, request: request, createdAt: old.createdAt, now: now)
        new.revision = nextRevision()
        new.isFlood = old.isFlood
        show(&new, now: now, shownBefore: old.shownAt)
        if let previousOrigin = old.origin, previousOrigin != new.origin {
            events.append(.replaced(id: old.id, previousOrigin: previousOrigin))
        }
        all[index] = new
        if old.isVisible || new.isVisible { generation += 1 }
    }

    /// Sets visibility and restarts the timeout, which waits until the notification is drawn
    /// (`markDisplayed`; an invisible one's runs at once, see `timeoutRuns`). `shownBefore` keeps an
    /// entrance time across an update in place.
    private func show(_ notification: inout Notification, now: Instant, shownBefore: Instant? = nil) {
        notification.shownAt = isAllowedToShow(notification) ? (shownBefore ?? now) : nil
        notification.isOnScreen = false
        notification.expiresAt = nil
        notification.waitingTimeout = timeout(for: notification)
        settleTimeout(&notification, now: now)
    }

    /// The picture of an open notification arrived (decoded off the loop); an id no longer open is
    /// ignored. The caller makes sure the picture belongs to the notification's current content.
    public mutating func setPicture(id: NotificationID, _ image: RGBAImage) {
        guard let index = index(of: id) else { return }
        all[index].image = .pixels(image)
        all[index].revision = nextRevision()
        if all[index].isVisible { generation += 1 }
    }

    /// The pointer is over the toasts (or the notification center): no drawn toast's timeout runs
    /// (`pauseExpiry`, in NotificationStore+Seen.swift).
    public internal(set) var expiryPaused = false
    private func timeout(for notification: Notification) -> Milliseconds? {
        let rules = notification.rules
        let requested = rules.ignoresClientTimeout ? .serverDefault : notification.expireTimeout
        return switch requested {
        case .serverDefault: rules.defaultTimeout ?? config.defaultTimeouts[notification.urgency]
        case .never: nil
        case .after(let milliseconds): milliseconds
        }
    }

    func isAllowedToShow(_ notification: Notification) -> Bool {
        !notification.rules.isInvisible && (!doNotDisturb || (notification.urgency == .critical && config.dndAllowsCritical))
    }

    // MARK: Close

    /// Closes an open notification and returns it. An unknown or already closed id is not an error:
    /// nothing happens and nil is returned (notify-send closes ids that are already gone).
    @discardableResult
    public mutating func close(id: NotificationID, reason: CloseReason, now: Instant) -> Notification? {
        guard let index = index(of: id) else { return nil }
        return close(at: index, reason: reason, now: now)
    }

    /// At `maxOpen`, the oldest open notification closes to make room for a new one: by its place, not
    /// by its id (finding it by its id read every open notification first).
    private mutating func makeRoomForOne(now: Instant) {
        if all.count >= config.maxOpen, !all.isEmpty { close(at: all.count - 1, reason: .undefined, now: now) }
    }

    /// Closes the open notification at `index` of `all` and returns it.
    @discardableResult
    private mutating func close(at index: Int, reason: CloseReason, now: Instant) -> Notification {
        let notification = all.remove(at: index)
        if notification.isVisible { generation += 1 }
        events.append(.closed(id: notification.id, reason: reason, origin: notification.origin))
        if !notification.isTransient {
            history.insert(HistoryEntry(notification: notification, reason: reason, closedAt: now), at: 0)
            boundHistory()
            historyGeneration += 1
        }
        return notification
    }

    /// Dismisses the newest visible notification (what `makoctl dismiss` does); returns its id, or nil
    /// when none is visible.
    @discardableResult
    public mutating func dismissNewest(now: Instant) -> NotificationID? {
        guard let newest = visible.first else { return nil }
        close(id: newest.id, reason: .dismissed, now: now)
        return newest.id
    }

    /// Dismisses every open notification (hidden ones too), oldest first so the history keeps the newest
    /// on top. Returns how many closed.
    @discardableResult
    public mutating func dismissAll(now: Instant) -> Int {
        let ids = all.reversed().map(\.id)
        for id in ids { close(id: id, reason: .dismissed, now: now) }
        return ids.count
    }

    /// Reopens the most recently closed notification from the history, under its old id if that is free,
    /// with its timeout restarted. Returns its id, or nil when the history is empty.
    @discardableResult
    public mutating func restoreLast(now: Instant) -> NotificationID? {
        restore(id: nil, now: now)
    }

    /// Reopens the history entry with this id (the newest one with it), or with nil the most recently
    /// closed one, as `restoreLast` does. Returns its id, or nil when there is no such entry.
    @discardableResult
    public mutating func restore(id: NotificationID?, now: Instant) -> NotificationID? {
        guard let index = id.map({ id in history.firstIndex { $0.notification.id == id } }) ?? (history.isEmpty ? nil : 0) else {
            return nil
        }
        var notification = history.remove(at: index).notification
        historyGeneration += 1
        makeRoomForOne(now: now)
        if isOpen(notification.id) {
            notification.id = allocateID()
        }
        notification.updatedAt = now
        notification.revision = nextRevision()
        show(&notification, now: now)
        all.prepend(notification)
        if notification.isVisible { generation += 1 }
        return notification.id
    }

    /// Forgets every closed notification; returns how many there were.
    @discardableResult
    public mutating func clearHistory() -> Int {
        let count = history.count
        guard count > 0 else { return 0 }
        history.removeAll()
        historyGeneration += 1
        return count
    }

    /// Forgets the history entry with this id (the notification center's Delete); returns whether
    /// there was one.
    @discardableResult
    public mutating func forget(historyID id: NotificationID) -> Bool {
        guard let index = history.firstIndex(where: { $0.notification.id == id }) else { return false }
        history.remove(at: index)
        historyGeneration += 1
        return true
    }

    // MARK: Actions

    /// Answers notification `id` with a line of text (`InlineReply`): emits `replied`, then closes it
    /// as dismissed (reason 2), as KDE and swaync do.
    public mutating func reply(id: NotificationID, text: String, now: Instant) throws(ActionError) {
        guard let notification = notification(id: id) else { throw .unknownNotification(id) }
        guard InlineReply.accepts(notification) else { throw .unknownAction(id: id, key: InlineReply.actionKey) }
        events.append(.replied(id: id, text: text, origin: notification.origin))
        close(id: id, reason: .dismissed, now: now)
    }

    /// Invokes an action (`nil` means the default action, the click): emits `activationToken` when there
    /// is one (so the app can raise its window), then `actionInvoked`, then closes the notification as
    /// dismissed unless it is resident.
    public mutating func invokeAction(id: NotificationID, key: String? = nil, activationToken: String? = nil,
                                      now: Instant) throws(ActionError) {
        guard let notification = notification(id: id) else { throw .unknownNotification(id) }
        let key = key ?? NotificationAction.defaultKey
        guard notification.actions.contains(where: { $0.key == key }) else {
            throw .unknownAction(id: id, key: key)
        }
        if let activationToken, !activationToken.isEmpty {
            events.append(.activationToken(id: id, token: activationToken, origin: notification.origin))
        }
        events.append(.actionInvoked(id: id, key: key, origin: notification.origin))
        if !notification.isResident {
            close(id: id, reason: .dismissed, now: now)
        }
    }

    // MARK: Do not disturb

    /// Turns do-not-disturb on or off; returns whether that changed it.
    @discardableResult
    public mutating func setDoNotDisturb(_ on: Bool, now: Instant) -> Bool {
        guard on != doNotDisturb else { return false }
        doNotDisturb = on
        var visibilityChanged = false
        for index in all.indices {
            let allowed = isAllowedToShow(all[index])
            if allowed != all[index].isVisible {
                all[index].shownAt = allowed ? now : nil
                if !allowed { all[index].isOnScreen = false }
                settleTimeout(at: index, now: now)
                visibilityChanged = true
            }
        }
        if visibilityChanged { generation += 1 }
        return true
    }

    // MARK: Time

    /// Closes, as expired, every notification due at `now`, earliest deadline first.
    public mutating func advance(to now: Instant) {
        // Among equal deadlines the oldest goes first, so events come in the order the notifications came.
        let due = all.reversed().enumerated().compactMap { age, notification -> (Instant, Int, NotificationID)? in
            guard let deadline = notification.expiresAt, deadline <= now else { return nil }
            return (deadline, age, notification.id)
        }
        for (_, _, id) in due.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) {
            close(id: id, reason: .expired, now: now)
        }
    }

    // MARK: Helpers

    private mutating func nextRevision() -> UInt64 {
        lastRevision += 1
        return lastRevision
    }

    /// Keeps the history within `historyLimit` entries and `historyPictureBytes` of pictures: the
    /// newest entries keep theirs, older ones are kept as text only.
    private mutating func boundHistory() {
        if history.count > config.historyLimit {
            history.removeLast(history.count - config.historyLimit)
            historyGeneration += 1
        }
        var pictureBytes = 0
        for index in history.indices {
            guard case .pixels(let image) = history[index].notification.image else { continue }
            pictureBytes += image.pixels.count
            if pictureBytes > config.historyPictureBytes { history[index].notification.image = nil }
        }
    }

    func index(of id: NotificationID) -> Int? {
        all.indices.first { all[$0].id == id }
    }

    private func isOpen(_ id: NotificationID) -> Bool {
        index(of: id) != nil
    }

    private mutating func allocateID() -> NotificationID {
        // Ids only grow, so the first candidate is almost always free: one scan, no set built per call.
        let open = all
        return ids.allocate { id in open.indices.contains { open[$0].id == id } }
    }
}
