import ToastVocabulary

/// The model of toastd: every notification and HUD the daemon shows, in one value.
///
/// Data flows one way: a front door (control socket, D-Bus) turns a request into a call here; the daemon
/// then drains `drainEvents()` and routes each event to its origin, redraws when `generation` moved, and
/// arms one timer at `nextDeadline`, calling `advance(to:)` when it fires. Pure and single-threaded: no
/// I/O, no clock (every `now` is the daemon's CLOCK_MONOTONIC in milliseconds).
///
/// ```swift
/// var model = ToastModel()
/// let id = try model.notify(request, now: now)      // D-Bus Notify / `toast notify`
/// model.advance(to: now)                            // when the timerfd fires
/// for event in model.drainEvents() { route(event) } // after every call
/// if model.generation != drawn { redraw(model.visible, model.hud) }
/// armTimer(at: model.nextDeadline)
/// ```
///
/// The parts: `NotificationStore` (open notifications, history, do-not-disturb) and `HUD` (value bar,
/// loading spinner). Their settings are `NotificationConfig` and `HUDConfig`.
public struct ToastModel: Sendable {
    public private(set) var notifications: NotificationStore
    public private(set) var hud: HUD
    private var events: [CoreEvent] = []

    public init(notifications: NotificationConfig = NotificationConfig(), hud: HUDConfig = HUDConfig()) {
        self.notifications = NotificationStore(config: notifications)
        self.hud = HUD(config: hud)
    }

    /// Swaps the settings (configuration reload) without touching what is open: new notifications and
    /// bar updates use them; open notifications and spinners keep their deadlines.
    public mutating func reconfigure(notifications: NotificationConfig, hud: HUDConfig) {
        self.notifications.reconfigure(notifications)
        self.hud.reconfigure(hud)
    }

    // MARK: Daemon loop

    /// Events since the last call, in the order they happened.
    public mutating func drainEvents() -> [CoreEvent] {
        defer { events.removeAll() }
        return events
    }

    /// Changes whenever anything drawn changes (use `notifications.generation` or `hud.generation` to
    /// redraw only one of them).
    public var generation: UInt64 { notifications.generation &+ hud.generation &+ modeChanges }

    /// The HUD is drawn again: something it shows changed outside the model (`HUD.lookChanged`).
    public mutating func hudLookChanged() {
        hud.lookChanged()
    }

    /// How often the modes changed: a `[mode=...]` section may change how open toasts look.
    private var modeChanges: UInt64 = 0

    /// The earliest moment something is due (a notification expires, the bar hides, an orphaned loading
    /// key stops); nil when nothing is.
    public var nextDeadline: Instant? {
        Instant.earliest(Instant.earliest(notifications.nextDeadline, hud.nextDeadline), modeEnds.values.min())
    }

    /// Does whatever is due at `now`; the resulting events wait in `drainEvents()`.
    public mutating func advance(to now: Instant) {
        if modeEnds.values.contains(where: { $0 <= now }) {
            setModes(modes.filter { name in modeEnds[name].map { $0 > now } ?? true }, now: now)
        }
        notifications.advance(to: now)
        hud.advance(to: now)
        collectEvents()
    }

    /// Whether something animates on its own, so the daemon keeps requesting frames.
    public var isAnimating: Bool { hud.isAnimating }

    // MARK: Notifications

    /// What the renderer draws, newest first.
    public var visible: [Notification] { notifications.visible }
    /// Open notifications, hidden ones included, newest first.
    public var all: OpenNotifications { notifications.all }
    /// Closed notifications, newest first.
    public var history: [HistoryEntry] { notifications.history }
    /// Changes whenever `history` does (see `NotificationStore.historyGeneration`).
    public var historyGeneration: UInt64 { notifications.historyGeneration }

    /// Puts back a history kept from an earlier run; see `NotificationStore.loadHistory`.
    public mutating func loadHistory(_ entries: [HistoryEntry]) {
        notifications.loadHistory(entries)
    }

    public func notification(id: NotificationID) -> Notification? {
        notifications.notification(id: id)
    }

    /// See `NotificationStore.notify`.
    public mutating func notify(_ request: NotificationRequest, now: Instant) throws(NotificationError) -> NotificationID {
        defer { collectEvents() }
        return try notifications.notify(request, now: now)
    }

    /// Closes a notification; an unknown or closed id does nothing and returns nil.
    @discardableResult
    public mutating func close(id: NotificationID, reason: CloseReason, now: Instant) -> Notification? {
        defer { collectEvents() }
        return notifications.close(id: id, reason: reason, now: now)
    }

    /// Dismisses the newest visible notification; returns its id.
    @discardableResult
    public mutating func dismissNewest(now: Instant) -> NotificationID? {
        defer { collectEvents() }
        return notifications.dismissNewest(now: now)
    }

    /// Dismisses every open notification, hidden ones too; returns how many.
    @discardableResult
    public mutating func dismissAll(now: Instant) -> Int {
        defer { collectEvents() }
        return notifications.dismissAll(now: now)
    }

    /// Reopens the most recently closed notification (same id if free); nil when the history is empty.
    @discardableResult
    public mutating func restoreLast(now: Instant) -> NotificationID? {
        defer { collectEvents() }
        return notifications.restoreLast(now: now)
    }

    /// Reopens the history entry with this id (nil: the most recent); nil when there is none.
    @discardableResult
    public mutating func restore(id: NotificationID?, now: Instant) -> NotificationID? {
        defer { collectEvents() }
        return notifications.restore(id: id, now: now)
    }

    /// Forgets every closed notification; returns how many there were.
    @discardableResult
    public mutating func clearHistory() -> Int {
        notifications.clearHistory()
    }

    /// See `NotificationStore.pauseExpiry(now:)` (the pointer is over the toasts).
    public mutating func pauseExpiry(now: Instant) { notifications.pauseExpiry(now: now) }

    /// See `NotificationStore.resumeExpiry(now:)`.
    public mutating func resumeExpiry(now: Instant) { notifications.resumeExpiry(now: now) }

    /// See `NotificationStore.forget(historyID:)`.
    @discardableResult
    public mutating func forget(historyID id: NotificationID) -> Bool {
        notifications.forget(historyID: id)
    }

    /// See `NotificationStore.reply(id:text:now:)`.
    public mutating func reply(id: NotificationID, text: String, now: Instant) throws(ActionError) {
        defer { collectEvents() }
        try notifications.reply(id: id, text: text, now: now)
    }

    /// Invokes an action (`nil`: the default one), then closes the notification unless it is resident.
    public mutating func invokeAction(id: NotificationID, key: String? = nil, activationToken: String? = nil,
                                      now: Instant) throws(ActionError) {
        defer { collectEvents() }
        try notifications.invokeAction(id: id, key: key, activationToken: activationToken, now: now)
    }

    /// See `NotificationStore.setPicture`.
    public mutating func setPicture(id: NotificationID, _ image: RGBAImage) {
        notifications.setPicture(id: id, image)
    }

    /// The daemon drew these notifications: their timeouts run (see `NotificationStore+Seen.swift`).
    public mutating func markDisplayed(_ ids: some Sequence<NotificationID>, now: Instant) {
        notifications.markDisplayed(ids, now: now)
    }

    /// The notifications on screen but not `shown` left it: their timeouts stop. See `NotificationStore`.
    @discardableResult
    public mutating func markOffScreen(except shown: (NotificationID) -> Bool, now: Instant) -> Bool {
        notifications.markOffScreen(except: shown, now: now)
    }

    /// The seat went away or came back: timeouts stop or run again (transient ones run regardless).
    @discardableResult
    public mutating func setAway(_ away: Bool, now: Instant) -> Bool {
        notifications.setAway(away, now: now)
    }

    /// The modes on, in the order they were turned on (`toast mode`); `[mode=NAME]` sections match on
    /// them. `do-not-disturb` among them is do-not-disturb.
    public private(set) var modes: [String] = ModeNames.initial
    /// When modes that were turned on for a while end (`toast dnd on --for 30m`); the others stay on
    /// until turned off.
    public private(set) var modeEnds: [String: Instant] = [:]

    /// Whether do-not-disturb is on (see `NotificationStore` for what it hides).
    public var doNotDisturb: Bool { notifications.doNotDisturb }

    /// Sets the modes on (duplicates dropped, the first kept; at most `ModeNames.maxCount`; invalid
    /// names are the caller's to refuse). Do-not-disturb follows `do-not-disturb`. Returns whether
    /// the set changed.
    @discardableResult
    public mutating func setModes(_ names: [String], now: Instant) -> Bool {
        var seen = Set<String>()
        let unique = names.filter { seen.insert($0).inserted }.prefix(ModeNames.maxCount)
        guard Array(unique) != modes else { return false }
        modes = Array(unique)
        modeEnds = modeEnds.filter { modes.contains($0.key) }
        modeChanges &+= 1
        defer { collectEvents() }
        notifications.setDoNotDisturb(modes.contains(ModeNames.doNotDisturb), now: now)
        return true
    }

    /// Ends mode `name` at `end` (nil: it stays on until turned off). A mode that is off is left alone.
    public mutating func setModeEnd(_ name: String, at end: Instant?) {
        guard modes.contains(name) else { return }
        modeEnds[name] = end
    }

    /// When do-not-disturb ends by itself; nil when it is off or stays on.
    public var doNotDisturbEnd: Instant? { modeEnds[ModeNames.doNotDisturb] }

    /// Turns do-not-disturb (the `do-not-disturb` mode) on or off; returns whether that changed it.
    @discardableResult
    public mutating func setDoNotDisturb(_ on: Bool, now: Instant) -> Bool {
        guard on != doNotDisturb else { return false }
        return setModes(on ? modes + [ModeNames.doNotDisturb] : modes.filter { $0 != ModeNames.doNotDisturb }, now: now)
    }

    /// Flips do-not-disturb and returns the new state.
    @discardableResult
    public mutating func toggleDoNotDisturb(now: Instant) -> Bool {
        setDoNotDisturb(!doNotDisturb, now: now)
        return doNotDisturb
    }

    // MARK: HUD

    /// See `HUD.showBar`.
    @discardableResult
    public mutating func showBar(kind: String, value: Int, muted: Bool = false, label: String? = nil,
                                 icon: String? = nil, timeout: Milliseconds? = nil,
                                 now: Instant) throws(HUDError) -> BarWarning? {
        defer { collectEvents() }
        return try hud.showBar(kind: kind, value: value, muted: muted, label: label, icon: icon, timeout: timeout, now: now)
    }

    /// Hides the value bar now; returns whether one was shown.
    @discardableResult
    public mutating func hideBar() -> Bool {
        defer { collectEvents() }
        return hud.hideBar()
    }

    /// See `HUD.loadingStart`.
    @discardableResult
    public mutating func loadingStart(key: String, label: String? = nil, owner: ClientID? = nil,
                                      detach: Bool = false, now: Instant) throws(HUDError) -> Bool {
        defer { collectEvents() }
        return try hud.loadingStart(key: key, label: label, owner: owner, detach: detach, now: now)
    }

    /// Stops a loading key, whoever started it; returns whether it was active. See `HUD.loadingStop`.
    @discardableResult
    public mutating func loadingStop(key: String, requester: ClientID? = nil) -> Bool {
        defer { collectEvents() }
        return hud.loadingStop(key: key, requester: requester)
    }

    /// A client disconnected: its attached loading keys stop after the grace period.
    public mutating func ownerDisconnected(_ client: ClientID, now: Instant) {
        defer { collectEvents() }
        hud.ownerDisconnected(client, now: now)
    }

    // MARK: -

    /// Moves the parts' events into the one ordered queue. Every mutating call ends here, and each touches
    /// one part, so the queue keeps the order in which things happened. Most calls (every value of a HUD
    /// stream) bring none: appending an empty array to the empty queue still took the array's growth path.
    private mutating func collectEvents() {
        let fromNotifications = notifications.drainEvents(), fromHUD = hud.drainEvents()
        if !fromNotifications.isEmpty { events += fromNotifications }
        if !fromHUD.isEmpty { events += fromHUD }
    }
}
