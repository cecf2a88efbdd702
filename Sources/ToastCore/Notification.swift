/// A notification id as on D-Bus: never 0 (0 means "none" in `replaces_id`).
public typealias NotificationID = UInt32

/// How urgent a notification is (the D-Bus `urgency` hint byte).
public enum Urgency: UInt8, Comparable, CaseIterable, Sendable {
    case low = 0
    case normal = 1
    case critical = 2

    /// The D-Bus hint byte; values other than 0, 1, 2 count as normal.
    public init(dbusValue: UInt8) {
        self = Urgency(rawValue: dbusValue) ?? .normal
    }

    public static func < (lhs: Urgency, rhs: Urgency) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How long a notification stays, as the client asked (`expire_timeout` on D-Bus).
public enum ExpireTimeout: Hashable, Sendable {
    /// The server's default for the notification's urgency (D-Bus -1).
    case serverDefault
    /// Stays until closed (D-Bus 0).
    case never
    /// Closes itself this many milliseconds after it was (re)shown; values ≤ 0 are normalized away.
    case after(Milliseconds)

    /// The D-Bus `expire_timeout` argument: -1 (or any negative) default, 0 never, N > 0 milliseconds.
    public init(dbusValue: Int32) {
        if dbusValue == 0 {
            self = .never
        } else if dbusValue > 0 {
            self = .after(Milliseconds(dbusValue))
        } else {
            self = .serverDefault
        }
    }
}

/// A button on a notification. The action with key `"default"` is the click on the notification itself.
public struct NotificationAction: Hashable, Sendable {
    public static let defaultKey = "default"

    public var key: String
    public var label: String

    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }

    /// Pairs up the flat D-Bus `actions` list `[key, label, key, label, ...]`; a trailing odd key is dropped.
    public static func fromDBusList(_ list: [String]) -> [NotificationAction] {
        stride(from: 0, to: list.count - 1, by: 2).map { NotificationAction(key: list[$0], label: list[$0 + 1]) }
    }
}

/// Pixels of an image: 8-bit R, G, B, A per pixel, rows top to bottom with no padding, straight
/// (not premultiplied) alpha. The D-Bus front door converts `image-data` (rowstride, RGB or RGBA) to this.
public struct RGBAImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// The picture a notification carries besides its app icon.
public enum NotificationImage: Equatable, Sendable {
    case pixels(RGBAImage)
    case path(String)
}

/// Why a notification closed, with the D-Bus `NotificationClosed` reason values.
public enum CloseReason: UInt32, Sendable {
    case expired = 1
    case dismissed = 2
    case closedByCall = 3
    case undefined = 4
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

    /// When the id first appeared (kept across replacements).
    public internal(set) var createdAt: Instant
    /// When the content last changed (creation, replacement or restore).
    public internal(set) var updatedAt: Instant
    /// When it last became visible; nil while hidden (do-not-disturb). The daemon may animate an entrance
    /// when this is recent; a replacement keeps it, so an update in place does not re-enter.
    public internal(set) var shownAt: Instant?
    /// When it closes itself; nil means never.
    public internal(set) var expiresAt: Instant?

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
        self.createdAt = createdAt
        updatedAt = now
        shownAt = nil
        expiresAt = nil
    }
}

/// A closed notification kept for `restoreLast` and for listing.
public struct HistoryEntry: Equatable, Sendable {
    public var notification: Notification
    public var reason: CloseReason
    public var closedAt: Instant
}
