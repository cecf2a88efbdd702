/// A hint's value, whichever door it came through. D-Bus sends variants of many integer types and
/// `(iiibiiay)` image structures; the control socket sends notify-send's `TYPE:NAME:VALUE`. Both are
/// brought to this form, and one interpreter (ToastCore's `HintInterpreter`) reads it.
public enum HintValue: Equatable, Sendable {
    /// Any integer type (`y`, `n`, `q`, `i`, `u`, `x`, `t`; the CLI's `int` and `byte`).
    case integer(Int64)
    case double(Double)
    /// `s`, `o`, `g`.
    case string(String)
    case boolean(Bool)
    /// An `image-data`, `image_data` or `icon_data` structure, already validated and packed.
    case image(RGBAImage)
    /// A large image structure, validated but left where it arrived (see `ReceivedImage`).
    case receivedImage(ReceivedImage)

    /// An integer; a boolean counts as 0 or 1.
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .boolean(let value): value ? 1 : 0
        default: nil
        }
    }

    /// A boolean; an integer counts as true when nonzero (some apps send `transient` as `i`).
    public var boolean: Bool? {
        switch self {
        case .boolean(let value): value
        case .integer(let value): value != 0
        default: nil
        }
    }

    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// The hint names toastd reads (spec 1.2 and the common extensions). Others are skipped unread.
public enum HintName {
    public static let urgency = "urgency"
    public static let category = "category"
    public static let desktopEntry = "desktop-entry"
    public static let imageData = "image-data"
    /// Deprecated spelling of `image-data` (spec 1.1).
    public static let imageDataDeprecated = "image_data"
    /// Deprecated since spec 1.1; used only when there is no other picture.
    public static let iconData = "icon_data"
    public static let imagePath = "image-path"
    /// Deprecated spelling of `image-path` (spec 1.1).
    public static let imagePathDeprecated = "image_path"
    public static let transient = "transient"
    public static let resident = "resident"
    /// A progress value, usually 0...100.
    public static let value = "value"
    /// Replace-by-tag, as dunst names it (wins over the canonical one when both are sent).
    public static let dunstStackTag = "x-dunst-stack-tag"
    /// Replace-by-tag, as Ubuntu's notify-osd named it (volume and brightness scripts send it).
    public static let canonicalSynchronous = "x-canonical-private-synchronous"

    /// A sound file to play when the notification shows (a path or a `file://` URI).
    public static let soundFile = "sound-file"
    /// A sound to play, named in the XDG sound theme (`message-new-instant`).
    public static let soundName = "sound-name"
    /// Play no sound, whatever else says to.
    public static let suppressSound = "suppress-sound"
    /// The placeholder of a reply field (KDE's name; swaync reads it too): a notification carrying it
    /// takes an inline reply (`InlineReply`).
    public static let replyPlaceholder = "x-kde-reply-placeholder-text"

    /// Hints carrying `(iiibiiay)` image structures.
    public static let images: Set<String> = [imageData, imageDataDeprecated, iconData]

    /// Every hint read; a door may skip all others without decoding them.
    public static let known: Set<String> = [
        urgency, category, desktopEntry, imageData, imageDataDeprecated, iconData, imagePath,
        imagePathDeprecated, transient, resident, value, dunstStackTag, canonicalSynchronous,
        soundFile, soundName, suppressSound, replyPlaceholder,
    ]
}
