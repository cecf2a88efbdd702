import ToastCore
import ToastVocabulary

/// A field `group-by` compares (mako's names).
package enum GroupField: String, CaseIterable, Sendable {
    case appName = "app-name", appIcon = "app-icon", summary, body, urgency, category
    case desktopEntry = "desktop-entry", actionable, expiring

    /// The field's value in `subject`, as text to compare.
    package func value(in subject: CriteriaSubject) -> String {
        switch self {
        case .appName: subject.appName
        case .appIcon: subject.appIcon
        case .summary: subject.summary
        case .body: subject.body
        case .urgency: subject.urgency.rawValue
        case .category: subject.category ?? ""
        case .desktopEntry: subject.desktopEntry ?? ""
        case .actionable: subject.actionable ? "1" : "0"
        case .expiring: subject.expiring ? "1" : "0"
        }
    }

    /// Reads a `group-by` value: fields separated by commas, or `none` (no grouping, which a later
    /// section may use to undo an earlier one's). The error is a message for a diagnostic.
    package static func parseList(_ value: String) -> Result<[GroupField], FormatError> {
        var fields: [GroupField] = []
        for part in value.split(separator: ",") {
            let name = part.trimmingBlanks().lowercased()
            if name == "none" { continue }
            guard let field = GroupField(rawValue: name) else {
                if ["grouped", "group-index", "anchor", "output"].contains(name) {
                    return .failure(FormatError("mako group-by field '\(name)' is not supported"))
                }
                let known = allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(FormatError("unknown group-by field '\(name)' (known: \(known), none)"))
            }
            if !fields.contains(field) { fields.append(field) }
        }
        return .success(fields)
    }
}

/// Which open notifications share one toast (`group-by`): those whose rules group them by the same
/// fields, and whose values of those fields are equal. The newest of a group is drawn, with the
/// group's count; the others are not drawn but stay open, listed, and close on their own (timeout,
/// `toast dismiss ID`) with their own signal. Presentation only: the model never hears of groups.
/// Pure; made from the notifications in the order the model keeps them (newest first).
package struct ToastGroups: Equatable {
    private struct Key: Hashable {
        var fields: [GroupField]
        var values: [String]
    }

    /// For each notification in a group of two or more: the group, newest first.
    private var groups: [NotificationID: [NotificationID]] = [:]

    /// No groups.
    package init() {}

    /// `notifications` newest first; `fields` gives the `group-by` fields rules set for one (empty: it
    /// groups with none).
    package init(_ notifications: some Sequence<Notification>, fields: (Notification) -> [GroupField], modes: [String]) {
        var byKey: [Key: [NotificationID]] = [:]
        var keys: [Key] = []
        for notification in notifications {
            let groupBy = fields(notification)
            guard !groupBy.isEmpty else { continue }
            let subject = CriteriaSubject(notification, modes: modes)
            let key = Key(fields: groupBy, values: groupBy.map { $0.value(in: subject) })
            if byKey[key] == nil { keys.append(key) }
            byKey[key, default: []].append(notification.id)
        }
        for key in keys {
            guard let members = byKey[key], members.count > 1 else { continue }
            for id in members { groups[id] = members }
        }
    }

    /// The groups of `notifications` as `rules` have them (each notification's merged `group-by`).
    package init(_ notifications: some Sequence<Notification>, rules: RuleSet, modes: [String]) {
        guard rules.groups else {
            self.init()
            return
        }
        self.init(notifications, fields: { rules.look(of: $0, modes: modes)?.groupBy ?? [] }, modes: modes)
    }

    /// Whether nothing is grouped.
    package var isEmpty: Bool { groups.isEmpty }

    /// The notifications drawn as one with `id`, newest first, `id` among them; `[id]` when alone.
    package func group(of id: NotificationID) -> [NotificationID] { groups[id] ?? [id] }

    /// How many notifications the toast of `id` stands for (1 when alone).
    package func count(of id: NotificationID) -> Int { groups[id]?.count ?? 1 }

    /// Whether `id` is in a group but not its newest: not drawn.
    package func isCovered(_ id: NotificationID) -> Bool {
        guard let members = groups[id] else { return false }
        return members.first != id
    }
}
