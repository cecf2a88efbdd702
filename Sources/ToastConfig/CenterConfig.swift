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
    package static let keys = ["anchor", "width", "margin", "background", "card-color", "text-color", "accent-color", "font"]

    /// Validates one `key = value` of the `[center]` section and returns how it changes the look.
    package static func setting(key: String, value: String) throws(ConfigParser.SettingError) -> (inout CenterConfig) -> Void {
        typealias SettingError = ConfigParser.SettingError
        func number(_ range: ClosedRange<Int>) throws(SettingError) -> Int {
            guard let n = Int(value), range.contains(n) else {
                throw SettingError("'\(key)' in [center] must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(value.prefix(40))'")
            }
            return n
        }
        switch key {
        case "anchor":
            guard let side = Side(rawValue: value.lowercased()) else {
                throw SettingError("'anchor' in [center] must be left or right, got '\(value.prefix(40))'")
            }
            return { $0.side = side }
        case "width":
            let n = try number(200...2000)
            return { $0.width = n }
        case "margin":
            let n = try number(0...1000)
            return { $0.margin = n }
        case "background":
            let c = try ConfigParser.colour(key, value)
            return { $0.background = c }
        case "card-color":
            let c = try ConfigParser.colour(key, value)
            return { $0.cardColor = c }
        case "text-color":
            let c = try ConfigParser.colour(key, value)
            return { $0.textColor = c }
        case "accent-color":
            let c = try ConfigParser.colour(key, value)
            return { $0.accentColor = c }
        case "font":
            let fonts = try ConfigParser.fontSet(key, value)
            return { $0.font = fonts.body; $0.summaryFont = fonts.bold; $0.smallFont = fonts.small }
        default:
            throw SettingError("unknown key '\(key.prefix(40))' in [center] (known: \(keys.joined(separator: ", ")))")
        }
    }
}
