/// `toast migrate dunstrc`: a dunstrc in, toastd's configuration out. Every line of the dunstrc is
/// either carried over as toastd settings or printed as a comment with its line number and why, and
/// what is written is a file `toastd --check-config` accepts with no warning. Pure: bytes in, text out.
public enum DunstMigration {
    public struct Result: Equatable, Sendable {
        /// toastd's configuration.
        public var text: String
        /// Settings written.
        public var settings: Int
        /// dunstrc lines not carried over (each a comment).
        public var skipped: Int
        /// dunstrc lines carried over with a difference (each a comment too).
        public var differing: Int
    }

    /// A larger file is refused: a dunstrc is a few KB (dunst's own, every option explained, 15 KB), and
    /// toastd reads no configuration larger than this either.
    public static let maxInputBytes = 1 << 20

    /// Converts the dunstrc `bytes`; `source` names it in the output's first comment.
    public static func convert(_ bytes: [UInt8], source: String) -> Swift.Result<Result, MigrationError> {
        guard bytes.count <= maxInputBytes else {
            return .failure(MigrationError("\(bytes.count) bytes, larger than a dunstrc (at most \(maxInputBytes)); not converted"))
        }
        let file: DunstFile
        switch DunstIniReader.read(bytes) {
        case .success(let read): file = read
        case .failure(let error): return .failure(error)
        }
        let draft = draft(of: file)
        let rendered = draft.render(preamble: [
            "toastd configuration converted from \(Text.printable(source)) by `toast migrate dunstrc`.",
            "Each dunstrc line toastd cannot carry over, or carries over with a difference, is a",
            "comment below with its line number and why. See docs/migrating.md, \"From dunst\".",
        ])
        guard rendered.text.utf8.count <= ConfigDraft.maxFileBytes else {
            return .failure(MigrationError("the converted configuration would be larger than toastd reads (\(ConfigDraft.maxFileBytes) bytes)"))
        }
        return .success(Result(text: rendered.text, settings: rendered.settings, skipped: rendered.skipped,
                               differing: rendered.differing))
    }

    static func draft(of file: DunstFile) -> ConfigDraft {
        let global = file.section("global")
        let syntax = DunstGlobals.syntax(of: global)
        var top = ConfigDraft.Section(header: nil, title: nil)
        for unreadable in file.outside { top.skip(unreadable) }
        var extras = DunstGlobals.Extras()
        var sections: [ConfigDraft.Section] = []
        for section in file.sections {
            switch section.name {
            case "global":
                for entry in section.entries where !sameAsToastd(entry) {
                    if DunstGlobals.setting(entry, in: section, into: &top, extras: &extras) { continue }
                    if DunstRules.filters[entry.key] != nil {
                        top.skip(entry, "dunst takes no filters in [global]")
                    } else if !DunstRules.action(entry, scope: .everything, into: &top) {
                        top.skip(entry, "not a dunst setting (dunst ignores it too)")
                    }
                }
                for unreadable in section.unreadable { top.skip(unreadable) }
            case "urgency_low", "urgency_normal", "urgency_critical":
                let level = section.name.dropFirst("urgency_".count)
                var out = ConfigDraft.Section(header: "[urgency=\(level)]", title: "[\(section.name)], line \(section.line)")
                for entry in section.entries where !sameAsToastd(entry) {
                    if entry.key == "icon" {
                        out.skip(entry, DunstRules.notCarried["icon"]!)  // the urgency sections' own default icon
                    } else if DunstRules.filters[entry.key] != nil {
                        out.skip(entry, "dunst takes no filters in [\(section.name)]")
                    } else if !DunstRules.action(entry, scope: .urgency, into: &out) {
                        out.skip(entry, "not a dunst setting for a rule (dunst ignores it too)")
                    }
                }
                for unreadable in section.unreadable { out.skip(unreadable) }
                sections.append(out)
            case "experimental", "shortcuts", "frame":
                var out = ConfigDraft.Section(header: nil, title: "[\(section.name)], line \(section.line)")
                for entry in section.entries {
                    out.skip(entry, DunstGlobals.notCarried[entry.key] ?? special(section.name))
                }
                for unreadable in section.unreadable { out.skip(unreadable) }
                sections.append(out)
            default:
                sections.append(rule(section, syntax: syntax))
            }
        }
        var draft = ConfigDraft(sections: [top], uncounted: file.unlisted)
        if let hidePill = extras.hidePill {
            var pill = ConfigDraft.Section(header: "[hidden]", title: "indicate_hidden, line \(hidePill.line)")
            pill.set("invisible", "true", from: hidePill)
            draft.sections.append(pill)
        }
        draft.sections += sections
        return draft
    }

    /// `match_transient = yes` with `history_ignore = yes` and nothing else (dunst's example config
    /// has it): what toastd does with every transient notification.
    private static func keepsTransientOutOfHistory(_ section: DunstFile.Section) -> Bool {
        guard let transient = section.entry("match_transient"), DunstValue.boolean(transient.value) == true,
              let ignore = section.entry("history_ignore"), DunstValue.boolean(ignore.value) == true else { return false }
        return section.entries.allSatisfy { $0.key == "match_transient" || $0.key == "history_ignore" || sameAsToastd($0) }
    }

    /// A line that says what toastd does anyway (`sort = yes`, `ignore_newline = no`).
    private static func sameAsToastd(_ entry: DunstFile.Entry) -> Bool {
        DunstGlobals.sameAsToastd[entry.key]?.contains(entry.value) == true
    }

    private static func special(_ name: String) -> String {
        switch name {
        case "shortcuts": "toastd takes no keyboard shortcuts: bind `toast dismiss`, `toast dismiss --all`, `toast restore` in your compositor"
        case "frame": "dunst's old [frame] section: its keys are frame_width and frame_color in [global] now"
        default: "not a dunst setting (dunst ignores it too)"
        }
    }

    /// A rule section: its criteria, then its modifying keys; the whole rule as comments when a filter
    /// cannot be carried over (the rule would match other notifications).
    private static func rule(_ section: DunstFile.Section, syntax: MatchSyntax) -> ConfigDraft.Section {
        let title = "[\(section.name)], line \(section.line)"
        if keepsTransientOutOfHistory(section) {
            var out = ConfigDraft.Section(header: nil, title: title)
            for entry in section.entries where entry.key == "history_ignore" {
                out.differs(entry, "toastd keeps transient notifications out of the history already: nothing to write")
            }
            return out
        }
        switch DunstRules.header(of: section, syntax: syntax) {
        case .failure(let refusal):
            var out = ConfigDraft.Section(header: nil, title: title)
            for entry in section.entries {
                out.skip(entry, entry == refusal.entry ? refusal.reason : "the rule is left out: line \(refusal.entry.line)")
            }
            for unreadable in section.unreadable { out.skip(unreadable) }
            return out
        case .success(let (header, approximations)):
            let everything = header.isEmpty
            var out = ConfigDraft.Section(header: everything ? "[global]" : header, title: title)
            for (entry, why) in approximations { out.differs(entry, why) }
            for entry in section.entries where DunstRules.filters[entry.key] == nil && !sameAsToastd(entry) {
                if !DunstRules.action(entry, scope: everything ? .everything : .criteria, into: &out) {
                    out.skip(entry, DunstGlobals.notCarried[entry.key] != nil
                             ? "a [global] setting, not a rule's (dunst ignores it here)" : "not a dunst setting for a rule (dunst ignores it too)")
                }
            }
            for unreadable in section.unreadable { out.skip(unreadable) }
            return out
        }
    }
}
