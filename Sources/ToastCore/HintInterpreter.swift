import ToastVocabulary

/// The one reading of notification hints. Both front doors bring their hints to `HintValue`s by name
/// and hand them here, so `notify-send -h …`, `toast -h …` and an app's D-Bus call mean the same.
public enum HintInterpreter {
    /// Sets what `hints` say on `request`. Hints of a type that makes no sense for their name are
    /// ignored, as are unknown names. Pictures follow the order of spec 1.2: `image-data`, then
    /// `image-path`, then `app_icon` (left to the picture loader: `request.image` stays nil), and
    /// `icon_data` only when there is no `app_icon` either.
    public static func apply(_ hints: [String: HintValue], to request: inout NotificationRequest) {
        if let level = hints[HintName.urgency]?.integer, let urgency = Urgency(specValue: level) {
            request.urgency = urgency
        }
        if let category = hints[HintName.category]?.string { request.category = category }
        if let entry = hints[HintName.desktopEntry]?.string { request.desktopEntry = entry }
        if let transient = hints[HintName.transient]?.boolean { request.isTransient = transient }
        if let resident = hints[HintName.resident]?.boolean { request.isResident = resident }
        if let value = hints[HintName.value]?.integer { request.progress = Int(clamping: value) }
        if let tag = nonEmpty(hints[HintName.dunstStackTag]?.string) ?? nonEmpty(hints[HintName.canonicalSynchronous]?.string) {
            request.tag = tag
        }
        if let file = nonEmpty(hints[HintName.soundFile]?.string) {
            request.sound = .file(path(fromImagePath: file))
        } else if let name = nonEmpty(hints[HintName.soundName]?.string) {
            request.sound = .name(name)
        }
        if let suppress = hints[HintName.suppressSound]?.boolean { request.suppressSound = suppress }
        if let placeholder = hints[HintName.replyPlaceholder]?.string { request.replyPlaceholder = placeholder }
        if let image = image(hints[HintName.imageData]) ?? image(hints[HintName.imageDataDeprecated]) {
            request.image = image
        } else if let path = nonEmpty(hints[HintName.imagePath]?.string) ?? nonEmpty(hints[HintName.imagePathDeprecated]?.string) {
            request.image = .path(Self.path(fromImagePath: path))
        } else if request.appIcon.isEmpty, let image = image(hints[HintName.iconData]) {
            request.image = image
        }
    }

    /// `file:///a%20b.png` → `/a b.png` (and `file://localhost/a` → `/a`); a path or an icon name
    /// unchanged.
    public static func path(fromImagePath value: String) -> String {
        guard value.hasPrefix("file://") else { return value }
        var rest = Substring(value.dropFirst("file://".count))
        if !rest.hasPrefix("/"), let slash = rest.firstIndex(of: "/") { rest = rest[slash...] }
        return percentDecoded(rest)
    }

    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), rest.count >= 2,
               let high = hexValue(rest[rest.startIndex]), let low = hexValue(rest[rest.startIndex + 1]) {
                bytes.append(high << 4 | low)
                rest = rest.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func image(_ value: HintValue?) -> NotificationImage? {
        switch value {
        case .image(let image): .pixels(image)
        case .receivedImage(let image): .received(image)
        default: nil
        }
    }

    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }
}
