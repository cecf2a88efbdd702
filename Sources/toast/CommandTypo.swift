/// A mistyped verb must not become a toast: `toast lsit` would otherwise show "lsit" on screen and
/// exit 0, and the user would never learn the command went wrong.
///
/// The rule, on the command line as typed: its first word is not a verb, starts no flag, and is within a
/// small edit distance of one (see `suggestion(for:)`); no word is a flag (with flags it is a real
/// `send`); and what follows is not a body: nothing, a verb's argument (a number such as an id or a
/// value, `40%`, or one of the words `on`, `off`, `toggle`, `status`, `start`, `stop`), or more words
/// than a toast takes. `toast "Build finished"` and `toast hello world` are toasts as before.
enum CommandTypo {
    /// The verbs a mistyped word is compared with (`FastPath.isVerb`'s words, `help` left out: `toast
    /// hello` is more likely a greeting than a typo).
    static let verbs = ["send", "dismiss", "list", "history", "restore", "action", "menu", "dnd", "mode", "status", "reload",
                        "version", "hud", "loading", "migrate", "osd", "center", "reply", "alert", "focus"]

    /// Words that follow a verb and are not a body.
    private static func isArgument(_ word: String) -> Bool {
        switch word {
        case "on", "off", "toggle", "status", "start", "stop": return true
        default:
            let digits = word.hasSuffix("%") ? word.dropLast() : Substring(word)
            return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
        }
    }

    /// The usage error for a command line that starts with a mistyped verb, or nil when it is fine.
    static func refusal(_ arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !FastPath.isVerb(first),
              !arguments.contains(where: { $0.hasPrefix("-") }),
              arguments.count == 1 || arguments.count > 2 || isArgument(arguments[1]),
              let verb = suggestion(for: first) else { return nil }
        let asToast = (["toast", "send"] + arguments.map(shellQuoted)).joined(separator: " ")
        return "unknown command '\(first)'; did you mean '\(verb)'? (use `\(asToast)` to show it as a toast)"
    }

    /// The verb `word` is most likely a typo of: the nearest within Damerau–Levenshtein distance 1, or
    /// 2 when both words have at least 7 letters (a short word is too easily another short word: `hello`
    /// is two edits from `help`, `test` two from `list`). Case counts: `Sent` is a title, `sent` a typo.
    static func suggestion(for word: String) -> String? {
        let letters = Array(word)
        guard !letters.isEmpty, letters.count <= 12 else { return nil }
        var best: (verb: String, distance: Int)?
        for verb in verbs {
            let target = Array(verb)
            let allowed = min(letters.count, target.count) >= 7 ? 2 : 1
            let distance = damerauLevenshtein(letters, target)
            if distance >= 1, distance <= allowed, distance < (best?.distance ?? .max) { best = (verb, distance) }
        }
        return best?.verb
    }

    /// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`; the optimal string
    /// alignment form, which is what a typist's mistakes need.
    static func damerauLevenshtein(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// `word` as a shell reads it back: as is when plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.,:/%+=@".contains($0)) }
        return plain ? word : "'" + word.replacingSingleQuotes() + "'"
    }
}

extension String {
    /// Each `'` as `'\''`, for a single-quoted shell word.
    fileprivate func replacingSingleQuotes() -> String {
        var out = ""
        for c in self { out += c == "'" ? "'\\''" : String(c) }
        return out
    }
}
