import ToastVocabulary

/// A closed notification as it outlives the daemon (the history file): its text, actions and facts,
/// why it closed, and when, on the wall clock.
///
/// Pictures are not kept (an icon name or path in `appIcon` is: it is text), nor the sender, nor what
/// the rules decided. Times are wall-clock milliseconds since the epoch because the model's monotonic
/// clock starts again with the machine; `HistoryEntry` ↔ record conversions take the difference
/// between the two clocks now (`wallMinusMonotonic`).
public struct HistoryRecord: Equatable, Sendable {
    public var id: NotificationID
    public var appName: String
    public var appIcon: String
    public var summary: String
    public var body: String
    public var actions: [NotificationAction]
    public var urgency: Urgency
    public var category: String?
    public var desktopEntry: String?
    public var tag: String?
    public var progress: Int?
    public var isResident: Bool
    public var expireTimeout: ExpireTimeout
    public var reason: CloseReason
    /// When it first appeared, wall-clock milliseconds.
    public var createdAt: Int64
    /// When it was last shown (nil: never, do-not-disturb held it back), wall-clock milliseconds.
    public var shownAt: Int64?
    /// When it closed, wall-clock milliseconds.
    public var closedAt: Int64

    public init(id: NotificationID, summary: String, reason: CloseReason, createdAt: Int64, closedAt: Int64) {
        self.id = id
        appName = ""
        appIcon = ""
        self.summary = summary
        body = ""
        actions = []
        urgency = .normal
        isResident = false
        expireTimeout = .serverDefault
        self.reason = reason
        self.createdAt = createdAt
        self.closedAt = closedAt
    }

    /// The record of a history entry; monotonic times become wall-clock ones.
    public init(_ entry: HistoryEntry, wallMinusMonotonic offset: Int64) {
        let n = entry.notification
        self.init(id: n.id, summary: n.summary, reason: entry.reason,
                  createdAt: n.createdAt.milliseconds &+ offset, closedAt: entry.closedAt.milliseconds &+ offset)
        appName = n.appName
        appIcon = n.appIcon
        body = n.body
        actions = n.actions
        urgency = n.urgency
        category = n.category
        desktopEntry = n.desktopEntry
        tag = n.tag
        progress = n.progress
        isResident = n.isResident
        expireTimeout = n.expireTimeout
        shownAt = n.shownAt.map { $0.milliseconds &+ offset }
    }

    /// The history entry this record describes, on the monotonic clock. Text is brought within
    /// `limits` as a request's is: the file may have been written by hand, or by an older toastd.
    public func entry(wallMinusMonotonic offset: Int64, limits: TextLimits = TextLimits()) -> HistoryEntry {
        var request = NotificationRequest(appName: appName, summary: summary, body: body)
        request.appIcon = appIcon
        request.actions = actions
        request.urgency = urgency
        request.category = category
        request.desktopEntry = desktopEntry
        request.tag = tag
        request.progress = progress
        request.isResident = isResident
        request.expireTimeout = expireTimeout
        // No picture can fail validation, so this never throws; the fallback keeps the types honest.
        let valid = (try? request.validated(limits: limits)) ?? request
        let created = Instant(milliseconds: createdAt &- offset)
        var notification = Notification(id: id, request: valid, createdAt: created, now: created)
        notification.shownAt = shownAt.map { Instant(milliseconds: $0 &- offset) }
        return HistoryEntry(notification: notification, reason: reason, closedAt: Instant(milliseconds: closedAt &- offset))
    }
}
