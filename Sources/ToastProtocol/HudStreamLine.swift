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
    ///
    /// The bytes of a line as the daemon reads it from a stream: a plain value (`42`, `42%`, with a
    /// trailing `\r`) is read straight from the bytes, as wob reads its stdin; anything else is parsed
    /// as text, with the same outcome. A stream sends a value per key press, and making a `String` of
    /// each line and splitting it into words cost more than the rest of taking the value.
    public static func parse(bytes: [UInt8]) -> HudStreamLine {
        var value = 0, digits = 0, end = bytes.count
        if end > 0 && bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        if end > 0 && bytes[end - 1] == UInt8(ascii: "%") { end -= 1 }
        for byte in bytes[..<end] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 4 else {
                return parse(String(decoding: bytes, as: UTF8.self))
            }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0, HudParams.valueRange.contains(value) else { return parse(String(decoding: bytes, as: UTF8.self)) }
        return .value(value, muted: false)
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
