import ToastVocabulary

/// What the renderer needs to draw one notification toast. The daemon maps its model to this.
public struct ToastView: Hashable, Sendable {
    /// One line, plain text (not markup), drawn bold and ellipsized.
    public var summary: String
    /// Desktop Notifications markup (`<b> <i> <u> <a href> <img>`); sanitized before use, wrapped, capped in height.
    public var body: String
    /// Drawn as a small caption above the summary; empty for none.
    public var appName: String
    public var urgency: Urgency
    /// 0...100 draws a progress bar (values outside are clamped); nil for none.
    public var progress: Int?
    /// Drawn beside, above or below the text (`ToastStyle.imageLocation`), scaled to fit `ToastStyle.imageSize`.
    public var image: RGBAImage?
    /// Action labels, drawn as pills under the text (the "default" action should be left out by the caller).
    public var actions: [String]
    /// The whole text of the toast as Pango markup the caller made valid (a `format`, mako's): drawn
    /// in place of the caption, summary and body, in the body's font and colour, wrapped and capped
    /// like the body. nil, the common case, draws `appName`, `summary` and `body`.
    public var formatted: String?
    /// Replaces the renderer's style for this toast alone (the daemon's criteria sections); nil, the
    /// common case, draws it with the renderer's.
    public var style: ToastStyle?
    /// The reply field drawn under the pills while the toast has the keyboard and takes a reply; nil,
    /// the common case, draws none.
    public var reply: ReplyFieldView?
    /// The index in `actions` of the button the keyboard chose (Tab on a toast that has the keyboard):
    /// drawn ringed in the urgency's accent, as the focused reply field is; nil, the common case, none.
    public var chosenAction: Int?

    public init(summary: String, body: String = "", appName: String = "", urgency: Urgency = .normal,
                progress: Int? = nil, image: RGBAImage? = nil, actions: [String] = [], style: ToastStyle? = nil, formatted: String? = nil) {
        self.summary = summary; self.body = body; self.appName = appName; self.urgency = urgency
        self.progress = progress; self.image = image; self.actions = actions; self.style = style
        self.formatted = formatted
    }
}

/// A toast's reply field (inline replies): the placeholder while nothing is typed, else the text
/// typed, with a caret while the field has the keyboard.
public struct ReplyFieldView: Hashable, Sendable {
    public var placeholder: String
    public var draft: String
    public var focused: Bool
    public init(placeholder: String, draft: String = "", focused: Bool = true) {
        self.placeholder = placeholder; self.draft = draft; self.focused = focused
    }
}

/// A value bar HUD (volume, brightness), like wob or SwayOSD.
public struct HudBarView: Hashable, Sendable {
    /// Shown above the bar on the left, e.g. "Volume".
    public var label: String
    /// A freedesktop icon name or a HUD kind (`volume`); without `icon`, names containing
    /// volume/audio/speaker, brightness/display, or mic get a drawn glyph, others none.
    public var iconName: String?
    /// The picture drawn left of the label instead of the glyph, fitted into its box
    /// (`ToastRenderer.hudGlyphSize`); the daemon finds it in the icon theme.
    public var icon: RGBAImage?
    /// Percent. Values past 100 are drawn as overflow in `ToastStyle.hudOverflowColor` (like wob); below 0 clamps.
    public var value: Int
    /// Draws the bar and glyph greyed out.
    public var muted: Bool
    public init(label: String, iconName: String? = nil, icon: RGBAImage? = nil, value: Int, muted: Bool = false) {
        self.label = label; self.iconName = iconName; self.icon = icon; self.value = value; self.muted = muted
    }
}

/// A loading indicator: a wheel of ticks rotated by `phase`, with an optional label at its right.
public struct SpinnerView: Hashable, Sendable {
    public var label: String?
    /// Rotation in turns, 0..<1 (other values wrap).
    public var phase: Double
    public init(label: String? = nil, phase: Double = 0) { self.label = label; self.phase = phase }
}

/// Either kind of HUD.
public enum HudView: Hashable, Sendable {
    case bar(HudBarView)
    case spinner(SpinnerView)
}
