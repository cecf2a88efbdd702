import ToastRender

/// mako's `format`: the text of a toast as one Pango markup string with `%` specifiers, parsed once
/// when the configuration is read and expanded for each notification.
///
/// `%a` app name, `%s` summary, `%b` body, `%g` the number of notifications in its group, `%i` its id,
/// `%%` a percent sign; `%h` and `%t` are the "+N more" pill's (a `[hidden]` section's format, as in
/// mako): the toasts not shown and all of the stack's, and expand to nothing in a toast's text. `\n` is a newline and `\\` a backslash; a backslash before anything else stays, as in
/// mako. The text around the specifiers is the user's markup and is kept as it is; what a specifier
/// brings in is escaped (the summary and app name always, the body unless markup is on, where it is
/// sanitized as every body is), and the result is trimmed of surrounding blanks, as mako does.
package struct FormatString: Equatable, Sendable {
    package enum Piece: Equatable, Sendable {
        case literal(String)
        case appName, summary, body, groupCount, id
        /// `%h`, `%t`: the pill's counts (`Fields.pill`); nothing in a toast's text.
        case hiddenCount, totalCount
    }

    /// The value as written in the configuration.
    package let source: String
    package let pieces: [Piece]

    /// mako's format when none is set.
    package static let makoDefault = "<b>%s</b>\\n%b"
    /// mako's format for a grouped notification (its default `[grouped]` section).
    package static let makoGrouped = "(%g) <b>%s</b>\\n%b"
    /// mako's format for the "+N more" pill (its default `[hidden]` section); toastd's own pill says
    /// "+N more" unless a `[hidden]` section sets a format.
    package static let makoHidden = "(%h more)"

    /// The fields a format reads from one notification.
    package struct Fields: Equatable, Sendable {
        package var appName = ""
        package var summary = ""
        package var body = ""
        package var id: UInt32 = 0
        /// Notifications in its group (1 when it is alone).
        package var groupCount = 1
        /// The body is markup (kept, sanitized) rather than text (escaped): the `markup` key.
        package var bodyIsMarkup = true
        /// For the "+N more" pill: the toasts it stands for and all of its stack's (`%h`, `%t`); the
        /// other specifiers are then empty, as in mako.
        package var pill: (hidden: Int, total: Int)? = nil

        package static func == (a: Fields, b: Fields) -> Bool {
            a.appName == b.appName && a.summary == b.summary && a.body == b.body && a.id == b.id
                && a.groupCount == b.groupCount && a.bodyIsMarkup == b.bodyIsMarkup
                && a.pill?.hidden == b.pill?.hidden && a.pill?.total == b.pill?.total
        }
    }

    /// The pill's text for `hidden` toasts not shown out of `total`.
    package func expandPill(hidden: Int, total: Int) -> String {
        expand(Fields(pill: (hidden, total)))
    }

    /// Parses `text`; the error names the bad specifier.
    package static func parse(_ text: String) -> Result<FormatString, FormatError> {
        var pieces: [Piece] = []
        var literal = ""
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
        }
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            switch character {
            case "\\":
                switch iterator.next() {
                case "n": literal.append("\n")
                case "\\": literal.append("\\")
                case let other?: literal.append("\\"); literal.append(other)
                case nil: literal.append("\\")
                }
            case "%":
                guard let specifier = iterator.next() else {
                    literal.append("%")  // a trailing % is text, as in mako
                    continue
                }
                let piece: Piece
                switch specifier {
                case "%": literal.append("%"); continue
                case "a": piece = .appName
                case "s": piece = .summary
                case "b": piece = .body
                case "g": piece = .groupCount
                case "i": piece = .id
                case "h": piece = .hiddenCount
                case "t": piece = .totalCount
                default:
                    return .failure(FormatError("unknown specifier '%\(specifier)' (known: %a %s %b %g %i %h %t %%)"))
                }
                flush()
                pieces.append(piece)
            default:
                literal.append(character)
            }
        }
        flush()
        let format = FormatString(source: text, pieces: pieces)
        // The user's own markup must hold together: checked once here with stand-in values, so that a
        // typo is a configuration problem, not a blank toast.
        let sample = format.expand(Fields(appName: "a", summary: "s", body: "b"))
        guard MarkupSanitizer.isValidPangoMarkup(sample) else {
            return .failure(FormatError("'\(text)' is not valid Pango markup"))
        }
        return .success(format)
    }

    /// Whether the format shows the group count: a grouped toast needs no other sign of its count.
    package var showsGroupCount: Bool { pieces.contains(.groupCount) }

    /// The Pango markup for `fields`. `linkColor` colours links of a markup body.
    package func expand(_ fields: Fields, linkColor: Color = ToastStyle().linkColor) -> String {
        var out = ""
        for piece in pieces {
            if let pill = fields.pill {
                // The pill is no notification: only its counts and the user's own text.
                switch piece {
                case .literal(let text): out += text
                case .hiddenCount: out += String(pill.hidden)
                case .totalCount: out += String(pill.total)
                default: break
                }
                continue
            }
            switch piece {
            case .literal(let text): out += text
            case .appName: out += MarkupSanitizer.escape(fields.appName)
            case .summary: out += MarkupSanitizer.escape(fields.summary)
            case .body:
                out += fields.bodyIsMarkup ? MarkupSanitizer.sanitize(fields.body, linkColor: linkColor)
                                           : MarkupSanitizer.escape(fields.body)
            case .groupCount: out += String(fields.groupCount)
            case .id: out += String(fields.id)
            case .hiddenCount, .totalCount: break
            }
        }
        return trimmed(out)
    }
}

/// Why a `format` value could not be read.
package struct FormatError: Error, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

/// `s` without the blanks and newlines around it (mako trims a formatted text).
private func trimmed(_ s: String) -> String {
    guard let first = s.firstIndex(where: { !$0.isWhitespace }),
          let last = s.lastIndex(where: { !$0.isWhitespace }) else { return "" }
    return String(s[first...last])
}
