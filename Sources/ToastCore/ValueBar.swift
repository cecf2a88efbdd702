import ToastVocabulary

/// A value bar (volume, brightness, mic, ...), as the renderer draws it.
public struct ValueBar: Equatable, Sendable {
    /// What it measures; a new value of the same kind updates the bar in place.
    public var kind: String
    /// In 0...`HUDConfig.barMaximum`; above 100 is drawn as overflow.
    public var value: Int
    public var isMuted: Bool
    public var label: String?
    public var icon: String?
    /// When this kind of bar appeared; kept across updates in place so the daemon animates one entrance.
    public var shownAt: Instant
    public var updatedAt: Instant
    /// When it hides unless updated again.
    public var hidesAt: Instant

    public init(kind: String, value: Int, isMuted: Bool = false, label: String? = nil, icon: String? = nil,
                shownAt: Instant, updatedAt: Instant, hidesAt: Instant) {
        self.kind = kind
        self.value = value
        self.isMuted = isMuted
        self.label = label
        self.icon = icon
        self.shownAt = shownAt
        self.updatedAt = updatedAt
        self.hidesAt = hidesAt
    }

    /// Whether the value exceeds 100% (over-amplified volume).
    public var isOverflowing: Bool { value > 100 }
}

/// A value the model changed to fit; returned to the client as a warning, not an error.
public enum BarWarning: Equatable, Sendable {
    case clampedToZero(requested: Int)
    case clampedToMaximum(requested: Int, maximum: Int)
}
