/// One line of `toast hud --stream` input: read by the CLI when it relays the lines, and by toastd
/// when the CLI hands it its standard input (`hud_stream`).
public enum HudStreamLine: Equatable, Sendable {
    /// A blank line: ignored.
    case none
    case value(Int, muted: Bool)
    case failure(String)

    /// A value as `toast hud KIND VALUE` and a `--stream` line both write it: `40` or `40%` (one syntax
    /// for both, so a script can feed either the same text).
    public static func percent(_ word: Substring) -> Int? {
        Int(word.hasSuffix("%") ? word.dropLast() : word)
    }

    /// `42`, `42%`, `42 muted`; surrounding blanks and a trailing `\r` are ignored.
    public static func parse(_ line: String) -> HudStreamLine {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        guard let first = words.first else { return .none }
        guard let v = percent(first) else { return .failure("\"\(line)\" is not a number") }
        guard HudParams.valueRange.contains(v) else {
            return .failure("\(v) is not in \(HudParams.valueRange.lowerBound)...\(HudParams.valueRange.upperBound)")
        }
        switch words.count {
        case 1: return .value(v, muted: false)
        case 2 where words[1] == "muted": return .value(v, muted: true)
        default: return .failure("\"\(line)\" is not VALUE [muted]")
        }
    }
}
