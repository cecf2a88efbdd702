import ToastRender

/// The notification center's look and place: the `[center]` section of the configuration file
/// (docs/configuration.md). It spans the output's height at one side.
public struct CenterConfig: Equatable, Sendable {
    /// The side of the output the panel is on.
    public enum Side: String, CaseIterable, Equatable, Sendable { case left, right }

    public var side = Side.right
    /// The panel's width in logical pixels.
    public var width = 380
    /// Its distance from the output's edges.
    public var margin = 0
    public var background = Color(rgb: 0x1e1e2e, alpha: 0.96)
    /// An entry's card, and the header's buttons.
    public var cardColor = Color(rgb: 0x313244)
    public var textColor = Color(rgb: 0xcdd6f4)
    /// The focus ring, the do-not-disturb switch when on, the reply field's caret.
    public var accentColor = Color(rgb: 0x89b4fa)
    /// The body font; the summary is its bold, the app headings the same at 85 %.
    public var font = "Sans 10"
    public var summaryFont = "Sans Bold 10"
    public var smallFont = "Sans 8.5"

    public init() {}

    /// Whether a section header is `[center]` (blanks inside allowed, any case).
    package static func isHeader(_ line: Substring) -> Bool {
        line.hasSuffix("]") && line.dropFirst().dropLast().filter { $0 != " " && $0 != "\t" }.lowercased() == "center"
    }

    /// The keys a `[center]` section may set.
    package static var keys: [String] { uses.keys.sorted() }

    /// How each key of the `[center]` section is read and what it sets, in the key table's terms
    /// (`Use`, `Values`): the section is not a criteria section, so its keys are a small table of their own.
    package static let uses: [String: Use<CenterConfig>] = [
        "anchor": Use(Values.choice(of: Side.self, listed: .alternatives)) { $0.side = $1 },
        "width": Use(Values.wholeNumber(200...2000)) { $0.width = $1 },
        "margin": Use(Values.wholeNumber(0...1000)) { $0.margin = $1 },
        "background": Use(Values.colour) { $0.background = $1 },
        "card-color": Use(Values.colour) { $0.cardColor = $1 },
        "text-color": Use(Values.colour) { $0.textColor = $1 },
        "accent-color": Use(Values.colour) { $0.accentColor = $1 },
        "font": Use(Values.font) { $0.font = $1.body; $0.summaryFont = $1.bold; $0.smallFont = $1.small },
    ]

    /// Validates one `key = value` of the `[center]` section and returns how it changes the look.
    package static func setting(key: String, value: String) throws(SettingError) -> (inout CenterConfig) -> Void {
        guard let use = uses[key] else {
            throw SettingError("unknown key '\(Values.excerpt(key))' in [center] (known: \(keys.joined(separator: ", ")))")
        }
        return try use.read(key, value)
    }
}
