/// The HUD bars toastd knows by name: each has its theme icons (by level, see ToastScene's `HudIcons`)
/// and a title. `toast hud` takes these names (and their other spellings) and refuses any other unless
/// told it is a bar of the user's own (`toast hud --custom fan 40`), so that a typo (`volum`) is an
/// error with a suggestion instead of a new bar named "Volum".
public enum HudKinds {
    /// A known bar: its name and the other names that mean the same bar (the icons are the same).
    public struct Kind: Sendable {
        public var name: String
        public var otherNames: [String]
    }

    /// Every known bar, in the order help and completions list them.
    public static let known: [Kind] = [
        Kind(name: "volume", otherNames: ["audio", "speaker", "sound"]),
        Kind(name: "mic", otherNames: ["microphone", "input"]),
        Kind(name: "brightness", otherNames: ["display", "backlight", "screen"]),
        // `toast osd brightness --leds NAME`'s bar: a keyboard backlight.
        Kind(name: "keyboard-brightness", otherNames: []),
    ]

    /// Every name `toast hud` takes without `--custom`: the kinds' names, then their other names.
    public static let names: [String] = known.map(\.name) + known.flatMap(\.otherNames)

    /// The known bar `name` means (any case), or nil.
    public static func kind(named name: String) -> Kind? {
        let lowered = name.lowercased()
        return known.first { $0.name == lowered || $0.otherNames.contains(lowered) }
    }
}
