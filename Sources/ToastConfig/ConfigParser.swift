import ToastCore
import ToastRender
import ToastVocabulary

/// What `ConfigParser` made of a file: the configuration (defaults where the file says nothing or says
/// something wrong) and one diagnostic per bad line.
public struct ParsedConfig: Equatable, Sendable {
    public var config: DaemonConfig
    /// The first `ConfigParser.maxDiagnostics` problems, in file order.
    public var diagnostics: [ConfigDiagnostic]
    /// Problems beyond `maxDiagnostics`, counted but not listed (a garbage file must not flood the log).
    public var unlistedCount = 0
    /// The whole file was refused (binary): `config` is the defaults and the daemon keeps what it has.
    public var fileRejected = false

    /// Every problem found, listed or not.
    public var warningCount: Int { diagnostics.count + unlistedCount }

    package init(config: DaemonConfig, diagnostics: [ConfigDiagnostic]) {
        self.config = config
        self.diagnostics = diagnostics
    }
}

/// Parses toastd's configuration file: `key = value` lines, `#` comments, blank lines and
/// `[urgency=low|normal|critical]` / `[global]` sections (docs/configuration.md).
///
/// Defensive, like wob with its input: a bad line (unknown key, bad or out-of-range value, bad colour,
/// invalid UTF-8, too long) is reported as `path:line: message` and skipped; every other line applies.
/// Nothing here fails. Pure: bytes in, configuration out.
public enum ConfigParser {
    /// Longer lines are skipped whole (no key needs more; a font name is at most a few dozen bytes).
    public static let maxLineLength = 4096
    public static let maxDiagnostics = 100

    /// Parses `text`; `path` only labels the diagnostics.
    public static func parse(_ text: String, path: String) -> ParsedConfig {
        parse(Array(text.utf8), path: path)
    }

    /// Parses the raw bytes of a file; `path` only labels the diagnostics.
    public static func parse(_ bytes: [UInt8], path: String) -> ParsedConfig {
        var result = ParsedConfig(config: DaemonConfig(), diagnostics: [])
        if let nul = bytes.firstIndex(of: 0) {
            result.diagnostics = [ConfigDiagnostic(path: path, line: nil,
                                                   message: "not a text file (NUL byte at offset \(nul)); ignored")]
            result.fileRejected = true
            return result
        }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }  // UTF-8 byte order mark

        var assignments: [Assignment] = []
        var section = Section.global
        var rules: [Rule] = []
        /// The rule that global rule-only keys (`invisible` with no section) went into, until the next header.
        var globalRuleOpen = false
        var lineNumber = 0
        for var raw in body.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if raw.last == 0x0D { raw = raw.dropLast() }  // CRLF files
            func report(_ message: String) {
                if result.diagnostics.count < maxDiagnostics {
                    result.diagnostics.append(ConfigDiagnostic(path: path, line: lineNumber, message: message))
                } else {
                    result.unlistedCount += 1
                }
            }
            guard raw.count <= maxLineLength else {
                report("line too long (\(raw.count) bytes, at most \(maxLineLength)); skipped")
                continue
            }
            guard let text = String(validating: raw, as: UTF8.self) else {
                report("not valid UTF-8; skipped")
                continue
            }
            let line = blankTrimmed(text[...])
            if line.isEmpty || line.hasPrefix("#") { continue }

            if line.hasPrefix("[") {
                globalRuleOpen = false
                if CenterConfig.isHeader(line) {
                    section = .center
                    continue
                }
                switch parseSection(line) {
                case .success(.some(let criteria)):
                    rules.append(Rule(criteria: criteria))
                    section = .rule(rules.count - 1)
                case .success(nil): section = .global
                case .failure(let error):
                    report(error.message)
                    section = .ignored
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                report("expected 'key = value', got '\(excerpt(line))'")
                continue
            }
            let rawKey = blankTrimmed(line[..<equals]).lowercased()
            let value = unquoted(blankTrimmed(line[line.index(after: equals)...]))
            guard !rawKey.isEmpty else {
                report("missing key before '='")
                continue
            }
            let key = aliases[rawKey] ?? rawKey
            do throws(SettingError) {
                switch section {
                case .ignored: continue  // its header was reported once
                case .center: try CenterConfig.setting(key: key, value: String(value))(&result.config.center)
                case .global where !ruleOnlyKeys.contains(key):
                    let apply = try setting(key: key, value: String(value), urgency: nil)
                    assignments.append(Assignment(rank: apply.rank, order: assignments.count, apply: apply.apply))
                case .global:
                    // A behaviour only rules have (`invisible`), given for everything: a rule matching all.
                    if !globalRuleOpen {
                        rules.append(Rule(criteria: Criteria()))
                        globalRuleOpen = true
                    }
                    try ruleSetting(key: key, value: String(value))(&rules[rules.count - 1])
                case .rule(let index):
                    let level = rules[index].criteria.urgency.flatMap { Level(rawValue: $0.rawValue) }
                    if rules[index].criteria.isUrgencyOnly, let level, urgencyKeys.contains(key) {
                        // As toastd always had them: into the global per-urgency values (they also
                        // colour what has no notification, and a specific key loses to them). The
                        // rule below keeps the file order against other sections.
                        let apply = try setting(key: key, value: String(value), urgency: level)
                        assignments.append(Assignment(rank: apply.rank, order: assignments.count, apply: apply.apply))
                    }
                    let change = try ruleSetting(key: key, value: String(value))
                    if rules[index].criteria.concernsGroups { try lookOnly(change, key: key) }
                    change(&rules[index])
                }
            } catch {
                report(error.message)
            }
        }
        // Broad keys first (default-timeout, border-color), then specific ones, then urgency sections,
        // each in file order: `critical-timeout` wins over `default-timeout` wherever it is written.
        assignments.sort { ($0.rank, $0.order) < ($1.rank, $1.order) }
        for assignment in assignments { assignment.apply(&result.config) }
        result.config.rules = RuleSet(rules: Self.withoutRedundantRules(rules))
        return result
    }

    // MARK: - Sections

    package enum Level: String, CaseIterable {
        case low, normal, critical
    }

    private enum Section {
        case global
        /// `[center]`: the notification center's look (`CenterConfig`).
        case center
        /// A criteria section, `[urgency=critical]` included: the index of its rule.
        case rule(Int)
        /// A section whose header is wrong: its lines are skipped without one diagnostic each.
        case ignored
    }

    /// The criteria of a section header (mako's syntax, see `Criteria`); nil for `[global]`.
    private static func parseSection(_ line: Substring) -> Result<Criteria?, SettingError> {
        guard line.hasSuffix("]") else {
            return .failure(SettingError("section header '\(excerpt(line))' lacks its closing ']'; lines up to the next section are ignored"))
        }
        let inside = String(line.dropFirst().dropLast())
        let compact = inside.filter { $0 != " " && $0 != "\t" }.lowercased()
        if compact == "global" { return .success(nil) }
        // toastd has always allowed blanks around the '=' of `[ urgency = critical ]`.
        if compact.hasPrefix("urgency="), let level = Urgency(rawValue: String(compact.dropFirst("urgency=".count))) {
            return .success(Criteria(urgency: level))
        }
        switch Criteria.parse(inside) {
        case .success(let criteria) where criteria.isEmpty:
            return .failure(SettingError("section '\(excerpt(line))' has no criteria; lines up to the next section are ignored"))
        case .success(let criteria): return .success(criteria)
        case .failure(let error):
            return .failure(SettingError("section '\(excerpt(line))': \(error.message); lines up to the next section are ignored"))
        }
    }

    /// Leading `[urgency=...]` sections that set only per-urgency keys: already in the global
    /// per-urgency values, so as rules they would change nothing. Dropping them keeps a file without
    /// other sections on the path without rules, as fast as before rules existed.
    private static func withoutRedundantRules(_ rules: [Rule]) -> [Rule] {
        func redundant(_ rule: Rule) -> Bool {
            var look = rule.look
            look.background = nil; look.borderColor = nil; look.progressColor = nil
            var behaviour = rule.behaviour
            behaviour.defaultTimeout = nil
            return rule.criteria.isUrgencyOnly && look.isEmpty && behaviour.isEmpty && rule.stack.isEmpty
        }
        return Array(rules.drop(while: redundant))
    }

    // MARK: - Keys

    /// Applied in (rank, order) order once the whole file is read.
    private struct Assignment {
        var rank: Int
        var order: Int
        var apply: (inout DaemonConfig) -> Void
    }

    private enum Rank {
        static let broad = 0, specific = 1, urgencySection = 2
    }

    package struct SettingError: Error {
        package var message: String
        package init(_ message: String) { self.message = message }
    }

    /// Every key the file may set, for messages and the docs test.
    package static let keys = [
        "default-timeout", "low-timeout", "normal-timeout", "critical-timeout", "history", "hud-timeout",
        "loading-grace", "width", "hud-width", "font", "max-visible", "background", "text-color",
        "border-color", "progress-color", "border-size", "border-radius", "padding", "gap", "margin",
        "anchor", "hud-anchor", "hud-margin", "animations", "clickable-actions", "output",
        "persistent-history", "sound-command", "sound", "ignore-timeout", "invisible", "icon-theme", "icon-path",
        "max-icon-size", "icon-location", "icon-border-radius", "icons", "shadow", "shadow-color", "shadow-radius",
        "hud-background", "hud-border-color", "hud-bar-color", "hud-overdrive-color", "hud-muted-color",
        "on-notify", "on-button-left", "on-button-right", "on-button-middle", "markup", "actions",
        "format", "group-by", "hud-output", "layer", "fullscreen",
    ]
    /// Keys a criteria section (`[app-name=...]`, `[urgency=...]`) may set.
    package static let ruleKeys = [
        "default-timeout", "ignore-timeout", "invisible", "history", "background", "text-color", "border-color",
        "progress-color", "border-size", "border-radius", "padding", "width", "font", "sound",
        "on-notify", "on-button-left", "on-button-right", "on-button-middle", "markup", "actions",
        "max-icon-size", "icon-location", "icon-border-radius", "icons", "format", "group-by",
        "anchor", "output", "layer", "max-visible", "fullscreen",
    ]
    /// Keys that only a rule can carry: given outside any section, they make a rule matching everything.
    package static let ruleOnlyKeys: Set<String> = ["ignore-timeout", "invisible", "sound",
                                            "on-notify", "on-button-left", "on-button-right", "on-button-middle",
                                            "markup", "actions", "format", "group-by"]
    /// mako's spellings of toastd's keys, so that a mako file needs no edits.
    package static let aliases = ["background-color": "background", "max-history": "history"]
    /// mako's keys toastd does not do: named as such rather than as unknown.
    package static let makoKeys: Set<String> = [
        "height",
        "include", "on-touch", "outer-margin", "sort", "text-alignment",
    ]
    /// Keys an `[urgency=...]` section may set.
    package static let urgencyKeys = ["default-timeout", "background", "border-color", "progress-color"]

    package static let maxTimeout: Milliseconds = 86_400_000  // a day

    /// Validates one `key = value` and returns how it changes the configuration.
    private static func setting(key: String, value: String, urgency: Level?) throws(SettingError)
        -> (rank: Int, apply: (inout DaemonConfig) -> Void)
    {
        if let urgency {
            guard urgencyKeys.contains(key) else {
                if keys.contains(key) {
                    throw SettingError("'\(key)' cannot be set per urgency (in [urgency=...] only: \(urgencyKeys.joined(separator: ", ")))")
                }
                throw SettingError("unknown key '\(excerpt(key[...]))'")
            }
            return (Rank.urgencySection, try urgencySetting(key: key, value: value, urgency: urgency))
        }
        if value.isEmpty && key != "output" && key != "hud-output" {
            guard keys.contains(key) else { throw unknownKey(key) }
            throw SettingError("'\(key)' needs a value")
        }
        switch key {
        // Timeouts.
        case "default-timeout":
            let timeout = try self.timeout(key, value)
            return (Rank.broad, { $0.notifications.lowTimeout = timeout; $0.notifications.normalTimeout = timeout })
        case "low-timeout":
            let timeout = try self.timeout(key, value)
            return (Rank.specific, { $0.notifications.lowTimeout = timeout })
        case "normal-timeout":
            let timeout = try self.timeout(key, value)
            return (Rank.specific, { $0.notifications.normalTimeout = timeout })
        case "critical-timeout":
            let timeout = try self.timeout(key, value)
            return (Rank.specific, { $0.notifications.criticalTimeout = timeout })
        case "history":
            let size = try integer(key, value, in: 0...1000)
            return (Rank.specific, { $0.notifications.historyLimit = size })
        case "hud-timeout":
            let ms = Milliseconds(try integer(key, value, in: 1...600_000))
            return (Rank.specific, { $0.hud.barTimeout = ms })
        case "loading-grace":
            let ms = Milliseconds(try integer(key, value, in: 0...600_000))
            return (Rank.specific, { $0.hud.loadingGrace = ms })

        // Look.
        case "width":
            let width = try integer(key, value, in: 100...4000)
            return (Rank.specific, { $0.style.width = width })
        case "hud-width":
            let width = try integer(key, value, in: 100...4000)
            return (Rank.specific, { $0.style.hudWidth = width })
        case "hud-background":
            let colour = try self.colour(key, value)
            return (Rank.specific, { $0.style.hudBackground = colour })
        case "hud-border-color":
            let colour = try self.colour(key, value)
            return (Rank.specific, { $0.style.hudBorder = colour })
        case "hud-bar-color":
            let colour = try self.colour(key, value)
            return (Rank.specific, { $0.style.hudFill = colour })
        case "hud-overdrive-color":
            let colour = try self.colour(key, value)
            return (Rank.specific, { $0.style.hudOverflowColor = colour })
        case "hud-muted-color":
            let colour = try self.colour(key, value)
            return (Rank.specific, { $0.style.hudMutedFill = colour })
        case "font":
            let fonts = try fontSet(key, value)
            return (Rank.broad, { style in
                style.style.font = fonts.body
                style.style.summaryFont = fonts.bold
                style.style.captionFont = fonts.small
                style.style.actionFont = fonts.body
                style.style.hudFont = fonts.body
                style.style.hudValueFont = fonts.bold
            })
        case "max-visible":
            let count = try integer(key, value, in: 1...100)
            return (Rank.specific, { $0.style.maxVisible = count })
        case "text-color":
            let colour = try self.colour(key, value)
            return (Rank.specific, { $0.style.summaryColor = colour; $0.style.bodyColor = colour; $0.style.actionText = colour })
        case "background", "border-color", "progress-color":
            // Every urgency; an [urgency=...] section overrides one.
            let apply = try urgencySetting(key: key, value: key == "progress-color" ? makoProgressColour(value) : value,
                                           urgency: nil)
            return (Rank.broad, apply)
        case "border-size":
            let width = try decimal(key, value, in: 0...20)
            return (Rank.specific, { $0.style.borderWidth = width })
        case "border-radius":
            let radius = try decimal(key, value, in: 0...100)
            return (Rank.specific, { $0.style.cornerRadius = radius })
        case "padding":
            let padding = try integer(key, value, in: 0...200)
            return (Rank.specific, { $0.style.padding = padding })
        case "gap":
            let gap = try integer(key, value, in: 0...200)
            return (Rank.specific, { $0.style.gap = gap })

        // Placement.
        case "anchor":
            let anchor = try self.anchor(key, value)
            return (Rank.specific, { $0.anchor = anchor })
        case "hud-anchor":
            let anchor = try self.anchor(key, value)
            return (Rank.specific, { $0.hudAnchor = anchor })
        case "margin":
            let margins = try self.margins(key, value)
            return (Rank.specific, { $0.margins = margins })
        case "hud-margin":
            let margins = try self.margins(key, value)
            return (Rank.specific, { $0.hudMargins = margins })

        // Behaviour.
        case "animations":
            let on = try boolean(key, value)
            return (Rank.specific, { $0.animations = on })
        case "clickable-actions":
            let on = try boolean(key, value)
            return (Rank.specific, { $0.clickableActions = on })
        case "persistent-history":
            let on = try boolean(key, value)
            return (Rank.specific, { $0.persistentHistory = on })
        case "sound-command":
            let words = value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard value.utf8.count <= 1024 else { throw SettingError("'sound-command' is too long") }
            let command: [String]? = words.isEmpty ? nil : words == ["none"] ? [] : words
            return (Rank.specific, { $0.soundCommand = command })
        case "output":
            let output = try self.output(key, value)
            return (Rank.specific, { $0.output = output })
        case "hud-output":
            let output = try self.output(key, value)
            return (Rank.specific, { $0.hudOutput = output })
        case "layer":
            let layer = try self.layer(key, value)
            return (Rank.specific, { $0.layer = layer })
        case "fullscreen":
            let policy = try self.fullscreen(key, value)
            return (Rank.specific, { $0.fullscreen = policy })

        // Icons.
        case "icon-theme":
            guard ThemeIndex.isThemeName(value) else { throw SettingError("'icon-theme' must be a theme's directory name, got '\(excerpt(value[...]))'") }
            return (Rank.specific, { $0.iconTheme = value })
        case "icon-path":
            let paths = value.split(separator: ":").map(String.init)
            guard paths.count <= 32, paths.allSatisfy({ $0.hasPrefix("/") }) else {
                throw SettingError("'icon-path' must be up to 32 absolute directories separated by ':', got '\(excerpt(value[...]))'")
            }
            return (Rank.specific, { $0.iconPaths = paths })
        case "max-icon-size", "icon-location", "icon-border-radius", "icons":
            let look = try pictureLook(key, value)
            return (Rank.specific, { $0.style = look.applied(to: $0.style) })

        // Shadow: `shadow` first (broad), so its colour and radius apply to it wherever they are written.
        case "shadow":
            switch value.lowercased() {
            case "none": return (Rank.broad, { $0.style.shadow = nil })
            case "soft": return (Rank.broad, { $0.style.shadow = ToastStyle.Shadow() })
            default: throw SettingError("'shadow' must be none or soft, got '\(excerpt(value[...]))'")
            }
        case "shadow-color":
            let colour = try self.colour(key, value)
            return (Rank.specific, { $0.style.shadow?.color = colour })
        case "shadow-radius":
            let radius = try integer(key, value, in: 0...48)
            return (Rank.specific, { $0.style.shadow?.radius = radius })
        default:
            throw unknownKey(key)
        }
    }

    /// `none`, an absolute path (a file), or a sound theme name (`message-new-instant`).
    private static func sound(_ key: String, _ value: String) throws(SettingError) -> NotificationSound? {
        if value == "none" { return nil }
        guard value.utf8.count <= 1024 else { throw SettingError("'\(key)' is too long") }
        if value.hasPrefix("/") { return .file(value) }
        guard value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw SettingError("'\(key)' must be none, an absolute path or a sound name, got '\(excerpt(value[...]))'")
        }
        return .name(value)
    }

    private static func unknownKey(_ key: String) -> SettingError {
        if makoKeys.contains(key) { return SettingError("mako key '\(excerpt(key[...]))' is not supported") }
        return SettingError("unknown key '\(excerpt(key[...]))'")
    }

    /// Validates one `key = value` of a criteria section and returns how it changes the section's rule.
    private static func ruleSetting(key: String, value: String) throws(SettingError) -> (inout Rule) -> Void {
        guard ruleKeys.contains(key) else {
            if keys.contains(key) {
                throw SettingError("'\(key)' cannot be set in a criteria section (there only: \(ruleKeys.joined(separator: ", ")))")
            }
            throw unknownKey(key)
        }
        if value.isEmpty { throw SettingError("'\(key)' needs a value") }
        switch key {
        case "default-timeout":
            let timeout = try self.timeout(key, value)
            return { $0.behaviour.defaultTimeout = .some(timeout) }
        case "ignore-timeout":
            let on = try boolean(key, value)
            return { $0.behaviour.ignoreTimeout = on }
        case "invisible":
            let on = try boolean(key, value)
            return { $0.behaviour.invisible = on }
        case "history":
            let on = try boolean(key, value)
            return { $0.behaviour.history = on }
        case "markup":
            let on = try boolean(key, value)
            return { $0.look.markup = on }
        case "actions":
            let on = try boolean(key, value)
            return { $0.look.actions = on }
        case "format":
            switch FormatString.parse(value) {
            case .success(let format): return { $0.look.format = format }
            case .failure(let error): throw SettingError("'format': \(error.message)")
            }
        case "group-by":
            switch GroupField.parseList(value) {
            case .success(let fields): return { $0.look.groupBy = fields }
            case .failure(let error): throw SettingError("'group-by': \(error.message)")
            }
        case "on-notify", "on-button-left", "on-button-right", "on-button-middle":
            let binding: Binding
            switch Binding.parse(value) {
            case .success(let parsed): binding = parsed
            case .failure(let error): throw SettingError("'\(key)': \(error.message)")
            }
            switch key {
            case "on-notify": return { $0.behaviour.onNotify = binding }
            case "on-button-left": return { $0.behaviour.onButtonLeft = binding }
            case "on-button-right": return { $0.behaviour.onButtonRight = binding }
            default: return { $0.behaviour.onButtonMiddle = binding }
            }
        case "sound":
            let sound = try self.sound(key, value)
            return { $0.behaviour.sound = .some(sound) }
        case "background":
            let colour = try self.colour(key, value)
            return { $0.look.background = colour }
        case "text-color":
            let colour = try self.colour(key, value)
            return { $0.look.textColor = colour }
        case "border-color":
            let colour = try self.colour(key, value)
            return { $0.look.borderColor = colour }
        case "progress-color":
            let colour = try self.colour(key, makoProgressColour(value))
            return { $0.look.progressColor = colour }
        case "border-size":
            let width = try decimal(key, value, in: 0...20)
            return { $0.look.borderSize = width }
        case "border-radius":
            let radius = try decimal(key, value, in: 0...100)
            return { $0.look.borderRadius = radius }
        case "padding":
            let padding = try integer(key, value, in: 0...200)
            return { $0.look.padding = padding }
        case "width":
            let width = try integer(key, value, in: 100...4000)
            return { $0.look.width = width }
        case "max-icon-size", "icon-location", "icon-border-radius", "icons":
            let look = try pictureLook(key, value)
            return { $0.look.merge(look) }
        case "anchor":
            let anchor = try self.anchor(key, value)
            return { $0.stack.anchor = anchor }
        case "output":
            let output = try self.output(key, value)
            return { $0.stack.output = output }
        case "layer":
            let layer = try self.layer(key, value)
            return { $0.stack.layer = layer }
        case "max-visible":
            let count = try integer(key, value, in: 1...100)
            return { $0.stack.maxVisible = count }
        case "fullscreen":
            let policy = try self.fullscreen(key, value)
            return { $0.stack.fullscreen = policy }
        default:  // font
            let fonts = try fontSet(key, value)
            return { $0.look.font = FontSet(body: fonts.body, bold: fonts.bold, small: fonts.small) }
        }
    }

    /// Refuses a key of a `[grouped]` or `[group-index=N]` section that is not about the look: toasts
    /// are grouped when drawn, after their behaviour and stack were decided (mako refuses the stack
    /// keys and `group-by` there too).
    private static func lookOnly(_ change: (inout Rule) -> Void, key: String) throws(SettingError) {
        var probe = Rule(criteria: Criteria())
        change(&probe)
        guard probe.behaviour.isEmpty, probe.stack.isEmpty, probe.look.groupBy == nil else {
            throw SettingError("'\(key)' cannot be set in a [grouped] or [group-index] section (a group is drawn as one toast: only its look follows)")
        }
    }

    /// `output`, `hud-output`: `focused`, `all` or an output's name; empty: the default.
    private static func output(_ key: String, _ value: String) throws(SettingError) -> String? {
        guard value.utf8.count <= 256 else { throw SettingError("'\(key)' is too long") }
        return value.isEmpty ? nil : value
    }

    /// `layer`: overlay or top (mako's bottom and background would hide toasts under windows).
    private static func layer(_ key: String, _ value: String) throws(SettingError) -> StackLayer {
        guard let layer = StackLayer(rawValue: value.lowercased()) else {
            throw SettingError("'\(key)' must be overlay or top, got '\(excerpt(value[...]))'")
        }
        return layer
    }

    /// `fullscreen`: show, hide-low or hide.
    private static func fullscreen(_ key: String, _ value: String) throws(SettingError) -> FullscreenPolicy {
        guard let policy = FullscreenPolicy(rawValue: value.lowercased()) else {
            throw SettingError("'\(key)' must be show, hide-low or hide, got '\(excerpt(value[...]))'")
        }
        return policy
    }

    /// The picture keys (mako's names), for the global style and for rules alike.
    private static func pictureLook(_ key: String, _ value: String) throws(SettingError) -> LookPatch {
        var look = LookPatch()
        switch key {
        case "max-icon-size": look.maxIconSize = try integer(key, value, in: 8...128)
        case "icon-border-radius": look.iconBorderRadius = try decimal(key, value, in: 0...64)
        case "icons": look.icons = try boolean(key, value)
        default:  // icon-location
            guard let location = ToastStyle.ImageLocation(rawValue: value.lowercased()) else {
                let known = ToastStyle.ImageLocation.allCases.map(\.rawValue).joined(separator: ", ")
                throw SettingError("'\(key)' must be one of \(known), got '\(excerpt(value[...]))'")
            }
            look.iconLocation = location
        }
        return look
    }

    /// mako writes `progress-color = over #5588aaff` (or `source`, how it composites): toastd draws
    /// the bar over its track either way, so only the colour counts.
    private static func makoProgressColour(_ value: String) -> String {
        for mode in ["over ", "source "] where value.lowercased().hasPrefix(mode) {
            return String(blankTrimmed(value.dropFirst(mode.count)[...]))
        }
        return value
    }

    /// The keys that differ per urgency; `urgency` nil sets all three.
    private static func urgencySetting(key: String, value: String, urgency: Level?) throws(SettingError)
        -> (inout DaemonConfig) -> Void
    {
        let levels = urgency.map { [$0] } ?? Level.allCases
        if value.isEmpty { throw SettingError("'\(key)' needs a value") }
        switch key {
        case "default-timeout":
            let timeout = try self.timeout(key, value)
            return { config in
                for level in levels {
                    switch level {
                    case .low: config.notifications.lowTimeout = timeout
                    case .normal: config.notifications.normalTimeout = timeout
                    case .critical: config.notifications.criticalTimeout = timeout
                    }
                }
            }
        case "background":
            let colour = try self.colour(key, value)
            return { config in
                for level in levels {
                    switch level {
                    case .low: config.style.lowBackground = colour
                    case .normal: config.style.background = colour
                    case .critical: config.style.criticalBackground = colour
                    }
                }
            }
        case "border-color":
            let colour = try self.colour(key, value)
            return { config in
                for level in levels {
                    switch level {
                    case .low: config.style.lowBorder = colour
                    case .normal: config.style.normalBorder = colour
                    case .critical: config.style.criticalBorder = colour
                    }
                }
            }
        default:  // progress-color
            let colour = try self.colour(key, value)
            return { config in
                for level in levels {
                    switch level {
                    case .low: config.style.lowAccent = colour
                    case .normal: config.style.normalAccent = colour
                    case .critical: config.style.criticalAccent = colour
                    }
                }
            }
        }
    }

    // MARK: - Values

    private static func integer(_ key: String, _ value: String, in range: ClosedRange<Int>) throws(SettingError) -> Int {
        guard let number = Int(value) else {
            throw SettingError("'\(key)' must be a whole number, got '\(excerpt(value[...]))'")
        }
        guard range.contains(number) else {
            throw SettingError("'\(key)' = \(number) is out of range (\(range.lowerBound)...\(range.upperBound))")
        }
        return number
    }

    private static func decimal(_ key: String, _ value: String, in range: ClosedRange<Double>) throws(SettingError) -> Double {
        guard let number = Double(value), number.isFinite else {
            throw SettingError("'\(key)' must be a number, got '\(excerpt(value[...]))'")
        }
        guard range.contains(number) else {
            throw SettingError("'\(key)' = \(value) is out of range (\(Int(range.lowerBound))...\(Int(range.upperBound)))")
        }
        return number
    }

    /// Milliseconds; 0 means never.
    private static func timeout(_ key: String, _ value: String) throws(SettingError) -> Milliseconds? {
        let ms = try integer(key, value, in: 0...Int(maxTimeout))
        return ms == 0 ? nil : Milliseconds(ms)
    }

    private static func boolean(_ key: String, _ value: String) throws(SettingError) -> Bool {
        switch value.lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default: throw SettingError("'\(key)' must be true or false, got '\(excerpt(value[...]))'")
        }
    }

    private static func anchor(_ key: String, _ value: String) throws(SettingError) -> ScreenAnchor {
        guard let anchor = ScreenAnchor(rawValue: value.lowercased()) else {
            let known = ScreenAnchor.allCases.map(\.rawValue).joined(separator: ", ")
            throw SettingError("'\(key)' must be one of \(known), got '\(excerpt(value[...]))'")
        }
        return anchor
    }

    /// One to four numbers, like CSS and mako: all; vertical,horizontal; top,horizontal,bottom;
    /// top,right,bottom,left. Commas or blanks between them.
    private static func margins(_ key: String, _ value: String) throws(SettingError) -> Margins {
        let parts = value.split { $0 == "," || $0 == " " || $0 == "\t" }
        var numbers: [Int] = []
        for part in parts {
            guard let number = Int(part) else {
                throw SettingError("'\(key)' must be 1 to 4 whole numbers, got '\(excerpt(value[...]))'")
            }
            guard (0...10_000).contains(number) else {
                throw SettingError("'\(key)' = \(number) is out of range (0...10000)")
            }
            numbers.append(number)
        }
        switch numbers.count {
        case 1: return Margins(all: numbers[0])
        case 2: return Margins(top: numbers[0], right: numbers[1], bottom: numbers[0], left: numbers[1])
        case 3: return Margins(top: numbers[0], right: numbers[1], bottom: numbers[2], left: numbers[1])
        case 4: return Margins(top: numbers[0], right: numbers[1], bottom: numbers[2], left: numbers[3])
        default: throw SettingError("'\(key)' must be 1 to 4 whole numbers, got '\(excerpt(value[...]))'")
        }
    }

    /// `#RRGGBB` or `#RRGGBBAA`.
    package static func colour(_ key: String, _ value: String) throws(SettingError) -> Color {
        let hex = value.utf8.dropFirst()
        guard value.hasPrefix("#"), hex.count == 6 || hex.count == 8,
              hex.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }),
              let number = UInt32(String(value.dropFirst()), radix: 16)
        else {
            throw SettingError("'\(key)' must be a colour #RRGGBB or #RRGGBBAA, got '\(excerpt(value[...]))'")
        }
        if hex.count == 6 { return Color(rgb: number) }
        return Color(rgb: number >> 8, alpha: Double(number & 0xff) / 255)
    }

    /// A Pango font description ("Sans 10", "Iosevka Term 11.5"): the body font; the summary is its
    /// bold, the caption (app name, time) 85 % of its size.
    package static func fontSet(_ key: String, _ value: String) throws(SettingError) -> (body: String, bold: String, small: String) {
        guard value.utf8.count <= 200 else { throw SettingError("'\(key)' is too long") }
        var words = value.split(separator: " ")
        if let last = words.last, let size = Double(last), size.isFinite {
            guard (4...200).contains(size) else {
                throw SettingError("'\(key)' size \(last) is out of range (4...200)")
            }
            words.removeLast()
            let family = words.joined(separator: " ")
            let prefix = family.isEmpty ? "" : family + " "
            let small = (size * 8.5).rounded() / 10
            return (value, "\(prefix)Bold \(last)", "\(prefix)\(small)")
        }
        return (value, value + " Bold", value)
    }

    // MARK: - Text

    private static func blankTrimmed(_ text: Substring) -> Substring {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }

    /// `"Sans 10"` → `Sans 10`: quotes are optional around any value.
    private static func unquoted(_ value: Substring) -> Substring {
        if value.count >= 2, value.first == "\"", value.last == "\"" { return value.dropFirst().dropLast() }
        return value
    }

    /// At most 60 characters of `text`, to quote in a message.
    private static func excerpt(_ text: Substring) -> String {
        text.count <= 60 ? String(text) : String(text.prefix(57)) + "..."
    }
}
