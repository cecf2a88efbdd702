/// toastd's configuration as the converter writes it: sections of settings and comments, each line
/// tagged with the dunstrc line it came from, rendered as text toastd's parser accepts whole.
struct ConfigDraft {
    /// A dunstrc line that is not carried over, or carried over with a difference: printed as a comment.
    struct Note: Equatable {
        var line: Int
        /// The dunstrc line, as written.
        var text: String
        var reason: String
        /// Carried over (a setting was written for it) but not quite the same.
        var differs = false
    }

    enum Line: Equatable {
        case setting(key: String, value: String, from: Int)
        case note(Note)

        var sourceLine: Int {
            switch self {
            case .setting(_, _, let from): from
            case .note(let note): note.line
            }
        }
    }

    struct Section {
        /// toastd's header (`[urgency=low]`, `[app-name="Spotify"]`, `[global]`); nil for the top of the file.
        var header: String?
        /// What it stands for in the dunstrc, for a comment above it (`[spotify], line 12`).
        var title: String?
        var lines: [Line] = []

        /// Sets `key`; a setting already written the same (`clickable-actions` for each mouse button)
        /// is written once.
        mutating func set(_ key: String, _ value: String, from entry: DunstFile.Entry) {
            let written = lines.contains {
                if case .setting(key, value, _) = $0 { true } else { false }
            }
            if !written { lines.append(.setting(key: key, value: value, from: entry.line)) }
        }

        /// Not carried over.
        mutating func skip(_ entry: DunstFile.Entry, _ reason: String) {
            lines.append(.note(Note(line: entry.line, text: entry.text, reason: reason)))
        }

        /// Carried over, with a difference worth knowing.
        mutating func differs(_ entry: DunstFile.Entry, _ reason: String) {
            lines.append(.note(Note(line: entry.line, text: entry.text, reason: reason, differs: true)))
        }

        mutating func skip(_ unreadable: DunstFile.Unreadable) {
            lines.append(.note(Note(line: unreadable.line, text: unreadable.text, reason: unreadable.reason)))
        }

        var hasSettings: Bool { lines.contains { if case .setting = $0 { true } else { false } } }
    }

    var sections: [Section] = []
    /// dunstrc lines not carried over that were only counted, never kept (`DunstIniReader.maxUnreadable`).
    var uncounted = 0

    /// toastd's longest line (`ConfigParser.maxLineLength`); a longer setting is reported instead.
    static let maxLineBytes = 4096
    /// toastd refuses a larger configuration file whole (`ConfigFile.maxSize`).
    static let maxFileBytes = 1 << 20
    /// Where a reason's comment lines are wrapped (after `#   `).
    static let commentWidth = 96
    /// Notes listed before the rest are only counted: a 10 MB file of junk must not make a 10 MB config.
    static let maxNotes = 400

    struct Rendered {
        var text: String
        var settings = 0
        var skipped = 0
        var differing = 0
    }

    func render(preamble: [String]) -> Rendered {
        var rendered = Rendered(text: "")
        var listed = 0, unlisted = uncounted
        rendered.skipped = uncounted
        var out = preamble.map { "# " + $0 + "\n" }.joined()
        func comment(_ note: Note) {
            if note.differs { rendered.differing += 1 } else { rendered.skipped += 1 }
            guard listed < Self.maxNotes else { unlisted += 1; return }
            listed += 1
            out += "# line \(note.line): \(Text.printable(note.text))\n"
            let reason = "\(note.differs ? "carried over, but" : "not carried over:") \(note.reason)"
            for line in Text.wrapped(reason, width: Self.commentWidth) { out += "#   \(line)\n" }
        }
        for section in sections where !section.lines.isEmpty {
            // Past toastd's size, the rest would be thrown away: the caller reports it.
            if out.utf8.count > Self.maxFileBytes { break }
            out += "\n"
            if let title = section.title { out += "# dunst \(Text.printable(title))\n" }
            if let header = section.header, section.hasSettings { out += header + "\n" }
            // Stable: a setting and the note about it keep their order.
            let ordered = section.lines.enumerated().sorted { ($0.element.sourceLine, $0.offset) < ($1.element.sourceLine, $1.offset) }
            for (_, line) in ordered {
                switch line {
                case .setting(let key, let value, let from):
                    let text = "\(key) = \(value)"
                    if text.utf8.count > Self.maxLineBytes {
                        comment(Note(line: from, text: "\(key) = ...",
                                     reason: "the value is longer than a toastd configuration line may be (\(Self.maxLineBytes) bytes)"))
                    } else {
                        out += text + "\n"
                        rendered.settings += 1
                    }
                case .note(let note): comment(note)
                }
            }
        }
        if unlisted > 0 { out += "\n# ... and \(unlisted) more lines not carried over, not listed here.\n" }
        rendered.text = out
        return rendered
    }
}
