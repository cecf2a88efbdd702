import ToastConfig
import ToastRender
import ToastVocabulary

/// The pictures beside a value bar: the theme's icon for what the bar shows (a volume level, the
/// brightness, the microphone) or the one `toast hud --icon NAME` names, found the way a toast's
/// icon is and recoloured like any symbolic icon. Made once per name, size and colour, so a stream
/// of values costs a dictionary lookup a frame; nil (the renderer's drawn glyph) when the theme has
/// none.
package struct HudIcons {
    /// The side of the glyph box beside the bar, in logical pixels (`ToastRenderer.hudGlyphSize`).
    package static let side = ToastRenderer.hudGlyphSize

    private struct Key: Hashable {
        var names: [String]
        var scale: Int
        var tint: Color
    }

    private var made: [Key: RGBAImage?] = [:]
    /// Distinct icons kept: a volume bar uses four, brightness and microphone a few more.
    private let capacity = 32

    /// What a bar's value and mute say of its icon: the level `names` picks by.
    private enum Level: Equatable {
        case muted, low, medium, high

        init(value: Int, muted: Bool) {
            self = muted || value <= 0 ? .muted : value < 34 ? .low : value < 67 ? .medium : .high
        }
    }

    /// The last few answers, by the bar's own icon name and level: a stream of values (a volume key held
    /// down goes back and forth over a level or two) finds its icon here without making the names and
    /// hashing them, which cost more than the rest of a value's scene.
    private var recent: [(name: String, level: Level, scale: Int, tint: Color, image: RGBAImage?)] = []
    private let recentCapacity = 4

    /// The icon names tried for a bar, best first: for a HUD kind, the freedesktop names a desktop
    /// shows for it at this value (volume and microphone by level: muted at 0 or muted, low under
    /// 34 %, medium under 67 %, else high), symbolic first; any other name as it is.
    package static func names(for iconName: String, value: Int, muted: Bool) -> [String] {
        func level() -> String {
            switch Level(value: value, muted: muted) {
            case .muted: "muted"
            case .low: "low"
            case .medium: "medium"
            case .high: "high"
            }
        }
        let stems: [String]
        switch HudKinds.kind(named: iconName)?.name {
        case "volume": stems = ["audio-volume-\(level())"]
        case "mic":
            let level = level()
            stems = level == "muted" || level == "high" ? ["microphone-sensitivity-\(level)"]
                : ["microphone-sensitivity-\(level)", "microphone-sensitivity-high"]
        case "brightness": stems = ["display-brightness"]
        default: return [iconName]
        }
        return stems.flatMap { [$0 + "-symbolic", $0] }
    }

    /// Forgets every icon (a configuration reload: the theme may have changed).
    package mutating func forget() {
        made = [:]
        recent = []
    }

    /// `bar` with the picture its icon name finds, made by `load` (name, pixel side, the colour a
    /// symbolic icon takes: the bar's text colour, `style`'s caption colour while muted) the first time.
    package mutating func decorate(_ bar: HudBarView, scale: Int, style: ToastStyle,
                           load: (String, Int, Color) -> RGBAImage?) -> HudBarView {
        decorate(bar, scale: scale, text: style.summaryColor, muted: style.captionColor, load: load)
    }

    /// `decorate` with the style's two colours: `text` for the icon, `muted` while the bar is muted.
    package mutating func decorate(_ bar: HudBarView, scale: Int, text: Color, muted: Color,
                           load: (String, Int, Color) -> RGBAImage?) -> HudBarView {
        guard let iconName = bar.iconName, !iconName.isEmpty else { return bar }
        let tint = bar.muted ? muted : text
        let level = Level(value: bar.value, muted: bar.muted)
        var bar = bar
        if let hit = recent.first(where: { $0.level == level && $0.scale == scale && $0.name == iconName && $0.tint == tint }) {
            bar.icon = hit.image
            return bar
        }
        let image = made(Key(names: Self.names(for: iconName, value: bar.value, muted: bar.muted), scale: scale, tint: tint),
                         load: load)
        if recent.count >= recentCapacity { recent.removeFirst() }
        recent.append((iconName, level, scale, tint, image))
        bar.icon = image
        return bar
    }

    private mutating func made(_ key: Key, load: (String, Int, Color) -> RGBAImage?) -> RGBAImage? {
        if let hit = made[key] { return hit }
        if made.count >= capacity { made = [:] }
        let side = max(1, Self.side * key.scale)
        var image: RGBAImage?
        for name in key.names where image == nil { image = load(name, side, key.tint) }
        made[key] = image
        return image
    }

    package init() {
    }
}
