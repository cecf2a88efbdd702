import ToastVocabulary

/// Time that counts: a notification's timeout runs only while it is on screen (drawn, not pushed under
/// "+N more", not held over a fullscreen window, not hidden by do-not-disturb) and the seat is not
/// away. Whenever either stops, the time left waits in `waitingTimeout`; when both hold again, it runs
/// from there. Two exceptions: a transient notification's runs while the seat is away (as dunst's
/// `idle_threshold` has it), and an invisible one's (`invisible` rule) runs at once, as nothing will
/// ever draw it.
extension NotificationStore {
    /// Whether `notification`'s timeout runs now.
    func timeoutRuns(_ notification: Notification) -> Bool {
        if notification.rules.isInvisible { return true }
        if expiryPaused { return false }
        if isAway && !notification.isTransient { return false }
        return notification.isOnScreen
    }

    /// Starts or stops `notification`'s timeout as `timeoutRuns` says, keeping the time left.
    func settleTimeout(_ notification: inout Notification, now: Instant) {
        Self.settle(&notification, runs: timeoutRuns(notification), now: now)
    }

    /// The same for the open notification at `index`. Not `settleTimeout(&all[index])`: a non-mutating
    /// method called while an element is being changed needs a copy of the store, and so of every open
    /// notification (a flood's ten thousand, for each one settled).
    mutating func settleTimeout(at index: Int, now: Instant) {
        let runs = timeoutRuns(all[index])
        Self.settle(&all[index], runs: runs, now: now)
    }

    private static func settle(_ notification: inout Notification, runs: Bool, now: Instant) {
        if runs, let left = notification.waitingTimeout {
            notification.expiresAt = now + left
            notification.waitingTimeout = nil
        } else if !runs, let deadline = notification.expiresAt {
            notification.waitingTimeout = max(0, deadline - now)
            notification.expiresAt = nil
        }
    }

    /// The daemon drew these notifications: their timeouts run from now (from what they had left).
    /// Ids that are closed or hidden are ignored; one already on screen keeps running.
    public mutating func markDisplayed(_ ids: some Sequence<NotificationID>, now: Instant) {
        // One pass over the open ones: a flood's toast stands for thousands of ids.
        let ids = Set(ids)
        for index in all.indices where ids.contains(all[index].id) && all[index].isVisible && !all[index].isOnScreen {
            all[index].isOnScreen = true
            settleTimeout(at: index, now: now)
        }
    }

    /// What the daemon shows now: notifications on screen but not among `shown` left it (pushed under
    /// "+N more"); their timeouts stop. Returns whether any did.
    @discardableResult
    public mutating func markOffScreen(except shown: (NotificationID) -> Bool, now: Instant) -> Bool {
        var changed = false
        for index in all.indices where all[index].isOnScreen && !shown(all[index].id) {
            all[index].isOnScreen = false
            settleTimeout(at: index, now: now)
            changed = true
        }
        return changed
    }

    /// Whether any notification is on screen and not `shown`: `markOffScreen` would change something.
    public func hasOnScreen(except shown: (NotificationID) -> Bool) -> Bool {
        all.contains { $0.isOnScreen && !shown($0.id) }
    }

    /// The least a paused timeout has left when it runs again: a toast the pointer just left does not
    /// vanish under it at once (mako #263).
    public static let resumedAtLeast: Milliseconds = 1000

    /// The pointer came over the toasts (or the notification center): every timeout stops, keeping
    /// what it had left.
    public mutating func pauseExpiry(now: Instant) {
        guard !expiryPaused else { return }
        expiryPaused = true
        for index in all.indices { settleTimeout(at: index, now: now) }
    }

    /// The pointer left: the paused timeouts run again, each with what it had left, at least
    /// `resumedAtLeast`.
    public mutating func resumeExpiry(now: Instant) {
        guard expiryPaused else { return }
        expiryPaused = false
        for index in all.indices {
            if timeoutRuns(all[index]), let left = all[index].waitingTimeout {
                all[index].waitingTimeout = max(left, Self.resumedAtLeast)
            }
            settleTimeout(at: index, now: now)
        }
    }

    /// The seat went away (idle past `idle-threshold`) or came back: timeouts stop or run again.
    /// Returns whether that changed it.
    @discardableResult
    public mutating func setAway(_ away: Bool, now: Instant) -> Bool {
        guard away != isAway else { return false }
        isAway = away
        for index in all.indices { settleTimeout(at: index, now: now) }
        return true
    }

    /// Notes `notification`'s arrival with the flood gate; returns whether its app floods. When a
    /// flood begins, the app's open notifications join it, so that all of it is one toast.
    mutating func noteArrival(of notification: Notification, now: Instant) -> Bool {
        guard floodGate.noteArrival(from: notification.appName, now: now,
                                    limit: config.floodLimit, window: config.floodWindow) else { return false }
        for index in all.indices where all[index].appName == notification.appName && !all[index].isFlood {
            all[index].isFlood = true
            if all[index].isVisible { generation += 1 }
        }
        return true
    }

    /// Whether some open notification came in a flood (the daemon then groups them).
    public var hasFlood: Bool { all.contains(where: \.isFlood) }
}
