/// The words of the Desktop Notifications specification, defined once for every part of toastd:
/// the model, both front doors (the control socket and D-Bus) and the CLI.
///
/// Each type carries both of its spellings: the number D-Bus sends and the name the control socket's
/// JSON and the configuration file use.

/// A notification id as on D-Bus: never 0 (0 means "none" in `replaces_id`).
public typealias NotificationID = UInt32

/// A duration in milliseconds: the one time unit of the model.
public typealias Milliseconds = Int64

/// How urgent a notification is. The raw value is its name (`low`, `normal`, `critical`); `specValue`
/// is the byte of the D-Bus `urgency` hint.
public enum Urgency: String, CaseIterable, Comparable, Sendable {
    case low
    case normal
    case critical

    /// The byte of the `urgency` hint: 0, 1, 2.
    public var specValue: UInt8 {
        switch self {
        case .low: 0
        case .normal: 1
        case .critical: 2
        }
    }

    /// The `urgency` hint's value; anything other than 0, 1, 2 is nil (the caller keeps its default).
    public init?(specValue: Int64) {
        switch specValue {
        case 0: self = .low
        case 1: self = .normal
        case 2: self = .critical
        default: return nil
        }
    }

    public static func < (lhs: Urgency, rhs: Urgency) -> Bool { lhs.specValue < rhs.specValue }
}

/// Why a notification closed. The raw value is the control socket's name; `specCode` is the reason
/// in D-Bus `NotificationClosed`.
public enum CloseReason: String, CaseIterable, Sendable {
    /// Its timeout ran out (1).
    case expired
    /// The user dismissed it (2).
    case dismissed
    /// A request closed it: D-Bus CloseNotification (3).
    case closedByCall = "closed"
    /// Any other reason (4), for instance the open-notification cap pushing out the oldest.
    case undefined

    /// The reason number of `NotificationClosed`.
    public var specCode: UInt32 {
        switch self {
        case .expired: 1
        case .dismissed: 2
        case .closedByCall: 3
        case .undefined: 4
        }
    }

    /// From a `NotificationClosed` reason number; nil outside 1...4.
    public init?(specCode: UInt32) {
        guard let reason = Self.allCases.first(where: { $0.specCode == specCode }) else { return nil }
        self = reason
    }
}

/// A button on a notification: `key` is reported back when it is invoked, `label` is shown. The action
/// with key `default` is the click on the notification itself.
public struct NotificationAction: Hashable, Sendable {
    /// The key of the default action (the click on the notification's body).
    public static let defaultKey = "default"

    public var key: String
    public var label: String

    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// How long a notification stays, as the client asked (`expire_timeout` on D-Bus, `expire_ms` on
/// the control socket, `-t` on the command line: the same convention everywhere).
public enum ExpireTimeout: Hashable, Sendable {
    /// The server's default for the notification's urgency (-1, or any negative value).
    case serverDefault
    /// Stays until closed (0).
    case never
    /// Closes itself this many milliseconds after it was first shown.
    case after(Milliseconds)

    /// -1 (or any negative) the server's default, 0 never, N > 0 milliseconds.
    public init(specValue: Int32) {
        if specValue == 0 {
            self = .never
        } else if specValue > 0 {
            self = .after(Milliseconds(specValue))
        } else {
            self = .serverDefault
        }
    }
}

/// Pixels of a picture: 8-bit R, G, B, A per pixel, rows top to bottom with no padding, straight
/// (not premultiplied) alpha. D-Bus `image-data` (any rowstride, RGB or RGBA) is converted to this.
public struct RGBAImage: Hashable, Sendable {
    public var width: Int
    public var height: Int
    /// `width * height * 4` bytes.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }
}

/// A large picture as it arrived, neither copied nor unpacked: an `image-data` whose bytes are still
/// in the D-Bus message that carried them. Copying the 33 MB of a 4K picture into fresh pages held the
/// loop for 20–50 ms; instead the picture worker reads the bytes where they are and shrinks them.
///
/// `owner` keeps the bytes alive (it holds the message). The last reference must go on the loop's
/// thread, since letting go of a message touches its bus: other threads only ever borrow `bytes`
/// while something on the loop keeps this object alive.
public final class ReceivedImage: @unchecked Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// Bytes from the start of one row to the next (at least `width * channels`).
    public let rowstride: Int
    /// 3 (RGB) or 4 (RGBA, straight alpha), 8 bits each.
    public let channels: Int
    /// `rowstride * (height - 1) + width * channels` bytes or more, valid while this object lives.
    public let bytes: UnsafeRawBufferPointer
    private let owner: AnyObject

    public init(width: Int, height: Int, rowstride: Int, channels: Int, bytes: UnsafeRawBufferPointer, owner: AnyObject) {
        self.width = width
        self.height = height
        self.rowstride = rowstride
        self.channels = channels
        self.bytes = bytes
        self.owner = owner
    }

    public static func == (a: ReceivedImage, b: ReceivedImage) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What toastd says about itself: `GetServerInformation`, `GetCapabilities`, `toast --version` and
/// `toastd --version` all read it here.
public enum ServerIdentity {
    public static let name = "toastd"
    public static let vendor = "toastd"
    /// toastd's version.
    public static let version = "0.1.0"
    /// The version of the Desktop Notifications specification implemented.
    public static let specVersion = "1.3"
    /// `GetCapabilities`: what the daemon draws and understands. `body-hyperlinks` is not offered:
    /// links are shown as their text (nothing here opens a URL).
    public static let capabilities = [
        "actions", "body", "body-markup", "icon-static", "persistence",
        "x-canonical-private-synchronous", "x-dunst-stack-tag", "inline-reply",
    ]
    /// Offered besides `capabilities` only while a sound player is available (`sound-command`).
    public static let soundCapability = "sound"
}

/// The specification's standard notification categories (`category` hint; `toast -c`).
public enum NotificationCategory {
    public static let standard = [
        "device", "device.added", "device.error", "device.removed",
        "email", "email.arrived", "email.bounced",
        "im", "im.error", "im.received",
        "network", "network.connected", "network.disconnected", "network.error",
        "presence", "presence.offline", "presence.online",
        "transfer", "transfer.complete", "transfer.error",
    ]
}
