import Glibc
import ToastCore
import ToastVocabulary

/// What a criteria section matches on: the fields of a notification, whether it is still a request
/// (rules deciding its behaviour) or already in the model (rules deciding its look).
package struct CriteriaSubject: Equatable, Sendable {
    package var appName: String
    package var appIcon: String
    package var summary: String
    package var body: String
    package var urgency: Urgency
    package var category: String?
    package var desktopEntry: String?
    /// It offers at least one action (the default one counts, as in mako).
    package var actionable: Bool
    /// The client did not ask it to stay until closed (timeout 0).
    package var expiring: Bool
    /// The modes on when it is matched (`toast mode`): not the notification's, the daemon's.
    package var modes: [String]
    /// It is the "+N more" pill, standing for the toasts not shown (mako's hidden placeholder), not
    /// a notification: only `[hidden]` sections match it.
    package var hidden = false
    /// Its place in the group it is drawn in (`group-by`): 0 for the toast drawn for a group of two
    /// or more (its newest, first in mako's order too), -1 when it is alone. A notification is
    /// grouped only as it is drawn: when it arrives (behaviour, placement), it is -1.
    package var groupIndex = -1

    /// The "+N more" pill.
    package static let morePill: CriteriaSubject = {
        var pill = CriteriaSubject()
        pill.hidden = true
        return pill
    }()

    package init(appName: String = "", appIcon: String = "", summary: String = "", body: String = "",
         urgency: Urgency = .normal, category: String? = nil, desktopEntry: String? = nil,
         actionable: Bool = false, expiring: Bool = true, modes: [String] = ModeNames.initial) {
        self.appName = appName; self.appIcon = appIcon; self.summary = summary; self.body = body
        self.urgency = urgency; self.category = category; self.desktopEntry = desktopEntry
        self.actionable = actionable; self.expiring = expiring; self.modes = modes
    }

    package init(_ request: NotificationRequest, modes: [String] = ModeNames.initial) {
        self.init(appName: request.appName, appIcon: request.appIcon, summary: request.summary, body: request.body,
                  urgency: request.urgency, category: request.category, desktopEntry: request.desktopEntry,
                  actionable: !request.actions.isEmpty, expiring: request.expireTimeout != .never, modes: modes)
    }

    package init(_ notification: Notification, modes: [String] = ModeNames.initial) {
        self.init(appName: notification.appName, appIcon: notification.appIcon, summary: notification.summary,
                  body: notification.body, urgency: notification.urgency, category: notification.category,
                  desktopEntry: notification.desktopEntry, actionable: !notification.actions.isEmpty,
                  expiring: notification.expireTimeout != .never, modes: modes)
    }
}

/// A POSIX extended regular expression, compiled once when the configuration is read and matched
/// without capturing (the same flags mako uses, so a pattern means the same in both).
package final class PosixRegex: Equatable, @unchecked Sendable {
    // @unchecked: the compiled pattern is never changed after init, and regexec takes it const.
    package let pattern: String
    private var compiled = regex_t()

    /// nil, with the library's message in `error`, when the pattern does not compile.
    package init?(_ pattern: String, error: inout String) {
        self.pattern = pattern
        let code = regcomp(&compiled, pattern, REG_EXTENDED | REG_NOSUB)
        guard code == 0 else {
            var buffer = [CChar](repeating: 0, count: 256)
            regerror(code, &compiled, &buffer, buffer.count)
            error = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            regfree(&compiled)
            return nil
        }
    }

    deinit { regfree(&compiled) }

    package func matches(_ text: String) -> Bool {
        regexec(&compiled, text, 0, nil, 0) == 0
    }

    package static func == (a: PosixRegex, b: PosixRegex) -> Bool { a.pattern == b.pattern }
}

/// The header of a criteria section in mako's syntax: `[app-name=Spotify urgency=low]`, every field
/// of which must match. Values may be quoted (`"Google Chrome"`) and a backslash takes the next
/// character as it is; `summary~` and `body~` are regular expressions; `actionable` and `expiring`
/// are booleans, bare (`[actionable]`), negated (`[!actionable]`) or with a value; `mode` is on when
/// that mode is (`toast mode`); `hidden` matches the "+N more" pill and nothing else (every other
/// section matches notifications only, as in mako, where each is implicitly `hidden=false`);
/// `grouped` (boolean) and `group-index` (a number) match a toast drawn for a group (`group-by`).
package struct Criteria: Equatable, Sendable {
    package var appName: String?
    package var appIcon: String?
    package var urgency: Urgency?
    package var category: String?
    package var desktopEntry: String?
    package var summary: String?
    package var summaryPattern: PosixRegex?
    package var body: String?
    package var bodyPattern: PosixRegex?
    package var actionable: Bool?
    package var expiring: Bool?
    package var mode: String?
    /// true: the "+N more" pill (only); nil or false: notifications.
    package var hidden: Bool?
    package var grouped: Bool?
    package var groupIndex: Int?

    /// No field: matches everything (`[global]`).
    package var isEmpty: Bool { self == Criteria() }

    /// The criteria of one field only, `urgency`: an `[urgency=...]` section as toastd always had them.
    package var isUrgencyOnly: Bool {
        var other = self
        other.urgency = nil
        return urgency != nil && other.isEmpty
    }

    package func matches(_ subject: CriteriaSubject) -> Bool {
        if (hidden ?? false) != subject.hidden { return false }
        if let grouped, grouped != (subject.groupIndex >= 0) { return false }
        if let groupIndex, groupIndex != subject.groupIndex { return false }
        if let appName, appName != subject.appName { return false }
        if let appIcon, appIcon != subject.appIcon { return false }
        if let urgency, urgency != subject.urgency { return false }
        // mako compares against an empty string when the hint is absent: `[category=]` matches none.
        if let category, category != (subject.category ?? "") { return false }
        if let desktopEntry, desktopEntry != (subject.desktopEntry ?? "") { return false }
        if let summary, summary != subject.summary { return false }
        if let summaryPattern, !summaryPattern.matches(subject.summary) { return false }
        if let body, body != subject.body { return false }
        if let bodyPattern, !bodyPattern.matches(subject.body) { return false }
        if let actionable, actionable != subject.actionable { return false }
        if let expiring, expiring != subject.expiring { return false }
        if let mode {
            guard subject.modes.contains(mode) else { return false }
            // Critical notifications break through do-not-disturb: a section for that mode concerns
            // them only when it says so (`[mode=do-not-disturb urgency=critical]`).
            if mode == ModeNames.doNotDisturb && urgency == nil && subject.urgency == .critical { return false }
        }
        return true
    }

    /// Fields toastd knows from mako but does not match on: a section naming one is skipped whole.
    package static let unsupportedFields: Set<String> = ["anchor", "output", "none"]
    package static let fields = ["app-name", "app-icon", "urgency", "category", "desktop-entry", "summary", "summary~",
                         "body", "body~", "actionable", "expiring", "mode", "hidden", "grouped", "group-index"]

    /// Whether it matches on groups (`grouped`, `group-index`): only a toast's look can follow, as
    /// notifications are grouped when they are drawn, not when they arrive.
    package var concernsGroups: Bool { grouped != nil || groupIndex != nil }

    /// Parses the text between the brackets of a section header. The error is a message for the
    /// `path:line:` diagnostic.
    package static func parse(_ text: String) -> Result<Criteria, CriteriaError> {
        var tokens: [String] = []
        var token = ""
        var quoted = false, escaped = false
        for character in text {
            if escaped {
                token.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if !quoted && (character == " " || character == "\t") {
                if !token.isEmpty { tokens.append(token) }
                token = ""
            } else {
                token.append(character)
            }
        }
        if quoted { return .failure(CriteriaError("unmatched quote")) }
        if escaped { return .failure(CriteriaError("trailing backslash")) }
        if !token.isEmpty { tokens.append(token) }

        var criteria = Criteria()
        for token in tokens {
            if let failure = criteria.apply(token) { return .failure(failure) }
        }
        // The pill is no notification: nothing else about it can match (mako refuses these too).
        var others = criteria
        others.hidden = nil
        if criteria.hidden == true && !others.isEmpty {
            return .failure(CriteriaError("'hidden' matches the \"+N more\" pill and takes no other criterion"))
        }
        return .success(criteria)
    }

    /// Sets the field `token` (`key=value`, `key`, `!key`) names; the error when it cannot.
    private mutating func apply(_ token: String) -> CriteriaError? {
        let key: String, value: String
        var bare = false
        if let equals = token.firstIndex(of: "=") {
            key = String(token[..<equals]).lowercased()
            value = String(token[token.index(after: equals)...])
        } else if token.hasPrefix("!") {
            key = String(token.dropFirst()).lowercased(); value = "false"; bare = true
        } else {
            key = token.lowercased(); value = "true"; bare = true
        }
        if bare && !["actionable", "expiring", "hidden", "grouped", "none"].contains(key) {
            return CriteriaError("criterion '\(key)' needs a value ('\(key)=...')")
        }
        switch key {
        case "app-name": appName = value
        case "app-icon": appIcon = value
        case "category": category = value
        case "desktop-entry": desktopEntry = value
        case "summary": summary = value
        case "body": body = value
        case "urgency":
            guard let level = Urgency(rawValue: value.lowercased()) else {
                return CriteriaError("urgency must be low, normal or critical, got '\(value)'")
            }
            urgency = level
        case "summary~", "body~":
            var message = ""
            guard let regex = PosixRegex(value, error: &message) else {
                return CriteriaError("bad regular expression for \(key) '\(value)': \(message)")
            }
            if key == "summary~" { summaryPattern = regex } else { bodyPattern = regex }
        case "group-index":
            guard let index = Int(value), index >= -1 else {
                return CriteriaError("group-index must be a number, -1 or more, got '\(value)'")
            }
            groupIndex = index
        case "actionable", "expiring", "hidden", "grouped":
            guard let flag = Self.boolean(value) else {
                return CriteriaError("\(key) must be true or false, got '\(value)'")
            }
            switch key {
            case "actionable": actionable = flag
            case "expiring": expiring = flag
            case "grouped": grouped = flag
            default: hidden = flag
            }
        case "mode":
            guard ModeNames.isValid(value) else {
                return CriteriaError("'\(value)' is not a mode name (no blanks, quotes, '=' or brackets)")
            }
            mode = value
        default:
            if Self.unsupportedFields.contains(key) {
                return CriteriaError("mako criterion '\(key)' is not supported")
            }
            return CriteriaError("unknown criterion '\(key)' (known: \(Self.fields.joined(separator: ", ")))")
        }
        return nil
    }

    /// mako's booleans: true/false (any case), 1/0.
    private static func boolean(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "true", "1": true
        case "false", "0": false
        default: nil
        }
    }
}

/// Why a section header could not be read.
package struct CriteriaError: Error, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
}
