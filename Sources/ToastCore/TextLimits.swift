import ToastVocabulary

/// Caps on what clients may send. Longer strings are truncated (on a character boundary), longer
/// lists are cut; nothing here is an error, so a chatty client still gets its notification shown.
public struct TextLimits: Equatable, Sendable {
    /// Caps in UTF-8 bytes.
    public var summaryBytes = 1024
    public var bodyBytes = 16 * 1024
    public var nameBytes = 256          // app name, category, desktop entry, tag, action key and label, HUD kind and labels
    public var pathBytes = 4096         // app icon and image path
    /// Actions beyond this many are dropped.
    public var maxActions = 10
    /// Raw images wider or taller than this are refused (a 1024×1024 RGBA image is 4 MiB).
    public var maxImageSide = 1024

    public init() {}
}

extension String {
    /// The longest prefix of whole characters (grapheme clusters) that fits in `maxBytes` UTF-8 bytes.
    func truncated(toUTF8Bytes maxBytes: Int) -> String {
        if utf8.count <= maxBytes { return self }
        var bytes = 0
        var end = startIndex
        for character in self {
            bytes += character.utf8.count
            if bytes > maxBytes { break }
            end = index(after: end)
        }
        return String(self[..<end])
    }
}

extension Optional<String> {
    /// Truncates like `String.truncated(toUTF8Bytes:)`; an empty string becomes nil.
    func truncatedOrNil(toUTF8Bytes maxBytes: Int) -> String? {
        guard let self, !self.isEmpty else { return nil }
        return self.truncated(toUTF8Bytes: maxBytes)
    }
}
