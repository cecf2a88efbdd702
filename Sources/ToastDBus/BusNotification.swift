import ToastVocabulary

/// One `org.freedesktop.Notifications.Notify` call, parsed and validated.
///
/// Strings are passed as received (the body may hold the spec's markup subset; the renderer decides).
/// Hints absent from the call are nil or empty; the daemon applies its own defaults.
public struct BusNotification: Equatable, Sendable {
    /// Unique bus name of the caller (e.g. `:1.42`).
    public var sender: String
    /// Id to replace, or 0 for a new notification.
    public var replacesId: UInt32
    public var appName: String
    /// Icon name or path, as given (spec: the `app_icon` argument). Empty when none.
    public var appIcon: String
    public var summary: String
    public var body: String
    /// Actions in the caller's order. The key `default` is the click/default action.
    /// An odd-length action list loses its last (unpaired) element.
    public var actions: [NotificationAction]
    public var expiry: ExpireTimeout
    /// The hints toastd reads (`HintName.known`), by name, in the door-neutral form; others are
    /// skipped unread. An image hint that failed validation is left out (see `hintProblems`).
    public var hints: [String: HintValue]
    /// Why a hint was present but dropped (one line each, for the log).
    public var hintProblems: [String]

    public init(sender: String = "", replacesId: UInt32 = 0, appName: String = "", appIcon: String = "",
                summary: String = "", body: String = "", actions: [NotificationAction] = [],
                expiry: ExpireTimeout = .serverDefault, hints: [String: HintValue] = [:], hintProblems: [String] = []) {
        self.sender = sender
        self.replacesId = replacesId
        self.appName = appName
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.expiry = expiry
        self.hints = hints
        self.hintProblems = hintProblems
    }
}
