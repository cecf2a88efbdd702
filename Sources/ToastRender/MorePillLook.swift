/// How the "+N more" pill is drawn when the configuration restyles it (mako's `[hidden]` section).
/// Every field left nil keeps the pill's own look: the style's background and body colour, a
/// one-pixel border of the low-urgency colour, round ends, the action font.
public struct MorePillLook: Hashable, Sendable {
    /// The pill's text as Pango markup already known to be valid; nil: "+N more".
    public var text: String?
    public var background: Color?
    public var textColor: Color?
    public var borderColor: Color?
    /// Logical pixels.
    public var borderWidth: Double?
    /// Logical pixels; nil: half the pill's height (round ends).
    public var cornerRadius: Double?
    /// A Pango font description.
    public var font: String?
    /// Logical pixels around the text, on every side.
    public var padding: Int?

    public init(text: String? = nil, background: Color? = nil, textColor: Color? = nil, borderColor: Color? = nil,
                borderWidth: Double? = nil, cornerRadius: Double? = nil, font: String? = nil, padding: Int? = nil) {
        self.text = text; self.background = background; self.textColor = textColor; self.borderColor = borderColor
        self.borderWidth = borderWidth; self.cornerRadius = cornerRadius; self.font = font; self.padding = padding
    }
}
