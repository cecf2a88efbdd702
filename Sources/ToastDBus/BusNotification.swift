/// One `org.freedesktop.Notifications.Notify` call, parsed and validated.
///
/// Strings are passed as received (the body may hold the spec's markup subset; the renderer decides).
/// Fields absent from the call are nil; the daemon applies its own defaults.
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
    public var actions: [BusAction]
    public var expiry: BusExpiry
    public var hints: BusHints

    public init(sender: String = "", replacesId: UInt32 = 0, appName: String = "", appIcon: String = "",
                summary: String = "", body: String = "", actions: [BusAction] = [],
                expiry: BusExpiry = .serverDefault, hints: BusHints = BusHints()) {
        self.sender = sender
        self.replacesId = replacesId
        self.appName = appName
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions
        self.expiry = expiry
        self.hints = hints
    }

    /// True when the caller offered a `default` (click) action.
    public var hasDefaultAction: Bool { actions.contains { $0.key == "default" } }
}

/// An action button: `key` is sent back in ActionInvoked, `label` is shown.
public struct BusAction: Equatable, Sendable {
    public var key: String
    public var label: String
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// The `expire_timeout` argument.
public enum BusExpiry: Equatable, Sendable {
    /// -1 (or any other negative value): the server decides.
    case serverDefault
    /// 0: stays until dismissed.
    case never
    /// Positive: milliseconds.
    case milliseconds(UInt32)

    public init(rawTimeout: Int32) {
        if rawTimeout < 0 { self = .serverDefault }
        else if rawTimeout == 0 { self = .never }
        else { self = .milliseconds(UInt32(rawTimeout)) }
    }
}

/// The `urgency` hint.
public enum BusUrgency: UInt8, Equatable, Sendable {
    case low = 0, normal = 1, critical = 2
}

/// The hints we understand. Unknown hints, and known hints of an unusable type, are ignored.
public struct BusHints: Equatable, Sendable {
    public var urgency: BusUrgency?
    public var category: String?
    public var desktopEntry: String?
    /// From `image-data`, else the deprecated `image_data`, else `icon_data`; validated and converted.
    public var image: BusImage?
    /// Why an image hint was present but dropped (for a log line), nil otherwise.
    public var imageProblem: String?
    /// From `image-path` (or deprecated `image_path`): a file path (a `file://` URI is turned into
    /// its path) or an icon name.
    public var imagePath: String?
    public var transient: Bool?
    public var resident: Bool?
    /// The `value` hint (progress, usually 0...100), as sent; not clamped.
    public var value: Int?
    /// Replace-by-tag key: `x-dunst-stack-tag`, else `x-canonical-private-synchronous`.
    public var stackTag: String?

    public init(urgency: BusUrgency? = nil, category: String? = nil, desktopEntry: String? = nil,
                image: BusImage? = nil, imageProblem: String? = nil, imagePath: String? = nil,
                transient: Bool? = nil, resident: Bool? = nil, value: Int? = nil, stackTag: String? = nil) {
        self.urgency = urgency
        self.category = category
        self.desktopEntry = desktopEntry
        self.image = image
        self.imageProblem = imageProblem
        self.imagePath = imagePath
        self.transient = transient
        self.resident = resident
        self.value = value
        self.stackTag = stackTag
    }
}

/// A validated image: RGBA, 8 bits per channel, straight (not premultiplied) alpha,
/// tightly packed (`width * 4` bytes per row).
public struct BusImage: Equatable, Sendable {
    public var width: Int
    public var height: Int
    /// `width * height * 4` bytes, rows top to bottom, R G B A.
    public var rgba: [UInt8]

    public init(width: Int, height: Int, rgba: [UInt8]) {
        self.width = width
        self.height = height
        self.rgba = rgba
    }
}
