/// dunst's rules (dunst(5), RULES): the filters of a section become toastd's criteria header, its
/// modifying keys toastd's section keys. The same modifying keys in `[global]` and `[urgency_*]`
/// (rules that match everything, or one urgency) go to the top of the file and `[urgency=...]`.
enum DunstRules {
    /// Where a rule's keys are written.
    enum Scope: Equatable {
        /// Every notification: the top of toastd's file (where `history` is the history's size).
        case everything
        /// `[urgency=low|normal|critical]`.
        case urgency
        /// A criteria section.
        case criteria
    }

    /// dunst's filters and toastd's criteria for them (nil: toastd cannot match on it).
    static let filters: [String: String?] = [
        "appname": "app-name", "summary": "summary", "body": "body", "icon": "app-icon", "category": "category",
        "desktop_entry": "desktop-entry", "msg_urgency": "urgency",
        "match_transient": nil, "match_dbus_timeout": nil, "stack_tag": nil,
    ]

    /// The header of a rule section, or why the rule cannot be carried over; nil criteria (`""`) when
    /// it has no filter (it matches every notification).
    static func header(of section: DunstFile.Section, syntax: MatchSyntax) -> Result<(header: String, approximations: [(DunstFile.Entry, String)]), RuleRefusal> {
        if let enabled = section.entry("enabled"), DunstValue.boolean(enabled.value) == false {
            return .failure(RuleRefusal(entry: enabled, reason: "the rule is turned off (enabled = \(enabled.value))"))
        }
        var tokens: [String] = []
        var approximations: [(DunstFile.Entry, String)] = []
        for entry in section.entries {
            guard let known = filters[entry.key] else { continue }
            guard let field = known else {
                let why = entry.key == "match_transient"
                    ? "toastd's criteria cannot match transient notifications (toastd keeps them out of the history already)"
                    : "toastd's criteria cannot match on \(entry.key)"
                return .failure(RuleRefusal(entry: entry, reason: why))
            }
            if field == "urgency" {
                guard ["low", "normal", "critical"].contains(entry.value) else {
                    return .failure(RuleRefusal(entry: entry, reason: "msg_urgency must be low, normal or critical"))
                }
                tokens.append("urgency=\(entry.value)")
                continue
            }
            let canRegex = field == "summary" || field == "body"
            let (pattern, approximate) = Pattern.translate(entry.value, syntax: syntax, canRegex: canRegex)
            switch pattern {
            case .anything: continue
            case .exact(let text): tokens.append("\(field)=\(Text.criterionValue(text))")
            case .regex(let regex):
                if let error = PosixRegex.error(regex) {
                    return .failure(RuleRefusal(entry: entry, reason: "'\(Text.printable(regex))' is not a regular expression toastd can compile (\(error))"))
                }
                tokens.append("\(field)~=\(Text.criterionValue(regex))")
            case .unsupported(let why): return .failure(RuleRefusal(entry: entry, reason: why))
            }
            if approximate {
                approximations.append((entry, "toastd matches it exactly; dunst's regular expression also matched it inside a longer \(entry.key)"))
            }
        }
        let header = tokens.isEmpty ? "" : "[" + tokens.joined(separator: " ") + "]"
        if header.utf8.count > ConfigDraft.maxLineBytes {
            return .failure(RuleRefusal(entry: section.entries[0], reason: "its criteria are longer than a toastd configuration line may be"))
        }
        return .success((header, approximations))
    }

    struct RuleRefusal: Error {
        var entry: DunstFile.Entry
        var reason: String
    }

    /// Modifying keys toastd has nothing for, and why.
    static let notCarried: [String: String] = [
        "new_icon": "toastd has no key that replaces a notification's icon",
        "default_icon": "toastd has no default icon",
        "icon": "toastd has no default icon (the old urgency 'icon')",
        "set_category": "toastd has no key that changes a notification's category",
        "urgency": "toastd has no key that changes a notification's urgency",
        "action_name": "toastd's left click invokes the 'default' action (on-button-left = invoke-action KEY picks another)",
        "word_wrap": "toastd always wraps the text",
        "ellipsize": "toastd cuts a long text at its end",
        "alignment": "toastd's text is aligned left",
        "hide_text": "toastd always draws the text",
        "override_pause_level": "toastd has no pause levels: critical toasts break through do-not-disturb, and a [mode=do-not-disturb ...] section changes what it holds",
        "progress_bar_horizontal_alignment": "toastd draws the progress bar across the toast",
        "corners": "toastd rounds every corner",
        "progress_bar_corners": "toastd rounds every corner",
        "icon_corners": "toastd rounds every corner of the picture",
        "min_icon_size": "toastd fits every picture to max-icon-size, growing small ones",
        "set_transient": "toastd has no key that makes a transient notification ordinary",
        "enabled": "",
    ]

    /// Writes a modifying key of a rule (or of `[global]`, `[urgency_*]`) into `out`; false when the
    /// key is no rule key.
    static func action(_ entry: DunstFile.Entry, scope: Scope, into out: inout ConfigDraft.Section) -> Bool {
        if colours(entry, into: &out) { return true }
        let value = entry.value
        func flag(_ body: (Bool) -> Void) {
            guard let on = DunstValue.boolean(value) else { return out.skip(entry, "'\(value)' is not a boolean") }
            body(on)
        }
        switch entry.key {
        case "timeout", "override_dbus_timeout":
            guard let ms = DunstValue.milliseconds(value) else { out.skip(entry, "'\(value)' is not a time"); return true }
            let clamped = min(ms, 86_400_000)
            out.set("default-timeout", String(clamped), from: entry)
            if scope == .everything { out.set("critical-timeout", String(clamped), from: entry) }
            if entry.key == "override_dbus_timeout" { out.set("ignore-timeout", "true", from: entry) }
            if clamped != ms { out.differs(entry, "toastd's longest timeout is a day") }
        case "skip_display": flag { out.set("invisible", $0 ? "true" : "false", from: entry) }
        case "history_ignore": flag { history(!$0, entry, scope, &out) }
        case "set_transient":
            flag { transient in
                if transient {
                    history(false, entry, scope, &out)
                    out.differs(entry, "toastd's only difference for a transient notification is that it is kept out of the history")
                } else {
                    out.skip(entry, notCarried["set_transient"]!)
                }
            }
        case "format": format(entry, scope: scope, into: &out)
        case "markup":
            switch value {
            case "full", "yes", "true": out.set("markup", "true", from: entry)
            case "no", "false": out.set("markup", "false", from: entry)
            case "strip":
                out.set("markup", "true", from: entry)
                out.differs(entry, "toastd has no 'strip': the body's markup is drawn as markup")
            default: out.skip(entry, "markup must be full, strip or no")
            }
        case "icon_position":
            switch value {
            case "left", "right", "top": out.set("icon-location", value, from: entry)
            case "off": out.set("icons", "false", from: entry)
            default: out.skip(entry, "icon_position must be left, right, top or off")
            }
        case "max_icon_size":
            guard let size = DunstValue.integer(value), size >= 0 else { out.skip(entry, "'\(value)' is not a size"); return true }
            guard size > 0 else { out.skip(entry, "toastd always fits pictures to max-icon-size (48 unless set)"); return true }
            out.set("max-icon-size", String(min(max(size, 8), 128)), from: entry)
            if size > 128 || size < 8 { out.differs(entry, "toastd's max-icon-size is 8 to 128") }
        case "fullscreen":
            switch value {
            case "show": out.set("fullscreen", "show", from: entry)
            case "delay": out.set("fullscreen", "hide", from: entry)
            case "pushback":
                out.set("fullscreen", "hide", from: entry)
                out.differs(entry, "toastd holds new toasts back while a window is fullscreen, but leaves those already shown")
            default: out.skip(entry, "fullscreen must be show, delay or pushback")
            }
        case "script": script(entry, into: &out)
        case "set_stack_tag":
            guard !value.isEmpty else { out.skip(entry, "an empty stack tag changes nothing"); return true }
            out.set("group-by", "app-name", from: entry)
            out.differs(entry, "toastd has no key that sets a stack tag: the rule's toasts of one app are drawn as one toast, the newest, with a count (group-by), instead of replacing each other")
        case "enabled": break  // a rule turned off is refused whole by `header`
        default:
            guard let reason = notCarried[entry.key] else { return false }
            out.skip(entry, reason)
        }
        return true
    }

    /// `background`, `foreground`, `frame_color`, `highlight`; false for another key.
    private static func colours(_ entry: DunstFile.Entry, into out: inout ConfigDraft.Section) -> Bool {
        let keys = ["background": "background", "foreground": "text-color", "frame_color": "border-color",
                    "highlight": "progress-color"]
        guard let key = keys[entry.key] else { return false }
        // Newer dunst takes a gradient for `highlight`, a list of colours: the bar is drawn in the first.
        let colours = entry.key == "highlight" ? entry.value.split(separator: ",").map { String(Text.stripped($0)) } : [entry.value]
        guard let colour = DunstValue.colour(colours.first ?? "") else {
            out.skip(entry, entry.value.isEmpty ? "no value (a colour must be quoted in a dunstrc: '#' starts a comment)"
                                                : "'\(entry.value)' is no colour toastd can take (#rgb, #rrggbb, #rrggbbaa or a common name)")
            return true
        }
        out.set(key, colour, from: entry)
        if colours.count > 1 { out.differs(entry, "toastd draws the progress bar in one colour, the first") }
        return true
    }

    /// `history_ignore`, `set_transient`: kept out of the history. For every notification, that is a
    /// history of size 0.
    private static func history(_ kept: Bool, _ entry: DunstFile.Entry, _ scope: Scope, _ out: inout ConfigDraft.Section) {
        if scope == .everything {
            if kept { return }
            out.set("history", "0", from: entry)
            out.differs(entry, "for every notification, that is a history of none")
        } else {
            out.set("history", kept ? "true" : "false", from: entry)
        }
    }

    private static func format(_ entry: DunstFile.Entry, scope: Scope, into out: inout ConfigDraft.Section) {
        guard !entry.value.isEmpty else {
            // dunst drops a notification whose text is empty: never drawn, never in the history.
            out.set("invisible", "true", from: entry)
            history(false, entry, scope, &out)
            return
        }
        let translation = DunstFormat.translate(entry.value)
        var expanded = translation.format
        for (specifier, sample) in [("%%", ""), ("%a", "a"), ("%s", "s"), ("%b", "b")] {
            expanded = expanded.replacing(specifier, with: sample)
        }
        if let problem = MarkupCheck.problem(expanded.replacing("\\n", with: "\n")) {
            out.skip(entry, "its markup may not be what toastd accepts: \(problem)")
            return
        }
        guard !translation.format.allSatisfy({ Text.isBlank($0) }) else {
            out.skip(entry, "nothing is left of it in toastd (\(translation.dropped.joined(separator: " ")))")
            return
        }
        out.set("format", "\"" + translation.format + "\"", from: entry)
        if !translation.dropped.isEmpty {
            out.differs(entry, "toastd has no \(translation.dropped.joined(separator: ", ")) (the icon's name, the progress value; toastd draws a progress bar): left out")
        }
    }

    /// `script`: toastd runs `on-notify = exec ...` with the notification in TOASTD_* variables; the
    /// script gets dunst's DUNST_* variables and its five arguments (appname, summary, body, icon path,
    /// urgency) from them.
    private static func script(_ entry: DunstFile.Entry, into out: inout ConfigDraft.Section) {
        let path = entry.value
        guard !path.isEmpty else { out.skip(entry, "no script named"); return }
        // dunst replaces a leading `~/` by the home directory, as the shell does unquoted.
        let program = path.hasPrefix("~/") ? "~/" + Text.shellQuoted(String(path.dropFirst(2))) : Text.shellQuoted(path)
        let command = "exec u=$(printf %s \"$TOASTD_URGENCY\" | tr a-z A-Z); "
            + "DUNST_APP_NAME=\"$TOASTD_APP_NAME\" DUNST_SUMMARY=\"$TOASTD_SUMMARY\" DUNST_BODY=\"$TOASTD_BODY\" "
            + "DUNST_ICON_PATH= DUNST_URGENCY=\"$u\" DUNST_ID=\"$TOASTD_ID\" DUNST_CATEGORY=\"$TOASTD_CATEGORY\" "
            + "DUNST_DESKTOP_ENTRY=\"$TOASTD_DESKTOP_ENTRY\" "
            + program + " \"$TOASTD_APP_NAME\" \"$TOASTD_SUMMARY\" \"$TOASTD_BODY\" '' \"$u\""
        out.set("on-notify", command, from: entry)
        out.differs(entry, "it runs when the notification arrives (drawn or not); DUNST_ICON_PATH and the icon argument are empty, DUNST_PROGRESS, DUNST_URLS, DUNST_TIMEOUT and DUNST_TIMESTAMP unset")
    }
}
