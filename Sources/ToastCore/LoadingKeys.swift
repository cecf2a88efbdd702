import ToastVocabulary

/// One reason for the loading spinner to spin.
public struct LoadingKey: Equatable, Sendable {
    public var key: String
    public var label: String?
    /// The client that started it; nil for none.
    public var owner: ClientID?
    /// Detached keys outlive their owner's connection.
    public var isDetached: Bool
    public var startedAt: Instant
    /// Set when the owner disconnected: the key stops then unless it is started again before.
    public var stopsAt: Instant?
}

/// What the renderer needs to draw the spinner.
public struct Spinner: Equatable, Sendable {
    /// The label of the most recently started key that has one: a key started without a label (a
    /// second script joining the spinner) does not blank the one it was given.
    public var label: String?
    /// When the spinner became active (to phase the animation and fade it in).
    public var since: Instant

    public init(label: String?, since: Instant) {
        self.label = label
        self.since = since
    }
}

/// The set of active loading keys. The spinner is active while at least one key is.
///
/// Keys form a set: starting an active key again does not stack (one stop stops it).
struct LoadingKeys: Sendable {
    /// Active keys, oldest first.
    private(set) var keys: [LoadingKey] = []
    private(set) var activeSince: Instant?

    var spinner: Spinner? {
        activeSince.map { since in Spinner(label: keys.last(where: { $0.label != nil })?.label, since: since) }
    }

    /// Starts a key, or claims an active one (new owner and detach, grace cancelled, label updated).
    /// Returns whether what the spinner shows changed.
    mutating func start(_ key: String, label: String?, owner: ClientID?, detach: Bool, now: Instant) -> Bool {
        let before = spinner
        if let index = keys.firstIndex(where: { $0.key == key }) {
            keys[index].owner = owner
            keys[index].isDetached = detach
            keys[index].stopsAt = nil
            keys[index].label = label
            return spinner != before
        }
        keys.append(LoadingKey(key: key, label: label, owner: owner, isDetached: detach, startedAt: now))
        if activeSince == nil { activeSince = now }
        return spinner != before
    }

    /// Stops a key; returns whether it was active.
    mutating func stop(_ key: String) -> Bool {
        guard let index = keys.firstIndex(where: { $0.key == key }) else { return false }
        keys.remove(at: index)
        if keys.isEmpty { activeSince = nil }
        return true
    }

    /// Schedules the stop of `client`'s attached keys after `grace`.
    mutating func ownerDisconnected(_ client: ClientID, grace: Milliseconds, now: Instant) {
        for index in keys.indices where keys[index].owner == client && !keys[index].isDetached {
            keys[index].stopsAt = keys[index].stopsAt ?? now + grace
        }
    }

    var nextDeadline: Instant? {
        keys.compactMap(\.stopsAt).min()
    }

    /// Stops the keys whose grace ran out; returns whether any did.
    mutating func advance(to now: Instant) -> Bool {
        let due = keys.filter { $0.stopsAt.map { $0 <= now } ?? false }
        for key in due { _ = stop(key.key) }
        return !due.isEmpty
    }
}
