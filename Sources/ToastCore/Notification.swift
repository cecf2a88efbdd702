import ToastVocabulary

/// The picture a notification carries besides its app icon.
public enum NotificationImage: Equatable, Sendable {
    case pixels(RGBAImage)
    case path(String)
    /// A large `image-data` not yet unpacked; the picture loader hands it to its worker at once, so
    /// the store never keeps one.
    case received(ReceivedImage)
}

/// A notification the store holds: what the client sent (validated), plus its id and timing.
public struct Notification: Identifiable, Equatable, Sendable {
    public internal(set) var id: NotificationID

    public var appName: String
    /// Icon name or path, as sent (`app_icon` on D-Bus); empty when none.
    public var appIcon: String
    public var summary: String
    /// Body text, possibly with the markup the D-Bus spec allows; empty when none.
    public var body: String
    public var actions: [NotificationAction]
    public var urgency: Urgency
    public var category: String?
    public var desktopEntry: String?
    public var expireTimeout: ExpireTimeout
    /// A progress bar value in 0...100, or nil for no bar.
    public var progress: Int?
    /// Notifications with the same tag (and app name) replace each other in place.
    public var tag: String?
    /// Transient notifications skip the history.
    public var isTransient: Bool
    /// Resident notifications stay after an action is invoked.
    public var isResident: Bool
    public var image: NotificationImage?
    /// Who sent it; events about it go there. Nil: nobody waits.
    public var origin: ClientID?
    /// What the daemon's rules decided about it when it arrived.
    public var rules: RuleDecision
    /// An alert (`toast alert`): drawn as a dialog that takes the keyboard, not as a toast.
    public var isAlert: Bool
    /// `x-kde-reply-placeholder-text`, when sent (`InlineReply`).
    public var replyPlaceholder: String?

    /// When the id first appeared (kept across replacements).
    public internal(set) var createdAt: Instant
    /// When the content last changed (creation, replacement or restore).
    public internal(set) var updatedAt: Instant
    /// Changes whenever what is drawn of it changes (created, replaced, restored, its picture
    /// arrived), even twice within a millisecond: a renderer may cache its drawing by this.
    public internal(set) var revision: UInt64 = 0
    /// When it last became visible; nil while hidden (do-not-disturb). The daemon may animate an entrance
    /// when this is recent; a replacement keeps it, so an update in place does not re-enter.
    public internal(set) var shownAt: Instant?
    /// When it closes itself, while its timeout runs; nil means never, or stopped (see `waitingTimeout`).
    public internal(set) var expiresAt: Instant?
    /// The time left of a timeout that does not run now: the notification is not on screen (under
    /// "+N more", held over a fullscreen window, hidden by do-not-disturb) or the seat is away. It
    /// runs again, from what was left, when both change (`NotificationStore` says when).
    public internal(set) var waitingTimeout: Milliseconds?
    /// Whether the daemon drew it and it has not left the screen since (`markDisplayed`).
    public internal(set) var isOnScreen = false
    /// Whether it came in a flood from its app (`FloodGate`): it is drawn as one toast with the other
    /// notifications of that flood.
    public internal(set) var isFlood = false

    /// Whether the renderer draws it.
    public var isVisible: Bool { shownAt != nil }

    /// The action a click invokes, if the client offered one.
    public var defaultAction: NotificationAction? {
        actions.first { $0.key == NotificationAction.defaultKey }
    }

    /// Actions shown as buttons (all but the default action).
    public var buttonActions: [NotificationAction] {
        actions.filter { $0.key != NotificationAction.defaultKey }
    }

    init(id: NotificationID, request: NotificationRequest, createdAt: Instant, now: Instant) {
        self.id = id
        appName = request.appName
        appIcon = request.appIcon
        summary = request.summary
        body = request.body
        actions = request.actions
        urgency = request.urgency
        category = request.category
        desktopEntry = request.desktopEntry
        expireTimeout = request.expireTimeout
        progress = request.progress
        tag = request.tag
        isTransient = request.isTransient
        isResident = request.isResident
        image = request.image
        origin = request.origin
        rules = request.rules
        replyPlaceholder = request.replyPlaceholder
        isAlert = request.isAlert
        self.createdAt = createdAt
        updatedAt = now
        shownAt = nil
        expiresAt = nil
        waitingTimeout = nil
    }
}

/// A closed notification kept for `restoreLast` and for listing.
public struct HistoryEntry: Equatable, Sendable {
    public var notification: Notification
    public var reason: CloseReason
    public var closedAt: Instant
}
