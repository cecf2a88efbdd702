import ToastVocabulary

/// Everything about how toasts and HUDs look. The defaults are a dark translucent box in the spirit of mako,
/// with a thin border whose colour says the urgency. All lengths are logical pixels.
public struct ToastStyle: Hashable, Sendable {
    /// Fixed toast width; height follows the content.
    public var width = 360
    public var padding = 12
    public var cornerRadius = 10.0
    public var borderWidth = 1.5

    /// Pango font description strings (fontconfig resolves "Sans").
    public var font = "Sans 10"
    public var summaryFont = "Sans Bold 10.5"
    public var captionFont = "Sans 8.5"
    public var actionFont = "Sans 9"

    /// Box fill per urgency: critical has a faint red cast. The normal one is also the HUD's and the
    /// "+N more" pill's unless they have their own.
    public var backgrounds = PerUrgency(low: Color(rgb: 0x1c1d24, alpha: 0.93), normal: Color(rgb: 0x1c1d24, alpha: 0.93),
                                        critical: Color(rgb: 0x2a1b20, alpha: 0.95))
    public var summaryColor = Color(rgb: 0xf4f4f7)
    public var bodyColor = Color(rgb: 0xc6c8d2)
    public var captionColor = Color(rgb: 0x8a8d9b)
    public var linkColor = Color(rgb: 0x8cb4ff)

    /// Border colour per urgency (low is muted, critical is red).
    public var borders = PerUrgency(low: Color(rgb: 0x4a4d5c), normal: Color(rgb: 0x5b8def), critical: Color(rgb: 0xe5484d))
    /// Progress bar and accent colour per urgency.
    public var accents = PerUrgency(low: Color(rgb: 0x8a8d9b), normal: Color(rgb: 0x6a9cf6), critical: Color(rgb: 0xf0595e))
    public var trackColor = Color(rgb: 0xffffff, alpha: 0.12)

    /// Side of the square the notification image is fitted into (`max-icon-size`).
    public var imageSize = 48
    /// Rounds the picture's corners (`icon-border-radius`).
    public var imageCornerRadius = 6.0
    /// Space between the image and the text column.
    public var imageGap = 12
    /// Which side of the text the picture goes (`icon-location`).
    public var imageLocation = ImageLocation.left
    /// Whether pictures are drawn at all (`icons`); off, a toast lays out as if it had none.
    public var showsImages = true
    /// Body text taller than this is cut with an ellipsis.
    public var maxBodyHeight = 100
    public var progressHeight = 6

    public var actionPaddingX = 10
    public var actionPaddingY = 4
    public var actionSpacing = 6
    public var actionBackground = Color(rgb: 0xffffff, alpha: 0.08)
    public var actionBorder = Color(rgb: 0xffffff, alpha: 0.18)
    public var actionText = Color(rgb: 0xe4e5ec)

    /// The soft shadow under each toast (`shadow`, `shadow-color`, `shadow-radius`); nil: none.
    public var shadow: Shadow? = Shadow()

    /// How far the shadow reaches past a toast's box on every side, in logical pixels: the stack's
    /// surface is this much larger all round.
    public var shadowExtent: Int { shadow?.radius ?? 0 }

    /// Vertical space between stacked toasts.
    public var gap = 8
    /// Toasts beyond this many are summarized by a "+N more" pill.
    public var maxVisible = 5

    /// HUD (value bar and spinner) geometry.
    public var hudWidth = 300
    public var hudBarHeight = 8
    public var hudFont = "Sans 10"
    public var hudValueFont = "Sans Bold 10"
    /// The HUD box's fill and border; nil: the normal-urgency background and the low-urgency border.
    public var hudBackground: Color?
    public var hudBorder: Color?
    public var hudFill = Color(rgb: 0xeef0f6)
    public var hudOverflowColor = Color(rgb: 0xf0595e)
    public var hudMutedFill = Color(rgb: 0x6b6e7b)
    public var spinnerSize = 28
    public var spinnerColor = Color(rgb: 0xeef0f6)

    public init() {}

    /// A soft drop shadow: the box's shape, a little lower, blurred, in one colour.
    public struct Shadow: Hashable, Sendable {
        /// Its colour at the darkest, under the box.
        public var color = Color(rgb: 0x000000, alpha: 0.6)
        /// How far it reaches past the box, in logical pixels (the blur and the drop together).
        public var radius = 12
        /// How far down the shape is moved before blurring: a light from above.
        public var drop: Int { radius / 4 }

        public init(color: Color = Color(rgb: 0x000000, alpha: 0.6), radius: Int = 12) {
            self.color = color; self.radius = radius
        }
    }

    /// Where a toast's picture goes relative to its text, as mako's `icon-location` names it.
    public enum ImageLocation: String, CaseIterable, Hashable, Sendable {
        /// Beside the text, which is centred on it vertically when shorter.
        case left, right
        /// Above or below the text, centred across the toast; the text takes the whole width.
        case top, bottom
    }
}
