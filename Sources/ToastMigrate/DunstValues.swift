/// dunst's value syntaxes (dunst(5): booleans, TIME FORMAT, COLORS) read into what toastd writes.
enum DunstValue {
    /// dunst's booleans (src/option_parser.c): true, on, yes, 1 and false, off, no, 0, the words also
    /// capitalised.
    static func boolean(_ value: String) -> Bool? {
        switch value {
        case "true", "True", "on", "On", "yes", "Yes", "1": true
        case "false", "False", "off", "Off", "no", "No", "0": false
        default: nil
        }
    }

    /// A time in milliseconds: a whole number, seconds without a unit, or with `ms`, `s`, `m`, `h`, `d`
    /// (dunst's `string_to_time`). Nil for anything else or a negative time.
    static func milliseconds(_ value: String) -> Int? {
        let digits = value.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count <= 12, let number = Int(digits) else { return nil }
        let unit = Text.stripped(value.dropFirst(digits.count))
        let scale: Int
        switch unit {
        case "", "s": scale = 1000
        case "ms": scale = 1
        case "m": scale = 60_000
        case "h": scale = 3_600_000
        case "d": scale = 86_400_000
        default: return nil
        }
        let (product, overflow) = number.multipliedReportingOverflow(by: scale)
        return overflow ? nil : product
    }

    /// A whole number, optionally signed.
    static func integer(_ value: String) -> Int? {
        guard value.utf8.count <= 12 else { return nil }
        return Int(value)
    }

    /// A decimal number (`frame_width = 1.5`).
    static func number(_ value: String) -> Double? {
        guard value.utf8.count <= 24, let number = Double(value), number.isFinite else { return nil }
        return number
    }

    /// `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA` or a common X11 colour name, as toastd's `#rrggbb` or
    /// `#rrggbbaa`.
    static func colour(_ value: String) -> String? {
        if value.hasPrefix("#") {
            let hex = Array(value.dropFirst().lowercased())
            guard hex.allSatisfy({ $0.isHexDigit && $0.isASCII }) else { return nil }
            switch hex.count {
            case 3, 4: return "#" + String(hex.flatMap { [$0, $0] })
            case 6, 8: return "#" + String(hex)
            default: return nil
            }
        }
        return x11Names[value.lowercased().filter { $0 != " " }]
    }

    /// The X11 colour names a dunstrc most often uses (rgb.txt); others are reported, not guessed.
    static let x11Names: [String: String] = [
        "black": "#000000", "white": "#ffffff", "red": "#ff0000", "green": "#00ff00", "blue": "#0000ff",
        "yellow": "#ffff00", "cyan": "#00ffff", "magenta": "#ff00ff", "gray": "#bebebe", "grey": "#bebebe",
        "orange": "#ffa500", "purple": "#a020f0", "pink": "#ffc0cb", "brown": "#a52a2a",
        "darkgray": "#a9a9a9", "darkgrey": "#a9a9a9", "lightgray": "#d3d3d3", "lightgrey": "#d3d3d3",
        "darkred": "#8b0000", "darkgreen": "#006400", "darkblue": "#00008b", "navy": "#000080",
    ]
}

/// How a dunst rule's string filter matches (dunst's `rule_field_matches_string`).
enum MatchSyntax: Equatable {
    /// `fnmatch(3)` without flags: the whole string, `*`, `?`, `[...]`, `\` escaping (the default).
    case glob
    /// `enable_posix_regex`: POSIX extended, found anywhere unless anchored.
    case posix
    /// `enable_pcre_regex`: Perl-compatible, found anywhere unless anchored.
    case pcre
}

/// A dunst filter pattern as toastd sees it.
enum Pattern: Equatable {
    /// Matches every value (an empty pattern, or a glob of only `*`).
    case anything
    /// Exactly this text.
    case exact(String)
    /// This POSIX extended regular expression, found anywhere in the value.
    case regex(String)
    /// Not expressible; the reason.
    case unsupported(String)

    /// `pattern` in `syntax`, for a field that `canRegex` (toastd's `summary~`, `body~`).
    static func translate(_ pattern: String, syntax: MatchSyntax, canRegex: Bool) -> (Pattern, approximate: Bool) {
        if pattern.isEmpty { return (.anything, false) }
        switch syntax {
        case .glob: return (fromGlob(pattern, canRegex: canRegex), false)
        case .posix, .pcre:
            if syntax == .pcre, let reason = pcreOnly(pattern) { return (.unsupported(reason), false) }
            if canRegex { return (.regex(pattern), false) }
            if let literal = anchoredLiteral(pattern) { return (.exact(literal), false) }
            if let literal = literal(pattern) { return (.exact(literal), true) }
            return (.unsupported("toastd matches this field exactly, not by a regular expression"), false)
        }
    }

    private static let globSpecials: Set<Character> = ["*", "?", "["]
    private static let regexSpecials: Set<Character> = [".", "[", "]", "(", ")", "{", "}", "*", "+", "?", "^", "$", "|", "\\"]

    private static func fromGlob(_ glob: String, canRegex: Bool) -> Pattern {
        var literal = ""
        var isLiteral = true
        var escaped = false
        for character in glob {
            if escaped {
                literal.append(character); escaped = false
            } else if character == "\\" {
                escaped = true
            } else if globSpecials.contains(character) {
                isLiteral = false
            } else {
                literal.append(character)
            }
        }
        if escaped { literal.append("\\") }  // fnmatch takes a trailing backslash as itself
        if isLiteral { return .exact(literal) }
        if glob.allSatisfy({ $0 == "*" }) { return .anything }
        guard canRegex else {
            return .unsupported("the glob '\(Text.printable(glob))' matches more than one value, and toastd matches this field exactly")
        }
        guard let regex = globRegex(glob) else {
            return .unsupported("the glob '\(Text.printable(glob))' has a bracket toastd cannot carry over")
        }
        return .regex(regex)
    }

    /// The whole-string POSIX extended expression that matches what the glob does.
    private static func globRegex(_ glob: String) -> String? {
        var out = "^"
        var characters = Array(glob)[...]
        while let character = characters.popFirst() {
            switch character {
            case "*": out += ".*"
            case "?": out += "."
            case "\\":
                let next = characters.popFirst() ?? "\\"
                out += regexSpecials.contains(next) ? "\\\(next)" : String(next)
            case "[":
                // A bracket is copied when it is plain: `[abc]`, `[a-z]`, `[!x]` (fnmatch's negation).
                guard let close = characters.dropFirst().firstIndex(of: "]") else {
                    out += "\\["  // an unclosed bracket is a literal '['
                    continue
                }
                var inside = String(characters[characters.startIndex..<close])
                if inside.hasPrefix("!") { inside = "^" + inside.dropFirst() }
                if inside.contains("[") || inside.contains("\\") { return nil }
                out += "[" + inside + "]"
                characters = characters[(close + 1)...]
            default:
                out += regexSpecials.contains(character) ? "\\\(character)" : String(character)
            }
        }
        return out + "$"
    }

    /// `^text$` where text has no special character: exactly that.
    private static func anchoredLiteral(_ pattern: String) -> String? {
        guard pattern.hasPrefix("^"), pattern.hasSuffix("$"), pattern.count >= 2 else { return nil }
        return literal(String(pattern.dropFirst().dropLast()))
    }

    /// The text of a pattern without special characters.
    private static func literal(_ pattern: String) -> String? {
        pattern.contains(where: regexSpecials.contains) || pattern.isEmpty ? nil : pattern
    }

    /// A reason when a Perl-compatible expression uses what POSIX extended ones read otherwise.
    private static func pcreOnly(_ pattern: String) -> String? {
        var characters = pattern.makeIterator()
        while let character = characters.next() {
            if character == "\\", let next = characters.next(), next.isLetter {
                return "the Perl expression uses '\\\(next)', which POSIX expressions (toastd's) do not have"
            }
            if character == "(", pattern.contains("(?") {
                return "the Perl expression uses '(?', which POSIX expressions (toastd's) do not have"
            }
        }
        return nil
    }
}
