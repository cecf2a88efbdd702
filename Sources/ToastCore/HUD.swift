import ToastVocabulary

/// Settings of the HUD.
public struct HUDConfig: Equatable, Sendable {
    /// How long a value bar stays after its last update.
    public var barTimeout: Milliseconds = 1500
    /// Values above this are clamped (with a warning); 100...maximum draws as overflow.
    public var barMaximum = 200
    /// How long a loading key outlives its owner's disconnection, so a client that restarts can claim it.
    public var loadingGrace: Milliseconds = 2000
    /// Active loading keys allowed at once (a runaway script cannot grow the set without bound).
    public var maxLoadingKeys = 256
    /// Caps for kinds, keys, labels and icons.
    public var limits = TextLimits()

    public init() {}
}

/// Heads-up displays: one value bar and one loading spinner, apart from the notification stack
/// (a HUD never moves toasts).
public struct HUD: Sendable {
    public private(set) var config: HUDConfig
    /// The value bar on screen: the most recently updated kind, until it times out.
    public private(set) var bar: ValueBar?
    private var loading = LoadingKeys()
    /// Bumped whenever what the renderer draws (`bar`, `spinner`) changes.
    public private(set) var generation: UInt64 = 0
    private var events: [CoreEvent] = []

    public init(config: HUDConfig = HUDConfig()) {
        self.config = config
    }

    /// New settings (the daemon's configuration was reloaded): a bar on screen keeps its deadline,
    /// the next update uses the new timeout.
    public mutating func reconfigure(_ config: HUDConfig) {
        self.config = config
    }

    // MARK: Queries

    /// The spinner, or nil when no loading key is active.
    public var spinner: Spinner? { loading.spinner }

    /// Active loading keys, oldest first.
    public var loadingKeys: [LoadingKey] { loading.keys }

    /// Whether something animates on its own (the spinner), so the daemon keeps asking for frames.
    public var isAnimating: Bool { spinner != nil }

    /// The earliest time the bar hides or a disconnected owner's key stops.
    public var nextDeadline: Instant? {
        Instant.earliest(bar?.hidesAt, loading.nextDeadline)
    }

    /// Events since the last call, oldest first.
    public mutating func drainEvents() -> [CoreEvent] {
        defer { events.removeAll() }
        return events
    }

    // MARK: Value bar

    /// Shows or updates the bar of `kind` and restarts its timeout (`timeout` or the configured one).
    /// The value is clamped to 0...`barMaximum`; the returned warning says when it was.
    @discardableResult
    public mutating func showBar(kind: String, value: Int, muted: Bool = false, label: String? = nil,
                                 icon: String? = nil, timeout: Milliseconds? = nil,
                                 now: Instant) throws(HUDError) -> BarWarning? {
        let limits = config.limits
        let kind = kind.truncated(toUTF8Bytes: limits.nameBytes)
        guard !kind.isEmpty else { throw .emptyBarKind }

        var warning: BarWarning?
        var clamped = value
        if value < 0 {
            clamped = 0
            warning = .clampedToZero(requested: value)
        } else if value > config.barMaximum {
            clamped = config.barMaximum
            warning = .clampedToMaximum(requested: value, maximum: config.barMaximum)
        }

        // Same kind, still on screen: an update in place, which keeps its entrance time. (A bar past its
        // deadline counts as gone even if `advance` has not run yet.) The time alone is read: a copy of
        // the bar taken for it was an optional made and destroyed through value witnesses per value.
        let shownAt = bar.map { $0.kind == kind && $0.hidesAt > now ? $0.shownAt : now } ?? now
        bar = ValueBar(kind: kind, value: clamped, isMuted: muted,
                       label: label.truncatedOrNil(toUTF8Bytes: limits.nameBytes),
                       icon: icon.truncatedOrNil(toUTF8Bytes: limits.pathBytes),
                       shownAt: shownAt, updatedAt: now,
                       hidesAt: now + max(timeout ?? config.barTimeout, 0))
        generation += 1
        return warning
    }

    /// Something the HUD shows changed outside the model (the picture of an icon it names was decoded):
    /// it is drawn again.
    public mutating func lookChanged() {
        generation += 1
    }

    /// Hides the bar now; returns whether one was shown.
    @discardableResult
    public mutating func hideBar() -> Bool {
        guard bar != nil else { return false }
        bar = nil
        generation += 1
        return true
    }

    // MARK: Loading spinner

    /// Starts (or claims) loading key `key`. `owner`'s disconnection stops it after a grace period unless
    /// `detach`. Returns whether the spinner changed: starting an already active key with the same label
    /// changes nothing.
    @discardableResult
    public mutating func loadingStart(key: String, label: String? = nil, owner: ClientID? = nil,
                                      detach: Bool = false, now: Instant) throws(HUDError) -> Bool {
        let limits = config.limits
        let key = key.truncated(toUTF8Bytes: limits.nameBytes)
        guard !key.isEmpty else { throw .emptyLoadingKey }
        guard loading.keys.count < config.maxLoadingKeys || loading.keys.contains(where: { $0.key == key }) else {
            throw .tooManyLoadingKeys
        }
        let wasActive = loading.spinner != nil
        let changed = loading.start(key, label: label.truncatedOrNil(toUTF8Bytes: limits.nameBytes),
                                    owner: owner, detach: detach, now: now)
        if changed { generation += 1 }
        if !wasActive { events.append(.loadingChanged(isActive: true)) }
        return changed
    }

    /// Stops loading key `key` (whoever started it); returns whether it was active.
    ///
    /// The owner of an attached key waits on its connection (`toast loading start` blocks until the key
    /// stops). When `requester`, someone else, stops that owner's last attached key, the owner is
    /// released (`CoreEvent.loadingOwnerReleased`) so its front door can let it go.
    @discardableResult
    public mutating func loadingStop(key: String, requester: ClientID? = nil) -> Bool {
        let before = loading.spinner
        let owner = loading.keys.first { $0.key == key && !$0.isDetached }?.owner
        guard loading.stop(key) else { return false }
        afterLoadingChange(from: before)
        if let owner, owner != requester, !loading.keys.contains(where: { $0.owner == owner && !$0.isDetached }) {
            events.append(.loadingOwnerReleased(owner))
        }
        return true
    }

    /// `client` went away: its attached keys stop after `config.loadingGrace` unless started again.
    public mutating func ownerDisconnected(_ client: ClientID, now: Instant) {
        loading.ownerDisconnected(client, grace: config.loadingGrace, now: now)
    }

    // MARK: Time

    /// Hides the bar and stops orphaned loading keys when their time has come.
    public mutating func advance(to now: Instant) {
        if let bar, bar.hidesAt <= now {
            hideBar()
        }
        let before = loading.spinner
        if loading.advance(to: now) {
            afterLoadingChange(from: before)
        }
    }

    private mutating func afterLoadingChange(from before: Spinner?) {
        let after = loading.spinner
        if after != before { generation += 1 }
        if before != nil && after == nil { events.append(.loadingChanged(isActive: false)) }
    }
}
