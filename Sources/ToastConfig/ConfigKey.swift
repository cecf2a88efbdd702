import ToastVocabulary

/// One key of the configuration file: its name, and for each place it may be written (the global
/// part, a criteria section, an `[urgency=...]` section) the kind of value it takes there and what
/// that value changes. The table of them, `ConfigKeys.all`, is the only list of keys: the parser,
/// `--check-config`, `toast reload`'s warnings and the docs test all read it.
///
/// A new key is one entry in one of the `ConfigKeys+*.swift` files (by area), plus its row in
/// docs/configuration.md and its line in docs/man/toastd.5.scd (ConfigKeyTableTests checks both):
///
///     ConfigKey("padding", Values.wholeNumber(0...200),
///               global: .specific { $0.style.padding = $1 },   // nil: only rules have it
///               section: { $0.look.padding = $1 })             // omitted: global only
///
/// A new kind of value is one reader in `Values` (ConfigValues.swift) and one `ValueKind` case.
package struct ConfigKey: Sendable {
    package let name: String
    /// Written outside any section (or under `[global]`). nil: a behaviour only rules have; written
    /// globally, it goes into a rule matching every notification.
    package let global: GlobalUse?
    /// Written in a criteria section: what it sets in that section's rule. nil: global only.
    package let section: Use<Rule>?
    /// Written in an `[urgency=...]` section: the global value for that urgency (which also colours
    /// what has no notification, such as the HUD), besides the section's rule.
    package let perUrgency: UrgencyUse?

    package init(_ name: String, global: GlobalUse?, section: Use<Rule>? = nil, perUrgency: UrgencyUse? = nil) {
        self.name = name; self.global = global; self.section = section; self.perUrgency = perUrgency
    }

    /// A key whose value reads the same wherever it is written.
    package init<Value>(_ name: String, _ value: ConfigValue<Value>, global: GlobalSetter<Value>?,
                        section: (@Sendable (inout Rule, Value) -> Void)? = nil,
                        perUrgency: (@Sendable (inout DaemonConfig, Urgency, Value) -> Void)? = nil)
    {
        self.init(name, global: global.map { GlobalUse(value, rank: $0.rank, $0.set) },
                  section: section.map { Use(value, $0) },
                  perUrgency: perUrgency.map { UrgencyUse(value, $0) })
    }
}

/// Which global assignments win: broad ones (`default-timeout`, `border-color`) are applied first,
/// then specific ones (`critical-timeout`), then `[urgency=...]` sections, each group in file order.
package enum AssignmentRank: Int, Comparable, Sendable {
    case broad, specific, urgencySection
    package static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A key in one place: the kind of value it takes, and how a value changes `Target`.
package struct Use<Target>: Sendable {
    package let kind: ValueKind
    /// Reads `text` as `key`'s value and returns its change; throws the diagnostic of a bad value.
    package let read: @Sendable (_ key: String, _ text: String) throws(SettingError) -> @Sendable (inout Target) -> Void

    package init<Value>(_ value: ConfigValue<Value>, _ set: @escaping @Sendable (inout Target, Value) -> Void) {
        kind = value.kind
        read = { key, text throws(SettingError) in
            let parsed = try value.read(key, text)
            return { set(&$0, parsed) }
        }
    }
}

/// A key in the global part: a change of `DaemonConfig` with its rank.
package struct GlobalUse: Sendable {
    package let rank: AssignmentRank
    package let use: Use<DaemonConfig>
    package var kind: ValueKind { use.kind }

    package init<Value>(_ value: ConfigValue<Value>, rank: AssignmentRank,
                        _ set: @escaping @Sendable (inout DaemonConfig, Value) -> Void) {
        self.rank = rank
        use = Use(value, set)
    }
}

/// How a global value is set, and its rank: `.broad { $0.x = $1 }` or `.specific { ... }`.
package struct GlobalSetter<Value>: Sendable {
    package let rank: AssignmentRank
    package let set: @Sendable (inout DaemonConfig, Value) -> Void

    package static func broad(_ set: @escaping @Sendable (inout DaemonConfig, Value) -> Void) -> Self {
        Self(rank: .broad, set: set)
    }

    package static func specific(_ set: @escaping @Sendable (inout DaemonConfig, Value) -> Void) -> Self {
        Self(rank: .specific, set: set)
    }
}

/// A key of an `[urgency=...]` section that sets the global value of that urgency.
package struct UrgencyUse: Sendable {
    package let kind: ValueKind
    package let read: @Sendable (_ key: String, _ text: String, _ urgency: Urgency) throws(SettingError)
        -> @Sendable (inout DaemonConfig) -> Void

    package init<Value>(_ value: ConfigValue<Value>, _ set: @escaping @Sendable (inout DaemonConfig, Urgency, Value) -> Void) {
        kind = value.kind
        read = { key, text, urgency throws(SettingError) in
            let parsed = try value.read(key, text)
            return { set(&$0, urgency, parsed) }
        }
    }
}

/// The table of keys, in the order their lists are shown (the keys a section takes, in messages).
package enum ConfigKeys {
    package static let all: [ConfigKey] = timeouts + look + behaviour + content + placement

    /// The entries by name.
    package static let named: [String: ConfigKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// mako's spellings of toastd's keys, so that a mako file needs no edits.
    package static let aliases = ["background-color": "background", "max-history": "history"]
    /// mako's keys toastd does not do: named as such rather than as unknown.
    package static let makoKeys: Set<String> = [
        "height",
        "include", "on-touch", "outer-margin", "sort", "text-alignment",
    ]
}
