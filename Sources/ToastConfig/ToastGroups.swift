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
    /// What a notification's `group-by` fields hold. A flood (`Notification.isFlood`) is its own group
    /// (by app name), apart from what `group-by` groups.
    private struct Key: Hashable {
        var fields: [GroupField]
        var values: [String]
    }

    /// For each notification in a group of two or more: the group, newest first.
    private var groups: [NotificationID: [NotificationID]] = [:]

    /// No groups.
    package init() {}

    /// The visible ones of `all` (newest first) grouped; `fields` gives the `group-by` fields rules set
    /// for one (empty: it groups with none).
    ///
    /// Made at each scene while a flood lasts, over every open notification (thousands): each is read
    /// in place, not copied (a copy retains each of its strings and arrays), and a flood's key is its
    /// app name alone, not a key of arrays made per notification.
    package init(_ all: OpenNotifications, fields: (Notification) -> [GroupField], modes: [String]) {
        var floods: [String: [NotificationID]] = [:]
        var byKey: [Key: [NotificationID]] = [:]
        for i in all.indices where all[i].isVisible {
            if all[i].isFlood {
                floods[all[i].appName, default: []].append(all[i].id)
                continue
            }
            let notification = all[i]
            let groupBy = fields(notification)
            guard !groupBy.isEmpty else { continue }
            let subject = CriteriaSubject(notification, modes: modes)
            byKey[Key(fields: groupBy, values: groupBy.map { $0.value(in: subject) }), default: []].append(notification.id)
        }
        let grouped = floods.values.filter { $0.count > 1 } + byKey.values.filter { $0.count > 1 }
        groups.reserveCapacity(grouped.reduce(0) { $0 + $1.count })
        for members in grouped {
            for id in members { groups[id] = members }
        }
    }

    /// The groups of the visible ones of `all` as `rules` have them (each notification's merged
    /// `group-by`), and each app's flood.
    package init(_ all: OpenNotifications, rules: RuleSet, modes: [String]) {
        guard rules.groups else {
            self.init(all, fields: { _ in [] }, modes: modes)
            return
        }
        self.init(all, fields: { rules.look(of: $0, modes: modes)?.groupBy ?? [] }, modes: modes)
    }

    /// Whether notifications may be grouped at all: `group-by` is used, or an app floods.
    package static func apply(rules: RuleSet, model: ToastModel) -> Bool {
        rules.groups || model.notifications.hasFlood
    }

    /// Whether nothing is grouped.
    package var isEmpty: Bool { groups.isEmpty }

    /// The notifications drawn as one with `id`, newest first, `id` among them; `[id]` when alone.
    package func group(of id: NotificationID) -> [NotificationID] { groups[id] ?? [id] }

    /// The notifications drawn as one with `id`, newest first, `id` among them, when it is in a group;
    /// empty when it is alone (no array made for it).
    package func members(of id: NotificationID) -> [NotificationID] { groups[id] ?? [] }

    /// How many notifications the toast of `id` stands for (1 when alone).
    package func count(of id: NotificationID) -> Int { groups[id]?.count ?? 1 }

    /// Whether `id` is in a group but not its newest: not drawn.
    package func isCovered(_ id: NotificationID) -> Bool {
        guard let members = groups[id] else { return false }
        return members.first != id
    }
}
