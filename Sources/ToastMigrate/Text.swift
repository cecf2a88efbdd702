/// Small text operations the converter shares: trimming as dunst trims, excerpts safe to print as a
/// comment, and quoting for toastd's criteria and for `sh -c`.
enum Text {
    /// What `g_strstrip` removes: ASCII blanks, tabs, line breaks, vertical tabs and form feeds.
    static func isBlank(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\r" || character == "\n"
            || character == "\u{0B}" || character == "\u{0C}" || character == "\r\n"
    }

    static func stripped(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, isBlank(first) { text.removeFirst() }
        while let last = text.last, isBlank(last) { text.removeLast() }
        return text
    }

    /// Longest excerpt of a dunstrc line printed in a comment, in characters.
    static let excerptLength = 160

    /// `text` as one line of a comment: control characters shown as `?`, cut at `excerptLength`
    /// characters (a 100,000-character line must not make a 100,000-character comment).
    static func printable(_ text: String) -> String {
        var out = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == excerptLength { return out + "..." }
            let control = scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
            out.unicodeScalars.append(control ? "?" : scalar)
            count += 1
        }
        return out
    }

    /// `text` (the converter's own words, with excerpts already cut by `printable`) in lines of at most
    /// `width` characters where it has blanks to break at, control characters shown as `?`.
    static func wrapped(_ text: String, width: Int) -> [String] {
        // A reason quotes a value at most once; a value of 100,000 characters is cut there too.
        let text = text.count > 4 * excerptLength ? text.prefix(4 * excerptLength) + "..." : text
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { String(String.UnicodeScalarView($0.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 })) }
    }

    /// A value in a toastd criteria header: double quotes, with `\` and `"` taken literally by a
    /// backslash (toastd's Criteria reads a backslash as "the next character as it is").
    static func criterionValue(_ value: String) -> String {
        var out = "\""
        for character in value {
            if character == "\\" || character == "\"" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }

    /// `word` as one word for `sh -c`: single-quoted, each `'` as `'\''`.
    static func shellQuoted(_ word: String) -> String {
        var out = "'"
        for character in word { out += character == "'" ? "'\\''" : String(character) }
        return out + "'"
    }
}
