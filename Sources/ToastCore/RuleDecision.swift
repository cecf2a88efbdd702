import ToastVocabulary

/// What the daemon's configured rules (criteria sections) decided about one notification's behaviour.
/// The daemon matches its rules when the notification arrives and hands the outcome in with the
/// request; the store only obeys it, so the model stays free of configuration syntax.
public struct RuleDecision: Equatable, Sendable {
    /// Replaces the configured default timeout of the notification's urgency (nil inside: never).
    /// Absent: the configured default applies.
    public var defaultTimeout: Milliseconds??
    /// The client's own timeout is ignored and the default (above, or the configured one) applies.
    public var ignoresClientTimeout = false
    /// Accepted, listed, signalled and kept in the history as usual, but never drawn; its timeout runs
    /// at once, as a toast held back by do-not-disturb does.
    public var isInvisible = false
    /// Replaces the sound the client asked for (nil inside: none). Absent: the client's applies.
    public var sound: NotificationSound??

    public init(defaultTimeout: Milliseconds?? = nil, ignoresClientTimeout: Bool = false, isInvisible: Bool = false,
                sound: NotificationSound?? = nil) {
        self.defaultTimeout = defaultTimeout
        self.ignoresClientTimeout = ignoresClientTimeout
        self.isInvisible = isInvisible
        self.sound = sound
    }
}
