import ToastVocabulary

/// What a client asks for: the content of a notification and what it replaces.
///
/// Both front doors build one of these (D-Bus `Notify` and the `toast` CLI) and hand it to
/// `ToastModel.notify`, which validates it.
public struct NotificationRequest: Equatable, Sendable {
    public var appName: String
    public var appIcon = ""
    public var summary: String
    public var body: String
    public var actions: [NotificationAction] = []
    public var urgency = Urgency.normal
    public var category: String?
    public var desktopEntry: String?
    public var expireTimeout = ExpireTimeout.serverDefault
    /// Clamped to 0...100.
    public var progress: Int?
    /// `x-canonical-private-synchronous`, `x-dunst-stack-tag` or the CLI's `--tag`.
    public var tag: String?
    public var isTransient = false
    public var isResident = false
    public var image: NotificationImage?
    /// What the client asked to be played when it shows (`sound-file`, `sound-name`).
    public var sound: NotificationSound?
    /// `suppress-sound`: nothing is played, whatever the hints or rules say.
    public var suppressSound = false
    /// An alert (`toast alert`): drawn as a dialog that takes the keyboard, not as a toast.
    public var isAlert = false
    /// `x-kde-reply-placeholder-text`: the reply field's placeholder (`InlineReply`).
    public var replyPlaceholder: String?
    /// The id to replace in place; 0 means none. An unknown id gets a new notification (like mako).
    public var replacesID: NotificationID = 0
    public var origin: ClientID?
    /// What the daemon's rules decided (timeout, invisibility); none by default.
    public var rules = RuleDecision()

    public init(appName: String = "", summary: String = "", body: String = "") {
        self.appName = appName
        self.summary = summary
        self.body = body
    }

    /// This request with every value brought within `limits`, or the reason it cannot be shown.
    func validated(limits: TextLimits) throws(NotificationError) -> NotificationRequest {
        var request = self
        request.appName = appName.truncated(toUTF8Bytes: limits.nameBytes)
        request.appIcon = appIcon.truncated(toUTF8Bytes: limits.pathBytes)
        request.summary = summary.truncated(toUTF8Bytes: limits.summaryBytes)
        request.body = body.truncated(toUTF8Bytes: limits.bodyBytes)
        request.category = category.truncatedOrNil(toUTF8Bytes: limits.nameBytes)
        request.desktopEntry = desktopEntry.truncatedOrNil(toUTF8Bytes: limits.nameBytes)
        request.tag = tag.truncatedOrNil(toUTF8Bytes: limits.nameBytes)
        request.replyPlaceholder = replyPlaceholder.truncatedOrNil(toUTF8Bytes: limits.nameBytes)
        request.progress = progress.map { min(max($0, 0), 100) }
        request.sound = sound?.truncated(toUTF8Bytes: limits.pathBytes)
        request.actions = Self.validatedActions(actions, limits: limits)

        switch expireTimeout {
        case .after(let milliseconds) where milliseconds == 0: request.expireTimeout = .never
        case .after(let milliseconds) where milliseconds < 0: request.expireTimeout = .serverDefault
        default: break
        }

        switch image {
        case .pixels(let raw): try Self.checkImage(raw, limits: limits)
        case .received(let raw):
            let sides = 1...limits.maxImageSide
            guard sides.contains(raw.width), sides.contains(raw.height) else {
                throw .invalidImage("size \(raw.width)x\(raw.height) outside 1...\(limits.maxImageSide)")
            }
        case .path(let path): request.image = path.isEmpty ? nil : .path(path.truncated(toUTF8Bytes: limits.pathBytes))
        case nil: break
        }
        // Nothing to show at all is still shown (an empty box with the app name, as mako does): the
        // specification allows it, and a client that sends one expects an id and a NotificationClosed.
        return request
    }

    /// The sound to play when it shows: none when suppressed, else what the rules decided (which may be
    /// silence), else what the client asked for.
    public var soundToPlay: NotificationSound? {
        if suppressSound { return nil }
        if let ruled = rules.sound { return ruled }
        return sound
    }

    /// Drops actions with an empty key and repeated keys (the first wins), caps count and lengths.
    private static func validatedActions(_ actions: [NotificationAction], limits: TextLimits) -> [NotificationAction] {
        var seen: Set<String> = []
        var result: [NotificationAction] = []
        for action in actions where result.count < limits.maxActions {
            let key = action.key.truncated(toUTF8Bytes: limits.nameBytes)
            guard !key.isEmpty, seen.insert(key).inserted else { continue }
            result.append(NotificationAction(key: key, label: action.label.truncated(toUTF8Bytes: limits.nameBytes)))
        }
        return result
    }

    private static func checkImage(_ image: RGBAImage, limits: TextLimits) throws(NotificationError) {
        let sides = 1...limits.maxImageSide
        guard sides.contains(image.width), sides.contains(image.height) else {
            throw .invalidImage("size \(image.width)x\(image.height) outside 1...\(limits.maxImageSide)")
        }
        guard image.pixels.count == image.width * image.height * 4 else {
            throw .invalidImage("\(image.pixels.count) bytes for \(image.width)x\(image.height) RGBA")
        }
    }
}

/// A sound to play when a notification shows: a file, or a name looked up in the XDG sound theme.
public enum NotificationSound: Equatable, Sendable {
    case file(String)
    case name(String)

    func truncated(toUTF8Bytes limit: Int) -> NotificationSound {
        switch self {
        case .file(let path): .file(path.truncated(toUTF8Bytes: limit))
        case .name(let name): .name(name.truncated(toUTF8Bytes: limit))
        }
    }
}
