/// dunst's `[global]` settings (dunst(5), Global section) as toastd's keys at the top of the file.
enum DunstGlobals {
    /// What the global settings add beyond single keys: sections they make.
    struct Extras {
        /// `indicate_hidden = no`: a `[hidden]` section with `invisible = true`.
        var hidePill: DunstFile.Entry?
    }

    /// Global settings toastd has nothing for, and why.
    static let notCarried: [String: String] = [
        "height": "toastd has no maximum height: a toast is as tall as its text",
        "scale": "toastd draws at each output's own scale",
        "transparency": "X11 only (toastd takes alpha in colours: #rrggbbaa)",
        "force_xinerama": "X11 only", "title": "X11 only", "class": "X11 only", "per_monitor_dpi": "X11 only",
        "force_xwayland": "toastd is a Wayland client only",
        "sort": "toastd always shows critical toasts first",
        "line_height": "toastd has no extra space between lines",
        "show_age_threshold": "toastd does not show a toast's age",
        "hide_duplicate_count": "toastd always shows the count of a group",
        "show_indicators": "toastd draws action buttons (actions) rather than (A) and (U)",
        "separator_height": "toastd draws each toast in its own box, 'gap' apart, with no separator line",
        "separator_color": "toastd draws each toast in its own box, 'gap' apart, with no separator line",
        "text_icon_padding": "toastd's space between the picture and the text follows 'padding'",
        "progress_bar": "toastd draws a progress bar for every notification with a value",
        "progress_bar_height": "toastd draws the progress bar at its own size",
        "progress_bar_min_width": "toastd draws the progress bar across the toast",
        "progress_bar_max_width": "toastd draws the progress bar across the toast",
        "progress_bar_frame_width": "toastd draws the progress bar without a frame",
        "progress_bar_corner_radius": "toastd draws the progress bar at its own size",
        "vertical_alignment": "toastd centres a short text on the picture",
        "ignore_newline": "toastd keeps the body's line breaks",
        "idle_threshold": "toastd has no idle detection: timeouts run while you are away",
        "sticky_history": "toastd has no setting for how a restored toast times out",
        "dmenu": "toastd has no context menu: clicks (clickable-actions, action buttons) and `toast action` invoke actions",
        "browser": "toastd has no context menu and opens no URLs itself",
        "ignore_dbusclose": "toastd closes a toast when its app asks",
        "default_pause_level": "toastd has no pause levels (`toast dnd on` holds toasts back)",
        "pause_on_mouse_over": "toastd does not pause timeouts under the pointer",
        "shrink": "toastd's width is fixed ('width')",
        "geometry": "removed from dunst itself (split into width, height, origin and offset)",
        "close": "toastd takes no keyboard shortcuts: bind `toast dismiss` in your compositor",
        "close_all": "toastd takes no keyboard shortcuts: bind `toast dismiss --all` in your compositor",
        "history": "toastd takes no keyboard shortcuts: bind `toast restore` in your compositor",
        "context": "toastd takes no keyboard shortcuts and has no context menu",
    ]

    /// Values that mean what toastd does anyway: carried over by writing nothing.
    static let sameAsToastd: [String: Set<String>] = [
        "sort": ["yes", "true"], "transparency": ["0"], "line_height": ["0"], "scale": ["0"],
        "force_xwayland": ["no", "false"], "force_xinerama": ["no", "false"], "ignore_dbusclose": ["no", "false"],
        "hide_duplicate_count": ["no", "false"], "idle_threshold": ["0"], "show_age_threshold": ["-1"],
        "progress_bar": ["yes", "true"], "show_indicators": ["no", "false"], "word_wrap": ["yes", "true"],
        "alignment": ["left"], "ellipsize": ["end"], "vertical_alignment": ["center"], "ignore_newline": ["no", "false"],
        "pause_on_mouse_over": ["no", "false"], "hide_text": ["no", "false"], "enabled": ["yes", "true"],
        "always_run_script": ["yes", "true"], "enable_recursive_icon_lookup": ["yes", "true"],
    ]

    static let anchors: Set<String> = ["top-left", "top-center", "top-right", "bottom-left", "bottom-center", "bottom-right"]

    /// Writes one `[global]` setting into `out`; false when it is none (a rule key, or unknown).
    static func setting(_ entry: DunstFile.Entry, in global: DunstFile.Section, into out: inout ConfigDraft.Section,
                        extras: inout Extras) -> Bool {
        if placement(entry, in: global, into: &out) || look(entry, in: global, into: &out) { return true }
        switch entry.key {
        case "indicate_hidden":
            if DunstValue.boolean(entry.value) == false { extras.hidePill = entry }
        case "history_length": number(entry, "history", 0...1000, into: &out)
        case "stack_duplicates":
            guard let on = DunstValue.boolean(entry.value) else { out.skip(entry, "'\(entry.value)' is not a boolean"); return true }
            if on {
                out.set("group-by", "app-name,summary,body", from: entry)
                out.differs(entry, "equal toasts are drawn as one with its count, '(2) Summary' (a format of your own shows it with %g)")
            }
        case "mouse_left_click", "mouse_middle_click", "mouse_right_click": click(entry, into: &out)
        case "enable_recursive_icon_lookup":
            if DunstValue.boolean(entry.value) == false {
                out.differs(entry, "toastd looks names up in icon-path first, then in the icon theme")
            }
        case "always_run_script":
            if DunstValue.boolean(entry.value) == false {
                out.skip(entry, "toastd runs on-notify for every notification, drawn or not")
            }
        case "enable_posix_regex", "enable_pcre_regex", "enable_regex": break  // read by `syntax(of:)`
        default:
            guard let reason = notCarried[entry.key] else { return false }
            out.skip(entry, reason)
        }
        return true
    }

    /// Where toasts go: `origin`, `offset`, `notification_limit`, `layer`, `follow`, `monitor`.
    private static func placement(_ entry: DunstFile.Entry, in global: DunstFile.Section,
                                  into out: inout ConfigDraft.Section) -> Bool {
        let value = entry.value
        switch entry.key {
        case "origin":
            guard anchors.contains(value) else {
                out.skip(entry, "toastd anchors toasts to a corner or the middle of an edge at the top or bottom, not '\(value)'")
                return true
            }
            out.set("anchor", value, from: entry)
        case "offset": offset(entry, into: &out)
        case "notification_limit":
            guard let n = DunstValue.integer(value), n >= 0 else { out.skip(entry, "'\(value)' is not a number"); return true }
            out.set("max-visible", String(n == 0 ? 100 : min(n, 100)), from: entry)
            if n == 0 || n > 100 { out.differs(entry, "toastd shows at most 100 toasts at once, then \"+N more\"") }
        case "layer":
            switch value {
            case "overlay", "top": out.set("layer", value, from: entry)
            default: out.skip(entry, "toastd draws toasts on the overlay or top layer only, never under windows")
            }
        case "follow":
            switch value {
            case "mouse", "keyboard":
                out.set("output", "focused", from: entry)
                out.differs(entry, "toastd follows the focused window's output")
            case "none": break  // `monitor` decides
            default: out.skip(entry, "follow must be none, mouse or keyboard")
            }
        case "monitor":
            let follows = ["mouse", "keyboard"].contains(global.entry("follow")?.value ?? "none")
            if follows { break }
            if DunstValue.integer(value) != nil {
                out.skip(entry, "toastd names outputs rather than numbering them: output = DP-1 (see `swaymsg -t get_outputs`)")
            } else if !value.isEmpty, value.utf8.count <= 256 {
                out.set("output", value, from: entry)
            } else {
                out.skip(entry, "not an output's name")
            }
        default: return false
        }
        return true
    }

    /// How toasts look: sizes, the font, the frame, padding, the icon theme and path.
    private static func look(_ entry: DunstFile.Entry, in global: DunstFile.Section,
                             into out: inout ConfigDraft.Section) -> Bool {
        let value = entry.value
        switch entry.key {
        case "width": width(entry, into: &out)
        case "font":
            guard value.utf8.count <= 200, fontSizeFits(value) else {
                out.skip(entry, "toastd takes a Pango font of at most 200 bytes with a size of 4 to 200")
                return true
            }
            out.set("font", value, from: entry)
        case "frame_width":
            guard let width = DunstValue.number(value), width >= 0 else { out.skip(entry, "'\(value)' is not a width"); return true }
            out.set("border-size", format(min(width, 20)), from: entry)
            if width > 20 { out.differs(entry, "toastd's border-size is at most 20") }
        case "corner_radius": number(entry, "border-radius", 0...100, into: &out)
        case "icon_corner_radius": number(entry, "icon-border-radius", 0...64, into: &out)
        case "gap_size": number(entry, "gap", 0...200, into: &out)
        case "padding": number(entry, "padding", 0...200, into: &out)
        case "horizontal_padding":
            if global.entry("padding")?.value != value {
                out.skip(entry, "toastd's padding is the same on every side ('padding')")
            }
        case "icon_theme":
            let first = Text.stripped(value.split(separator: ",").first ?? "")
            guard !first.isEmpty, first != ".", first != "..", !first.contains("/"), first.utf8.count <= 255 else {
                out.skip(entry, "not an icon theme's name"); return true
            }
            out.set("icon-theme", String(first), from: entry)
            if value.contains(",") { out.differs(entry, "toastd takes one theme (and those it inherits from): the first") }
        case "icon_path": iconPath(entry, into: &out)
        default: return false
        }
        return true
    }

    /// A number of pixels toastd takes in `range`: clamped to it, with a note when it had to be.
    private static func number(_ entry: DunstFile.Entry, _ key: String, _ range: ClosedRange<Int>,
                               into out: inout ConfigDraft.Section) {
        guard let n = DunstValue.integer(entry.value), n >= 0 else { return out.skip(entry, "'\(entry.value)' is not a number of pixels") }
        let clamped = min(max(n, range.lowerBound), range.upperBound)
        out.set(key, String(clamped), from: entry)
        if clamped != n { out.differs(entry, "toastd's \(key) is \(range.lowerBound) to \(range.upperBound)") }
    }

    /// How the rules' string filters match: dunst checks PCRE first, then POSIX.
    static func syntax(of global: DunstFile.Section?) -> MatchSyntax {
        if let pcre = global?.entry("enable_pcre_regex"), DunstValue.boolean(pcre.value) == true { return .pcre }
        for key in ["enable_posix_regex", "enable_regex"] {
            if let posix = global?.entry(key), DunstValue.boolean(posix.value) == true { return .posix }
        }
        return .glob
    }

    /// `offset = 10x50` or `(10, 50)`: horizontal, vertical, from the origin's corner. toastd's margin
    /// takes top,right,bottom,left; only the anchored edges count, so both sides get the same.
    private static func offset(_ entry: DunstFile.Entry, into out: inout ConfigDraft.Section) {
        let inner = entry.value.hasPrefix("(") && entry.value.hasSuffix(")") ? entry.value.dropFirst().dropLast() : entry.value[...]
        let parts = inner.split { $0 == "x" || $0 == "," }.map { Text.stripped($0) }
        guard parts.count == 2, let horizontal = DunstValue.integer(String(parts[0])),
              let vertical = DunstValue.integer(String(parts[1])) else {
            return out.skip(entry, "offset must be HORIZONTALxVERTICAL")
        }
        guard horizontal >= 0, vertical >= 0 else { return out.skip(entry, "toastd keeps toasts on screen: no negative margin") }
        out.set("margin", "\(min(vertical, 10_000)),\(min(horizontal, 10_000))", from: entry)
    }

    /// `width = 300` or `(min, max)`: toastd's toasts have one width.
    private static func width(_ entry: DunstFile.Entry, into out: inout ConfigDraft.Section) {
        let value = entry.value
        var width: Int?
        var ranged = false
        if value.hasPrefix("("), value.hasSuffix(")") {
            let parts = value.dropFirst().dropLast().split(separator: ",").map { Text.stripped($0) }
            if parts.count == 2 { width = DunstValue.integer(String(parts[1])); ranged = true }
        } else {
            width = DunstValue.integer(value)
        }
        guard let width, width > 0 else { return out.skip(entry, "width must be a number of pixels or (MIN, MAX)") }
        let clamped = min(max(width, 100), 4000)
        out.set("width", String(clamped), from: entry)
        if ranged { out.differs(entry, "toastd's toasts all have one width: the maximum") }
        if clamped != width { out.differs(entry, "toastd's width is 100 to 4000") }
    }

    /// `mouse_*_click = do_action, close_current`: toastd's binding for that button.
    private static func click(_ entry: DunstFile.Entry, into out: inout ConfigDraft.Section) {
        let key = "on-button-" + entry.key.dropFirst("mouse_".count).dropLast("_click".count)
        let actions = Set(entry.value.split(separator: ",").map { String(Text.stripped($0)) })
        let known: Set<String> = ["none", "do_action", "close_current", "close_all", "context", "context_all", "open_url"]
        guard !actions.isEmpty, actions.isSubset(of: known) else {
            return out.skip(entry, "one or more of none, do_action, close_current, close_all, context, context_all, open_url")
        }
        let binding: String
        if actions.contains("close_all") {
            binding = "dismiss-all"
            if actions.contains("do_action") { out.differs(entry, "toastd's dismiss-all invokes no action") }
        } else if actions.contains("do_action") {
            binding = "invoke-default-action"
            if !actions.contains("close_current") { out.differs(entry, "toastd closes the toast after invoking its action") }
        } else if actions.contains("close_current") {
            binding = "dismiss"
        } else {
            binding = "none"
            if actions != ["none"] { out.differs(entry, "toastd has no context menu and opens no URLs itself") }
        }
        out.set(key, binding, from: entry)
        // dunst always takes clicks; toastd only with clickable-actions.
        out.set("clickable-actions", "true", from: entry)
    }

    /// `icon_path`: the absolute directories of the list, at most 32.
    private static func iconPath(_ entry: DunstFile.Entry, into out: inout ConfigDraft.Section) {
        let directories = entry.value.split(separator: ":").map(String.init)
        let absolute = directories.filter { $0.hasPrefix("/") }.prefix(32)
        guard !absolute.isEmpty else { return out.skip(entry, "toastd takes absolute directories only") }
        out.set("icon-path", absolute.joined(separator: ":"), from: entry)
        if absolute.count != directories.count { out.differs(entry, "toastd takes up to 32 absolute directories: the others are left out") }
    }

    /// Whether a font's size, when it ends with one, is one toastd takes (4 to 200).
    private static func fontSizeFits(_ font: String) -> Bool {
        guard !font.isEmpty else { return false }
        guard let last = font.split(separator: " ").last, let size = Double(last), size.isFinite else { return true }
        return (4...200).contains(size)
    }

    /// A width without a needless `.0`.
    private static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}
